package main

import "syscall"

// childAttr makes a replica get SIGTERM when the cluster dies without stopping it (a
// SIGKILL), so that no replica outlives it.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
