package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// ToolHandler runs a tool. An *rpc.Error it returns is sent to the client
// as a JSON-RPC error; any other error becomes a tool result with isError
// set and the error's text, which the model can read and act on.
type ToolHandler func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error)

// TypedToolHandler runs a tool whose arguments decode into In and whose
// structured output is Out. The result may be nil: the output is then sent
// as structuredContent and, as the protocol recommends, as a text block of
// its JSON.
type TypedToolHandler[In, Out any] func(ctx context.Context, req *CallToolRequest, in In) (*CallToolResult, Out, error)

type toolEntry struct {
	tool    Tool
	cache   *CacheHint
	headers []headerParam // x-mcp-header params of the input schema
	in, out *rpc.Schema
	handler ToolHandler
	// inputBeforeTask: a stateless call asks for its input in the request
	// before it becomes a task (WithInputBeforeTask).
	inputBeforeTask bool
}

// validToolName reports whether name follows the protocol's rule for tool
// names: 1 to 128 characters of A-Z a-z 0-9 _ . - (a loop, where the
// regexp of the rule compiled 128 copies of its class at start-up).
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 128 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// AddTool registers a tool whose input schema (and optional output schema)
// is given as JSON Schema in t. A tool with the same name is replaced.
// Sessions are told that the list changed. The error names what is wrong
// with t: a bad name, a schema that is not an object schema or does not
// compile.
func (s *Server) AddTool(t *Tool, h ToolHandler, opts ...RegisterOption) error {
	if h == nil {
		return fmt.Errorf("mcp: tool %q: nil handler", t.Name)
	}
	e, err := newToolEntry(t, h)
	if err != nil {
		return err
	}
	reg := applyOptions(opts)
	e.cache, e.inputBeforeTask = reg.cache, reg.inputBeforeTask
	s.tools.put(t.Name, e)
	s.listChanged("notifications/tools/list_changed", capTools)
	return nil
}

