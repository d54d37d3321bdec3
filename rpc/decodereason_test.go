package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// decodeTarget is a Go value a handler decodes params into.
type decodeTarget struct {
	A int      `json:"a"`
	B []string `json:"b"`
	C struct {
		N uint8 `json:"n"`
	} `json:"c"`
	D []byte `json:"d"`
}

// DecodeReason tells what went wrong in JSON's words, with where, and
// never names the decoder, its package or a Go type: the text reaches the
// peer.
func TestDecodeReasonSpeaksJSONNotGo(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     string
		// plain is what encoding/json's error becomes, when it has one;
		// plain127, when Go 1.27's encoding/json (built on the new
		// decoder) says it more exactly.
		plain, plain127 string
	}{
		{"wrong kind", `{"a":"x"}`, `a string where an integer is expected at "/a"`, `a string where an integer is expected at "/a"`, ""},
		{"fraction for an integer", `{"a":1.5}`, `a number where an integer is expected at "/a"`, `a number where an integer is expected at "/a"`, ""},
		{"in an array", `{"b":[1]}`, `a number where a string is expected at "/b/0"`, `a number where a string is expected at "/b"`, `a number where a string is expected at "/b/0"`},
		{"boolean for an integer", `{"a":true}`, `a boolean where an integer is expected at "/a"`, `a boolean where an integer is expected at "/a"`, ""},
		{"object for an array", `{"b":{}}`, `an object where an array is expected at "/b"`, `an object where an array is expected at "/b"`, ""},
		{"array for an object", `{"c":[]}`, `an array where an object is expected at "/c"`, `an array where an object is expected at "/c"`, ""},
		{"whole value", `[1]`, `an array where an object is expected`, `an array where an object is expected`, ""},
		{"out of range", `{"c":{"n":300}}`, `a number out of range at "/c/n"`, `a number where an integer is expected at "/c/n"`, ""},
		{"not base64", `{"d":"!!"}`, `a string where a base64 string is expected at "/d"`, "a string where a base64 string is expected", `a string where a base64 string is expected at "/d"`},
		{"duplicate name", `{"c":{"n":1,"n":2}}`, `duplicate member name "n" at "/c"`, "", ""},
		{"truncated", `{"a":`, `unexpected EOF at "/a"`, "not valid JSON at byte 5", ""},
		{"invalid UTF-8", "{\"b\":[\"\xff\"]}", `invalid UTF-8 at "/b/0"`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v decodeTarget
			err := rpc.DecodeJSON([]byte(tc.in), &v)
			require.Error(t, err)
			got := rpc.DecodeReason(err)
			assert.Equal(t, tc.want, got)
			assert.NotContains(t, got, "json")
			assert.NotContains(t, got, "Go ")
			if tc.plain != "" {
				want := []string{tc.plain}
				if tc.plain127 != "" {
					want = append(want, tc.plain127)
				}
				assert.Contains(t, want, rpc.DecodeReason(json.Unmarshal([]byte(tc.in), &v)))
			}
		})
	}
	t.Run("a long location is cut", func(t *testing.T) {
		var v map[string]map[string]int
		err := rpc.DecodeJSON([]byte(`{"`+strings.Repeat("k", 500)+`":{"x":"y"}}`), &v)
		require.Error(t, err)
		assert.Less(t, len(rpc.DecodeReason(err)), 200)
	})
	t.Run("an error of an UnmarshalJSON method is told as it is", func(t *testing.T) {
		var v refusingValue
		assert.Equal(t, "no thanks", rpc.DecodeReason(rpc.DecodeJSON([]byte(`{}`), &v)))
	})
	assert.Empty(t, rpc.DecodeReason(nil))
}

// refusingValue refuses every input.
type refusingValue struct{}

func (*refusingValue) UnmarshalJSON([]byte) error { return errors.New("no thanks") }

// Params that a method without a schema cannot decode get -32602 in JSON's
// words.
func TestParamsThatCannotBeDecodedAreRefusedInJSONsWords(t *testing.T) {
	r := rpc.NewRouter()
	r.Register("take", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var v decodeTarget
		if err := req.DecodeParams(&v); err != nil {
			return nil, err
		}
		return v.A, nil
	}})
	srv := httptest.NewServer(rpc.NewHTTPHandler(r))
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"take","params":{"a":"x"},"id":1}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params: cannot decode: a string where an integer is expected at \"/a\""}}`, string(b))
}
