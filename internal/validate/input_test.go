package validate_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

func readAll(t *testing.T, name, in string, mode validate.InputMode, max int) []validate.Item {
	t.Helper()
	var out []validate.Item
	// One byte at a time, so that no layout decision depends on how the
	// input happens to be chunked.
	err := validate.Read(iotest.OneByteReader(strings.NewReader(in)), name, mode, max, func(it validate.Item) error {
		it.Bytes = append([]byte(nil), it.Bytes...)
		out = append(out, it)
		return nil
	})
	require.NoError(t, err)
	return out
}

func texts(items []validate.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, string(it.Bytes))
	}
	return out
}

func lines(items []validate.Item) []int {
	var out []int
	for _, it := range items {
		out = append(out, it.Line)
	}
	return out
}

func TestReadJSONLines(t *testing.T) {
	in := "\n{\"a\":1}\r\n\n  [{\"b\":2}]  \n{\"from\":\"server\",\"message\":{\"c\":3}}\n{\"d\":4}"
	items := readAll(t, "x.jsonl", in, validate.Auto, 0)
	assert.Equal(t, []string{`{"a":1}`, `[{"b":2}]`, `{"c":3}`, `{"d":4}`}, texts(items))
	assert.Equal(t, []int{2, 4, 5, 6}, lines(items))
	assert.Equal(t, validate.FromServer, items[2].From)
	for i, it := range items {
		assert.Equal(t, i+1, it.Index)
		assert.Equal(t, "x.jsonl", it.File)
	}
}

func TestReadDetectsJSONLinesWithoutTheExtension(t *testing.T) {
	items := readAll(t, "x.txt", "{\"a\":1}\n{\"b\":2}\n", validate.Auto, 0)
	assert.Equal(t, []string{`{"a":1}`, `{"b":2}`}, texts(items))
	items = readAll(t, "x.txt", "[{\"a\":1}]\n{\"b\":2}\n", validate.Auto, 0)
	assert.Equal(t, []string{`[{"a":1}]`, `{"b":2}`}, texts(items), "a first line that is a batch")
}

func TestReadOneDocument(t *testing.T) {
	items := readAll(t, "x.json", "\n\n{\n  \"a\": 1\n}\n", validate.Auto, 0)
	require.Len(t, items, 1)
	assert.Equal(t, "{\n  \"a\": 1\n}", string(items[0].Bytes))
	assert.Equal(t, 3, items[0].Line)
	items = readAll(t, "x.json", `{"a":1}`, validate.Auto, 0)
	assert.Equal(t, []string{`{"a":1}`}, texts(items))
}

func TestReadAnArrayIsAListOfMessages(t *testing.T) {
	in := "[\n  {\"a\": 1},\n  [{\"b\": 2}],\n\n  {\"c\":\n 3}\n]\n"
	items := readAll(t, "x.json", in, validate.Auto, 0)
	assert.Equal(t, []string{`{"a": 1}`, `[{"b": 2}]`, "{\"c\":\n 3}"}, texts(items))
	assert.Equal(t, []int{2, 3, 5}, lines(items))
}

func TestReadMessageModeKeepsABatchWhole(t *testing.T) {
	items := readAll(t, "x.json", `[{"a":1},{"b":2}]`, validate.Message, 0)
	assert.Equal(t, []string{`[{"a":1},{"b":2}]`}, texts(items))
	items = readAll(t, "x.jsonl", "[{\"a\":1}]\n", validate.JSONLines, 0)
	assert.Equal(t, []string{`[{"a":1}]`}, texts(items), "a one-line JSON Lines file of a batch")
}

