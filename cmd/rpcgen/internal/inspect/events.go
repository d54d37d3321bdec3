package inspect

import (
	"encoding/json"
	"sync"
)

// events is the log of what the page is told, in order: each message of
// the conversation, each request of the server waiting for the person, each
// answer given. The live stream replays it from any point, so a page that
// reconnects (or opens late) misses nothing.
type events struct {
	mu   sync.Mutex
	list [][]byte      // each event's JSON; the event numbered n is list[n-1]
	wake chan struct{} // closed, and replaced, when an event is added
}

func newEvents() *events { return &events{wake: make(chan struct{})} }

// add appends an event of the given type; v becomes its "data".
func (e *events) add(typ string, v any) {
	b, err := json.Marshal(struct {
		Type string `json:"type"`
		Data any    `json:"data"`
	}{typ, v})
	if err != nil {
		// Every value added is built here from JSON the page can show.
		panic("inspect: event not JSON: " + err.Error())
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, b)
	close(e.wake)
	e.wake = make(chan struct{})
}

// since returns the events after the first n (all of them for a
// negative n, none for an n past the last), the number of the event
// before the first returned, and a channel closed when one more is added.
func (e *events) since(n int) (list [][]byte, from int, wake <-chan struct{}) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n = min(max(n, 0), len(e.list))
	return e.list[n:len(e.list):len(e.list)], n, e.wake
}
