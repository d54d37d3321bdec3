package mcp

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// The memory budget bounds the bytes one Server holds for its clients: the
// requests in flight (from the moment an HTTP body starts to be read until
// every call it carried has returned, calls that wait for the client's
// answer to a sampling or elicitation request included, and calls waiting
// for a place), and the events a MemoryEventStore keeps for resumption.
// Each client has a share of it, so that one client filling its share
// leaves the rest to the others. Past either bound new work is refused with
// a retry hint: 503 and Retry-After over HTTP, -32000 with data
// {"retryAfterMs", "limit"} on other transports. docs/security.md,
// "Memory budget", says what is counted and what the figures are.

const (
	// DefaultMemoryBudget is the budget of a Server whose
	// ServerOptions.MemoryBudget is 0: 256 MiB. It suits a container of
	// 512 MiB run with GOMEMLIMIT a little below that: the budget counts
	// what is live, and Go's collector lets the heap grow to about twice
	// that between collections unless the limit makes it collect sooner.
	DefaultMemoryBudget = 256 << 20
	// DefaultMemoryShareDivisor gives one client's share of the budget
	// when ServerOptions.MemoryShare is 0: a quarter of it (64 MiB of the
	// default), room for sixteen calls of the largest body
	// (HTTPOptions.MaxBodyBytes, 4 MiB) at once, while three other clients
	// as greedy still fit.
	DefaultMemoryShareDivisor = 4
)

// callOverhead is what a call in flight costs besides its bytes: its
// goroutine's stack and the bookkeeping around it.
const callOverhead = 8 << 10

// retryAfterBudget is the wait a refusal for want of memory asks for.
const retryAfterBudget = time.Second

// budget counts the bytes held per account (a client) against a total and
// a per-account share. A zero bound means none. Its lock is held for
// counting only: reclaimers run outside it.
type budget struct {
	total, share int64

	// used is the bytes counted in all. It changes only through reserve
	// (or by giving back), so that the total holds for the counts kept
	// under mu and for a pipe session's, kept without it (localShare).
	used atomic.Int64

	mu sync.Mutex
	// accounts holds the bytes of every account that has held any. An
	// account that holds nothing stays, so that a call's admission finds
	// it with one lookup and never inserts or deletes, until the map has
	// doubled since the last sweep: then every empty one goes (sweep). A
	// count is added to under mu and given back without it (giveHeld),
	// by what took from it and so keeps it above zero, and out of a sweep,
	// until then.
	accounts map[account]*atomic.Int64
	sweepAt  int
	// last is the account held looked up last, and lastHeld its count
	// in accounts: a client POSTs one call after another under one
	// account, which is then found by comparing its name rather than by
	// hashing it for the map. Only a lookup that then remembers its own
	// account sweeps, so last is never an account a sweep dropped.
	last     account
	lastHeld *atomic.Int64
	// reclaim frees memory that can go when the total is reached: stored
	// events, calls of clients gone. It is replaced, never changed in
	// place, so that take can run a copy outside the lock.
	reclaim []reclaimer
	// lastReclaimer numbers the reclaimers, so that each can be removed.
	lastReclaimer uint64
}

// reclaimer is one function run under pressure, numbered for removal.
type reclaimer struct {
	id uint64
	f  func()
}

// newBudget returns the budget of ServerOptions: total and share where 0
// means the default and a negative value no bound.
func newBudget(total, share int64) *budget {
	switch {
	case total == 0:
		total = DefaultMemoryBudget
	case total < 0:
		total = 0
	}
	switch {
	case share == 0:
		share = total / DefaultMemoryShareDivisor
	case share < 0:
		share = 0
	}
	return &budget{total: total, share: share, accounts: map[account]*atomic.Int64{}, sweepAt: minSweep}
}

// account names whose share bytes are counted against: a principal, a
// session, a remote address, or a session's stored events. Kept as two
// strings, not joined into one, so that naming it per request or per
// event allocates nothing.
type account struct{ kind, name string }

