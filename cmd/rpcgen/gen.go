package main

import (
	"errors"
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"

	"github.com/schemarpc/schemarpc/gen"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate Go bindings from a schemarpc index",
		run:     runGen,
	})
}

const genHelp = `usage: rpcgen gen --input PATH --out DIR --package NAME

Reads the index document at PATH (and the documents it references), checks
it, and writes types_gen.go, methods_gen.go and schema_gen.go into DIR, which
is created if needed. Nothing is written unless every file renders.
docs/schema-format.md describes the index.

Flags:
`

func runGen(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	input := fs.String("input", "", "`PATH` of the index document")
	out := fs.String("out", "", "`DIR` to write the generated files into")
	pkg := fs.String("package", "", "`NAME` of the generated Go package")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), genHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return exitOK
		}
		return exitUsage // flag has printed the error and the usage
	}
	var problem string
	switch {
	case fs.NArg() > 0:
		problem = fmt.Sprintf("unexpected argument %q", fs.Arg(0))
	case *input == "":
		problem = "--input is required"
	case *out == "":
		problem = "--out is required"
	case *pkg == "":
		problem = "--package is required"
	case !token.IsIdentifier(*pkg) || token.IsKeyword(*pkg) || *pkg == "_":
		problem = fmt.Sprintf("--package %q is not a valid Go package name", *pkg)
	}
	if problem != "" {
		fmt.Fprintf(stderr, "rpcgen gen: %s\n\n", problem)
		fs.Usage()
		return exitUsage
	}
	files, err := gen.Generate(gen.Options{Input: *input, Package: *pkg})
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen gen: %v\n", err)
		return exitFail
	}
	if err := writeFiles(*out, files); err != nil {
		fmt.Fprintf(stderr, "rpcgen gen: %v\n", err)
		return exitFail
	}
	return exitOK
}

// writeFiles writes every file into dir. Each file is written to a temporary
// name first and renamed into place, so a reader never sees half a file.
func writeFiles(dir string, files []gen.File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		tmp, err := os.CreateTemp(dir, "."+f.Name+".*")
		if err != nil {
			return err
		}
		_, werr := tmp.Write(f.Content)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
			os.Remove(tmp.Name())
			return err
		}
		if err := os.Rename(tmp.Name(), filepath.Join(dir, f.Name)); err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	return nil
}
