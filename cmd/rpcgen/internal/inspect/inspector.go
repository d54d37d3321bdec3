package inspect

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/validate"
	"github.com/schemarpc/schemarpc/mcp"
)

// Config says which server to inspect, and how.
type Config struct {
	// Transport reaches the server: the inspector taps it to see every
	// message. It is fixed here; the page cannot change it.
	Transport mcp.ClientTransport
	// Target names the server for the page: its command line or URL.
	Target string
	// ProtocolVersions the client offers, preferred first; nil offers
	// every version, 2026-07-28 first.
	ProtocolVersions []string
	// Roots are the answer the page suggests to the server's roots/list.
	Roots []mcp.Root
	// ClientVersion is the version the client introduces itself with.
	ClientVersion string
	// Logger receives the client's warnings; nil discards them.
	Logger *slog.Logger
}

// Inspector is a running inspector: a client session with the server, and
// the page's server on a loopback port.
type Inspector struct {
	cfg     Config
	token   string
	url     string
	events  *events
	rec     *recorder
	asks    *asks
	session *mcp.ClientSession
	srv     *http.Server
	served  chan struct{} // closed when Serve has returned
	closing chan struct{} // closed by Close: live streams end
	close   sync.Once
	closed  error

	toolsMu sync.Mutex
	tools   map[string]*mcp.Tool // the tools last listed, by name
}

// Start connects to the server and starts serving the page on 127.0.0.1 at
// a port the system picks. ctx bounds the connection.
func Start(ctx context.Context, cfg Config) (*Inspector, error) {
	if cfg.Transport == nil {
		return nil, errors.New("inspect: no server to inspect")
	}
	set, err := validate.Open(validate.FollowSet)
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ev := newEvents()
	in := &Inspector{cfg: cfg, token: newToken(), events: ev, rec: newRecorder(set, ev), asks: newAsks(ev),
		served: make(chan struct{}), closing: make(chan struct{}), tools: map[string]*mcp.Tool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("inspect: listening on the loopback interface: %w", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "rpcgen-inspect", Version: cfg.ClientVersion}, &mcp.ClientOptions{
		CreateMessage:    in.createMessage,
		Elicit:           in.elicit,
		ElicitURL:        true,
		ListRoots:        in.listRoots,
		ProtocolVersions: cfg.ProtocolVersions,
		Logger:           logger,
	})
	in.session, err = client.Connect(ctx, &mcp.TapTransport{Transport: cfg.Transport, Tap: in.rec.record})
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("inspect: connecting to %s: %w", cfg.Target, err)
	}
	host := ln.Addr().String()
	in.url = "http://" + host + "/?token=" + in.token
	in.srv = &http.Server{
		Handler:           &guard{token: in.token, host: host, origin: "http://" + host, next: in.routes()},
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	go func() {
		defer close(in.served)
		in.srv.Serve(ln)
	}()
	go func() {
		err := in.session.Wait()
		closed := map[string]string{}
		if err != nil {
			closed["error"] = err.Error()
		}
		ev.add("closed", closed)
	}()
	return in, nil
}

// URL is the page's address, token included: whoever has it can use the
// client, so it is shown only to the person who started the inspector.
func (in *Inspector) URL() string { return in.url }

// Close ends the live streams, stops serving and closes the session (a
// spawned server is stopped). Later calls return what the first did.
func (in *Inspector) Close() error {
	in.close.Do(func() {
		close(in.closing)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := in.srv.Shutdown(ctx)
		<-in.served
		in.closed = errors.Join(err, in.session.Close())
	})
	return in.closed
}

func (in *Inspector) createMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	var r mcp.CreateMessageResult
	if err := in.asks.ask(ctx, "sampling/createMessage", p, nil, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (in *Inspector) elicit(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	var r mcp.ElicitResult
	if err := in.asks.ask(ctx, "elicitation/create", p, nil, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (in *Inspector) listRoots(ctx context.Context) (*mcp.ListRootsResult, error) {
	suggested := &mcp.ListRootsResult{Roots: in.cfg.Roots}
	if suggested.Roots == nil {
		suggested.Roots = []mcp.Root{}
	}
	var r mcp.ListRootsResult
	if err := in.asks.ask(ctx, "roots/list", nil, suggested, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
