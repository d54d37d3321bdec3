package fastschema

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRatDecimalIsExactOrRefuses(t *testing.T) {
	for _, tc := range []struct {
		rat         string
		terminating bool
	}{
		{"0", true}, {"1", true}, {"-1.5", true}, {"0.01", true}, {"12345678901234567890.125", true},
		{"1/1048576", true}, {"1/78125", true}, {"3/1250000000", true}, {"1e-99999", true}, {"7e99999", true},
		{"1/3", false}, {"1/6", false}, {"1/15", false}, {"2/7", false},
		{"1e-100001", false}, {"1/" + new(big.Int).Lsh(big.NewInt(1), 100001).String(), false},
	} {
		t.Run(tc.rat, func(t *testing.T) {
			r, ok := new(big.Rat).SetString(tc.rat)
			require.True(t, ok)
			d, ok := ratDecimal(r)
			require.Equal(t, tc.terminating, ok)
			if !ok {
				return
			}
			sign := ""
			if d.neg {
				sign = "-"
			}
			back, ok := new(big.Rat).SetString(fmt.Sprintf("%s0.%se%d", sign, d.digits, d.exp))
			if d.isZero() {
				back, ok = new(big.Rat), true
			}
			require.True(t, ok)
			assert.Zero(t, back.Cmp(r), "%s came back as %s", tc.rat, back.RatString())
		})
	}
}
