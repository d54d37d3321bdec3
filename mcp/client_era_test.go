package mcp_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// A client that speaks both eras finds a dual-era server stateless: one
// server/discover, no initialize, and every later request carries the
// version, capabilities and identity in _meta.
func TestClientDetectsAStatelessServer(t *testing.T) {
	f := connect(t, newServer(t, &mcp.ServerOptions{Instructions: "be nice"}), nil)
	s := f.session
	assert.True(t, s.Stateless())
	assert.Equal(t, mcp.Version20260728, s.ProtocolVersion())
	require.NotNil(t, s.ServerCapabilities())
	assert.NotNil(t, s.ServerCapabilities().Tools)
	require.NotNil(t, s.ServerInfo())
	assert.Equal(t, "test-server", s.ServerInfo().Name)
	assert.Equal(t, "be nice", s.Instructions())

	res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
	require.NoError(t, err)
	assert.Equal(t, "hi", toolText(t, res))
	assert.Equal(t, []string{"server/discover", "tools/call"}, f.wire.methods())
	call := f.wire.requests("tools/call")[0]
	meta := call["params"].(map[string]any)["_meta"].(map[string]any)
	assert.Equal(t, mcp.Version20260728, meta["io.modelcontextprotocol/protocolVersion"])
	assert.Equal(t, map[string]any{}, meta["io.modelcontextprotocol/clientCapabilities"])
	assert.Equal(t, map[string]any{"name": "test-client", "version": "1.0.0"}, meta["io.modelcontextprotocol/clientInfo"])
	assert.Equal(t, `"complete"`, string(res.Extra["resultType"]))
}

// A server of handshake versions only refuses the probe (ours with -32600:
// the session is not initialized); the client offers its latest version in
// initialize and takes the one the server picks.
func TestClientOpensASessionWithAHandshakeOnlyServer(t *testing.T) {
	f := connect(t, newServer(t, &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20250618}}), nil)
	assert.False(t, f.session.Stateless())
	assert.Equal(t, mcp.Version20250618, f.session.ProtocolVersion())
	assert.Equal(t, []string{"server/discover", "initialize", "notifications/initialized"}, f.wire.methods())
	init := f.wire.requests("initialize")[0]
	assert.Equal(t, mcp.LatestVersion, init["params"].(map[string]any)["protocolVersion"])
	require.NoError(t, f.session.Ping(bg(t)))
}

