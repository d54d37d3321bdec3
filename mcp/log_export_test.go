package mcp

import (
	"context"
	"log/slog"
	"net/url"
)

// DialLoggedLinkForTest dials t with a logger and ClientOptions.LogParams
// as given.
func DialLoggedLinkForTest(ctx context.Context, t ClientTransport, logger *slog.Logger, logParams bool) (*HTTPLinkForTest, error) {
	env := &linkEnv{logger: logger, logParams: logParams}
	l, err := t.dial(ctx, env)
	if err != nil {
		return nil, err
	}
	return &HTTPLinkForTest{clientLink: l, env: env}, nil
}

// LogURLForTest exposes logURL.
func LogURLForTest(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	return logURL(u)
}
