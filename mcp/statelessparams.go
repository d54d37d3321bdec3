package mcp

import "github.com/schemarpc/schemarpc/internal/jsonscan"

// statelessParams are the members of a stateless request's params that the
// protocol itself reads, found in one pass over the params: _meta for the
// admission (admitStateless), and the target, arguments, input responses and
// request state of a multi-round-trip request (openRound). A nil member
// is absent.
type statelessParams struct {
	object bool // the params are an object, well formed
	meta   []byte
	// targets are name and uri, in the order they came (a repeated one
	// counts once more, as it did when read in place).
	targets  [2]statelessTarget
	ntargets int
	overflow bool // more than two targets
	args     []byte
	inputs   []byte
	state    []byte
}

// statelessTarget is a member naming what a request acts on, and its raw
// value.
type statelessTarget struct {
	name  string
	value []byte
}

// scanStatelessParams reads the params' top-level members once, into p.
func scanStatelessParams(params []byte, p *statelessParams) {
	*p = statelessParams{}
	o, ok := jsonscan.NewObject(params)
	if !ok {
		return
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		switch {
		case jsonscan.NameIs(k, "_meta"):
			if p.meta == nil {
				p.meta = v
			}
		case jsonscan.NameIs(k, "name"):
			p.addTarget("name", v)
		case jsonscan.NameIs(k, "uri"):
			p.addTarget("uri", v)
		case jsonscan.NameIs(k, "arguments"):
			p.args = v
		case jsonscan.NameIs(k, "inputResponses"):
			p.inputs = v
		case jsonscan.NameIs(k, "requestState"):
			p.state = v
		}
	}
	p.object = !o.Err() && !p.overflow
}

// addTarget notes a name or uri member. Past two (a name repeated, which
// the schema check refuses before any handler runs) the params are taken
// as malformed.
func (p *statelessParams) addTarget(name string, v []byte) {
	if p.ntargets == len(p.targets) {
		p.overflow = true
		return
	}
	p.targets[p.ntargets] = statelessTarget{name, v}
	p.ntargets++
}