// onPressure adds a reclaimer, run when a request is refused because the
// total is reached, so that the next one may fit. It returns the function
// that removes it again (a closed handler's reclaimers must not keep it,
// or its store, alive for the life of the server); removing twice is
// removing once.
func (b *budget) onPressure(f func()) (remove func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lastReclaimer++
	id := b.lastReclaimer
	b.reclaim = append(b.reclaim[:len(b.reclaim):len(b.reclaim)], reclaimer{id, f})
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		kept := make([]reclaimer, 0, len(b.reclaim))
		for _, r := range b.reclaim {
			if r.id != id {
				kept = append(kept, r)
			}
		}
		b.reclaim = kept
	}
}

// The bounds a take can pass, as its refusal names them.
const (
	limitShare = "memory budget per client"
	limitTotal = "memory budget"
)

// take counts n bytes against a, and returns a's count, from which
// giveHeld gives them back without looking a up again. It returns the
// -32000 error to refuse the work with, counting nothing, when n would
// pass the total or the account's share. A refusal at the total runs the
// reclaimers.
func (b *budget) take(a account, n int64) (*atomic.Int64, *rpc.Error) {
	b.mu.Lock()
	held, limit := b.tryAdd(a, n)
	b.mu.Unlock()
	if limit == "" {
		return held, nil
	}
	if limit == limitTotal {
		b.relieve()
	}
	return nil, budgetExceeded(limit)
}

// relieve runs the reclaimers, outside the lock, after a refusal at the
// total, so that the next request may fit.
func (b *budget) relieve() {
	b.mu.Lock()
	reclaim := b.reclaim
	b.mu.Unlock()
	for _, r := range reclaim {
		r.f()
	}
}

// fits counts n bytes against a when they fit, reporting whether they did;
// it never reclaims (its callers hold locks reclaimers take).
func (b *budget) fits(a account, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, limit := b.tryAdd(a, n)
	return limit == ""
}

// tryAdd counts n bytes against a when they pass no bound, returning a's
// count, and otherwise returns the bound they would pass; b.mu is held.
// A count given back meanwhile (giveHeld) only lowers what is checked.
func (b *budget) tryAdd(a account, n int64) (_ *atomic.Int64, limit string) {
	held := b.held(a)
	switch {
	case b.share > 0 && held.Load()+n > b.share:
		return nil, limitShare
	case !b.reserve(n):
		return nil, limitTotal
	}
	held.Add(n)
	return held, ""
}

// reserve counts n bytes in the total when they fit, reporting whether
// they did.
func (b *budget) reserve(n int64) bool {
	for {
		used := b.used.Load()
		if b.total > 0 && used+n > b.total {
			return false
		}
		if b.used.CompareAndSwap(used, used+n) {
			return true
		}
	}
}

// force counts n bytes whether they fit or not: memory already held that
// cannot be refused, such as the newest event of a stream.
func (b *budget) force(a account, n int64) {
	b.mu.Lock()
	b.held(a).Add(n)
	b.mu.Unlock()
	b.used.Add(n)
}

// give returns n bytes of a.
func (b *budget) give(a account, n int64) {
	b.mu.Lock()
	if held := b.accounts[a]; held != nil {
		held.Add(-n)
	}
	b.mu.Unlock()
	b.used.Add(-n)
}

// giveHeld returns n bytes that take counted in held, without the lock:
// until they are back, held is above zero, so no sweep has let it go.
func (b *budget) giveHeld(held *atomic.Int64, n int64) {
	held.Add(-n)
	b.used.Add(-n)
}

// minSweep is the number of accounts below which empty ones are never
// swept.
const minSweep = 64

// held returns the count of a's bytes, adding it when a has none; b.mu is
// held. Adding one may first sweep the empty ones.
func (b *budget) held(a account) *atomic.Int64 {
	if b.lastHeld != nil && b.last == a {
		return b.lastHeld
	}
	held := b.accounts[a]
	if held == nil {
		if len(b.accounts) >= b.sweepAt {
			for k, held := range b.accounts {
				if held.Load() <= 0 {
					delete(b.accounts, k)
				}
			}
			b.sweepAt = max(minSweep, 2*len(b.accounts))
		}
		held = new(atomic.Int64)
		b.accounts[a] = held
	}
	b.last, b.lastHeld = a, held
	return held
}

