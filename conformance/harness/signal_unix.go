//go:build unix

package harness

import "syscall"

// interrupt asks a server to shut down cleanly.
var interrupt = syscall.SIGTERM
