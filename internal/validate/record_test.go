package validate_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

func TestAppendRecordIsReadBackAsItWasWritten(t *testing.T) {
	tests := []struct {
		name             string
		from             validate.Direction
		session, version string
	}{
		{"bare", validate.FromClient, "", ""},
		{"session and version", validate.FromServer, `s"1`, "2025-06-18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			b := validate.AppendRecord(nil, msg, tt.from, tt.session, tt.version)
			var items []validate.Item
			err := validate.Read(bytes.NewReader(b), "t", validate.JSONLines, validate.DefaultMaxMessage, func(it validate.Item) error {
				it.Bytes = bytes.Clone(it.Bytes)
				items = append(items, it)
				return nil
			})
			require.NoError(t, err)
			require.Len(t, items, 1)
			assert.JSONEq(t, string(msg), string(items[0].Bytes))
			assert.Equal(t, tt.from, items[0].From)
			assert.Equal(t, tt.session, items[0].Session)
			assert.Equal(t, tt.version, items[0].ProtocolVersion)
		})
	}
}
