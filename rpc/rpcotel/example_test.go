package rpcotel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/rpc/rpcotel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Trace a Router served over HTTP and an HTTPClient calling it: the trace
// context travels in the traceparent header.
func ExampleInstrumentation_Caller() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	inst := rpcotel.New(rpcotel.WithTracerProvider(tp), rpcotel.WithPropagators(propagation.TraceContext{}))

	router := rpc.NewRouter()
	router.Use(inst.ServerMiddleware())
	router.Register("add", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return 3, nil }})
	ts := httptest.NewServer(rpc.NewHTTPHandler(router))
	defer ts.Close()

	client := inst.Caller(rpc.NewHTTPClient(ts.URL, &http.Client{Transport: inst.HTTPTransport(nil)}))
	var sum int
	if err := client.Call(context.Background(), "add", []int{1, 2}, &sum); err != nil {
		fmt.Println(err)
		return
	}
	ended := spans.Ended()
	server, caller := ended[0], ended[1]
	fmt.Println(sum, server.SpanKind(), caller.SpanKind(), server.Parent().SpanID() == caller.SpanContext().SpanID())
	// Output:
	// 3 server client true
}
