package mcp

import (
	"context"
	"io"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/internal/stackroom"
	"github.com/schemarpc/schemarpc/rpc"
)

// Server is an MCP server of both eras: handshake sessions (2024-11-05 …
// 2025-11-25) and stateless requests (2026-07-28), side by side.
// Register tools, resources, prompts and a completion handler, then serve it
// on stdio ([Server.ServeStdio]), any transport ([Server.Serve]) or Streamable
// HTTP ([NewStreamableHTTPHandler]). One Server serves any number of
// sessions; registrations may change while it serves, and sessions are told.
type Server struct {
	info Implementation
	opts ServerOptions
	log  *slog.Logger
	// router serves the handshake era's methods, put on it by
	// handshakeRouter at the first handshake message, and those added with
	// Register, which both eras serve.
	router        *rpc.Router
	handshakeOnce sync.Once

	mu        sync.Mutex
	sessions  map[*ServerSession]struct{}
	tools     *registry[*toolEntry]
	resources *registry[*resourceEntry]
	templates *registry[*templateEntry]
	prompts   *registry[*promptEntry]
	complete  CompletionHandler
	tasks     *taskRunner
	listens   map[*listener]struct{}
	relays    []*func(change) // pass changes on to other replicas (see fanout.go)
	custom    map[string]bool // methods added with Register

	sealer *StateSealer
	mem    *budget // ServerOptions.MemoryBudget
	// stateless and handshake say whether the server serves any version
	// of the era (ServerOptions.ProtocolVersions), decided once.
	stateless, handshake bool
	infoOnce             sync.Once
	infoRaw              []byte

	statelessOnce   sync.Once
	statelessRoutes *rpc.Router // the stateless methods; see statelessRouter
	metaMemo        metaMemo    // the last stateless _meta admitted (statelessmeta.go)
}

