package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemoPrintsTheOperationDurationOfToolCalls(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	require.NoError(t, run(ctx, "127.0.0.1:0", true, &out))
	text := out.String()
	assert.Contains(t, text, "mcp_server_operation_duration_seconds_count{")
	assert.Regexp(t, `mcp_server_operation_duration_seconds_count\{[^}]*mcp_method_name="tools/call"`, text)
	assert.Regexp(t, `mcp_client_operation_duration_seconds_count\{[^}]*mcp_method_name="tools/call"`, text)
	assert.Regexp(t, `error_type="tool_error"`, text)
	assert.Contains(t, text, "mcp_server_active_sessions")
}
