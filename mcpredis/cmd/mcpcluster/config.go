package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schemarpc/schemarpc/examples/everything/app"
)

// config is what the command line says.
type config struct {
	app.Config
	replicas    int
	replica     string
	redisURL    string
	redisServer string
	prefix      string
	// forward are the everything flags given, as -name=value, for every replica.
	forward []string
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("mcpcluster", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.RegisterFlags(fs)
	fs.IntVar(&c.replicas, "replicas", 3, "how many replicas to start")
	fs.StringVar(&c.replica, "replica", "", "the everything-redis binary (default: everything-redis beside this one)")
	fs.StringVar(&c.redisURL, "redis", "", "a Redis to use, redis://host:port/db (default: start a redis-server of its own)")
	fs.StringVar(&c.redisServer, "redis-server", "redis-server", "the redis-server to start when -redis is not given")
	fs.StringVar(&c.prefix, "prefix", "everything:", "the prefix of the replicas' Redis keys and channels")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if c.HTTPAddr == "" {
		return c, errors.New("-http is required: the proxy serves Streamable HTTP at http://ADDR/mcp")
	}
	if c.replicas < 1 {
		return c, fmt.Errorf("-replicas %d: at least one", c.replicas)
	}
	everything := flag.NewFlagSet("", flag.ContinueOnError)
	(&app.Config{}).RegisterFlags(everything)
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "http" && everything.Lookup(f.Name) != nil {
			c.forward = append(c.forward, "-"+f.Name+"="+f.Value.String())
		}
	})
	if c.replica == "" {
		self, err := os.Executable()
		if err != nil {
			return c, fmt.Errorf("finding everything-redis beside this program: %w", err)
		}
		c.replica = filepath.Join(filepath.Dir(self), "everything-redis")
	}
	if _, err := os.Stat(c.replica); err != nil {
		return c, fmt.Errorf("the replica binary: %w (build it with go build ./cmd/everything-redis, or pass -replica)", err)
	}
	return c, nil
}
