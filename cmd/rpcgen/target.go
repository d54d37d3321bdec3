package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"

	"github.com/schemarpc/schemarpc/gen"
)

// target is what gen and check work on: an input, an output directory and
// a package, from flags and an optional config file. Flags win over the
// config file.
type target struct {
	config, input, out, pkg, format string
	clientParams                    string
}

// flags declares the target's flags on fs.
func (t *target) flags(fs *flag.FlagSet) {
	fs.StringVar(&t.config, "config", "", "`FILE` with input, out, package and naming options (rpcgen.json; see docs/codegen.md)")
	fs.StringVar(&t.input, "input", "", "`PATH` of the input document (a schemarpc index, an MCP schema.json or an OpenRPC document)")
	fs.StringVar(&t.out, "out", "", "`DIR` the generated files go to")
	fs.StringVar(&t.pkg, "package", "", "`NAME` of the generated Go package")
	fs.StringVar(&t.format, "format", "", "input `FORMAT`: schemarpc, mcp, openrpc or jsonschema (default: detected from the document)")
	fs.StringVar(&t.clientParams, "client-params", "", "how the client sends the params of a method that takes them either way: `by-name` (the default) or by-position (overrides the config's clientParams)")
}

// resolve reads the config file, if any, and merges it with the flags. A
// usage problem (a missing or malformed flag) comes back as usage; a config
// file that cannot be read or is wrong comes back as err.
func (t *target) resolve() (opts gen.Options, out string, usage string, err error) {
	var cfg *gen.Config
	if t.config != "" {
		if cfg, err = gen.LoadConfig(t.config); err != nil {
			return gen.Options{}, "", "", err
		}
	}
	opts = gen.Options{Input: t.input, Package: t.pkg, Config: cfg}
	out = t.out
	if cfg != nil {
		if opts.Input == "" {
			opts.Input = cfg.InputPath()
		}
		if out == "" {
			out = cfg.OutDir()
		}
		if opts.Package == "" {
			opts.Package = cfg.Package
		}
	}
	if t.format != "" {
		f, ferr := gen.ParseFormat(t.format)
		if ferr != nil {
			return gen.Options{}, "", "--format: " + ferr.Error(), nil
		}
		opts.Format = f
	}
	switch t.clientParams {
	case "":
	case gen.ClientParamsByName, gen.ClientParamsByPosition:
		opts.ClientParams = t.clientParams
	default:
		return gen.Options{}, "", fmt.Sprintf("--client-params %q: want %s or %s", t.clientParams, gen.ClientParamsByName, gen.ClientParamsByPosition), nil
	}
	switch {
	case opts.Input == "":
		usage = "--input is required (or a --config that names the input)"
	case out == "":
		usage = "--out is required (or a --config that names out)"
	case opts.Package == "":
		usage = "--package is required (or a --config that names the package)"
	case !token.IsIdentifier(opts.Package) || token.IsKeyword(opts.Package) || opts.Package == "_":
		usage = fmt.Sprintf("--package %q is not a valid Go package name", opts.Package)
	}
	return opts, out, usage, nil
}

// parseTarget parses the command line of gen or check (named name, with the
// help text help) into generator options and an output directory. When it
// returns ok false the command is over: the message or the help has been
// printed and code is the exit status.
func parseTarget(name, help string, args []string, stdout, stderr io.Writer) (opts gen.Options, out string, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var t target
	t.flags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), help)
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return opts, "", code, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rpcgen %s: unexpected argument %q\n\n", name, fs.Arg(0))
		fs.Usage()
		return opts, "", exitUsage, false
	}
	opts, out, problem, err := t.resolve()
	if err != nil {
		fmt.Fprintf(stderr, "rpcgen %s: %v\n", name, err)
		return opts, "", exitFail, false
	}
	if problem != "" {
		fmt.Fprintf(stderr, "rpcgen %s: %s\n\n", name, problem)
		fs.Usage()
		return opts, "", exitUsage, false
	}
	return opts, out, exitOK, true
}
