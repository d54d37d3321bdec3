package mcp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

func TestTapTransportSeesEveryMessageInOrder(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	tap := &mcp.TapTransport{Transport: inProcess(greeter()), Tap: func(msg []byte, fromServer bool) {
		var m struct {
			Method string `json:"method"`
			Result any    `json:"result"`
		}
		require.NoError(t, json.Unmarshal(msg, &m))
		side := "client"
		if fromServer {
			side = "server"
		}
		label := m.Method
		if label == "" {
			label = "response"
		}
		mu.Lock()
		seen = append(seen, side+" "+label)
		mu.Unlock()
	}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{"2025-06-18"}})
	s, err := c.Connect(context.Background(), tap)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`)})
	require.NoError(t, err)

	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{
		"client initialize", "server response", "client notifications/initialized",
		"client tools/call", "server response",
	}, seen)
}

func TestTapTransportRefusesToDialWithoutATransportOrTap(t *testing.T) {
	for name, tt := range map[string]*mcp.TapTransport{
		"no transport": {Tap: func([]byte, bool) {}},
		"no tap":       {Transport: inProcess(greeter())},
	} {
		t.Run(name, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			_, err := c.Connect(context.Background(), tt)
			assert.ErrorContains(t, err, "TapTransport needs")
		})
	}
}
