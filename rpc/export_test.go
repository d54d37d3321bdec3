package rpc

import (
	"reflect"
	"runtime"
)

// LoopbackDefault exposes loopbackDefault.
var LoopbackDefault = loopbackDefault

// IdleWorkerFrame is the function on the stack of a worker waiting for a
// job: leak checks ignore the process's idle workers by it.
var IdleWorkerFrame = runtime.FuncForPC(reflect.ValueOf((*workers).awaitJob).Pointer()).Name()
