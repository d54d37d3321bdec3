package mcpredis_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

// replicaServer is the server every replica runs: "echo" answers at
// once, "ask" asks the client for a name first (a server-to-client
// request whose answer may be POSTed to another replica), "poll" closes
// its SSE stream so that the client resumes it, perhaps elsewhere.
func replicaServer(t *testing.T) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "replica", Version: "1"}, nil)
	object := json.RawMessage(`{"type":"object"}`)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(s)}}
	}
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "echo", InputSchema: object},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(string(req.Params.Arguments)), nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask", InputSchema: object},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if who, ok := req.Elicited("who"); ok {
				name, _ := json.Marshal(who.Content["name"])
				return text(fmt.Sprint(who.Action, " ", string(name))), nil
			}
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
				"who": mcp.FormInput("Who?", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)),
			}}
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "poll", InputSchema: object},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if !mcp.CloseSSEStream(ctx) {
				return text("not closed"), nil
			}
			time.Sleep(50 * time.Millisecond)
			return text("polled"), nil
		}))
	return s
}

// startReplicas starts n replicas, each with its own Redis client and
// Store as separate processes would have, behind a round-robin balancer;
// it returns the balancer's URL and each replica's request count.
func startReplicas(t *testing.T, srv *redisServer, n int) (string, []*atomic.Int64) {
	prefix := newPrefix()
	handlers := make([]*mcp.StreamableHTTPHandler, n)
	served := make([]*atomic.Int64, n)
	for i := range n {
		c := redis.NewClient(&redis.Options{Addr: srv.addr})
		st := mcpredis.New(c, mcpredis.Options{Prefix: prefix})
		server := replicaServer(t)
		handlers[i] = mcp.NewStreamableHTTPHandler(server, &mcp.HTTPOptions{
			Sessions: st.Sessions(), Broker: st.Broker(), EventStore: st.Events(),
			RetryInterval: 10 * time.Millisecond,
		})
		served[i] = &atomic.Int64{}
		t.Cleanup(func() {
			server.CloseSubscriptions()
			_ = handlers[i].Close()
			_ = c.Close()
		})
	}
	var mu sync.Mutex
	next := 0
	lb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		i := next % n
		next++
		mu.Unlock()
		served[i].Add(1)
		handlers[i].ServeHTTP(w, r)
	}))
	t.Cleanup(lb.Close)
	return lb.URL, served
}

func toolText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.NotEmpty(t, res.Content)
	b, err := json.Marshal(res.Content[0])
	require.NoError(t, err)
	var c struct{ Text string }
	require.NoError(t, json.Unmarshal(b, &c))
	return c.Text
}

// A handshake session whose requests land on every replica in turn works
// end to end on Redis: calls, a question to the client answered at
// another replica, and a stream resumed at another replica.
func TestAHandshakeSessionWorksAcrossReplicasOnRedis(t *testing.T) {
	srv := startRedis(t)
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprint(n, " replicas"), func(t *testing.T) {
			url, served := startReplicas(t, srv, n)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
				ProtocolVersions: []string{mcp.Version20251125},
				Elicit: func(context.Context, *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
						"name": {Value: mcp.ElicitResultContentValueString("Ada")}}}, nil
				},
			}).Connect(ctx, &mcp.StreamableHTTPTransport{URL: url})
			require.NoError(t, err)
			defer s.Close()
			require.False(t, s.Stateless())

			for i := range 2 * n {
				res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))})
				require.NoError(t, err, "call %d", i)
				assert.Equal(t, fmt.Sprintf(`{"i":%d}`, i), toolText(t, res))
			}
			for range n {
				res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "ask"})
				require.NoError(t, err)
				assert.Equal(t, `accept "Ada"`, toolText(t, res))
			}
			res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "poll"})
			require.NoError(t, err)
			assert.Equal(t, "polled", toolText(t, res))
			for i := range n {
				assert.Positive(t, served[i].Load(), "replica %d served nothing", i)
			}
		})
	}
}
