// Command rpcgen generates Go bindings for schemarpc services.
//
// Usage:
//
//	rpcgen <command> [flags]
//
// Run "rpcgen help" for the list of commands, and "rpcgen help <command>"
// for one command's flags.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and failed
	exitUsage = 2 // the command line was wrong
)

// command is one subcommand. Each lives in its own file and adds itself to
// commands in an init function.
type command struct {
	name    string
	summary string // one line for "rpcgen help"
	// run executes the command with the arguments after its name and
	// returns the exit code.
	run func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process's exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rpcgen: unknown command %q\n\n", args[0])
		writeUsage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func runHelp(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		writeUsage(stdout)
		return exitOK
	case 1:
		c, ok := commands[args[0]]
		if !ok {
			fmt.Fprintf(stderr, "rpcgen help: unknown command %q\n", args[0])
			return exitUsage
		}
		// Commands print their own flag help when asked for it.
		return c.run([]string{"-h"}, stdout, stderr)
	}
	fmt.Fprintln(stderr, "usage: rpcgen help [command]")
	return exitUsage
}

func writeUsage(w io.Writer) {
	names := make([]string, 0, len(commands))
	width := len("help")
	for n := range commands {
		names = append(names, n)
		width = max(width, len(n))
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("rpcgen generates Go bindings for schemarpc services.\n\nUsage:\n\n\trpcgen <command> [flags]\n\nCommands:\n\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%-*s  %s\n", width, n, commands[n].summary)
	}
	fmt.Fprintf(&b, "\t%-*s  %s\n", width, "help", "show this help, or a command's flags")
	b.WriteString("\nRun \"rpcgen help <command>\" for a command's flags.\n")
	io.WriteString(w, b.String())
}

// parseFlags parses a command's flags with fs, whose Usage writes to
// fs.Output(). Asked for help (-h, -help, --help), it prints the usage once,
// to stdout, and returns exitOK; on a bad flag it prints flag's message and
// the usage to stderr and returns exitUsage. ok is true when the command
// should go on; fs then writes to stderr.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	// flag prints the usage itself, to fs.Output(), before it returns
	// flag.ErrHelp; collect it and send it to the one place it belongs.
	var printed bytes.Buffer
	fs.SetOutput(&printed)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		stdout.Write(printed.Bytes())
		return exitOK, false
	default:
		stderr.Write(printed.Bytes())
		return exitUsage, false
	}
}
