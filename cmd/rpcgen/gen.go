package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schemarpc/schemarpc/gen"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate Go bindings from a schemarpc index, an MCP schema.json or an OpenRPC document",
		run:     runGen,
	})
}

const genHelp = `usage: rpcgen gen [--config FILE] [--input PATH --out DIR --package NAME] [--format FORMAT]

Reads the input document at PATH (and the documents it references), checks
it, and writes the generated files (types_gen.go, unions_gen.go,
methods_gen.go, schema_gen.go, …) into DIR, which is created if needed.
Nothing is written unless every file renders. The input is a schemarpc
index (docs/schema-format.md), a published MCP schema.json, an OpenRPC
document or a plain JSON Schema document (types only); the format is
detected unless --format names it. Unknown keywords are warnings on stderr. A config file
(docs/codegen.md) can name the input, output and package, and set renames,
type overrides and initialisms, and ask for documented aliases of the types
in another package (written into that package's directory); flags win over
it.

Flags:
`

func runGen(args []string, stdout, stderr io.Writer) int {
	opts, out, code, ok := parseTarget("gen", genHelp, args, stdout, stderr)
	if !ok {
		return code
	}
	opts.Warn = func(e *gen.Error) { fmt.Fprintf(stderr, "rpcgen gen: warning: %v\n", e) }
	files, err := gen.Generate(opts)
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen gen: %v\n", err)
		return exitFail
	}
	if err := writeFiles(out, files); err != nil {
		fmt.Fprintf(stderr, "rpcgen gen: %v\n", err)
		return exitFail
	}
	return exitOK
}

// writeFiles writes every file into dir, or into its own directory when it
// has one (gen.File.Dir). Each file is written to a temporary name first and
// renamed into place, so a reader never sees half a file.
func writeFiles(dir string, files []gen.File) error {
	for _, f := range files {
		path := f.Path(dir)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), "."+f.Name+".*")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(f.Content)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
			os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), path); err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