// ServerOptions configure a Server. The zero value is usable.
type ServerOptions struct {
	// Instructions tell the client how to use the server; sent in the
	// initialize result when not empty.
	Instructions string
	// Logger receives the server's own logs. Nil passes the warnings and
	// errors to slog.Default() (standard error, unless the program changed
	// it), so that the cause of a failure the client sees only as -32603
	// is never lost; slog.New(slog.DiscardHandler) silences the server.
	// On stdio it must not write to stdout. Every message received is
	// logged at debug level, handler failures and panics at error with the
	// request's method and id, sessions starting and ending at info;
	// params never unless LogParams (docs/operations.md, "Logs").
	Logger *slog.Logger
	// LogParams adds to the debug lines the params of every message
	// received (tool arguments included), cut after 1 KiB, and the
	// reasons of error answers, which may quote them. Off by default:
	// params may hold secrets. For development.
	LogParams bool
	// PageSize is how many items a list result holds before it offers a
	// cursor for the next page; 0 means 100.
	PageSize int
	// InvalidArgumentsAsError makes tool arguments that fail the tool's
	// input schema a JSON-RPC -32602 error instead of the default, a tool
	// result with isError set, which the model can act on.
	InvalidArgumentsAsError bool
	// Tasks enables tasks in both eras; tools opt in through
	// Tool.Execution.TaskSupport. In 2025-11-25 a tools/call with a task
	// member runs in the background, and tasks/get, tasks/result,
	// tasks/list and tasks/cancel serve its state. In 2026-07-28 the server
	// offers the tasks extension (io.modelcontextprotocol/tasks): a
	// request that declares it gets a task for such a tool, served by
	// tasks/get, tasks/update and tasks/cancel (docs/mcp-server.md, §8). A
	// task is kept for the ttl the client asks, between 1 s and 24 h (1 h
	// when it names none), after it ends. Tasks are kept in process
	// memory, or, over Streamable HTTP, in HTTPOptions.Tasks.
	Tasks bool
	// HasTools, HasResources and HasPrompts advertise the capability even
	// before anything of that kind is registered (a server that adds tools
	// later, say). Otherwise a capability is advertised when something of
	// its kind is registered at initialize time.
	HasTools, HasResources, HasPrompts bool
	// RootsListChanged is called when a client reports that its roots
	// changed (notifications/roots/list_changed).
	RootsListChanged func(ctx context.Context, ss *ServerSession)
	// Initialized is called when a client has finished the handshake
	// (notifications/initialized).
	Initialized func(ctx context.Context, ss *ServerSession)
	// MaxInFlight bounds the requests a session runs at once; more wait
	// for a place. 0 means rpc.DefaultMaxInFlight (64).
	MaxInFlight int
	// MaxQueued bounds the requests of a session waiting for a place; past
	// it a request is answered with -32000 "server busy" at once, and the
	// session goes on. 0 means rpc.DefaultMaxQueued (1000); negative, no
	// queue (busy as soon as MaxInFlight requests run).
	MaxQueued int
	// MaxMessageBytes bounds one message ServeStdio reads (one line). A
	// longer line is skipped without being kept whole and answered with
	// -32600 and id null; the next line is served. 0 means
	// rpc.DefaultMaxMessageSize (4 MiB). Streamable HTTP bounds bodies
	// with HTTPOptions.MaxBodyBytes instead.
	MaxMessageBytes int

	// MemoryBudget bounds, in bytes, what the server holds for its clients:
	// the requests in flight, from the start of an HTTP body until every
	// call it carried has returned (calls waiting for the client's answer
	// included), and the events a MemoryEventStore keeps. Past it new work
	// is refused with a retry hint (HTTP 503 and Retry-After; -32000 with
	// retryAfterMs elsewhere) while the work held goes on; under pressure
	// stored events are thinned and the calls of HTTP sessions whose client
	// is gone are cancelled. 0 means DefaultMemoryBudget (256 MiB);
	// negative, no bound. See docs/security.md, "Memory budget".
	MemoryBudget int64
	// MemoryShare bounds what one client holds of MemoryBudget: a
	// principal (WithPrincipal, set by auth.Require), else a session, else
	// (a 2026-07-28 request over HTTP) a remote address. 0 means a quarter
	// of MemoryBudget; negative, no bound but the budget.
	MemoryShare int64

	// ProtocolVersions limits the versions served, handshake and stateless
	// alike; nil serves every version of SupportedVersions and
	// StatelessVersions. Without a handshake version the server is
	// stateless only and refuses initialize with -32022 and the versions it
	// serves; without a stateless version it serves sessions only.
	ProtocolVersions []string
	// StateKey is the AES key (16, 24 or 32 bytes) that seals the state a
	// handler carries between the rounds of a multi-round-trip request;
	// nil means a random key per process. Servers behind a load balancer
	// share one key.
	StateKey []byte
	// StateTTL bounds how long sealed state stays valid; 0 means 10
	// minutes.
	StateTTL time.Duration
	// Cache is the caching hint of server/discover and of registrations
	// without their own (see WithCache), for the stateless protocol.
	Cache CacheHint
	// ShutdownGrace bounds how long the calls in flight of a session
	// served by Serve or ServeStdio may still run after the client's input
	// ends or Serve's context is done; past it they are cancelled. 0 means
	// DefaultShutdownGrace (10 seconds); negative, cancel at once.
	ShutdownGrace time.Duration
	// Middleware runs, outermost first, around every message a client
	// sends, in both eras and on every transport: requests and
	// notifications, before the lifecycle and capability checks, so it
	// sees every answer, refusals included. SessionFromContext gives the
	// session (nil for a 2026-07-28 request over HTTP).
	Middleware []rpc.Middleware
	// Outgoing runs, outermost first, around every request and
	// notification the server sends a client (rpc.WithOutgoing): calls
	// back to the client, logs, progress, list changes.
	Outgoing []rpc.Middleware
	// ErrorDetail is the debug error policy: a handler's failure that is
	// not an *rpc.Error, or a panic, reaches the client as -32603 with the
	// cause in error.data ({"cause": "…"}, never a stack trace) instead of
	// a bare "internal error". For development only: causes can hold
	// paths, addresses or secrets. Tool handlers' errors are tool results
	// either way.
	ErrorDetail bool
}

// NewServer returns a server that introduces itself as info. opts may be
// nil. It panics when opts.StateKey is set but not 16, 24 or 32 bytes long.
func NewServer(info *Implementation, opts *ServerOptions) *Server {
	// Registering tools runs deep (a tool's schema is inferred and
	// compiled): the room is made while the caller's stack is shallow.
	stackroom.Reserve()
	s := &Server{router: rpc.NewRouter(), sessions: map[*ServerSession]struct{}{}, listens: map[*listener]struct{}{}}
	if info != nil {
		s.info = *info
	}
	if opts != nil {
		s.opts = *opts
	}
	sealer, err := NewStateSealer(s.opts.StateKey, s.opts.StateTTL)
	if err != nil {
		panic("mcp: ServerOptions.StateKey: " + err.Error())
	}
	s.sealer = sealer
	s.mem = newBudget(s.opts.MemoryBudget, s.opts.MemoryShare)
	s.stateless = slices.ContainsFunc(StatelessVersions(), s.serves)
	s.handshake = slices.ContainsFunc(SupportedVersions(), s.serves)
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = logx.Fallback()
	}
	if s.opts.PageSize <= 0 {
		s.opts.PageSize = 100
	}
	s.tools = newRegistry[*toolEntry]()
	s.resources = newRegistry[*resourceEntry]()
	s.templates = newRegistry[*templateEntry]()
	s.prompts = newRegistry[*promptEntry]()
	s.tasks = newTaskRunner(NewMemoryTaskStore())
	return s
}

