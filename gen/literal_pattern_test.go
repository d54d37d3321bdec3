package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOnlyAnchoredLiteralPatternsPinOneString(t *testing.T) {
	tests := []struct {
		pattern string
		want    string
		ok      bool
	}{
		{`^0x2$`, "0x2", true},
		{`^a\.b$`, "a.b", true},
		{`^$`, "", true},
		{`^0x[0-9]$`, "", false},
		{`0x2`, "", false},
		{`^0x2`, "", false},
		{`^a\d$`, "", false},
		{`^a+$`, "", false},
		{`^a|b$`, "", false},
		{`^a\$`, "", false},
	}
	for _, tt := range tests {
		got, ok := literalPattern(&node{kind: kindString, str: tt.pattern})
		assert.Equal(t, tt.ok, ok, tt.pattern)
		assert.Equal(t, tt.want, got, tt.pattern)
	}
}