func newToolEntry(t *Tool, h ToolHandler) (*toolEntry, error) {
	if !validToolName(t.Name) {
		return nil, fmt.Errorf("mcp: tool name %q: want 1 to 128 characters of A-Z a-z 0-9 _ . -", t.Name)
	}
	e := &toolEntry{tool: *t, handler: h}
	if len(t.InputSchema) == 0 {
		e.tool.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	var err error
	if e.in, err = compileToolSchema(e.tool.InputSchema, t.Name, "inputSchema"); err != nil {
		return nil, err
	}
	if len(t.OutputSchema) > 0 {
		if e.out, err = compileToolSchema(t.OutputSchema, t.Name, "outputSchema"); err != nil {
			return nil, err
		}
	}
	if !mayCarryHeaders(e.tool.InputSchema) {
		return e, nil
	}
	in, _ := decodeInstance(e.tool.InputSchema) // JSON: compileToolSchema checked it
	if e.headers, err = headerParamsOf(in); err != nil {
		return nil, fmt.Errorf("mcp: tool %q: %w", t.Name, err)
	}
	return e, nil
}

// AddTool registers a tool with typed arguments and output. When t has no
// input schema it is derived from In (struct fields by their json names,
// required unless omitempty or omitzero); likewise the output schema from
// Out, unless Out is an interface type. Arguments are validated against
// the input schema, then decoded into In.
//
// A field's `jsonschema:"…"` tag adds to its schema: free text is the
// description; a tag that begins with KEYWORD= lists keywords, separated by
// commas (a comma ends a value only where another KEYWORD= follows):
//
//	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=10,description=how many, at most"`
//	Sort  string `json:"sort" jsonschema:"enum=asc|desc"`
//
// The keywords are description, title, enum, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern,
// format, default and examples; enum and examples separate their values
// with |, which are strings for a string field and JSON otherwise. On a
// slice or array field the keywords that constrain a value apply to its
// items. A tag that cannot be read, or a default or example the field's
// schema refuses, is an error. docs/mcp-server.md ("Schemas from Go
// types") has the whole mapping.
func AddTool[In, Out any](s *Server, t *Tool, h TypedToolHandler[In, Out], opts ...RegisterOption) error {
	if h == nil {
		return fmt.Errorf("mcp: tool %q: nil handler", t.Name)
	}
	tool := *t
	var err error
	if len(tool.InputSchema) == 0 {
		if tool.InputSchema, err = schemaFor[In](); err != nil {
			return fmt.Errorf("mcp: tool %q: input: %w", t.Name, err)
		}
	}
	outType := reflect.TypeFor[Out]()
	structured := outType.Kind() != reflect.Interface
	if len(tool.OutputSchema) == 0 && structured {
		if tool.OutputSchema, err = schemaFor[Out](); err != nil {
			return fmt.Errorf("mcp: tool %q: output: %w", t.Name, err)
		}
	}
	inPlan, outPlan := planPlain(reflect.TypeFor[In]()), planPlain(outType)
	return s.AddTool(&tool, func(ctx context.Context, req *CallToolRequest) (*CallToolResult, error) {
		var in In // callTool has set absent arguments to {}
		if err := decodePlain(inPlan, req.Params.Arguments, argsChecked(req), &in); err != nil {
			return nil, rpc.InvalidParams("invalid arguments: " + rpc.DecodeReason(err))
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return nil, err
		}
		if res == nil {
			res = &CallToolResult{}
		}
		if structured && len(res.StructuredContent) == 0 {
			b, err := encodePlain(outPlan, out)
			if err != nil {
				return nil, fmt.Errorf("mcp: tool %q: cannot encode the output: %w", t.Name, err)
			}
			res.StructuredContent = b
			if len(res.Content) == 0 {
				res.Content = []ContentBlock{Text(string(b))}
			}
		}
		return res, nil
	}, opts...)
}

// RemoveTools unregisters tools by name; sessions are told when any was
// registered.
func (s *Server) RemoveTools(names ...string) {
	if s.tools.remove(names...) {
		s.listChanged("notifications/tools/list_changed", capTools)
	}
}

// listTools answers tools/list, one page at a time.
func (s *Server) listTools(ctx context.Context, ss *ServerSession, p *PaginatedRequestParams) (*ListToolsResult, error) {
	page, next, err := s.tools.page(string(p.Cursor), s.opts.PageSize)
	if err != nil {
		return nil, err
	}
	setCache(ctx, pageHint(s.opts.Cache, page, func(e *toolEntry) *CacheHint { return e.cache }))
	f := ss.features()
	out := &ListToolsResult{Tools: make([]Tool, 0, len(page)), NextCursor: Cursor(next)}
	for _, e := range page {
		out.Tools = append(out.Tools, downgradeTool(e.tool, f))
	}
	return out, nil
}

// callTool answers tools/call: unknown tool → -32602; arguments checked
// against the input schema (a failure is an isError result, or -32602 with
// InvalidArgumentsAsError); a task-augmented call (2025-11-25), or a
// stateless call under the tasks extension of a tool that supports tasks,
// becomes a task; the result's structuredContent is checked against the
// output schema.
func (s *Server) callTool(ctx context.Context, ss *ServerSession, p *CallToolRequestParams) (*CallToolOutcome, error) {
	e, c, done, out, err := s.prepareToolCall(ctx, ss, p)
	if done {
		return out, err
	}
	req := newToolRequest(ss, p, c)
	res, err := runWithInput(ctx, ss, c, func(ctx context.Context) (*CallToolResult, error) { return s.runTool(ctx, e, req) })
	res, err = undeclaredAsked(c, res, err)
	if err != nil {
		return nil, err
	}
	return &CallToolOutcome{Value: *res}, nil
}

// prepareToolCall is callTool up to running the tool in the call: it finds
// the tool and checks the call, and answers it itself (done) when the call
// is refused, its arguments fail the input schema, or it becomes a task.
// It is out of line so that what it needs is off the stack while the tool
// runs (as for scanStatelessCall).
func (s *Server) prepareToolCall(ctx context.Context, ss *ServerSession, p *CallToolRequestParams) (e *toolEntry, c *callState, done bool, _ *CallToolOutcome, _ error) {
	paramsDecoded(ctx, p.Meta, p.Arguments)
	e, ok := s.tools.get(p.Name)
	if !ok {
		return nil, nil, true, nil, rpc.InvalidParams(fmt.Sprintf("unknown tool %q", p.Name))
	}
	if err := checkTaskMode(e, ss, p); err != nil {
		return nil, nil, true, nil, err
	}
	c = callOf(ctx, ss)
	asTask, err := s.statelessTaskMode(e, c)
	if err != nil {
		return nil, nil, true, nil, err
	}
	if len(p.Arguments) == 0 {
		p.Arguments = json.RawMessage(`{}`)
	}
	// The arguments come from a message the strict parser accepted, so
	// the fast validator may vouch for them; otherwise they are decided
	// and explained the slow way.
	if err := e.in.ValidateJSON(p.Arguments); err != nil {
		verr := rpc.SchemaError(rpc.CodeInvalidParams, "invalid arguments: ", err)
		if !errors.As(err, new(*rpc.ValidationError)) || s.opts.InvalidArgumentsAsError {
			return nil, nil, true, nil, verr
		}
		return nil, nil, true, &CallToolOutcome{Value: ToolError(verr.Message)}, nil
	}
	if asTask {
		out, err := s.startStatelessTask(ctx, e, c, p)
		return nil, nil, true, out, err
	}
	if p.Task != nil && ss.tasksEnabled() {
		t, err := s.startToolTask(ctx, ss, e, c, p)
		if err != nil {
			return nil, nil, true, nil, err
		}
		return nil, nil, true, &CallToolOutcome{Value: CreateTaskResult{Task: t}}, nil
	}
	return e, c, false, nil, nil
}

// newToolRequest is the request a tool's handler gets for the call p of
// session ss (nil for a stateless call) served as c, once prepareToolCall
// has admitted it. p's arguments are then text a strict reading has
// accepted: the generated decoder's, which copies them from the message
// the parser checked or decodes params set since with rpc.DecodeJSON, or
// prepareToolCall's {}; the input schema's check (rpc.Schema.ValidateJSON)
// has accepted them too.
func newToolRequest(ss *ServerSession, p *CallToolRequestParams, c *callState) *CallToolRequest {
	return &CallToolRequest{Session: ss, Params: p, call: c, args: p.Arguments}
}

// argsChecked reports whether req's arguments are still those it began
// with (newToolRequest), which need no check of their text when decoded;
// arguments set since are decoded and checked in full.
func argsChecked(req *CallToolRequest) bool {
	return req.Params != nil && sameText(req.Params.Arguments, req.args)
}

// sameText reports whether a and b are the same bytes in memory, not
// only equal ones.
func sameText(a, b []byte) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// startToolTask runs a task-augmented call of tool e (2025-11-25) as a
// task of the session.
func (s *Server) startToolTask(ctx context.Context, ss *ServerSession, e *toolEntry, c *callState, p *CallToolRequestParams) (Task, error) {
	req := newToolRequest(ss, p, c)
	return ss.taskRunner().start(ctx, ss, p.Task, func(ctx context.Context) (any, error) {
		res, err := runWithInput(ctx, ss, c, func(ctx context.Context) (*CallToolResult, error) { return s.runTool(ctx, e, req) })
		return undeclaredAsked(c, res, err)
	})
}

// undeclaredAsked returns what ends a tool's run of c, in the call or in a
// task: a question the client did not declare it can answer is a tool error
// naming what is missing in a handshake session, -32021 in a stateless
// request; other outcomes pass.
func undeclaredAsked(c *callState, res *CallToolResult, err error) (*CallToolResult, error) {
	switch {
	case !errors.Is(err, ErrNotDeclared):
		return res, err
	case c.stateless:
		return nil, asRPC(err)
	}
	return ToolError(err.Error()), nil
}

// runTool runs the handler and checks what it returned.
func (s *Server) runTool(ctx context.Context, e *toolEntry, req *CallToolRequest) (*CallToolResult, error) {
	res, err := e.handler(ctx, req)
	return s.toolOutcome(ctx, e, req, res, err)
}

// toolOutcome is runTool once the handler has returned res and err, out
// of line so that what it needs is off the stack while the handler runs
// (as for scanStatelessCall).
func (s *Server) toolOutcome(ctx context.Context, e *toolEntry, req *CallToolRequest, res *CallToolResult, err error) (*CallToolResult, error) {
	if err != nil {
		var rerr *rpc.Error
		if errors.As(err, &rerr) {
			return nil, rerr
		}
		var ir *InputRequired
		if errors.As(err, &ir) {
			return nil, ir
		}
		if errors.Is(err, ErrNotDeclared) {
			return nil, err // callTool says what is missing, as the era asks
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return ToolError(err.Error()), nil
	}
	if res == nil {
		res = &CallToolResult{}
	}
	if res.Content == nil {
		res.Content = []ContentBlock{}
	}
	if e.out != nil && !isError(res) {
		if len(res.StructuredContent) == 0 {
			s.logFor(req.Session).LogAttrs(ctx, slog.LevelError, "mcp: tool result lacks the structuredContent its outputSchema requires",
				append(requestAttrs(ctx, "tools/call"), slog.String(logx.Tool, e.tool.Name), slog.Int(logx.Code, rpc.CodeInternalError))...)
			return nil, rpc.InternalError()
		}
		if err := s.checkOutput(e, res.StructuredContent); err != nil {
			s.logFor(req.Session).LogAttrs(ctx, slog.LevelError, "mcp: tool result does not match its outputSchema",
				append(requestAttrs(ctx, "tools/call"), slog.String(logx.Tool, e.tool.Name), slog.Int(logx.Code, rpc.CodeInternalError), slog.String(logx.Error, err.Error()))...)
			return nil, rpc.InternalError()
		}
	}
	out := downgradeToolResult(*res, req.Session.features())
	return &out, nil
}

// checkOutput validates a tool's structured output against its output
// schema. The handler wrote the bytes, which may be anything: the fast
// validator answers Unknown for text that is not strict JSON (a repeated
// name, say), and the slow path then decides.
func (s *Server) checkOutput(e *toolEntry, out json.RawMessage) error {
	return e.out.ValidateJSON(out)
}

// ToolError returns a tool result that reports a failure to the model:
// isError set and the message as text.
func ToolError(message string) *CallToolResult {
	yes := true
	return &CallToolResult{Content: []ContentBlock{Text(message)}, IsError: &yes}
}

func isError(r *CallToolResult) bool { return r.IsError != nil && *r.IsError }

// checkTaskMode applies a tool's execution.taskSupport: a call in the
// wrong mode is -32601, as the protocol says.
func checkTaskMode(e *toolEntry, ss *ServerSession, p *CallToolRequestParams) error {
	mode := e.taskSupport()
	tasks := ss.tasksEnabled()
	switch {
	case p.Task != nil && tasks && mode == "forbidden":
		return rpc.NewError(rpc.CodeMethodNotFound, fmt.Sprintf("tool %q cannot run as a task", p.Name))
	case p.Task == nil && mode == "required" && tasks:
		return rpc.NewError(rpc.CodeMethodNotFound, fmt.Sprintf("tool %q runs only as a task", p.Name))
	}
	return nil
}
