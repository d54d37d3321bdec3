package mcp

import (
	"bytes"
	"math"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// statelessParams are the members of a stateless request's params that the
// protocol itself reads, found in one pass over the params: _meta and the
// members of it the protocol defines, for telling a stateless request
// (scanStatelessRequest) and admitting it (admitStateless), and the
// target, arguments, input responses and request state of a
// multi-round-trip request (openRound). Each is read with its method (nil:
// absent). They are kept as positions in the params, so that the call
// they belong to (statelessCall) fits in one small allocation.
type statelessParams struct {
	raw []byte // the params scanned
	// object: the params are an object, well formed. metaObject: meta
	// starts as an object, whose members version, caps and level are then
	// (the last of each name, as written).
	object, metaObject bool
	overflow           bool  // more than two targets
	ntargets           uint8 // targets in use
	uris               uint8 // bit i set: targets[i] is a uri, else a name
	// targets are where the name and uri members are, in the order they
	// came (a repeated one counts once more, as it did when read in
	// place).
	targets [2]span

	metaAt, versionAt, capsAt, levelAt span
	argsAt, inputsAt, stateAt          span

	// seen is what the server remembers of a _meta written as this one
	// is (metaMemo), found by the scan that had the memo at hand; nil
	// otherwise. Admission takes it rather than comparing the bytes again.
	seen *admittedMeta
}

// span locates a member's value in the params; the zero span is an absent
// member (no value ends at 0).
type span struct{ start, end uint32 }

// targetName is the name of the member at targets[i]: name or uri, the
// members naming what a request acts on.
func (p *statelessParams) targetName(i int) string {
	if p.uris&(1<<i) != 0 {
		return "uri"
	}
	return "name"
}

// value returns the value at s, nil when absent.
func (p *statelessParams) value(s span) []byte {
	if s.end == 0 {
		return nil
	}
	return p.raw[s.start:s.end]
}

func (p *statelessParams) meta() []byte    { return p.value(p.metaAt) }
func (p *statelessParams) version() []byte { return p.value(p.versionAt) }
func (p *statelessParams) caps() []byte    { return p.value(p.capsAt) }
func (p *statelessParams) level() []byte   { return p.value(p.levelAt) }
func (p *statelessParams) args() []byte    { return p.value(p.argsAt) }
func (p *statelessParams) inputs() []byte  { return p.value(p.inputsAt) }
func (p *statelessParams) state() []byte   { return p.value(p.stateAt) }

// spanOf locates v, a slice of p.raw.
func (p *statelessParams) spanOf(v []byte) span {
	start := len(p.raw) - cap(v) // v's capacity runs to the end of raw's
	return span{uint32(start), uint32(start + len(v))}
}

// scanStatelessRequest reports whether params are those of a stateless
// request: their _meta names the protocol version. Params that could be
// one are scanned into p, so that admitting the request reads them no
// more; p is left as it was for any other: params that, read with their
// message, list no _meta member, or whose bytes hold neither the version's
// name nor an escape. memo, when not nil, is the server's remembered _meta
// (scanStatelessParamsOf).
func scanStatelessRequest(params []byte, p *statelessParams, memo *metaMemo) bool {
	return scanStatelessRequestOf(&rpc.Request{Params: params}, p, memo)
}

// scanStatelessRequestOf is scanStatelessRequest for req's params, as
// scanStatelessParamsOf reads them.
func scanStatelessRequestOf(req *rpc.Request, p *statelessParams, memo *metaMemo) bool {
	if n, listed := req.IndexedParams(); listed {
		if !listsMeta(req, n) {
			return false
		}
	} else if !bytes.Contains(req.Params, []byte(metaProtocolVersion)) && bytes.IndexByte(req.Params, '\\') < 0 {
		return false // the version's name is nowhere, as written or escaped
	}
	scanStatelessParamsOf(req, p, memo)
	return p.version() != nil
}

// listsMeta reports whether the n members the reader of req's message
// listed (rpc.Request.IndexedParams) include _meta: a request without one
// is told from a stateless one without reading its params.
func listsMeta(req *rpc.Request, n int) bool {
	for i := range n {
		if k, _ := req.ParamsMember(i); paramsMemberOf(k) == memberMeta {
			return true
		}
	}
	return false
}

// scanStatelessParamsOf reads the top-level members of req's params once,
// and the members of their _meta, into p. When the reader of req's message
// listed the members while it checked it (rpc.Request.IndexedParams), they
// are taken from the list rather than walked again (a request made of
// bytes alone has no list). A _meta that is the one memo remembers (memo
// may be nil) is neither scanned to find its end nor walked: its members
// are where they were. Params of 4 GiB or more, which no message limit
// lets through by default, are taken as malformed: the positions are
// 32-bit.
func scanStatelessParamsOf(req *rpc.Request, p *statelessParams, memo *metaMemo) {
	params := req.Params
	*p = statelessParams{raw: params[:len(params):len(params)]}
	if len(params) > math.MaxUint32 {
		return
	}
	if n, listed := req.IndexedParams(); listed {
		for i := range n {
			p.member(req.ParamsMember(i))
		}
		p.object = !p.overflow // the reader checked them strictly
	} else {
		o, ok := jsonscan.NewObject(p.raw)
		if !ok {
			return
		}
		if memo != nil {
			o.Knowing(memo.known())
		}
		for {
			k, v, ok := o.Next()
			if !ok {
				break
			}
			p.member(k, v)
		}
		p.object = !o.Err() && !p.overflow
	}
	if memo != nil {
		if seen := memo.lookup(p.meta()); seen != nil {
			p.seen = seen
			placeMeta(p, seen)
			return
		}
	}
	scanMeta(p)
}

// member notes one top-level member of the params, k its name as written
// and v its value, a slice of p.raw: the members the protocol reads.
func (p *statelessParams) member(k, v []byte) {
	switch paramsMemberOf(k) {
	case memberMeta:
		if p.metaAt.end == 0 {
			p.metaAt = p.spanOf(v)
		}
	case memberName:
		p.addTarget(false, v)
	case memberURI:
		p.addTarget(true, v)
	case memberArguments:
		p.argsAt = p.spanOf(v)
	case memberInputs:
		p.inputsAt = p.spanOf(v)
	case memberState:
		p.stateAt = p.spanOf(v)
	}
}

// paramsMember names the members of a stateless request's params that the
// protocol reads (statelessParams.member).
type paramsMember uint8

const (
	memberOther paramsMember = iota
	memberMeta
	memberName
	memberURI
	memberArguments
	memberInputs
	memberState
)

// paramsMemberOf tells which member a raw name (as jsonscan.Object.Next
// returns it) is: the name as written, or decoded when it has escapes (an
// undecodable one is none of them). Only a name with escapes is copied.
func paramsMemberOf(raw []byte) paramsMember {
	if bytes.IndexByte(raw, '\\') >= 0 {
		name, ok := jsonscan.Name(raw)
		if !ok {
			return memberOther
		}
		raw = []byte(name)
	}
	switch string(raw) {
	case "_meta":
		return memberMeta
	case "name":
		return memberName
	case "uri":
		return memberURI
	case "arguments":
		return memberArguments
	case "inputResponses":
		return memberInputs
	case "requestState":
		return memberState
	}
	return memberOther
}

// scanMeta reads the members of p's _meta the protocol defines.
func scanMeta(p *statelessParams) {
	meta := p.meta()
	members, isObject := jsonscan.NewObject(meta)
	if meta == nil || !isObject {
		return
	}
	p.metaObject = true
	for {
		k, v, ok := members.Next()
		if !ok {
			return
		}
		switch {
		case jsonscan.NameIs(k, metaProtocolVersion):
			p.versionAt = p.spanOf(v)
		case jsonscan.NameIs(k, metaClientCapabilities):
			p.capsAt = p.spanOf(v)
		case jsonscan.NameIs(k, metaLogLevel):
			p.levelAt = p.spanOf(v)
		}
	}
}

// addTarget notes a name or uri member. Past two (a name repeated, which
// the schema check refuses before any handler runs) the params are taken
// as malformed.
func (p *statelessParams) addTarget(uri bool, v []byte) {
	if int(p.ntargets) == len(p.targets) {
		p.overflow = true
		return
	}
	if uri {
		p.uris |= 1 << p.ntargets
	}
	p.targets[p.ntargets] = p.spanOf(v)
	p.ntargets++
}
