package fastschema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// mutationsPerInstance is how many mutants each valid instance yields.
const mutationsPerInstance = 24

// validPair is an instance its schema accepts.
type validPair struct {
	tg   *target
	data []byte
}

// validPairs lists every (location, example) pair the oracle accepts: the
// examples against their definitions and the envelopes, message params
// against their methods' params schemas.
func validPairs(t *testing.T) []validPair {
	exs := loadExamples(t)
	p := loadProject(t)
	var out []validPair
	try := func(loc string, data []byte) {
		tg := p.target(t, loc)
		if ok, _ := oracle(tg.sch, data); ok {
			out = append(out, validPair{tg, data})
		}
	}
	for _, ex := range exs {
		for _, l := range p.jsonrpc {
			try(l, ex.data)
		}
		for _, l := range p.defs[ex.def] {
			try(l, ex.data)
		}
		var msg message
		if json.Unmarshal(ex.data, &msg) != nil || msg.Method == "" || msg.Params == nil {
			continue
		}
		for _, v := range mcpVersions {
			if loc := p.methods[v][msg.Method][0]; loc != "" {
				try(loc, msg.Params)
			}
		}
	}
	return out
}

func TestMutatedMessagesAgreeWithOracle(t *testing.T) {
	pairs := validPairs(t)
	require.Greater(t, len(pairs), 100)
	rnd := rand.New(rand.NewPCG(8, 8))
	counts := map[fastschema.Verdict]int{}
	for _, pr := range pairs {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(pr.data))
		require.NoError(t, err)
		require.Equal(t, fastschema.Valid, agree(t, pr.tg.sch, pr.tg.fast, pr.data), "%s", pr.tg.url)
		for range mutationsPerInstance {
			mutant := mutate(rnd, deepCopy(doc))
			data := encode(rnd, mutant)
			v := agree(t, pr.tg.sch, pr.tg.fast, data)
			counts[v]++
		}
	}
	t.Logf("%d valid instances, mutant verdicts %v", len(pairs), counts)
	require.Positive(t, counts[fastschema.Invalid])
	require.Positive(t, counts[fastschema.Valid])
	// Every project schema is exact and the mutants are well formed.
	require.Zero(t, counts[fastschema.Unknown], "no well-formed mutant may be unknown")
}

// deepCopy copies a decoded value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// slot is a place holding a value: a member of an object or an element of
// an array (or the root).
type slot struct {
	obj map[string]any
	key string
	arr []any
	idx int
}

func (s slot) get(root any) any {
	switch {
	case s.obj != nil:
		return s.obj[s.key]
	case s.arr != nil:
		return s.arr[s.idx]
	}
	return root
}

// slots lists every place in v.
func slots(v any, out []slot) []slot {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, slot{obj: v, key: k})
			out = slots(v[k], out)
		}
	case []any:
		for i := range v {
			out = append(out, slot{arr: v, idx: i})
			out = slots(v[i], out)
		}
	}
	return out
}

// replacements are the values a mutation may put in place of another.
var replacements = []any{
	nil, true, false, json.Number("0"), json.Number("-1"), json.Number("1.5"), json.Number("2.0"),
	json.Number("1e400"), json.Number("-0"), "", "x", "text", "image", "2.0", "2026-07-28",
	map[string]any{}, []any{}, []any{"x"}, map[string]any{"type": "text", "text": "t"},
}

// mutate changes v in one random way, returning the new root.
func mutate(rnd *rand.Rand, v any) any {
	ss := slots(v, []slot{{}})
	s := ss[rnd.IntN(len(ss))]
	cur := s.get(v)
	set := func(nv any) any {
		switch {
		case s.obj != nil:
			s.obj[s.key] = nv
		case s.arr != nil:
			s.arr[s.idx] = nv
		default:
			return nv
		}
		return v
	}
	switch rnd.IntN(7) {
	case 0: // drop a member or an element's content
		if s.obj != nil {
			delete(s.obj, s.key)
			return v
		}
		return set(nil)
	case 1: // another type or value
		return set(deepCopy(replacements[rnd.IntN(len(replacements))]))
	case 2: // an extra member
		if m, ok := cur.(map[string]any); ok {
			m[[]string{"extra", "type", "_meta", "name", "text", "a"}[rnd.IntN(6)]] = deepCopy(replacements[rnd.IntN(len(replacements))])
			return v
		}
		return set(map[string]any{"extra": cur})
	case 3: // a string changed a little
		if str, ok := cur.(string); ok {
			if str == "" {
				return set("a")
			}
			b := []byte(str)
			b[rnd.IntN(len(b))] ^= 1
			if !utf8.Valid(b) {
				return set(str + "z")
			}
			return set(string(b))
		}
		return set("changed")
	case 4: // a number changed
		if n, ok := cur.(json.Number); ok {
			f, _ := strconv.ParseFloat(string(n), 64)
			integral := string(n)
			if !strings.ContainsAny(integral, ".eE") {
				integral += ".0"
			}
			return set(json.Number([]string{strconv.FormatFloat(-f, 'g', -1, 64), integral, string(n) + "e0", strconv.FormatFloat(f+0.5, 'g', -1, 64), strconv.FormatFloat(f*1000, 'g', -1, 64)}[rnd.IntN(5)]))
		}
		return set(json.Number("7"))
	case 5: // an element added or removed
		if a, ok := cur.([]any); ok {
			if len(a) > 0 && rnd.IntN(2) == 0 {
				return set(a[1:])
			}
			return set(append(a, deepCopy(replacements[rnd.IntN(len(replacements))])))
		}
		return set([]any{cur})
	default: // no change: the encoding alone varies
		return v
	}
}

// encode writes v as JSON with random whitespace, member order and string
// escapes, so the checker sees every spelling of the same value.
func encode(rnd *rand.Rand, v any) []byte {
	var b bytes.Buffer
	writeValue(rnd, &b, v)
	return b.Bytes()
}

func space(rnd *rand.Rand, b *bytes.Buffer) {
	if rnd.IntN(4) == 0 {
		b.WriteString([]string{" ", "\n", "\t ", "\r\n  "}[rnd.IntN(4)])
	}
}

func writeValue(rnd *rand.Rand, b *bytes.Buffer, v any) {
	space(rnd, b)
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		rnd.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			space(rnd, b)
			writeString(rnd, b, k)
			space(rnd, b)
			b.WriteByte(':')
			writeValue(rnd, b, v[k])
		}
		space(rnd, b)
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(rnd, b, e)
		}
		space(rnd, b)
		b.WriteByte(']')
	case string:
		writeString(rnd, b, v)
	case json.Number:
		b.WriteString(string(v))
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("unexpected %T", v))
	}
	space(rnd, b)
}

// writeString writes s quoted, escaping some characters that need no
// escape (one string in four).
func writeString(rnd *rand.Rand, b *bytes.Buffer, s string) {
	escapeSome := rnd.IntN(4) == 0
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || (escapeSome && rnd.IntN(3) == 0):
			if r > 0xFFFF {
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
