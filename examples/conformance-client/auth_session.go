package main

import (
	"context"
	"net/http"

	"github.com/schemarpc/schemarpc/mcp"
)

// runToolsSession connects to env.URL with the MCP client over client
// (whose Transport authorizes), lists the tools and calls the first with
// no arguments: the MCP part every auth scenario needs.
func runToolsSession(ctx context.Context, env *scenarioEnv, client *http.Client) error {
	return withSession(ctx, env, nil, client, func(s *mcp.ClientSession) error {
		tools, err := listTools(ctx, s)
		if err != nil || len(tools) == 0 {
			return err
		}
		_, err = callTool(ctx, s, tools[0].Name, nil)
		return err
	})
}
