package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// Handler answers calls. The result is encoded as JSON (a json.RawMessage is
// sent as it is); an error is sent as described for [Error]. For
// notifications both are discarded.
type Handler interface {
	Handle(ctx context.Context, req *Request) (result any, err error)
}

// HandlerFunc adapts a function to [Handler].
type HandlerFunc func(ctx context.Context, req *Request) (result any, err error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, req *Request) (any, error) { return f(ctx, req) }

// Middleware wraps a Handler; it runs around every call a [Router] receives,
// before the method is looked up, so it also sees unknown methods.
type Middleware func(Handler) Handler

// ParamStructure says how a method accepts params.
type ParamStructure int

const (
	// ByName: params are an object (the default).
	ByName ParamStructure = iota
	// ByPosition: params are an array, in the order of Method.ParamNames.
	ByPosition
	// Either: an object, or an array in the order of Method.ParamNames.
	Either
)

// Method describes one method registered on a [Router].
type Method struct {
	// Params is the params schema; nil leaves params unchecked.
	Params *Schema
	// ParamStructure says whether params come by name, by position or both.
	ParamStructure ParamStructure
	// ParamNames names the positional params in order. By-position params
	// are turned into an object with these names before validation, so the
	// schema describes the object form and the handler sees an object.
	ParamNames []string
	// Notification marks a method meant to be sent as a notification. Sent
	// as a request it still runs, and is answered with a null result.
	Notification bool
	// Handler runs the call once params are valid.
	Handler HandlerFunc
}

// Router dispatches calls to registered methods: it looks the method up
// (-32601 when unknown), validates the params against the method's schema
// (-32602 with the violations in error.data) and runs the handler, all inside
// the middleware chain. A Router is a [Handler]; it is safe for concurrent
// use, including registration while serving.
type Router struct {
	mu      sync.RWMutex
	methods map[string]*Method
	mws     []Middleware
	chain   atomic.Pointer[Handler]
}

// RouterOption configures a Router.
type RouterOption func(*Router)

// WithMiddleware adds middleware, outermost first.
func WithMiddleware(mw ...Middleware) RouterOption {
	return func(r *Router) { r.mws = append(r.mws, mw...) }
}

// NewRouter returns an empty router.
func NewRouter(opts ...RouterOption) *Router {
	r := &Router{methods: make(map[string]*Method)}
	for _, o := range opts {
		o(r)
	}
	r.rebuild()
	return r
}

// Use adds middleware around every call, outermost first.
func (r *Router) Use(mw ...Middleware) {
	r.mu.Lock()
	r.mws = append(r.mws, mw...)
	r.mu.Unlock()
	r.rebuild()
}

func (r *Router) rebuild() {
	r.mu.RLock()
	var h Handler = HandlerFunc(r.dispatch)
	for i := len(r.mws) - 1; i >= 0; i-- {
		h = r.mws[i](h)
	}
	r.mu.RUnlock()
	r.chain.Store(&h)
}

// Register adds a method. Like http.ServeMux it panics on programming
// errors: an empty name, a nil handler, a duplicate name, or positional
// params without names.
func (r *Router) Register(name string, m Method) {
	if name == "" {
		panic("rpc: Register with an empty method name")
	}
	if m.Handler == nil {
		panic(fmt.Sprintf("rpc: Register %q with a nil handler", name))
	}
	if m.ParamStructure != ByName && len(m.ParamNames) == 0 {
		panic(fmt.Sprintf("rpc: Register %q: positional params need ParamNames", name))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.methods[name]; dup {
		panic(fmt.Sprintf("rpc: method %q registered twice", name))
	}
	r.methods[name] = &m
}

// Methods returns the registered method names, sorted.
func (r *Router) Methods() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.methods))
	for n := range r.methods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Handle runs the call through the middleware chain and the method.
func (r *Router) Handle(ctx context.Context, req *Request) (any, error) {
	return (*r.chain.Load()).Handle(ctx, req)
}

func (r *Router) dispatch(ctx context.Context, req *Request) (any, error) {
	r.mu.RLock()
	m, ok := r.methods[req.Method]
	r.mu.RUnlock()
	if !ok {
		return nil, MethodNotFound(req.Method)
	}
	if err := m.checkParams(req); err != nil {
		return nil, err
	}
	res, err := m.Handler(ctx, req)
	if m.Notification && err == nil {
		res = nil
	}
	return res, err
}

// checkParams normalises by-position params and validates them.
func (m *Method) checkParams(req *Request) error {
	if m.fastParams(req) {
		return nil
	}
	tree, err := req.paramsTree()
	if err != nil {
		return InvalidParams(err.Error())
	}
	var rename map[string]string
	switch t := tree.(type) {
	case []any:
		if m.ParamStructure == ByName {
			break
		}
		if len(t) > len(m.ParamNames) {
			return InvalidParams(fmt.Sprintf("expected at most %d positional params, got %d", len(m.ParamNames), len(t)))
		}
		obj := make(map[string]any, len(t))
		rename = make(map[string]string, len(t))
		for i, v := range t {
			obj[m.ParamNames[i]] = v
			rename[m.ParamNames[i]] = strconv.Itoa(i)
		}
		var raw bytes.Buffer
		if err := encodeValue(&raw, obj); err != nil { // numbers are json.Number: text kept exactly
			return InvalidParams(err.Error())
		}
		req.Params, req.tree, req.hasTree = raw.Bytes(), obj, true
		tree = obj
	case map[string]any:
		if m.ParamStructure == ByPosition {
			return InvalidParams("params must be given by position, as an array")
		}
	case nil:
		// Absent params are checked as empty params, so a schema with
		// required members still reports them missing. The schema describes
		// the object form whenever positional params are named, so only an
		// array-only schema gets an empty array.
		tree = map[string]any{}
		if m.ParamNames == nil && arrayOnly(m.Params) {
			tree = []any{}
		}
	}
	if m.Params == nil {
		return nil
	}
	data, err := json.Marshal(tree)
	if err != nil {
		return InvalidParams("invalid params: " + err.Error())
	}
	fails, err := m.Params.failures(data)
	if err != nil {
		return &Error{Code: CodeInternalError, Message: "the params schema does not compile: " + err.Error()}
	}
	if len(fails) > 0 {
		return violationsError(CodeInvalidParams, "invalid params: ", violations(fails, rename))
	}
	return nil
}

// arrayOnly reports whether sch accepts arrays and no objects, by its
// "type" keyword.
func arrayOnly(sch *Schema) bool {
	if sch == nil {
		return false
	}
	v := sch.fast()
	return v != nil && v.ArrayOnly()
}

// fastParams reports whether the params are known to pass checkParams
// without building a tree: by-name params (or none) that the method's
// compiled fast validator accepts.
func (m *Method) fastParams(req *Request) bool {
	if m.ParamStructure == ByPosition {
		return false
	}
	data := req.Params
	if len(data) == 0 {
		if m.ParamNames == nil && arrayOnly(m.Params) {
			return false // absent params are read as []
		}
		data = emptyParams
	}
	if i := jsonscan.SkipSpace(data, 0); i >= len(data) || data[i] != '{' {
		return false
	}
	if req.paramsScanned() {
		if req.recurEnd != 0 {
			return validScannedRecurring(m.Params, data, int(req.recurStart), int(req.recurEnd))
		}
		return validScanned(m.Params, data)
	}
	return validFast(m.Params, data)
}

// emptyParams stands for absent params, which are checked as {}.
var emptyParams = []byte("{}")
