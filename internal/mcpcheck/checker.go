package mcpcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Checker validates the messages of one MCP session of a given protocol
// version. It is safe for concurrent use.
type Checker struct {
	version   string
	ours      *Ours
	envelope  *jsonschema.Schema
	published *Published // nil when no shared/mcp-spec was found

	mu      sync.Mutex
	pending [2]map[string]string // per sending direction: request id key → method
}

// New returns a checker for a protocol version ("2024-11-05" … "2025-11-25",
// or "2026-07-28"). It always validates against our schema of that version
// (schema/mcp/<version>), and also against the published schema of the same
// version when a shared/mcp-spec directory is found above the working
// directory. A method our schema of the version does not list is reported,
// saying in which version it appeared or was last present.
//
// A 2026-07-28 checker follows the requests of one connection (stateless
// requests still need their responses matched): params against the
// method's params, which require _meta with the protocol version and
// client capabilities; results against the method's result, including the
// InputRequiredResult of tools/call, prompts/get and resources/read; and
// the error responses of the codes 2026-07-28 defines against their own
// definitions.
func New(version string) (*Checker, error) {
	if !knownVersion(version) {
		return nil, fmt.Errorf("mcpcheck: unknown protocol version %q (known: %v)", version, Versions)
	}
	ours, err := LoadOursFor(version)
	if err != nil {
		return nil, err
	}
	env, err := ours.envelope()
	if err != nil {
		return nil, err
	}
	c := &Checker{version: version, ours: ours, envelope: env}
	c.pending[ClientToServer] = map[string]string{}
	c.pending[ServerToClient] = map[string]string{}
	dir, err := FindSpecDir()
	if err == nil {
		if c.published, err = LoadPublished(dir, version); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, ErrNoSpec) {
		return nil, err
	}
	return c, nil
}

// Published reports whether the published schema was found, so that
// messages are checked against it too.
func (c *Checker) Published() bool { return c.published != nil }

// Version returns the session's protocol version.
func (c *Checker) Version() string { return c.version }