func TestReadBrokenInput(t *testing.T) {
	items := readAll(t, "x.json", "[\n{\"a\":1},\n{\"b\" 2}\n]", validate.Auto, 0)
	require.Len(t, items, 2)
	assert.Equal(t, `{"a":1}`, string(items[0].Bytes))
	assert.Contains(t, items[1].Broken, "not JSON")
	assert.Equal(t, 3, items[1].Line)

	items = readAll(t, "x.json", "[{\"a\":1}] {", validate.Document, 0)
	require.Len(t, items, 2)
	assert.Contains(t, items[1].Broken, "more after the top-level array")

	items = readAll(t, "x.jsonl", "{\"from\":\"proxy\",\"message\":{}}\n", validate.Auto, 0)
	require.Len(t, items, 1)
	assert.Contains(t, items[0].Broken, `whose from is "proxy"`)

	items = readAll(t, "x.jsonl", "not json\n{\"a\":1}\n", validate.Auto, 0)
	assert.Equal(t, []string{"not json", `{"a":1}`}, texts(items), "the checker reports the bad line; reading goes on")
}

func TestReadSkipsALineTooLong(t *testing.T) {
	long := "{\"a\":\"" + strings.Repeat("x", 100) + "\"}"
	items := readAll(t, "x.jsonl", "{\"a\":1}\n"+long+"\n{\"b\":2}\n", validate.JSONLines, 50)
	require.Len(t, items, 3)
	assert.Contains(t, items[1].Broken, "longer than 50 bytes")
	assert.Empty(t, items[1].Bytes)
	assert.Equal(t, []int{1, 2, 3}, lines(items))
	items = readAll(t, "x.json", long, validate.Document, 50)
	require.Len(t, items, 1)
	assert.Contains(t, items[0].Broken, "longer than 50 bytes")
}

func TestReadRecordsThatAreNotRecords(t *testing.T) {
	// A message that happens to have a "message" member stays a message.
	items := readAll(t, "x.jsonl", "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"message\":1}}\n", validate.Auto, 0)
	assert.Equal(t, validate.Unknown, items[0].From)
	assert.Contains(t, string(items[0].Bytes), `"jsonrpc"`)
}

func TestReadEmptyInput(t *testing.T) {
	for _, in := range []string{"", "\n\n  \n"} {
		for _, mode := range []validate.InputMode{validate.Auto, validate.JSONLines, validate.Document, validate.Message} {
			assert.Empty(t, readAll(t, "x", in, mode, 0), "%q mode %d", in, mode)
		}
	}
}

func TestReadStopsAtTheCallbacksError(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := validate.Read(strings.NewReader("{}\n{}\n{}\n"), "x", validate.Auto, 0, func(validate.Item) error {
		n++
		return stop
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 1, n)
}

func TestReadReturnsReadErrors(t *testing.T) {
	boom := errors.New("disk on fire")
	err := validate.Read(iotest.ErrReader(boom), "x.jsonl", validate.JSONLines, 0, func(validate.Item) error { return nil })
	assert.ErrorIs(t, err, boom)
	err = validate.Read(iotest.ErrReader(boom), "x.json", validate.Document, 0, func(validate.Item) error { return nil })
	assert.ErrorIs(t, err, boom)
	err = validate.Read(iotest.ErrReader(boom), "x", validate.Auto, 0, func(validate.Item) error { return nil })
	assert.ErrorIs(t, err, boom)
	err = validate.Read(io.MultiReader(strings.NewReader("[{}, "), iotest.ErrReader(boom)), "x.json", validate.Document, 0, func(validate.Item) error { return nil })
	assert.ErrorIs(t, err, boom, "an error in the middle of an array")
	err = validate.Read(io.MultiReader(strings.NewReader("{}\n{"), iotest.ErrReader(boom)), "x.jsonl", validate.JSONLines, 0, func(validate.Item) error { return nil })
	assert.ErrorIs(t, err, boom, "an error in the middle of a line")
}

func TestParseInputMode(t *testing.T) {
	for s, m := range map[string]validate.InputMode{"auto": validate.Auto, "jsonl": validate.JSONLines, "json": validate.Document, "message": validate.Message} {
		got, err := validate.ParseInputMode(s)
		require.NoError(t, err)
		assert.Equal(t, m, got)
	}
	_, err := validate.ParseInputMode("xml")
	assert.ErrorContains(t, err, "unknown input mode")
}
