package rpc

// LoopbackDefault exposes loopbackDefault.
var LoopbackDefault = loopbackDefault