// usage returns the bytes counted in all and for a.
func (b *budget) usage(a account) (total, mine int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if held := b.accounts[a]; held != nil {
		mine = held.Load()
	}
	return b.used.Load(), mine
}

// localShare is the share of a session whose account no one else can
// name: one on a pipe or stdio (no session id, so no POST is ever counted
// against it) acting for no principal. Its bytes are counted here, without
// the budget's lock and map, since nothing but the session's own calls
// reaches them.
type localShare struct{ held atomic.Int64 }

// takeLocal counts n bytes against the total and the session's local
// share, as take does for an account.
func (b *budget) takeLocal(l *localShare, n int64) *rpc.Error {
	for {
		held := l.held.Load()
		if b.share > 0 && held+n > b.share {
			return budgetExceeded(limitShare)
		}
		if l.held.CompareAndSwap(held, held+n) {
			break
		}
	}
	if b.reserve(n) {
		return nil
	}
	l.held.Add(-n)
	b.relieve()
	return budgetExceeded(limitTotal)
}

// giveLocal returns n bytes of a local share.
func (b *budget) giveLocal(l *localShare, n int64) {
	l.held.Add(-n)
	b.used.Add(-n)
}

// budgetExceeded is the refusal of work past the memory budget: -32000
// with a retry hint naming the bound reached.
func budgetExceeded(limit string) *rpc.Error {
	e := rpc.RateLimited(retryAfterBudget, limit)
	e.Message = "server busy: " + limit + " exhausted"
	return e
}

// charge is bytes counted for one POST body: held by the POST while it is
// served and by each call it carried while the call runs, and given back
// when the last of them is done. A call outlives its POST when the client
// hangs up while the call waits.
type charge struct {
	b       *budget
	held    *atomic.Int64 // the count of the account charged (budget.take)
	n       int64
	holders atomic.Int32
}

