//go:build !linux

package main

import "syscall"

// childAttr has nothing to add where the parent's death cannot signal its children.
func childAttr() *syscall.SysProcAttr { return nil }
