package soak

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"sync"
)

// answerCheck is the soak client's round tripper: it counts the POSTs
// carrying a JSON-RPC request that were answered with a zero-length body.
// The server must never send one (a request is answered in JSON or with
// an event stream): Go's HTTP client puts the connection of a zero-length
// answer back in its pool before the caller has the answer, so a client
// that cancels such a POST at that moment closes a connection another
// request of the pool already holds, and that request fails with a
// "context canceled" that is not its own.
type answerCheck struct {
	rt http.RoundTripper

	mu    sync.Mutex
	empty map[string]int // by method
}

// RoundTrip sends req and looks at the length of its answer.
func (a *answerCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	method := requestMethod(req)
	resp, err := a.rt.RoundTrip(req)
	if err == nil && method != "" && resp.ContentLength == 0 {
		a.mu.Lock()
		a.empty[method]++
		a.mu.Unlock()
	}
	return resp, err
}

// emptyAnswers returns the zero-length answers to requests, by method.
func (a *answerCheck) emptyAnswers() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.empty)
}

// requestMethod returns the method of the JSON-RPC request a POST
// carries, or "" when it carries something else (a notification, a
// response, a broken body) or is not a POST.
func requestMethod(req *http.Request) string {
	if req.Method != http.MethodPost || req.GetBody == nil {
		return ""
	}
	body, err := req.GetBody()
	if err != nil {
		return ""
	}
	b, err := io.ReadAll(body)
	if err != nil {
		return ""
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return ""
	}
	return m.Method
}
