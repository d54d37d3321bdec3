package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// establish finds out which era the server speaks and opens the session.
//
// A client that speaks 2026-07-28 first sends server/discover (on a stream
// within DiscoverTimeout): a result means a stateless server; -32022 with
// data.supported names the versions the server does speak, and the client
// goes on with the first of its own versions in that list (never quietly
// with another); any other error, or no answer in time, means a handshake
// server, which gets initialize. The version agreed is remembered per
// server (the link's key), so the next Connect skips the probe of a
// handshake server.
func (s *ClientSession) establish(ctx context.Context) error {
	c := s.client
	stateless, handshake := c.versions()
	if len(stateless) == 0 && len(handshake) == 0 {
		return fmt.Errorf("mcp: ClientOptions.ProtocolVersions names no version the client knows (%v)", c.opts.ProtocolVersions)
	}
	key := s.link.key()
	if v, ok := c.cachedEra(key); ok && slices.Contains(handshake, v) {
		if err := s.initialize(ctx, v); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return err
		}
		// The server changed; find out again.
		c.forgetEra(key)
	}
	if len(stateless) == 0 {
		return s.initialize(ctx, handshake[0])
	}
	_, probed := c.cachedEra(key)
	// A version is tried at most twice: a server may refuse the first
	// request with -32022 yet list the very version it refused (a
	// transient refusal), and then the same version is tried once more.
	tried := map[string]int{}
	version := stateless[0]
	for {
		tried[version]++
		err := s.discover(ctx, version, !probed && !s.link.isHTTP())
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("mcp: connecting: %w", ctx.Err())
		}
		// A result that is not a DiscoverResult (old servers and test
		// doubles answer unknown methods with {}) says the server is not a
		// stateless one: it is handled like any other non-stateless answer.
		supported, isStateless := unsupportedVersion(err)
		if !isStateless {
			if len(handshake) == 0 {
				return fmt.Errorf("mcp: the server did not answer server/discover as a %s server, and the client speaks no handshake version: %w", version, err)
			}
			c.log.Debug("mcp: server/discover failed; trying initialize", "error", err)
			ierr := s.initialize(ctx, handshake[0])
			if v := slowStatelessServer(err, ierr, stateless, tried); v != "" {
				// The probe ran out of time, yet the server refuses the
				// handshake naming a stateless version we speak: it is a
				// stateless server that was slow to answer. Discover again,
				// without the probe's bound.
				c.log.Debug("mcp: initialize refused by a stateless server; discovering again", "version", v)
				probed, version = true, v
				continue
			}
			return ierr
		}
		next := ""
		for _, v := range append(slices.Clone(stateless), handshake...) {
			if slices.Contains(supported, v) && tried[v] < 2 {
				next = v
				break
			}
		}
		switch {
		case next == "" && slices.Contains(supported, version):
			return fmt.Errorf("mcp: the server refused protocol version %s twice while listing it as supported (%v): %w", version, supported, err)
		case next == "":
			return fmt.Errorf("mcp: the server speaks %v and the client %v: no version in common", supported, append(stateless, handshake...))
		case slices.Contains(handshake, next):
			return s.initialize(ctx, next)
		}
		version = next
	}
}

// slowStatelessServer returns the stateless version to discover again with
// when the server/discover probe timed out (probeErr) and initialize was
// then refused with -32022 listing a stateless version the client speaks
// and has not tried twice; "" otherwise.
func slowStatelessServer(probeErr, initErr error, stateless []string, tried map[string]int) string {
	if !errors.Is(probeErr, context.DeadlineExceeded) {
		return ""
	}
	supported, ok := unsupportedVersion(initErr)
	if !ok {
		return ""
	}
	for _, v := range stateless {
		if slices.Contains(supported, v) && tried[v] < 2 {
			return v
		}
	}
	return ""
}

// unsupportedVersion reads an UnsupportedProtocolVersion error (-32022):
// the versions the server lists, and whether err is one.
func unsupportedVersion(err error) ([]string, bool) {
	var re *rpc.Error
	if !errors.As(err, &re) || re.Code != CodeUnsupportedVersion {
		return nil, false
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(re.Data, &data) != nil || data.Supported == nil {
		return nil, false
	}
	return data.Supported, true
}

// discover sends server/discover in a stateless version and, on a result,
// makes the session a stateless one. probe bounds the wait with
// DiscoverTimeout.
func (s *ClientSession) discover(ctx context.Context, version string, probe bool) error {
	vs, err := schemaOf(version)
	if err != nil {
		return err
	}
	if probe {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.client.opts.DiscoverTimeout)
		defer cancel()
	}
	var res v20260728.DiscoverResult
	if err := s.call(ctx, vs, true, v20260728.MethodServerDiscover, &RequestParams{}, &res); err != nil {
		if probe && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("mcp: no answer to server/discover within %v: %w", s.client.opts.DiscoverTimeout, err)
		}
		return err
	}
	if !slices.Contains(res.SupportedVersions, version) {
		return fmt.Errorf("mcp: the server answered server/discover in %s but lists only %v", version, res.SupportedVersions)
	}
	var caps ServerCapabilities
	if err := convertJSON(res.Capabilities, &caps); err != nil {
		return &InvalidResultError{Method: "server/discover", Version: version, Err: err}
	}
	s.mu.Lock()
	s.version, s.stateless, s.schema = version, true, vs
	s.caps, s.instructions = &caps, res.Instructions
	if res.Meta != nil && res.Meta.ServerInfo != nil {
		var info Implementation
		if convertJSON(res.Meta.ServerInfo, &info) == nil {
			s.info = &info
		}
	}
	s.mu.Unlock()
	s.established.Store(true)
	s.client.rememberEra(s.link.key(), version)
	return nil
}

// initialize runs the handshake offering version: initialize, then
// notifications/initialized. A version the server picks that the client
// does not speak ends the connection with an error.
func (s *ClientSession) initialize(ctx context.Context, version string) error {
	vs, err := schemaOf(version)
	if err != nil {
		return err
	}
	var res InitializeResult
	err = s.call(ctx, vs, false, "initialize", &InitializeRequestParams{
		ProtocolVersion: version,
		Capabilities:    s.client.handshakeCapabilities(version),
		ClientInfo:      s.client.info,
	}, &res)
	if err != nil {
		return fmt.Errorf("mcp: initialize: %w", err)
	}
	if !slices.Contains(SupportedVersions(), res.ProtocolVersion) || !s.client.speaks(res.ProtocolVersion) {
		return fmt.Errorf("mcp: the server chose protocol version %q, which the client does not speak", res.ProtocolVersion)
	}
	if vs, err = schemaOf(res.ProtocolVersion); err != nil {
		return err
	}
	s.mu.Lock()
	s.version, s.stateless, s.schema = res.ProtocolVersion, false, vs
	s.caps, s.info, s.instructions = &res.Capabilities, &res.ServerInfo, res.Instructions
	s.mu.Unlock()
	if err := s.conn.Notify(ctx, "notifications/initialized", struct{}{}); err != nil {
		return fmt.Errorf("mcp: notifications/initialized: %w", err)
	}
	s.established.Store(true)
	s.client.rememberEra(s.link.key(), res.ProtocolVersion)
	return nil
}

// convertJSON copies a value of one generated type into another of the
// same shape (a 2026-07-28 type into its 2025-11-25 alias, say).
func convertJSON(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return rpc.DecodeJSON(b, to)
}
