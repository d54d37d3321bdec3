// Command conformance-client is the MCP client the official conformance
// suite drives: the suite runs it as `conformance-client <server-url>` with
// the scenario to play in MCP_CONFORMANCE_SCENARIO, the protocol revision
// to speak in MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.0 line) and, for some
// scenarios, a JSON context in MCP_CONFORMANCE_CONTEXT. It exits 0 when the
// scenario's work is done, 1 when it failed or is unknown.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"time"
)

// scenarioEnv is what the suite tells the client about one run.
type scenarioEnv struct {
	// Name is the scenario (MCP_CONFORMANCE_SCENARIO).
	Name string
	// URL is the server URL, the first argument.
	URL string
	// Version is the protocol revision to speak
	// (MCP_CONFORMANCE_PROTOCOL_VERSION), "" when the suite does not say.
	Version string
	// Context is MCP_CONFORMANCE_CONTEXT, nil when unset.
	Context json.RawMessage
}

// scenarioFunc plays one scenario.
type scenarioFunc func(ctx context.Context, env *scenarioEnv) error

// scenarios lists every scenario the client plays, by name.
func scenarios() map[string]scenarioFunc {
	all := map[string]scenarioFunc{}
	for _, family := range []map[string]scenarioFunc{coreScenarios(), authScenarios()} {
		for name, f := range family {
			all[name] = f
		}
	}
	return all
}

func main() {
	os.Exit(run(os.Args[1:], os.Getenv, os.Stderr))
}

// run plays the scenario the environment names and returns the exit code;
// what went wrong goes to stderr.
func run(args []string, getenv func(string) string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: conformance-client SERVER-URL (scenario in MCP_CONFORMANCE_SCENARIO)")
		return 1
	}
	env := &scenarioEnv{
		Name:    getenv("MCP_CONFORMANCE_SCENARIO"),
		URL:     args[0],
		Version: getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"),
	}
	if c := getenv("MCP_CONFORMANCE_CONTEXT"); c != "" {
		if !json.Valid([]byte(c)) {
			fmt.Fprintln(stderr, "conformance-client: MCP_CONFORMANCE_CONTEXT is not JSON")
			return 1
		}
		env.Context = json.RawMessage(c)
	}
	all := scenarios()
	play, ok := all[env.Name]
	if !ok {
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "conformance-client: unknown scenario %q; known: %v\n", env.Name, names)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := play(ctx, env); err != nil {
		fmt.Fprintf(stderr, "conformance-client: %s: %v\n", env.Name, err)
		return 1
	}
	return 0
}
