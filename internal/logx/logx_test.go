package logx_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/logx"
)

func TestCutKeepsShortTextAndCutsLongText(t *testing.T) {
	long := strings.Repeat("a", logx.MaxExcerpt+10)
	multi := strings.Repeat("a", logx.MaxExcerpt-1) + "é" + "tail" // é straddles the cut
	tests := []struct {
		name, in  string
		wantStart string
		wantNote  bool
		maxPrefix int
	}{
		{name: "empty", in: ""},
		{name: "short", in: `{"a":1}`, wantStart: `{"a":1}`},
		{name: "exactly the bound", in: long[:logx.MaxExcerpt], wantStart: long[:logx.MaxExcerpt]},
		{name: "longer", in: long, wantStart: long[:logx.MaxExcerpt], wantNote: true},
		{name: "cut inside a rune", in: multi, wantStart: multi[:logx.MaxExcerpt-1], wantNote: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := logx.Cut([]byte(tt.in))
			if !tt.wantNote {
				assert.Equal(t, tt.in, got)
				return
			}
			assert.True(t, strings.HasPrefix(got, tt.wantStart))
			assert.Contains(t, got, "truncated")
			assert.Contains(t, got, "bytes in all")
			assert.NotContains(t, got, "tail")
			assert.LessOrEqual(t, len(got), logx.MaxExcerpt+64)
		})
	}
}

func TestWithLeavesADiscardingLoggerAlone(t *testing.T) {
	discard := slog.New(slog.DiscardHandler)
	assert.Same(t, discard, logx.With(discard, logx.Transport, "stdio"))
	assert.True(t, logx.Discards(nil))

	var buf bytes.Buffer
	l := slog.New(slog.NewJSONHandler(&buf, nil))
	require.False(t, logx.Discards(l))
	logx.With(l, logx.Transport, "stdio").Info("x")
	assert.Contains(t, buf.String(), `"transport":"stdio"`)
}
