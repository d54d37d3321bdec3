package rpc_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/schemarpc/schemarpc/rpc"
)

// A router with one validated method, served over a newline-delimited
// stream: the way a stdio server runs.
func ExampleServe() {
	set := rpc.NewSchemaSet(map[string]string{"https://example.com/greet.json": `{
		"type": "object", "properties": {"name": {"type": "string", "minLength": 1}},
		"required": ["name"], "additionalProperties": false}`})
	router := rpc.NewRouter()
	router.Register("greet", rpc.Method{
		Params: set.Schema("https://example.com/greet.json"),
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			var p struct {
				Name string `json:"name"`
			}
			if err := req.DecodeParams(&p); err != nil {
				return nil, err
			}
			return "hello, " + p.Name, nil
		},
	})
	in := strings.NewReader(`{"jsonrpc":"2.0","method":"greet","params":{"name":"Ada"},"id":1}` + "\n" +
		`{"jsonrpc":"2.0","method":"greet","params":{"name":""},"id":2}` + "\n")
	var out strings.Builder
	_ = rpc.Serve(context.Background(), rpc.NewStreamTransport(in, &out), router, rpc.WithMaxInFlight(1))
	// With one handler at a time and instant handlers, replies keep the
	// order of the requests here; in general they go out as calls complete.
	fmt.Print(out.String())
	// Unordered output:
	// {"jsonrpc":"2.0","id":1,"result":"hello, Ada"}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid params: /name: has 0 characters, fewer than 1","data":{"errors":[{"instanceLocation":"/name","keywordLocation":"https://example.com/greet.json#/properties/name/minLength","message":"has 0 characters, fewer than 1"}],"truncated":false}}}
}

// A client and a server in one process, connected by an in-memory pipe.
// Either side can call the other; here the client calls the server.
func ExampleConn_Call() {
	router := rpc.NewRouter()
	router.Register("sum", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var ns []int
		if err := req.DecodeParams(&ns); err != nil {
			return nil, err
		}
		total := 0
		for _, n := range ns {
			total += n
		}
		return total, nil
	}})
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(router))
	defer server.Close()
	client := rpc.NewConn(a)
	defer client.Close()

	var total int
	if err := client.Call(context.Background(), "sum", []int{1, 2, 3}, &total); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(total)
	err := client.Call(context.Background(), "product", []int{1, 2, 3}, &total)
	fmt.Println(err)
	// Output:
	// 6
	// jsonrpc error -32601: method not found: "product"
}

// JSON-RPC over HTTP: the handler plugs into any mux; the client implements
// rpc.Caller, like a Conn.
func ExampleNewHTTPHandler() {
	router := rpc.NewRouter()
	router.Register("ping", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return "pong", nil
	}})
	srv := httptest.NewServer(rpc.NewHTTPHandler(router))
	defer srv.Close()

	var reply string
	err := rpc.NewHTTPClient(srv.URL, nil).Call(context.Background(), "ping", nil, &reply)
	fmt.Println(reply, err)
	// Output: pong <nil>
}