// A stateless server that does not serve the version asked for lists the
// ones it does in -32022; the client retries server/discover with one of
// them and never falls back to initialize.
func TestClientRetriesDiscoveryWithAVersionTheServerLists(t *testing.T) {
	var asked []string
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		var p struct {
			Meta map[string]any `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(params, &p))
		v, _ := p.Meta["io.modelcontextprotocol/protocolVersion"].(string)
		asked = append(asked, v)
		if v != "2026-07-28" {
			return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2026-07-28"}, "requested": v})
		}
		return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), nil
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{"2027-01-01", "2026-07-28", "2025-11-25"}})
	// 2027-01-01 is unknown to this client, so it is never offered.
	s, err := c.Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	assert.True(t, s.Stateless())
	assert.Equal(t, []string{"2026-07-28"}, asked)
	assert.NotContains(t, log.methods(), "initialize")
}

// A server may refuse a request with -32022 while listing the very version
// that request carried (a transient refusal); the client tries that version
// once more, and only once.
func TestClientRetriesTheRefusedVersionOnceWhenTheServerListsIt(t *testing.T) {
	refusals := 0
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		if refusals < 1 {
			refusals++
			return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2026-07-28"}, "requested": "2026-07-28"})
		}
		return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), nil
	})
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	assert.True(t, s.Stateless())
	assert.Equal(t, []string{"server/discover", "server/discover"}, log.methods())

	// A server that keeps refusing the version it lists is given up on after
	// the second try, with no initialize.
	tr2, log2 := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2026-07-28"}, "requested": "2026-07-28"})
	})
	_, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refused protocol version 2026-07-28 twice")
	assert.Equal(t, []string{"server/discover", "server/discover"}, log2.methods())
}

// -32022 naming only versions the client does not speak ends Connect with
// an error naming both lists; the client does not try initialize.
func TestClientRefusesAServerWithNoVersionInCommon(t *testing.T) {
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2030-01-01"}, "requested": "2026-07-28"})
	})
	_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no version in common")
	assert.Contains(t, err.Error(), "2030-01-01")
	assert.Equal(t, []string{"server/discover"}, log.methods())
}

// A server that never answers server/discover (an old stdio server) is
// given initialize after DiscoverTimeout; the answer is remembered, so the
// next connection to the same server skips the probe.
func TestClientFallsBackToInitializeWhenDiscoveryTimesOut(t *testing.T) {
	s := newServer(t, nil)
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{DiscoverTimeout: 50 * time.Millisecond})
	deaf := func(msg []byte) bool { return strings.Contains(string(msg), `"server/discover"`) }
	f := connectWith(t, c, s, connectOptions{key: "deaf-server", dropServer: deaf})
	assert.False(t, f.session.Stateless())
	assert.Equal(t, mcp.LatestVersion, f.session.ProtocolVersion())
	assert.Equal(t, []string{"server/discover", "initialize", "notifications/initialized"}, f.wire.methods())

	again := connectWith(t, c, s, connectOptions{key: "deaf-server", dropServer: deaf})
	assert.Equal(t, []string{"initialize", "notifications/initialized"}, again.wire.methods())
}

// A handshake server answering server/discover with -32601 gets initialize at
// once, whatever the error code (here also -32602 and -32000).
func TestClientFallsBackToInitializeOnAnyOtherError(t *testing.T) {
	for _, code := range []int{rpc.CodeMethodNotFound, rpc.CodeInvalidParams, -32000} {
		tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
			switch method {
			case "server/discover":
				return nil, rpc.NewError(code, "no")
			case "initialize":
				return json.RawMessage(`{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"old","version":"1"}}`), nil
			}
			return nil, nil
		})
		s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
		require.NoError(t, err, "code %d", code)
		assert.Equal(t, mcp.Version20250326, s.ProtocolVersion())
		assert.Equal(t, "old", s.ServerInfo().Name)
		assert.Equal(t, []string{"server/discover", "initialize", "notifications/initialized"}, log.methods())
		s.Close()
	}
}

// A client of handshake versions only never probes.
func TestHandshakeOnlyClientSendsInitializeFirst(t *testing.T) {
	f := connect(t, newServer(t, nil), &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20241105}})
	assert.Equal(t, mcp.Version20241105, f.session.ProtocolVersion())
	assert.Equal(t, []string{"initialize", "notifications/initialized"}, f.wire.methods())
}

// A stateless-only client never sends initialize: a handshake server is an
// error.
func TestStatelessOnlyClientNeverSendsInitialize(t *testing.T) {
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		return nil, rpc.MethodNotFound(method)
	})
	_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20260728}}).Connect(bg(t), tr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "speaks no handshake version")
	assert.Equal(t, []string{"server/discover"}, log.methods())
}

// A server that picks a version the client does not speak is refused.
func TestClientRefusesAVersionItDoesNotSpeak(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		return json.RawMessage(`{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"old","version":"1"}}`), nil
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}})
	_, err := c.Connect(bg(t), tr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"2025-03-26", which the client does not speak`)
}

