package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3"); otherwise
// it comes from the module's build information.
var version = ""

func init() {
	register(&command{
		name:    "version",
		summary: "print the version of rpcgen",
		run:     runVersion,
	})
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			fmt.Fprintln(stdout, "usage: rpcgen version\n\nPrints the version of rpcgen.")
			return exitOK
		}
		fmt.Fprintln(stderr, "usage: rpcgen version")
		return exitUsage
	}
	fmt.Fprintln(stdout, "rpcgen", buildVersion())
	return exitOK
}

func buildVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
