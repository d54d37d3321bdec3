package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// callServer connects an instrumented client to url in each era and calls
// the tools a few times.
func callServer(ctx context.Context, url string, tel *telemetry) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	hc := &http.Client{Transport: tel.inst.HTTPTransport(nil)}
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		c := mcp.NewClient(&mcp.Implementation{Name: "telemetry-demo", Version: "1.0.0"},
			tel.inst.InstrumentClient(&mcp.ClientOptions{ProtocolVersions: []string{version}}))
		cs, err := c.Connect(ctx, &mcp.StreamableHTTPTransport{URL: url, HTTPClient: hc})
		if err != nil {
			return fmt.Errorf("connecting (%s): %w", version, err)
		}
		for n := range 3 {
			args, _ := json.Marshal(map[string]string{"text": fmt.Sprintf("hello %d", n)})
			if _, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "echo", Arguments: args}); err != nil {
				cs.Close()
				return err
			}
		}
		if _, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "broken"}); err != nil {
			cs.Close()
			return err
		}
		if err := cs.Close(); err != nil {
			return err
		}
	}
	return nil
}

// scrape copies the exposition of the Prometheus endpoint at url to out.
func scrape(ctx context.Context, url string, out io.Writer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("scraping %s: %s", url, resp.Status)
	}
	_, err = io.Copy(out, resp.Body)
	return err
}
