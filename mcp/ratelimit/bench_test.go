package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp/ratelimit"
)

// BenchmarkAllow measures an admitted tools/call under a per-client rule
// and a per-tool quota.
func BenchmarkAllow(b *testing.B) {
	l, err := ratelimit.New(ratelimit.Options{},
		ratelimit.Rule{Rate: 1e9, Burst: 1e9},
		ratelimit.Quota(1e9, time.Second).For("tools/call", "search"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := withToken(context.Background(), "ada")
	req := toolCall("search")
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Allow(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
