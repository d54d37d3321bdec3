package validate

import (
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// UnmatchedResponse begins the reason of the -32603 finding about a lone
// response that no result schema accepts. A lone response is one whose
// conversation holds no request from the other side, such as a fixture of
// responses: its method is unknown, so its result is checked against every
// result schema that could fit — those of the requests the other side may
// send, in the versions the conversation may be in, narrowed to the
// schemas that declare the most of the result's members (a result with
// "tools" is a tools/list result, not an empty one). It is valid when one
// of them accepts it. An error response fits any request. (In a
// conversation that has requests, a response to an id none of them has is
// a -32600 finding.)
const UnmatchedResponse = "unmatched response"

// lone checks a lone response against the result schemas that could fit.
func (c *Checker) lone(resp *rpc.Response, prefix string, from Direction, at Position, sets []*Set, out []Finding) []Finding {
	if resp.Error != nil {
		return out // an error answers any request
	}
	members := resultMembers(resp.Result)
	type candidate struct {
		set    *Set
		meth   *method
		schema *rpc.Schema
	}
	var best []candidate
	bestScore := -1
	for _, s := range sets {
		for _, m := range s.methods {
			if m.Notification || len(m.results) == 0 || !answerable(m.Direction, from) {
				continue
			}
			for i, sch := range m.results {
				score := 0
				for _, name := range members {
					if m.declared[i][name] {
						score++
					}
				}
				switch {
				case score > bestScore:
					best, bestScore = best[:0], score
					fallthrough
				case score == bestScore:
					best = append(best, candidate{s, m, sch})
				}
			}
		}
	}
	if len(best) == 0 {
		return out // a set without result schemas: nothing to check
	}
	var first failure
	var closest candidate
	for _, cand := range best {
		e := resp.CheckResult(cand.schema, rpc.CodeInternalError)
		if e == nil {
			return out
		}
		if f := newFailure(e); first.err == nil || f.closer(first) {
			first, closest = f, cand
		}
	}
	asker := "a client"
	if from == FromClient {
		asker = "a server"
	} else if from == Unknown {
		asker = "either side"
		// The closest result says who answered, as a request's method does.
		from = sender(closest.meth.Direction).other()
	}
	f := failureFinding(at, prefix, "/result", first, "response", "", from)
	f.Reason = fmt.Sprintf("%s: no request in the input has id %s, and its result fits no result of a request %s sends in MCP %s (closest, the %s result in MCP %s: %s)",
		UnmatchedResponse, resp.ID, asker, versionsText(sets), closest.meth.Name, closest.set.version, f.Reason)
	return append(out, f)
}

// closer reports whether failure a is nearer a match than b: its first
// violation lies deeper in the result, or as deep with fewer violations.
func (a failure) closer(b failure) bool {
	if len(a.vs) == 0 || len(b.vs) == 0 {
		return len(a.vs) > 0 && len(b.vs) == 0
	}
	da, db := strings.Count(a.vs[0].InstanceLocation, "/"), strings.Count(b.vs[0].InstanceLocation, "/")
	if da != db {
		return da > db
	}
	return len(a.vs) < len(b.vs)
}

// answerable reports whether a request of the given direction can be
// answered by from.
func answerable(direction string, from Direction) bool {
	switch from {
	case FromServer:
		return direction != "server-to-client"
	case FromClient:
		return direction != "client-to-server"
	}
	return true
}

// resultMembers returns the member names of an object result; nil for any
// other result.
func resultMembers(result []byte) []string {
	o, ok := jsonscan.NewObject(result)
	if !ok {
		return nil
	}
	var names []string
	for {
		k, _, ok := o.Next()
		if !ok {
			return names
		}
		if n, ok := jsonscan.Name(k); ok {
			names = append(names, n)
		}
	}
}

// declared returns the names of the members an object schema declares,
// following $ref and the branches of allOf, anyOf and oneOf.
func declared(s *jsonschema.Schema) map[string]bool {
	names := map[string]bool{}
	seen := map[*jsonschema.Schema]bool{}
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for n := range s.Properties {
			names[n] = true
		}
		walk(s.Ref)
		for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, b := range list {
				walk(b)
			}
		}
	}
	walk(s)
	return names
}
