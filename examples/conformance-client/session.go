package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/schemarpc/schemarpc/mcp"
)

// clientInfo is how the client introduces itself.
var clientInfo = &mcp.Implementation{Name: "schemarpc-conformance-client", Version: "0.6.0"}

// protocolVersions returns the versions the client offers for the revision the suite asks
// for: none named (the 0.1.16 suite) means every handshake version, newest first; a
// handshake version means that one and the older ones; 2026-07-28 means only the
// stateless protocol.
func protocolVersions(requested string) ([]string, error) {
	handshake := mcp.SupportedVersions()
	switch {
	case requested == "":
		return handshake, nil
	case slices.Contains(mcp.StatelessVersions(), requested):
		return []string{requested}, nil
	case slices.Contains(handshake, requested):
		return handshake[slices.Index(handshake, requested):], nil
	default:
		return nil, fmt.Errorf("MCP_CONFORMANCE_PROTOCOL_VERSION %q is no version this client speaks", requested)
	}
}

// connect opens a session to the scenario's server over Streamable HTTP with the versions
// env asks for. opts may be nil; its ProtocolVersions and Logger are set here. hc nil
// means the default HTTP client.
func connect(ctx context.Context, env *scenarioEnv, opts *mcp.ClientOptions, hc *http.Client) (*mcp.ClientSession, error) {
	versions, err := protocolVersions(env.Version)
	if err != nil {
		return nil, err
	}
	o := mcp.ClientOptions{}
	if opts != nil {
		o = *opts
	}
	o.ProtocolVersions = versions
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	client := mcp.NewClient(clientInfo, &o)
	session, err := client.Connect(ctx, &mcp.StreamableHTTPTransport{URL: env.URL, HTTPClient: hc})
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", env.URL, err)
	}
	return session, nil
}

// listTools returns every tool of every page.
func listTools(ctx context.Context, s *mcp.ClientSession) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for tool, err := range s.Tools(ctx) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// findTool returns the tool called name.
func findTool(tools []*mcp.Tool, name string) (*mcp.Tool, error) {
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return nil, fmt.Errorf("the server lists no tool %q (it lists %v)", name, names)
}

// callTool calls name with arguments (a JSON object, or nil for none) and returns the
// text of the result; a result with isError set is an error.
func callTool(ctx context.Context, s *mcp.ClientSession, name string, arguments json.RawMessage) (string, error) {
	res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: arguments})
	if err != nil {
		return "", fmt.Errorf("tools/call %s: %w", name, err)
	}
	text := resultText(res)
	if res.IsError != nil && *res.IsError {
		return text, fmt.Errorf("tools/call %s: the tool failed: %s", name, text)
	}
	return text, nil
}

// resultText joins the text blocks of a tool result.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, block := range res.Content {
		switch c := block.Value.(type) {
		case mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// expectText fails unless got contains want.
func expectText(what, got, want string) error {
	if !strings.Contains(got, want) {
		return fmt.Errorf("%s answered %q, want it to contain %q", what, got, want)
	}
	return nil
}

// withSession connects as connect does (over hc, nil for the default HTTP client), plays on the
// session and closes it; the error is play's.
func withSession(ctx context.Context, env *scenarioEnv, opts *mcp.ClientOptions, hc *http.Client, play func(*mcp.ClientSession) error) error {
	s, err := connect(ctx, env, opts, hc)
	if err != nil {
		return err
	}
	return closeSession(s, play(s))
}

// closeSession closes s and returns err. A failure to close is only logged: the suite's
// mock servers may stop answering once the scenario's checks are recorded.
func closeSession(s *mcp.ClientSession, err error) error {
	if cerr := s.Close(); cerr != nil {
		fmt.Fprintf(os.Stderr, "conformance-client: closing the session: %v\n", cerr)
	}
	return err
}
