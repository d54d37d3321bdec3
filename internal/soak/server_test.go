package soak

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// The limits the soak server runs with: small enough that the oversized
// requests stay cheap, and a session timeout short enough that the
// sessions clients abandon expire while the test runs, yet long enough
// that a session in use does not expire between two of its requests when
// the machine is starved of CPU (at 2 s, with a load average of 8 on 2
// cores, a few did).
const (
	maxBody        = 64 << 10
	sessionTimeout = 5 * time.Second
)

// echoIn and echoOut are the arguments and output of the echo tool.
type echoIn struct {
	Text string `json:"text"`
}

type echoOut struct {
	Text string `json:"text"`
}

// newServer builds the server under test, logging to log (nil: nowhere): the kinds of registrations the
// conformance server has (a typed tool with structured output, a raw tool
// that fails, a slow tool that honours cancellation, a resource and a
// prompt), without its background timers.
func newServer(log *slog.Logger) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "soak", Version: "1"}, &mcp.ServerOptions{Logger: log})
	err := mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
			return nil, echoOut(in), nil
		})
	if err != nil {
		return nil, err
	}
	err = s.AddTool(&mcp.Tool{Name: "fail", Description: "Always fails with a tool error."},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("the tool failed on purpose")
		})
	if err != nil {
		return nil, err
	}
	err = s.AddTool(&mcp.Tool{Name: "slow", Description: "Waits for ms milliseconds or until cancelled.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":10000}},"required":["ms"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				MS int `json:"ms"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			t := time.NewTimer(time.Duration(in.MS) * time.Millisecond)
			defer t.Stop()
			select {
			case <-t.C:
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("slept")}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		})
	if err != nil {
		return nil, err
	}
	err = s.AddResource(&mcp.Resource{URI: "soak://static", Name: "static", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", "static text")}}, nil
		})
	if err != nil {
		return nil, err
	}
	return s, s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []mcp.PromptArgument{{Name: "who", Required: ptr(true)}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: mcp.Text(fmt.Sprintf("hello %s", req.Params.Arguments["who"]))}}}, nil
		})
}

func ptr[T any](v T) *T { return &v }
