package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schemarpc/schemarpc/internal/validate"
)

func init() {
	register(&command{
		name:    "validate",
		summary: "check JSON-RPC messages from files or stdin against a schema set",
		run:     runValidate,
	})
}

// stdin is where "rpcgen validate" reads when given no file or "-"; tests
// replace it.
var stdin io.Reader = os.Stdin

const validateHelp = `usage: rpcgen validate [--schema SET] [flags] [FILE ...]

Checks the JSON-RPC messages in each FILE (standard input when there is none,
or for "-") against the schema set SET, and reports every problem found.

SET is a built-in set (rpcgen validate --list-sets prints them) or the path of
any input "rpcgen gen" reads: a schemarpc index, a published MCP schema.json or
an OpenRPC document. The built-in sets are mcp (the default), which follows
each conversation's MCP version as a peer does: the version the initialize
handshake negotiates, the version each stateless (2026-07-28) request carries
in params._meta, and before either, every version a message can belong to;
mcp/<version>, one MCP version; and jsonrpc, the JSON-RPC envelopes alone.

A FILE holds one JSON document (an object is one message, an array a list of
messages), or JSON Lines (one message or batch per line; *.jsonl and *.ndjson
always are). In JSON Lines a line may be a transcript record,
{"from": "client"|"server", "message": ...}, as "rpcgen proxy --transcript"
writes; its "session" names the conversation it belongs to and its
"protocolVersion" the MCP-Protocol-Version header the message came with. A
FILE (each session of it) is one conversation: every response is matched
with the request it answers, by id and sender, and its result is checked
against that method's result schema. A response in a FILE holding no request
from the other side (a fixture) is checked against every result schema that
could fit, and is an "unmatched response" when none does.

Each finding names the file, the line (JSON Lines and arrays), the message's
index, a JSON pointer into the message, the JSON-RPC code a schemarpc server
would answer with (-32700 not JSON, -32600 not a valid message, -32601 unknown
method or wrong sender, -32602 invalid params, -32020 an MCP-Protocol-Version
header that disagrees with the body, -32022 an unknown MCP version; -32603
for a result that breaks its schema) and the reason.

Exit status: 0 every message is valid, 1 findings, 2 usage or input errors (a
file that cannot be read, a schema set that cannot be loaded).

Flags:
`

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	setName := fs.String("schema", validate.FollowSet, "the schema `SET`: a built-in set or a schema file")
	format := fs.String("format", "text", "output `FORMAT`: "+strings.Join(validate.Formats, ", "))
	from := fs.String("from", "", "the `SIDE` (client or server) that sent messages a transcript record does not attribute (default: inferred from each method's direction)")
	input := fs.String("input", "auto", "input `LAYOUT`: auto, jsonl, json (one document; an array is a list of messages) or message (the whole input is one message or batch)")
	maxSize := fs.Int("max-message-size", validate.DefaultMaxMessage, "the largest message read, in `BYTES`; a longer one is a -32700 finding")
	list := fs.Bool("list-sets", false, "print the built-in schema sets and exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), validateHelp)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if *list {
		for _, s := range validate.Builtins() {
			fmt.Fprintln(stdout, s)
		}
		return exitOK
	}
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "rpcgen validate: "+format+"\n", a...)
		return exitUsage
	}
	if *setName == "" {
		return usage("--schema is empty (built in: %s; or the path of a schema file)", strings.Join(validate.Builtins(), ", "))
	}
	sender := validate.Unknown
	if *from != "" {
		var ok bool
		if sender, ok = validate.ParseDirection(*from); !ok {
			return usage("--from %q: want client or server", *from)
		}
	}
	mode, err := validate.ParseInputMode(*input)
	if err != nil {
		return usage("--input: %v", err)
	}
	if *maxSize <= 0 {
		return usage("--max-message-size must be positive")
	}
	set, err := validate.Open(*setName)
	if err != nil {
		return usage("%v", err)
	}
	rep, err := validate.NewReporter(*format, stdout, validate.ToolInfo{Name: "rpcgen", Version: buildVersion(), URI: "https://github.com/schemarpc/schemarpc"})
	if err != nil {
		return usage("--format: %v", err)
	}
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	var sum validate.Summary
	inputErr := false
	for _, name := range files {
		if err := validateFile(name, set, sender, mode, *maxSize, rep, &sum); err != nil {
			var re reportError
			if errors.As(err, &re) {
				fmt.Fprintf(stderr, "rpcgen validate: writing the report: %v\n", re.error)
				return exitUsage
			}
			fmt.Fprintf(stderr, "rpcgen validate: %v\n", err)
			inputErr = true
		}
	}
	if err := rep.Close(sum); err != nil {
		fmt.Fprintf(stderr, "rpcgen validate: writing the report: %v\n", err)
		return exitUsage
	}
	switch {
	case inputErr:
		return exitUsage
	case sum.Findings > 0:
		return exitFail
	}
	return exitOK
}

// reportError marks an error of the report's writer, which ends the run.
type reportError struct{ error }

// validateFile checks the messages of one input as one conversation.
func validateFile(name string, set *validate.Set, sender validate.Direction, mode validate.InputMode, maxSize int, rep validate.Reporter, sum *validate.Summary) error {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	sum.Files++
	// Records that name a session (rpcgen proxy over HTTP) are separate
	// conversations; everything else in the file is one.
	conversations := set.NewConversations(1024)
	err := validate.Read(r, name, mode, maxSize, func(it validate.Item) error {
		sum.Messages++
		for _, f := range conversations.Checker(it.Session).CheckItem(it, sender) {
			sum.Findings++
			if err := rep.Finding(f); err != nil {
				return reportError{err}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