// Check validates one wire message (single or batch) sent in direction dir.
// It tracks request ids per direction so a response is checked against the
// result schema of the request it answers. It returns nil when the message
// is valid, and otherwise an error listing every problem found.
//
// Feed it the messages of both directions: a response is matched with a
// request seen in the other one, and a response to an id it has not seen is
// reported. Requests are tracked even when they are invalid, so the error
// answering a deliberately bad request is matched too.
func (c *Checker) Check(dir Direction, msg []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(msg))
	if err != nil {
		return fmt.Errorf("mcpcheck: %s message is not JSON: %w", dir, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	if batch, ok := inst.([]any); ok {
		if c.version != batchVersion {
			errs = append(errs, fmt.Errorf("a batch in a %s session: batches exist only in %s", c.version, batchVersion))
		}
		if len(batch) == 0 {
			errs = append(errs, errors.New("an empty batch"))
		}
		if c.published != nil && c.version == batchVersion {
			errs = append(errs, c.publishedEnvelope(inst))
		}
		for i, m := range batch {
			if err := c.checkOne(dir, m, c.version != batchVersion); err != nil {
				errs = append(errs, fmt.Errorf("batch member %d: %w", i, err))
			}
		}
	} else {
		errs = append(errs, c.checkOne(dir, inst, true))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("mcpcheck: %s %s message %s: %w", c.version, dir, abbreviate(msg), err)
	}
	return nil
}

// checkOne validates a single message; withEnvelope also checks it against
// the published JSONRPCMessage.
func (c *Checker) checkOne(dir Direction, inst any, withEnvelope bool) error {
	var errs []error
	if prev, reused := c.track(dir, inst); reused {
		errs = append(errs, fmt.Errorf("request id %s is already in flight (%q)", idKey(inst.(map[string]any)["id"]), prev))
	}
	if err := c.envelope.Validate(inst); err != nil {
		return errors.Join(append(errs, fmt.Errorf("not a JSON-RPC 2.0 message: %w", err))...)
	}
	m := inst.(map[string]any) // the envelope schema accepts objects only
	if c.published != nil && withEnvelope {
		errs = append(errs, c.publishedEnvelope(m))
	}
	if method, ok := m["method"].(string); ok {
		errs = append(errs, c.checkCall(dir, m, method))
	} else {
		errs = append(errs, c.checkResponse(dir, m))
	}
	return errors.Join(errs...)
}

// track records the id of every request, valid or not, before it is
// checked, so that the response to an invalid request (usually an error)
// is matched rather than reported as unknown. Anything with an id and
// neither result nor error counts as a request. It returns the method of
// the request already in flight under the same id, if any.
func (c *Checker) track(dir Direction, inst any) (prev string, reused bool) {
	m, ok := inst.(map[string]any)
	if !ok {
		return "", false
	}
	id, hasID := m["id"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if !hasID || id == nil || hasResult || hasError {
		return "", false
	}
	switch id.(type) {
	case string, json.Number:
	default:
		return "", false
	}
	method, _ := m["method"].(string)
	key := idKey(id)
	prev, reused = c.pending[dir][key]
	c.pending[dir][key] = method
	return prev, reused
}

// checkCall validates a request or a notification.
func (c *Checker) checkCall(dir Direction, m map[string]any, method string) error {
	id, isRequest := m["id"]
	kind := "notification"
	if isRequest {
		kind = "request"
	}
	if c.tasksExtension(method) {
		return checkTasksExtensionCall(dir, m, method)
	}
	def, ok := c.ours.Method(method)
	switch {
	case !ok:
		return absent(kind, method, c.version)
	case def.Notification == isRequest:
		return fmt.Errorf("%q is sent as a %s, but it is a %s", method, kind, map[bool]string{true: "notification", false: "request"}[def.Notification])
	case !dir.sends(def.Direction):
		return fmt.Errorf("%q is %s only, not sent %s", method, def.Direction, dir)
	}
	var errs []error
	if isRequest && id == nil {
		errs = append(errs, fmt.Errorf("request %q has the id null, which MCP forbids", method))
	}
	params, ok := m["params"]
	if !ok {
		params = map[string]any{}
	}
	if def.Params != "" {
		sch, err := c.ours.Compile(def.Params)
		if err != nil {
			return err
		}
		if err := sch.Validate(params); err != nil {
			errs = append(errs, fmt.Errorf("params of %q against our %s: %w", method, c.ours.shortLocation(def.Params), err))
		}
	}
	if c.published != nil {
		errs = append(errs, c.publishedCall(m, method))
	}
	return errors.Join(errs...)
}

// checkResponse validates a response to a request the other side sent.
func (c *Checker) checkResponse(dir Direction, m map[string]any) error {
	id := m["id"]
	_, isError := m["error"]
	if id == nil {
		if isError {
			return c.checkError(m) // about a request whose id could not be read
		}
		return errors.New("a result with the id null")
	}
	key := idKey(id)
	asked := c.pending[dir.other()]
	method, ok := asked[key]
	if !ok {
		return fmt.Errorf("a response to request id %s, which the %s side did not send or was already answered", key, map[Direction]string{ClientToServer: "server", ServerToClient: "client"}[dir])
	}
	delete(asked, key)
	if isError {
		return c.checkError(m)
	}
	switch {
	case c.tasksExtension(method):
		return checkTasksExtensionResult(method, m["result"])
	case method == "tools/call" && c.version == StatelessVersion && isCreatedTask(m["result"]):
		return checkCreatedTask(m["result"])
	}
	def, ok := c.ours.Method(method)
	if !ok || def.Notification {
		return fmt.Errorf("a result for request id %s, whose method %q has no result", key, method)
	}
	var errs []error
	sch, err := c.ours.Compile(def.Result)
	if err != nil {
		return err
	}
	if err := sch.Validate(m["result"]); err != nil {
		errs = append(errs, fmt.Errorf("result of %q against our %s: %w", method, c.ours.shortLocation(def.Result), err))
	}
	if c.published != nil {
		errs = append(errs, c.publishedResult(method, m["result"]))
	}
	return errors.Join(errs...)
}

// publishedEnvelope validates against the published JSONRPCMessage. An
// error response with "id": null is our deliberate choice (JSON-RPC 2.0
// §5), which no published version accepts; it is checked with the id 0.
func (c *Checker) publishedEnvelope(inst any) error {
	sch, err := c.published.Def("JSONRPCMessage")
	if err != nil {
		return err
	}
	if err := sch.Validate(nullIDAsZero(inst)); err != nil {
		return fmt.Errorf("against the published %s JSONRPCMessage: %w", c.version, err)
	}
	return nil
}

// nullIDAsZero returns inst with the null id of error responses replaced by
// 0, for batches member by member.
func nullIDAsZero(inst any) any {
	switch v := inst.(type) {
	case []any:
		out := make([]any, len(v))
		for i, m := range v {
			out[i] = nullIDAsZero(m)
		}
		return out
	case map[string]any:
		if id, ok := v["id"]; ok && id == nil {
			if _, isErr := v["error"]; isErr {
				w := maps.Clone(v)
				w["id"] = json.Number("0")
				return w
			}
		}
	}
	return inst
}

// publishedCall validates a request or notification against the published
// message definition of its method.
func (c *Checker) publishedCall(m map[string]any, method string) error {
	def, ok := c.published.MessageDef(method)
	if !ok {
		return fmt.Errorf("the published %s schema has no message %q", c.version, method)
	}
	sch, err := c.published.Def(def)
	if err != nil {
		return err
	}
	if err := sch.Validate(m); err != nil {
		return fmt.Errorf("against the published %s %s: %w", c.version, def, err)
	}
	return nil
}

// publishedResult validates a result against the published result
// definitions of method; matching one of them is enough.
func (c *Checker) publishedResult(method string, result any) error {
	defs := c.published.ResultDefs(method)
	if c.version >= StatelessVersion {
		defs = byResultType(defs, result)
	}
	if len(defs) == 0 {
		return fmt.Errorf("the published %s schema has no result for %q", c.version, method)
	}
	var errs []error
	for _, d := range defs {
		sch, err := c.published.Def(d)
		if err != nil {
			return err
		}
		err = sch.Validate(result)
		if err == nil {
			return nil
		}
		errs = append(errs, fmt.Errorf("against the published %s %s: %w", c.version, d, err))
	}
	return errors.Join(errs...)
}

// inputRequired is the published definition of the answer that asks the
// client for input (2026-07-28).
const inputRequired = "InputRequiredResult"

// byResultType picks the published result definitions a 2026-07-28 result
// is checked against by its resultType, as the protocol says receivers
// must: the published InputRequiredResult requires nothing but a
// resultType string, so trying it as one more alternative would accept
// any broken result. input_required selects it, every other value (or
// none) the method's own result.
func byResultType(defs []string, result any) []string {
	r, _ := result.(map[string]any)
	want := r["resultType"] == "input_required"
	var out []string
	for _, d := range defs {
		if (d == inputRequired) == want {
			out = append(out, d)
		}
	}
	if len(out) == 0 && want {
		return defs[:min(len(defs), 1)] // a method that cannot ask for input: its own result reports it
	}
	return out
}

// idKey is a request id as a map key: strings and numbers never collide.
func idKey(id any) string {
	switch v := id.(type) {
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case json.Number:
		return v.String()
	default:
		return fmt.Sprint(v)
	}
}

// abbreviate shortens a message for error texts.
func abbreviate(msg []byte) string {
	const limit = 200
	s := string(bytes.TrimSpace(msg))
	if len(s) > limit {
		return s[:limit] + "…"
	}
	return s
}
