package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// BoundError cuts at a character boundary, leaves errors without an
// *rpc.Error alone, and replaces data that is not JSON, or that stays too
// long with its strings cut, by one marker string.
func TestBoundErrorCutsWhatItMust(t *testing.T) {
	long := strings.Repeat("a", 1023) + "é" + strings.Repeat("b", 100)
	cases := []struct {
		name     string
		in       error
		message  string
		data     string
		dataLike string
	}{
		{name: "not an rpc error", in: errors.New(long), message: long},
		{name: "cut before a split character", in: rpc.NewError(1, long), message: strings.Repeat("a", 1023) + "…[102 bytes cut]"},
		{name: "data not JSON", in: &rpc.Error{Code: 1, Message: "m", Data: json.RawMessage(strings.Repeat("x", 2000))}, message: "m", data: `"…[2000 bytes cut]"`},
		{name: "data of many short strings", in: &rpc.Error{Code: 1, Message: "m", Data: manyStrings(2000)}, message: "m", dataLike: "bytes cut]"},
		{name: "data strings and names cut", in: &rpc.Error{Code: 1, Message: "m", Data: mustMarshal(t, map[string]any{long: []any{long, 1}})}, message: "m",
			data: string(mustMarshal(t, map[string]any{strings.Repeat("a", 1023) + "…[102 bytes cut]": []any{strings.Repeat("a", 1023) + "…[102 bytes cut]", 1}}))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := rpc.BoundError(tc.in)
			assert.Equal(t, tc.message, messageOf(out))
			var rerr *rpc.Error
			if !errors.As(out, &rerr) {
				return
			}
			switch {
			case tc.data != "":
				assert.JSONEq(t, tc.data, string(rerr.Data))
			case tc.dataLike != "":
				assert.Contains(t, string(rerr.Data), tc.dataLike)
				assert.LessOrEqual(t, len(rerr.Data), 8<<10)
			}
		})
	}
}

// Bounding a bounded error changes nothing: the marker is not counted as
// input and cut again, whichever layer bounds first.
func TestBoundErrorTwiceIsBoundErrorOnce(t *testing.T) {
	long := strings.Repeat("é", 40<<10)
	in := rpc.NewError(1, long).WithData(map[string]any{"uri": long, "list": []string{long, "x"}})
	once := rpc.BoundError(in)
	twice := rpc.BoundError(once)
	assert.Equal(t, once, twice)
	assert.NotSame(t, in, once, "the input error is not changed in place")
	assert.Len(t, in.Message, 80<<10)
}

// An error within the bounds comes back as the very value given, its data
// bytes untouched even when the data is over a kilobyte, and nil stays
// nil.
func TestBoundErrorKeepsWhatIsWithinBounds(t *testing.T) {
	data := json.RawMessage(`{"z": 1,  "a": [` + strings.Repeat(`"kkkkkkkkkk", `, 200) + `"k"]}`)
	require.Greater(t, len(data), 2<<10)
	in := fmt.Errorf("wrapped: %w", &rpc.Error{Code: 7, Message: strings.Repeat("m", 1040), Data: data})
	assert.True(t, in == rpc.BoundError(in), "the wrapped error is returned as it is")
	assert.Nil(t, rpc.BoundError(nil))
	var none *rpc.Error
	assert.Equal(t, error(none), rpc.BoundError(none))
}

// Whatever error a server answers with, from its handler or from its own
// checks of the message, quotes at most about a kilobyte of each string
// the client sent, on every transport: a 64 KiB unknown member name
// (-32600), method name (-32601) or handler echo.
func TestErrorResponsesQuoteABoundedExcerptOfThePeersInput(t *testing.T) {
	huge := strings.Repeat("x", 64<<10)
	r := rpc.NewRouter()
	r.Register("echoerr", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.InvalidParams(string(req.Params)).WithData(map[string]string{"got": string(req.Params)})
	}})
	cases := []struct {
		name string
		raw  string
		code int
	}{
		{"unknown member name", `{"jsonrpc":"2.0","id":1,"method":"echoerr","` + huge + `":1}`, rpc.CodeInvalidRequest},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"` + huge + `"}`, rpc.CodeMethodNotFound},
		{"handler echo", `{"jsonrpc":"2.0","id":1,"method":"echoerr","params":{"a":"` + huge + `"}}`, rpc.CodeInvalidParams},
	}
	forEachTransport(t, r, func(t *testing.T, p peer) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				raw := p.call(t, tc.raw)
				assert.Less(t, len(raw), 12<<10, "the whole answer is bounded")
				rep := decodeReply(t, raw)
				require.NotNil(t, rep.Error)
				assert.Equal(t, tc.code, rep.Error.Code)
				assert.Equal(t, "1", string(rep.ID))
				assert.LessOrEqual(t, len(rep.Error.Message), 1024+40)
				assert.True(t, strings.HasSuffix(rep.Error.Message, "bytes cut]"), rep.Error.Message[:min(80, len(rep.Error.Message))])
			})
		}
	})
}

// EncodeError bounds too: a transport of our own that answers outside the
// engine keeps the same promise.
func TestEncodeErrorBoundsTheMessage(t *testing.T) {
	b := rpc.EncodeError(rpc.NullID(), rpc.MethodNotFound(strings.Repeat("y", 100<<10)))
	assert.Less(t, len(b), 2<<10)
	assert.Contains(t, string(b), "bytes cut]")
}

// messageOf is an error's wire message, or its text when it is no
// *rpc.Error.
func messageOf(err error) string {
	var rerr *rpc.Error
	if errors.As(err, &rerr) {
		return rerr.Message
	}
	return err.Error()
}

// manyStrings is a JSON array of n short strings.
func manyStrings(n int) json.RawMessage {
	items := make([]string, n)
	for i := range items {
		items[i] = "short"
	}
	b, _ := json.Marshal(items)
	return b
}
