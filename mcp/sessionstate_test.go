package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A session's revision is unexported, so these tests live inside the
// package.

// heldCopy returns a session copy that took up a state of revision 5 at
// log level 1 (info).
func heldCopy(t *testing.T) *ServerSession {
	t.Helper()
	ss := &ServerSession{server: NewServer(&Implementation{Name: "t", Version: "1"}, nil), logLevel: -1, subscribed: map[string]bool{}}
	require.NoError(t, ss.restore([]byte(`{"protocolVersion":"2025-11-25","logLevel":1,"revision":5}`)))
	require.Equal(t, 1, ss.logLevel)
	return ss
}

func TestACopyAppliesOnlyAStateNewerThanItsOwn(t *testing.T) {
	for name, tc := range map[string]struct {
		doc   string
		level int
	}{
		"the same revision":        {`{"protocolVersion":"2025-11-25","logLevel":4,"revision":5}`, 1},
		"an older revision":        {`{"protocolVersion":"2025-11-25","logLevel":4,"revision":4}`, 1},
		"no revision (revision 0)": {`{"protocolVersion":"2025-11-25","logLevel":4}`, 1},
		"a newer revision":         {`{"protocolVersion":"2025-11-25","logLevel":4,"revision":6}`, 4},
	} {
		t.Run(name, func(t *testing.T) {
			ss := heldCopy(t)
			require.NoError(t, ss.restore([]byte(tc.doc)))
			assert.Equal(t, tc.level, ss.logLevel)
		})
	}
}

func TestAHeldRevisionIsNotDecodedAgain(t *testing.T) {
	ss := heldCopy(t)
	// A version this server does not serve would be refused by a full
	// reading: of the revision held, only the revision is read.
	assert.NoError(t, ss.restore([]byte(`{"protocolVersion":"1999-01-01","logLevel":4,"revision":5}`)))
	assert.Equal(t, 1, ss.logLevel)
}

func TestAStateNotHeldYetIsReadWhole(t *testing.T) {
	for name, doc := range map[string]string{
		"a newer revision of a version not served": `{"protocolVersion":"1999-01-01","logLevel":4,"revision":6}`,
		"a revision that is no number":             `{"protocolVersion":"1999-01-01","revision":"5"}`,
		"not JSON":                                 `revision 6`,
		"cut short after a newer revision":         `{"revision":6`,
	} {
		t.Run(name, func(t *testing.T) {
			ss := heldCopy(t)
			assert.ErrorIs(t, ss.restore([]byte(doc)), errBadSharedState)
			assert.Equal(t, 1, ss.logLevel)
		})
	}
}
