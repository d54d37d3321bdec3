package main

import (
	"context"
	"errors"
	"net/http"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	promexporter "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// telemetry is the program's OpenTelemetry pipeline.
type telemetry struct {
	inst     *mcpotel.Instrumentation
	metrics  http.Handler // the Prometheus scrape endpoint
	shutdown func(context.Context) error
}

// otlpConfigured reports whether an OTLP endpoint is set in the
// environment (the exporters read the variables themselves).
func otlpConfigured(signal string) bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") != ""
}

// setupTelemetry builds the providers: a Prometheus reader always, OTLP
// over HTTP for traces and metrics when an endpoint is configured. It
// installs them and the W3C propagators globally, as an application does.
func setupTelemetry(ctx context.Context) (*telemetry, error) {
	reg := prometheus.NewRegistry()
	prom, err := promexporter.New(promexporter.WithRegisterer(reg))
	if err != nil {
		return nil, err
	}
	mopts := []sdkmetric.Option{sdkmetric.WithReader(prom)}
	var topts []sdktrace.TracerProviderOption
	if otlpConfigured("METRICS") {
		exp, err := otlpmetrichttp.New(ctx)
		if err != nil {
			return nil, err
		}
		mopts = append(mopts, sdkmetric.WithReader(sdkmetric.NewPeriodicReader(exp)))
	}
	if otlpConfigured("TRACES") {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, err
		}
		topts = append(topts, sdktrace.WithBatcher(exp))
	}
	mp := sdkmetric.NewMeterProvider(mopts...)
	tp := sdktrace.NewTracerProvider(topts...)
	otel.SetMeterProvider(mp)
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return &telemetry{
		inst:    mcpotel.New(), // the global providers and propagator
		metrics: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
		shutdown: func(ctx context.Context) error {
			return errors.Join(tp.Shutdown(ctx), mp.Shutdown(ctx))
		},
	}, nil
}
