package rpc

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// remember makes raw the value a Recurring decode remembered last, as
// decodeRecurring does, and returns a function that restores what was
// there.
func remember(raw string) (restore func()) {
	before := lastRecalled.Load()
	lastRecalled.Store(&recalledStruct{raw: []byte(raw), depth: jsonscan.Depth([]byte(raw))})
	return func() { lastRecalled.Store(before) }
}

// parsed describes what the parser made of a frame.
func parsed(frame string, maxDepth int) string {
	items, batch, perr := decodeFrame([]byte(frame), maxDepth)
	out := fmt.Sprintf("batch %v, error %v;", batch, perr)
	for _, it := range items {
		req, members := it.req, ""
		if req != nil {
			if n, ok := req.IndexedParams(); ok {
				for i := range n {
					k, v := req.ParamsMember(i)
					members += fmt.Sprintf(" %s=%s", k, v)
				}
			} else {
				members = " (not listed)"
			}
			r := *req
			r.index = nil // an address; what it lists is printed instead
			req = &r
		}
		out += fmt.Sprintf(" req %+v members%s resp %+v invalid %v id %v dropped %v;", req, members, it.resp, it.invalid, it.id, it.dropped)
	}
	return out
}

func TestTheParserStepsOverARememberedValueAsItWouldCheckIt(t *testing.T) {
	const meta = `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
	frames := append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","_meta":` + meta + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta + `,"name":"add"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta + `,"_meta":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":{"b":{"_meta":` + meta + `}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta + `}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta + `}} {}`,
		`{"jsonrpc":"2.0","id":1,"result":{"_meta":` + meta + `}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":` + meta + `}},{"jsonrpc":"2.0","id":2,"method":"m"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":` + meta[:len(meta)-1] + `,"x":1}}}`,
	}, fastPathCases...)
	for _, maxDepth := range []int{3, 4, 5, 6, DefaultMaxDepth} {
		for _, frame := range frames {
			want := parsed(frame, maxDepth)
			restore := remember(meta)
			got := parsed(frame, maxDepth)
			restore()
			assert.Equal(t, want, got, "%s at depth %d", frame, maxDepth)
		}
	}
}
