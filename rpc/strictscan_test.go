package rpc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// scanAccepts runs the scanner of the fast path over b as one JSON text.
func scanAccepts(b []byte, maxDepth int) bool { return jsonscan.Strict(b, maxDepth) }

var scanCases = []string{
	`{}`, `[]`, `{"a":1,"b":[true,false,null],"c":{"d":"e"}}`, ` [1, -0.5e+3, "x"] `,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\u0061":1,"b":2,"a":3}`, `{"é":1,"\u00e9":2}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k0":17}`,
	`{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k\u0030":16}`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"\uZZZZ"`, `"\u12"`, `"\x"`,
	"\"\xff\"", "\"a\x01\"", `"abc`, `01`, `1.`, `1e`, `-`, `.5`, `tru`, `nul`, `falsey`,
	`{"a" 1}`, `{"a":1,}`, `[1,]`, `[1 2]`, `{1:2}`, `{"a":1}}`, `[[[]]]`, `{"a":{"b":{"c":{}}}}`, ``, ` `,
}

func TestTheStrictScannerAcceptsExactlyWhatTheParserAccepts(t *testing.T) {
	for _, c := range scanCases {
		_, err := parse([]byte(c), DefaultMaxDepth)
		assert.Equal(t, err == nil, scanAccepts([]byte(c), DefaultMaxDepth), "%q", c)
	}
}

func TestTheStrictScannerHonoursTheNestingLimit(t *testing.T) {
	at := strings.Repeat("[", 5) + strings.Repeat("]", 5)
	past := strings.Repeat("[", 6) + strings.Repeat("]", 6)
	assert.True(t, scanAccepts([]byte(at), 5))
	assert.False(t, scanAccepts([]byte(past), 5))
	assert.False(t, scanAccepts([]byte(`{"a":{"b":{"c":{"d":{"e":{}}}}}}`), 5))
}

func TestScanningAMessageDoesNotAllocate(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"add","arguments":{"a":1.5,"b":-2},"_meta":{"progressToken":"p\u00e9"}}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if !scanAccepts(msg, DefaultMaxDepth) {
			t.Fatal("rejected")
		}
	})
	assert.Zero(t, allocs)
}

func FuzzScanAgreesWithParse(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := parse(b, 8)
		if got := scanAccepts(b, 8); got != (err == nil) {
			t.Fatalf("scanner accepts=%v, parser error=%v for %q", got, err, b)
		}
	})
}
