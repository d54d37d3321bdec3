package rpc

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixed is an appender that writes the text it holds, or fails.
type fixed struct {
	text string
	err  error
}

func (f fixed) AppendJSON(b []byte) ([]byte, error) {
	if f.err != nil {
		return nil, f.err
	}
	return append(b, f.text...), nil
}

func TestEncodeResponseLetsAnAppenderWriteTheResult(t *testing.T) {
	id := ID{raw: `7`}
	cases := []struct {
		name   string
		result any
		want   string
	}{
		{"an appender", fixed{text: `{"a":"<b>"}`}, `{"jsonrpc":"2.0","id":7,"result":{"a":"<b>"}}`},
		{"a nil pointer to an appender", (*fixed)(nil), `{"jsonrpc":"2.0","id":7,"result":null}`},
		{"raw JSON, compacted", json.RawMessage(" {\"a\" :\t1} "), `{"jsonrpc":"2.0","id":7,"result":{"a":1}}`},
		{"empty raw JSON", json.RawMessage(nil), `{"jsonrpc":"2.0","id":7,"result":null}`},
		{"another value, not HTML-escaped", map[string]string{"a": "<&>"}, `{"jsonrpc":"2.0","id":7,"result":{"a":"<&>"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := encodeResponse(id, tc.result, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(b))
		})
	}
}

func TestEncodeResponseFailsWhenTheResultCannotBeEncoded(t *testing.T) {
	cause := errors.New("cannot write")
	for name, result := range map[string]any{
		"a failing appender":            fixed{err: cause},
		"raw JSON that is not":          json.RawMessage(`{"a":`),
		"a value encoding/json refuses": make(chan int),
	} {
		t.Run(name, func(t *testing.T) {
			b, err := encodeResponse(ID{raw: `1`}, result, nil)
			assert.Error(t, err)
			assert.Nil(t, b)
		})
	}
	_, err := encodeResponse(ID{raw: `1`}, fixed{err: cause}, nil)
	assert.ErrorIs(t, err, cause, "the appender's error comes back as it is")
}

func TestEncodeRequestChecksWhatTheParamsWrite(t *testing.T) {
	b, err := encodeRequest(ID{raw: `"x"`}, "m<&>", fixed{text: `{"a":1}`})
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"x","method":"m<&>","params":{"a":1}}`, string(b))

	b, err = encodeRequest(ID{}, "note", fixed{text: `null`})
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","method":"note"}`, string(b), "params that encode as null are left out")

	_, err = encodeRequest(ID{raw: `1`}, "m", fixed{text: `3`})
	assert.ErrorContains(t, err, "must encode as a JSON object or array")

	_, err = encodeRequest(ID{raw: `1`}, "m", fixed{err: errors.New("no")})
	assert.Error(t, err)
}
