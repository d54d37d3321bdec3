package rpc_test

import (
	"context"
	"fmt"

	"github.com/schemarpc/schemarpc/rpc"
)

// The server and the client of the package overview, connected by an
// in-memory pipe instead of a process's stdin and stdout.
func Example() {
	router := rpc.NewRouter()
	router.Register("add", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var p struct {
			A float64 `json:"a"`
			B float64 `json:"b"`
		}
		if err := req.DecodeParams(&p); err != nil {
			return nil, err
		}
		return p.A + p.B, nil
	}})
	serverEnd, clientEnd := rpc.NewPipe()
	go rpc.Serve(context.Background(), serverEnd, router)

	conn := rpc.NewConn(clientEnd)
	defer conn.Close()
	var sum float64
	if err := conn.Call(context.Background(), "add", map[string]float64{"a": 40, "b": 2}, &sum); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum)
	// Output:
	// 42
}
