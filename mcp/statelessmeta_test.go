package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// metaCorpus are _meta values (and whole params) a stateless request may
// carry: admissible ones, ones refused, and near copies of each other, so
// that a remembered _meta is followed by one that differs from it in one
// byte, one member, its end or its whitespace.
var metaCorpus = []string{
	`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"1"}}}`,
	`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"2"}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"1"}},"name":"add","arguments":{"a":1,"b":2}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}, "io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"1"}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}},"io.modelcontextprotocol/logLevel":"info"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}},"io.modelcontextprotocol/logLevel":"debug"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{}},"io.modelcontextprotocol/logLevel":"loud"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p1"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p2"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":"v999"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":20260728,"io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":"all"},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":7}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"_meta":{"io.modelcontextprotocol/protocolVersion":"v999","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add","arguments":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"arguments":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}},"name":"add"}`,
	`{"_meta":null,"name":"add","x":"io.modelcontextprotocol/protocolVersion"}`,
	`{"_meta":["io.modelcontextprotocol/protocolVersion"],"name":"add"}`,
	`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"a","uri":"u","name":"b"}`,
	`["io.modelcontextprotocol/protocolVersion"]`,
}

// metaAdmission is what admitting a request decided: its facts, the params as
// scanned, or its error.
type metaAdmission struct {
	Stateless bool
	Version   string
	Caps      ClientCapabilities
	LogLevel  int
	Params    statelessParams
	Err       string
	MetaErr   bool
	Code      int
}

// admit scans params as the session does (scanStatelessCall) and admits
// them, and reports what was decided.
func admit(t *testing.T, s *Server, params string) metaAdmission {
	t.Helper()
	req := &rpc.Request{Method: "tools/call", ID: rpc.Int64ID(1), Params: json.RawMessage(params)}
	sc := s.scanStatelessCall(req)
	var out metaAdmission
	out.Stateless = sc != nil
	sc, err := s.admitStateless(req, sc)
	if err != nil {
		out.Err = err.Error()
		var me *metaError
		out.MetaErr = errors.As(err, &me)
		var re *rpc.Error
		if errors.As(err, &re) {
			out.Code = re.Code
		}
		return out
	}
	c := &sc.callState
	out.Version, out.Caps, out.LogLevel, out.Params = c.version, c.caps, c.logLevel, sc.params
	out.Params.seen = nil // whether the server remembered the _meta is what is compared
	return out
}

func TestARememberedMetaIsAdmittedAsAnyOther(t *testing.T) {
	newServer := func() *Server {
		return NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	}
	want := make([]metaAdmission, len(metaCorpus))
	for i, params := range metaCorpus {
		want[i] = admit(t, newServer(), params)
	}
	require.Empty(t, want[0].Err, "the first params are admissible")
	require.NotEmpty(t, want[6].Err, "some are not")
	for i, first := range metaCorpus {
		for j, then := range metaCorpus {
			s := newServer()
			for range 2 {
				assert.Equal(t, want[i], admit(t, s, first), "%s", first)
			}
			// A changed _meta replaces the remembered one only after
			// maxMetaMisses misses: the rounds past it are admitted with
			// then's remembered.
			for round := range maxMetaMisses + 3 {
				assert.Equal(t, want[j], admit(t, s, then), "%s, then %s (round %d)", first, then, round)
			}
			if want[j].Err == "" {
				assert.Equal(t, want[j].Params.meta(), s.metaMemo.known(), "the last admitted _meta is remembered")
			}
		}
	}
}

func TestARememberedMetaIsSteppedOverAndPlacedAsWhenScanned(t *testing.T) {
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	first := metaCorpus[2]
	require.Empty(t, admit(t, s, first).Err)
	meta := string(s.metaMemo.known())
	require.NotEmpty(t, meta)
	for _, params := range []string{
		first,
		`{"name":"x","_meta":` + meta + `}`,
		`{"name":"x","_meta":` + meta + `,"arguments":` + meta + `}`,
		`{"arguments":` + meta + `,"_meta":` + meta + `}`,
		`{"_meta":` + meta + ` ,"name":"x"}`,
		`{"_meta":` + meta[:len(meta)-1] + `,"x":1},"name":"x"}`,
		`{"_meta":` + meta + `}`,
		`{"_meta":` + meta,
		`{"_meta":` + meta + `,`,
	} {
		var got, plain statelessParams
		isGot := scanStatelessRequest([]byte(params), &got, &s.metaMemo)
		isPlain := scanStatelessRequest([]byte(params), &plain, nil)
		assert.Equal(t, isPlain, isGot, "%s", params)
		assert.Equal(t, got.meta() != nil && string(got.meta()) == meta, got.seen != nil,
			"the scan notes the remembered _meta exactly when it is the params' own: %s", params)
		got.seen = nil
		assert.Equal(t, plain, got, "%s", params)
	}
}

func TestARememberedMetaIsReadAndReplacedSafelyFromManyCalls(t *testing.T) {
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	var want []metaAdmission
	for _, params := range metaCorpus[:9] {
		want = append(want, admit(t, NewServer(&Implementation{Name: "srv", Version: "1"}, nil), params))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 200 {
				i := (g*7 + n) % len(want)
				got := admit(t, s, metaCorpus[i])
				if !assert.Equal(t, want[i], got, "%s", metaCorpus[i]) {
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestAMetaTooLargeToRememberIsNotRemembered(t *testing.T) {
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, nil)
	big := fmt.Sprintf(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"x":%q},"name":"add"}`,
		strings.Repeat("x", maxMetaMemo))
	require.Empty(t, admit(t, s, big).Err)
	assert.Nil(t, s.metaMemo.known())
}

func TestARememberedMetasVersionIsServedOnlyWhileTheOptionsServeIt(t *testing.T) {
	versions := []string{Version20260728}
	s := NewServer(&Implementation{Name: "srv", Version: "1"}, &ServerOptions{ProtocolVersions: versions})
	for range 2 {
		require.Empty(t, admit(t, s, metaCorpus[0]).Err)
	}
	versions[0] = "2025-11-25" // options changed under the server: the remembered answer does not stand
	got := admit(t, s, metaCorpus[0])
	assert.Equal(t, CodeUnsupportedVersion, got.Code)
	s.metaMemo.last.Store(nil)
	assert.Equal(t, got, admit(t, s, metaCorpus[0]), "as if nothing were remembered")
}
