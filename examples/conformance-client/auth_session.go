package main

import (
	"context"
	"net/http"
)

// runToolsSession connects to env.URL with the MCP client over client
// (whose Transport authorizes), lists the tools and calls the first with
// no arguments: the MCP part every auth scenario needs.
func runToolsSession(ctx context.Context, env *scenarioEnv, client *http.Client) error {
	s, err := connect(ctx, env, nil, client)
	if err != nil {
		return err
	}
	return closeSession(s, func() error {
		tools, err := listTools(ctx, s)
		if err != nil || len(tools) == 0 {
			return err
		}
		_, err = callTool(ctx, s, tools[0].Name, nil)
		return err
	}())
}
