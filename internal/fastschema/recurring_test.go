package fastschema_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// recurringSchema has a _meta property checked by a subschema of its own,
// as every params schema of the stateless protocol has, beside another
// object property that the same bytes may appear in.
const recurringSchema = `{
	"type": "object",
	"required": ["_meta"],
	"properties": {
		"_meta": {"type": "object", "required": ["v"], "properties": {"v": {"const": "a"}, "n": {"type": "integer"}}},
		"other": {"type": "object", "properties": {"v": {"const": "b"}}},
		"list": {"type": "array", "items": {"type": "integer"}}
	}
}`

// recurring locates the value of the member name in the object text, as
// [start, end).
func recurring(text, name string) (int, int) {
	data := []byte(text)
	data = data[:len(data):len(data)]
	o, _ := jsonscan.NewObject(data)
	for k, v, ok := o.Next(); ok; k, v, ok = o.Next() {
		if string(k) == name {
			start := len(data) - cap(v) // v's capacity runs to data's end
			return start, start + len(v)
		}
	}
	return 0, 0
}

// ownCompile compiles doc with CompileJSON.
func ownCompile(t *testing.T, doc string) *fastschema.Validator {
	t.Helper()
	v, err := compileOwn(doc)
	require.NoError(t, err)
	return v
}

func TestARecurringValueIsCheckedAsCheckWellFormedChecksIt(t *testing.T) {
	v := ownCompile(t, recurringSchema)
	texts := []struct {
		text, name string
	}{
		{`{"_meta":{"v":"a","n":1},"other":{}}`, "_meta"},
		{`{"_meta":{"v":"a","n":1},"other":{}}`, "_meta"},
		{`{"other":{"v":"a","n":1},"_meta":{"v":"a","n":1}}`, "_meta"},
		{`{"other":{"v":"a","n":1},"_meta":{"v":"a","n":1}}`, "other"},
		{`{"_meta":{"v":"a","n":1.5}}`, "_meta"},
		{`{"_meta":{"v":"a","n":1},"list":[1]}`, "_meta"},
		{`{"_meta":{"v":"a","n":1},"other":{"v":"a","n":1}}`, "other"},
		{`{"_meta":{"v":"b","n":1}}`, "_meta"},
		{`{"_meta":{"v":"a","n":1}}`, "_meta"},
		{`{"_meta":{"v":"a","n":1} }`, "_meta"},
		{`{"list":[1,2],"_meta":{"v":"a"}}`, "list"},
		{`{"list":[1,2],"_meta":{"v":"a"}}`, "list"},
		{`{"list":[1,2,"x"],"_meta":{"v":"a"}}`, "list"},
		{`{"_meta":[1,2]}`, "_meta"},
		{`{"_meta":{"v":"a","n":1},"other":{"v":"b"}}`, "_meta"},
		{`{"_meta":{"v":"a","n":1},"other":{"v":"c"}}`, "_meta"},
	}
	for _, tc := range texts {
		data := []byte(tc.text)
		start, end := recurring(tc.text, tc.name)
		require.NotZero(t, end, tc.text)
		want := v.CheckWellFormed(data)
		assert.Equal(t, want, v.CheckWellFormedRecurring(data, start, end), "%s with %s recurring", tc.text, tc.name)
		assert.Equal(t, want, v.CheckWellFormedRecurring(data, start, start+1), "%s with a wrong extent", tc.text)
		assert.Equal(t, want, v.CheckWellFormedRecurring(data, 0, len(data)), "%s with the whole text recurring", tc.text)
	}
}

func TestARecurringValueIsRememberedOnlyWhenValid(t *testing.T) {
	v := ownCompile(t, recurringSchema)
	checkRecurring := func(text, name string) fastschema.Verdict {
		start, end := recurring(text, name)
		return v.CheckWellFormedRecurring([]byte(text), start, end)
	}
	assert.Equal(t, fastschema.Invalid, checkRecurring(`{"_meta":{"v":"b"}}`, "_meta"))
	assert.Nil(t, fastschema.Recalled(v), "an invalid value is not remembered")
	assert.Equal(t, fastschema.Valid, checkRecurring(`{"_meta":{"v":"a","n":1}}`, "_meta"))
	assert.Equal(t, `{"v":"a","n":1}`, string(fastschema.Recalled(v)))
	assert.Equal(t, fastschema.Valid, v.CheckWellFormedRecurring([]byte(`{"_meta":{"v":"a","n":2}}`), 9, 10))
	assert.Equal(t, `{"v":"a","n":1}`, string(fastschema.Recalled(v)), "a wrong extent remembers nothing new")
	assert.Equal(t, fastschema.Invalid, checkRecurring(`{"_meta":{"v":"a","n":1},"other":{"v":"a","n":1}}`, "other"),
		"the same bytes under another property's subschema are checked")
	assert.Equal(t, `{"v":"a","n":1}`, string(fastschema.Recalled(v)))
	assert.Equal(t, fastschema.Valid, checkRecurring(`{"_meta":{"v":"a","n":2}}`, "_meta"))
	assert.Equal(t, `{"v":"a","n":2}`, string(fastschema.Recalled(v)), "a changed value replaces the one remembered")
	big := `{"_meta":{"v":"a","x":"` + strings.Repeat("x", 1024) + `"}}`
	assert.Equal(t, fastschema.Valid, checkRecurring(big, "_meta"))
	assert.Equal(t, `{"v":"a","n":2}`, string(fastschema.Recalled(v)), "a value past 1 KiB is not remembered")
}

func TestARecurringValueIsRememberedSafelyFromManyChecks(t *testing.T) {
	v := ownCompile(t, recurringSchema)
	texts := []string{
		`{"_meta":{"v":"a","n":1}}`, `{"_meta":{"v":"a","n":2}}`, `{"_meta":{"v":"a","n":1.5}}`, `{"_meta":{"v":"b","n":1}}`,
	}
	want := make([]fastschema.Verdict, len(texts))
	for i, text := range texts {
		want[i] = v.CheckWellFormed([]byte(text))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 500 {
				i := (g + n) % len(texts)
				data := []byte(texts[i])
				start, end := recurring(texts[i], "_meta")
				if !assert.Equal(t, want[i], v.CheckWellFormedRecurring(data, start, end), texts[i]) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
