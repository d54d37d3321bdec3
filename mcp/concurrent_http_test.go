package mcp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Concurrent calls of one client over Streamable HTTP each keep their own
// POST: a call whose message another call's goroutine happened to write
// must not have its response stream tied to that other call, which would
// leave it waiting for its deadline once the other call is done.
func TestConcurrentHTTPCallsEachGetTheirAnswer(t *testing.T) {
	for _, version := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(version, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			echoTool(t, s)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					select {
					case <-time.After(20 * time.Millisecond):
					case <-ctx.Done():
					}
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("slow")}}, nil
				}))
			f := newServerFixture(t, s, nil)
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{version}})
			cs, err := c.Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: f.ts.URL})
			require.NoError(t, err)
			defer cs.Close()
			var wg sync.WaitGroup
			errs := make(chan error, 200)
			for g := range 20 {
				wg.Go(func() {
					for n := range 6 {
						ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
						name, args := "echo", `{"text":"hi"}`
						if (g+n)%2 == 0 {
							name, args = "slow", `{}`
						}
						_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: json.RawMessage(args)})
						cancel()
						if err != nil {
							errs <- err
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				assert.NoError(t, err)
			}
		})
	}
}
