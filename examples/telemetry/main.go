// Command telemetry serves an MCP server over Streamable HTTP on
// 127.0.0.1 with OpenTelemetry tracing and metrics (package mcpotel):
// Prometheus metrics on /metrics, and traces and metrics over OTLP/HTTP
// when OTEL_EXPORTER_OTLP_ENDPOINT (or a signal's own endpoint variable)
// is set. Without an OTLP endpoint spans are not exported.
//
//	go run .                     # serve on 127.0.0.1:8080 (/mcp, /metrics)
//	go run . -addr 127.0.0.1:0   # any free port
//	go run . -demo               # call itself a few times, print /metrics, exit
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	demo := flag.Bool("demo", false, "run a client against the server a few times, print a scrape of /metrics and exit")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, *addr, *demo, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run starts the telemetry and the server; with demo it calls the server,
// writes a scrape of /metrics to out and returns, otherwise it serves
// until ctx is done.
func run(ctx context.Context, addr string, demo bool, out io.Writer) error {
	tel, err := setupTelemetry(ctx)
	if err != nil {
		return err
	}
	defer tel.shutdown(context.WithoutCancel(ctx))
	srv, err := serve(addr, tel)
	if err != nil {
		return err
	}
	defer srv.close()
	fmt.Fprintf(os.Stderr, "MCP on %s/mcp, metrics on %s/metrics\n", srv.url, srv.url)
	if !demo {
		<-ctx.Done()
		return nil
	}
	if err := callServer(ctx, srv.url+"/mcp", tel); err != nil {
		return err
	}
	return scrape(ctx, srv.url+"/metrics", out)
}
