package inspect_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// everything is examples/everything, built once per test binary.
var everything = &harness.BuildOnce{Pkg: harness.EverythingPackage}

// everythingBinary returns examples/everything built.
func everythingBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds examples/everything; skipped with -short")
	}
	path, err := everything.Path()
	require.NoError(t, err)
	return path
}

// quietEverything keeps examples/everything from sending what nobody asked
// for.
var quietEverything = []string{"-dynamic-after", "0", "-watch-interval", "0"}

// everythingStdio is examples/everything over stdio.
func everythingStdio(t *testing.T) mcp.ClientTransport {
	return &mcp.CommandTransport{Command: exec.Command(everythingBinary(t), quietEverything...)}
}

// everythingHTTP serves examples/everything over Streamable HTTP on a free
// port and returns a transport to it.
func everythingHTTP(t *testing.T) mcp.ClientTransport {
	t.Helper()
	bin := everythingBinary(t)
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	proc, err := harness.Start(ctx, bin, append([]string{"-http", addr}, quietEverything...)...)
	require.NoError(t, err)
	t.Cleanup(proc.Stop)
	url := "http://" + addr + "/mcp"
	waitCtx, waitCancel := context.WithTimeout(ctx, bound)
	defer waitCancel()
	require.NoError(t, harness.WaitHTTP(waitCtx, proc, url))
	return &mcp.StreamableHTTPTransport{URL: url}
}

// plantedPointer is where brokenServer's planted violation is: a log
// message whose level is no logging level.
const plantedPointer = "/params/level"

// greetingSchema is the output schema of brokenServer's tool, which its
// result breaks at /structuredContent/greeting.
const greetingSchema = `{"type":"object","properties":{"greeting":{"type":"string"}},"required":["greeting"]}`

// brokenServer is a 2025-06-18 server that answers the handshake, lists
// one tool whose result breaks its output schema, and, once initialized,
// sends flood valid log messages, then one that breaks the protocol's
// schema at plantedPointer.
func brokenServer(flood int) mcp.ClientTransport {
	srv, cli := rpc.NewPipe()
	go func() {
		ctx := context.Background()
		for {
			msg, err := srv.Read(ctx)
			if err != nil {
				return
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.Unmarshal(msg, &m)
			switch m.Method {
			case "initialize":
				srv.Write(ctx, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"broken","version":"0.0.1"}}}`))
			case "notifications/initialized":
				for i := range flood {
					srv.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"debug","data":"flood `+strconv.Itoa(i)+`"}}`))
				}
				srv.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":"planted"}}`))
			case "tools/list":
				srv.Write(ctx, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"tools":[{"name":"bad_greet","inputSchema":{"type":"object"},"outputSchema":`+greetingSchema+`}]}}`))
			case "tools/call":
				srv.Write(ctx, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":{"content":[{"type":"text","text":"5"}],"structuredContent":{"greeting":5}}}`))
			default:
				if m.ID != nil {
					srv.Write(ctx, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"error":{"code":-32601,"message":"no"}}`))
				}
			}
		}
	}()
	return &mcp.StreamTransport{Transport: cli}
}
