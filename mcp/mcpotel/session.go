package mcpotel

import (
	"context"
	"time"

	"github.com/schemarpc/schemarpc/internal/otelcore"
	"github.com/schemarpc/schemarpc/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// sessionStarted counts a session that answered initialize successfully,
// once, and waits in a goroutine for its end to record its duration.
func (i *Instrumentation) sessionStarted(ss *mcp.ServerSession, version string, netAttrs []attribute.KeyValue) {
	if _, dup := i.sessions.LoadOrStore(ss, struct{}{}); dup {
		return
	}
	attrs := make([]attribute.KeyValue, 0, len(netAttrs)+1)
	if knownVersion(version) {
		attrs = append(attrs, otelcore.KeyMCPProtocolVersion.String(version))
	}
	attrs = append(attrs, netAttrs...)
	set := metric.WithAttributeSet(attribute.NewSet(attrs...))
	start := time.Now()
	ctx := context.Background()
	i.activeSessions.Add(ctx, 1, set)
	go func() {
		<-ss.Done()
		i.activeSessions.Add(ctx, -1, set)
		i.sessionDuration.Record(ctx, time.Since(start).Seconds(), set)
		i.sessions.Delete(ss)
	}()
}
