package limit

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// MaxBody bounds a POST body; larger ones get 413.
const MaxBody = 4 << 20

// Handler serves the limit server over Streamable HTTP on whatever path it
// is mounted: a POST carries one message and gets its reply as
// application/json (202 with no body for a notification). The reply to
// initialize carries a fresh Mcp-Session-Id, which later requests send
// back and the handler ignores; 2026-07-28 requests are answered without
// one. GET gets 405 (there is no stream to open); DELETE gets 200.
type Handler struct {
	sessions atomic.Uint64
}

// buffers are the request and reply bytes of one POST, reused.
type buffers struct{ in, out []byte }

var pool = sync.Pool{New: func() any { return &buffers{in: make([]byte, 0, 4096), out: make([]byte, 0, 4096)} }}

// Header values shared by every reply; net/http only reads them.
var (
	jsonType = []string{"application/json"}
	allow    = []string{"POST, DELETE"}
)

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodDelete:
		w.WriteHeader(http.StatusOK)
		return
	default:
		w.Header()["Allow"] = allow
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	b := pool.Get().(*buffers)
	defer pool.Put(b)
	var status int
	if b.in, status = readBody(b.in[:0], r.Body); status != 0 {
		w.WriteHeader(status)
		return
	}
	var kind Kind
	b.out, kind = Handle(b.out[:0], b.in)
	hdr := w.Header()
	switch kind {
	case Notification:
		w.WriteHeader(http.StatusAccepted)
		return
	case Initialize:
		hdr["Mcp-Session-Id"] = []string{strconv.FormatUint(h.sessions.Add(1), 10)}
	}
	hdr["Content-Type"] = jsonType
	if kind == NotFound {
		w.WriteHeader(http.StatusNotFound)
	}
	w.Write(b.out)
}

// readBody appends the body to buf; status is non-zero when it cannot be
// read (400) or is too large (413).
func readBody(buf []byte, body io.Reader) (_ []byte, status int) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case len(buf) > MaxBody:
			return buf, http.StatusRequestEntityTooLarge
		case err == io.EOF:
			return buf, 0
		case err != nil:
			return buf, http.StatusBadRequest
		}
	}
}