// hold adds a holder. It reports false when the bytes were given back
// already: a call that starts after its POST ended (it waited for a place
// while the client hung up) is counted on its own instead.
func (c *charge) hold() bool {
	for {
		n := c.holders.Load()
		if n == 0 {
			return false
		}
		if c.holders.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release drops a holder; the last gives the bytes back.
func (c *charge) release() {
	if c.holders.Add(-1) == 0 {
		c.b.giveHeld(c.held, c.n)
	}
}

// chargeKey carries the charge of the POST a message came in.
type chargeKey struct{}

// chargedContext is the context of a charged POST: its request's context
// with the charge as the value of chargeKey, and the request itself for
// rpc.HTTPRequestFromContext. One allocation carries the three
// (context.WithValue, a charge and rpc.WithHTTPRequest would be three),
// since every POST makes one.
type chargedContext struct {
	rpc.HTTPRequestContext
	c charge
}

// Value returns the charge for chargeKey, and the request's values else.
func (cc *chargedContext) Value(key any) any {
	if key == (chargeKey{}) {
		return &cc.c
	}
	return cc.HTTPRequestContext.Value(key)
}

// chargeFromContext returns the charge of the POST ctx comes from, or nil.
func chargeFromContext(ctx context.Context) *charge {
	c, _ := ctx.Value(chargeKey{}).(*charge)
	return c
}

// accountOf names whose share a request counts against: its principal
// (WithPrincipal, which auth.Require sets) when it has one, else its
// session, else the address it came from.
func accountOf(ctx context.Context, ss *ServerSession, r *http.Request) account {
	if p := PrincipalFromContext(ctx); p != "" {
		return account{"principal", p}
	}
	if ss != nil {
		return account{"session", ss.taskOwner()}
	}
	if r != nil {
		if id := headerValue(r.Header, sessionIDKey); id != "" {
			return account{"session", id}
		}
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		return account{"address", host}
	}
	return account{}
}

// admitCall counts a client request against the budget while it runs: a
// request that came in a POST holds the POST's charge while there is one,
// any other is counted by its own size. The returned admission must be
// released when the call returns; past the budget admitCall returns the
// refusal instead.
func (s *Server) admitCall(ctx context.Context, ss *ServerSession, req *rpc.Request) (admission, *rpc.Error) {
	if c := chargeFromContext(ctx); c != nil && c.hold() {
		return admission{charge: c}, nil
	}
	n := int64(len(req.Params)+len(req.Method)) + callOverhead
	if ss != nil && ss.id == "" && PrincipalFromContext(ctx) == "" {
		if err := s.mem.takeLocal(&ss.mem, n); err != nil {
			return admission{}, err
		}
		return admission{b: s.mem, local: &ss.mem, n: n}, nil
	}
	held, err := s.mem.take(accountOf(ctx, ss, nil), n)
	if err != nil {
		return admission{}, err
	}
	return admission{b: s.mem, held: held, n: n}, nil
}

// admission is what a running call holds of the budget: a hold on its
// POST's charge, or its own bytes. A value, not a closure, so that
// admitting a call allocates nothing.
type admission struct {
	charge *charge
	b      *budget
	local  *localShare   // the session's local share, if counted there
	held   *atomic.Int64 // else the count of the account counted
	n      int64
}

// release gives back what the call held.
func (ad admission) release() {
	switch {
	case ad.charge != nil:
		ad.charge.release()
	case ad.local != nil:
		ad.b.giveLocal(ad.local, ad.n)
	case ad.b != nil:
		ad.b.giveHeld(ad.held, ad.n)
	}
}

// chargePOST counts a POST body against the budget before it is read: its
// Content-Length, or HTTPOptions.MaxBodyBytes when the length is unknown.
// It returns the context to serve the POST in, r's carrying the charge for
// the calls the body holds, and r for rpc.HTTPRequestFromContext; the
// POST's own hold is the charge's first,
// which the caller releases when the POST is served. Past the budget it
// answers 503 with Retry-After and returns ok false.
func (h *StreamableHTTPHandler) chargePOST(w http.ResponseWriter, r *http.Request) (_ context.Context, _ *charge, ok bool) {
	n := r.ContentLength
	if n < 0 || n > h.opts.MaxBodyBytes {
		n = h.opts.MaxBodyBytes
	}
	n += callOverhead
	a := accountOf(r.Context(), nil, r)
	held, err := h.server.mem.take(a, n)
	if err != nil {
		h.log.Debug("mcp: POST refused: memory budget", "account", a.kind+":"+a.name, "reason", err.Message)
		writeBusy(w, rpc.NullID(), err)
		return nil, nil, false
	}
	cc := &chargedContext{HTTPRequestContext: rpc.HTTPRequestContext{Context: r.Context(), Request: r}, c: charge{b: h.server.mem, held: held, n: n}}
	c := &cc.c
	c.holders.Store(1)
	return cc, c, true
}

// useBudget puts the handler's memory under the server's budget: the
// events of a MemoryEventStore are counted, and when the budget is short
// the calls of sessions whose client is gone are cancelled. It returns
// what Close calls to take the handler's reclaimers off the budget.
func (h *StreamableHTTPHandler) useBudget() (stop func()) {
	stopStore := func() {}
	if m, ok := h.store.(*MemoryEventStore); ok {
		stopStore = m.useBudget(h.server.mem)
	}
	if h.rep != nil {
		return stopStore
	}
	stopOrphans := h.server.mem.onPressure(h.cancelOrphans)
	return func() {
		stopStore()
		stopOrphans()
	}
}

// cancelOrphans cancels the calls in flight of every session that no HTTP
// request is being served for: its client has no stream open to hear
// them, and what they hold (a call waiting for the client's answer to an
// elicitation, say) would stay until the session times out. Their answers
// are kept in the event store for a client that resumes.
func (h *StreamableHTTPHandler) cancelOrphans() {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		all = append(all, sess)
	}
	h.mu.Unlock()
	for _, sess := range all {
		sess.mu.Lock()
		orphan := sess.active == 0 && !sess.ended
		sess.mu.Unlock()
		if orphan {
			sess.ss.cancelCalls(false)
		}
	}
}
