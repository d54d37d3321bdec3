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

// useDefault makes l slog's default logger for the rest of the test.
func useDefault(t *testing.T, l *slog.Logger) {
	prev := slog.Default()
	slog.SetDefault(l)
	t.Cleanup(func() { slog.SetDefault(prev) })
}

func TestFallbackPassesWarningsAndErrorsToTheDefaultLoggerOfTheMoment(t *testing.T) {
	var first, second bytes.Buffer
	useDefault(t, slog.New(slog.NewJSONHandler(&first, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l := logx.Fallback().With("transport", "stdio").WithGroup("g").With("k", "v")

	l.Info("routine")
	l.Debug("chatter")
	assert.False(t, l.Enabled(t.Context(), slog.LevelInfo), "below warn is never passed on, whatever the default's level")
	assert.Empty(t, first.String())

	l.Error("handler failed", "error", "disk on fire")
	assert.Contains(t, first.String(), `"msg":"handler failed"`)
	assert.Contains(t, first.String(), `"transport":"stdio","g":{"k":"v","error":"disk on fire"}`, "attributes and groups added before are kept")

	useDefault(t, slog.New(slog.NewJSONHandler(&second, nil)))
	l.Warn("request refused")
	assert.NotContains(t, first.String(), "request refused")
	assert.Contains(t, second.String(), `"msg":"request refused"`, "a default set later takes effect at once")

	useDefault(t, slog.New(slog.NewJSONHandler(&second, &slog.HandlerOptions{Level: slog.LevelError})))
	assert.False(t, l.Enabled(t.Context(), slog.LevelWarn), "the default's own level still applies")
}