// A discovery "result" that is no DiscoverResult (old servers and the
// conformance suite's mocks answer unknown methods with {}) means the
// server is not a stateless one: the client goes on to initialize.
func TestClientTakesAnInvalidDiscoveryResultForAnOldServer(t *testing.T) {
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		if method == "initialize" {
			return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"old","version":"1"}}`), nil
		}
		return json.RawMessage(`{}`), nil
	})
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	assert.False(t, s.Stateless())
	assert.Equal(t, "2025-11-25", s.ProtocolVersion())
	assert.Equal(t, []string{"server/discover", "initialize", "notifications/initialized"}, log.methods())
}

// A client that speaks only 2026-07-28 has nowhere to fall back to: a
// discovery result that breaks the schema fails Connect with an
// *InvalidResultError.
func TestAStatelessOnlyClientRefusesAnInvalidDiscoveryResult(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		return json.RawMessage(`{"resultType":"complete","supportedVersions":"2026-07-28","capabilities":{},"ttlMs":0,"cacheScope":"private"}`), nil
	})
	_, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{"2026-07-28"}}).Connect(bg(t), tr)
	var ire *mcp.InvalidResultError
	require.True(t, errors.As(err, &ire), "got %v", err)
	assert.Equal(t, "server/discover", ire.Method)
}

// ClientOptions.ProtocolVersions without a version the client knows is an
// error before anything is sent.
func TestClientNeedsAKnownVersion(t *testing.T) {
	tr, log := fakeServer(t, func(string, json.RawMessage) (any, error) { return nil, nil })
	_, err := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{"1999-01-01"}}).Connect(bg(t), tr)
	require.Error(t, err)
	assert.Empty(t, log.methods())
}

// -32022 listing only handshake versions the client speaks leads to
// initialize offering the first of them.
func TestUnsupportedVersionNamingAHandshakeVersionLeadsToInitialize(t *testing.T) {
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "server/discover":
			return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2025-06-18"}, "requested": "2026-07-28"})
		case "initialize":
			var p struct{ ProtocolVersion string }
			require.NoError(t, json.Unmarshal(params, &p))
			return json.RawMessage(`{"protocolVersion":"` + p.ProtocolVersion + `","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`), nil
		}
		return nil, nil
	})
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, mcp.Version20250618, s.ProtocolVersion())
	assert.Equal(t, []string{"server/discover", "initialize", "notifications/initialized"}, log.methods())
}

// A stateless server that answers server/discover only after the probe's
// time ran out refuses the initialize that follows with -32022; the client
// reads that as a slow stateless server and discovers again, unbounded,
// instead of failing.
func TestClientDiscoversAgainWhenASlowStatelessServerRefusesInitialize(t *testing.T) {
	var discovers atomic.Int32
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "server/discover":
			if discovers.Add(1) == 1 {
				time.Sleep(150 * time.Millisecond) // past the 30 ms probe
			}
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private"}`), nil
		case "initialize":
			return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2026-07-28"}, "requested": "2025-11-25"})
		}
		return nil, rpc.MethodNotFound(method)
	})
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{DiscoverTimeout: 30 * time.Millisecond}).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	assert.True(t, s.Stateless())
	assert.Equal(t, []string{"server/discover", "initialize", "server/discover"}, log.methods())

	// A handshake server refusing the version in initialize is not
	// mistaken for one: -32022 listing no stateless version ends Connect.
	tr2, log2 := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		if method == "initialize" {
			return nil, rpc.NewError(mcp.CodeUnsupportedVersion, "unsupported").WithData(map[string]any{"supported": []string{"2019-01-01"}, "requested": "2025-11-25"})
		}
		time.Sleep(100 * time.Millisecond)
		return nil, rpc.MethodNotFound(method)
	})
	_, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{DiscoverTimeout: 30 * time.Millisecond}).Connect(bg(t), tr2)
	require.Error(t, err)
	assert.Equal(t, []string{"server/discover", "initialize"}, log2.methods())
}

// A complete stateless result without caching hints (an older server's)
// reaches the caller as one that may not be reused (ttlMs 0, private),
// for exactly the methods whose schema gives the result caching hints.
func TestAStatelessResultWithoutHintsIsNotReusable(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "server/discover":
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"completions":{}},"ttlMs":0,"cacheScope":"private"}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[]}`), nil
		default:
			return json.RawMessage(`{"completion":{"values":[]}}`), nil
		}
	})
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	require.True(t, s.Stateless())
	res, err := s.ListTools(bg(t), nil)
	require.NoError(t, err)
	hint, ok := mcp.ResultCacheHint(res.Extra)
	require.True(t, ok, "tools/list's result is cacheable: the hints are filled in")
	assert.Equal(t, mcp.CacheHint{Scope: mcp.CachePrivate}, hint)

	done, err := s.Complete(bg(t), &mcp.CompleteRequestParams{Ref: mcp.CompleteRequestParamsRef{Value: mcp.PromptReference{Name: "p"}}, Argument: mcp.CompleteRequestParamsArgument{Name: "a", Value: "v"}})
	require.NoError(t, err)
	_, ok = mcp.ResultCacheHint(done.Extra)
	assert.False(t, ok, "completion/complete's result carries no caching hints")
}
