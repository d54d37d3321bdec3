package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpecialFlagsTheFirstByteEndingAPlainRun(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	bytesOf := []byte{0, 0x1f, 0x20, 'a', '"', '\\', 0x7f, 0x80, 0xc3, 0xff, '!', '#', '[', ']', 0x21, 0x5b, 0x5d}
	// Every placement of two chosen bytes among plain filler.
	for _, a := range bytesOf {
		for _, b := range bytesOf {
			for pa := 0; pa < 8; pa++ {
				for pb := 0; pb < 8; pb++ {
					var w [8]byte
					for k := range w {
						w[k] = 'x'
					}
					w[pa], w[pb] = a, b
					want := 8
					for k, c := range w {
						if !plain(c) {
							want = k
							break
						}
					}
					m := special(binary.LittleEndian.Uint64(w[:]))
					got := 8
					if m != 0 {
						got = bits.TrailingZeros64(m) >> 3
					}
					require.Equal(t, want, got, "%q", w)
				}
			}
		}
	}
}

func TestEscapeEndAndHex4ReadOneEscape(t *testing.T) {
	assert.Equal(t, 6, escapeEnd([]byte(`\u0041`), 0, nil))
	assert.Equal(t, -1, escapeEnd([]byte(`\q`), 0, nil))
	r, ok := hex4([]byte(`00e9`), 0)
	assert.True(t, ok)
	assert.Equal(t, 'é', r)
}