// Serve serves one session over t until the peer closes its input or ctx
// is done. Either way the calls in flight get ServerOptions.ShutdownGrace
// to finish and have their responses written, while new requests are
// refused with -32000 "server shutting down" (see ServerSession.Shutdown).
// It returns nil at a clean end of input, ctx's error after ctx is done.
func (s *Server) Serve(ctx context.Context, t rpc.Transport) error {
	ss := s.connect(t, "")
	select {
	case <-ctx.Done():
		grace := s.shutdownGrace()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), max(grace, 0))
		defer cancel()
		ss.Shutdown(sctx)
		return ctx.Err()
	case <-ss.Done():
		return ss.Wait()
	}
}

// shutdownGrace is ServerOptions.ShutdownGrace with its default.
func (s *Server) shutdownGrace() time.Duration {
	if s.opts.ShutdownGrace == 0 {
		return DefaultShutdownGrace
	}
	return s.opts.ShutdownGrace
}

// ServeStdio serves one session on the process's stdin and stdout: one JSON
// message per line. stdout carries nothing but protocol messages. At the end
// of stdin, or when ctx is done, the requests in flight get
// ServerOptions.ShutdownGrace to finish and have their responses written
// before ServeStdio returns. (After ctx is done, the goroutine reading stdin
// stays blocked until stdin closes or the process exits.)
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.serveStream(ctx, io.NopCloser(os.Stdin), nopWriteCloser{os.Stdout})
}

// serveStream serves one session of newline-delimited messages, read from
// r and written to w, under MaxMessageBytes.
func (s *Server) serveStream(ctx context.Context, r io.Reader, w io.Writer) error {
	var opts []rpc.Option
	if s.opts.MaxMessageBytes > 0 {
		opts = append(opts, rpc.WithMaxMessageSize(s.opts.MaxMessageBytes))
	}
	return s.Serve(ctx, rpc.NewStreamTransport(r, w, opts...))
}

// nopWriteCloser keeps os.Stdout open when the transport closes.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// connect starts a session over t. id is its Mcp-Session-Id on Streamable
// HTTP and "" elsewhere.
func (s *Server) connect(t rpc.Transport, id string, extra ...rpc.Option) *ServerSession {
	ss := &ServerSession{
		server:   s,
		id:       id,
		logLevel: -1,
	}
	ss.ready.Add(1)
	transport := serverTransportName(t)
	ss.log = sessionLogger(s.log, transport, id)
	opts := append([]rpc.Option{rpc.WithHandler(s.sessionHandler(ss)), rpc.WithLogger(ss.log), rpc.WithLogParams(s.opts.LogParams), rpc.WithShutdownGrace(s.shutdownGrace()), rpc.WithOutgoing(s.opts.Outgoing...), rpc.WithErrorDetail(s.opts.ErrorDetail), rpc.WithAbandonHook(ss.abandoned), rpc.WithCancelHook(ss.cancelAllCalls)}, s.sessionLimits()...)
	opts = append(opts, extra...)
	s.mu.Lock()
	s.sessions[ss] = struct{}{}
	s.mu.Unlock()
	ss.conn = rpc.NewConn(newSessionTransport(t, ss), opts...)
	ss.ready.Done()
	ss.log.LogAttrs(context.Background(), slog.LevelInfo, "mcp: session started")
	ss.conn.OnDone(ss.closed)
	return ss
}

// dropSession forgets a session that ended.
func (s *Server) dropSession(ss *ServerSession) {
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
}

// Sessions returns the sessions being served, in no particular order.
func (s *Server) Sessions() []*ServerSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*ServerSession, 0, len(s.sessions))
	for ss := range s.sessions {
		out = append(out, ss)
	}
	return out
}
