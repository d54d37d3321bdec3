package inspect

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/validate"
	"github.com/schemarpc/schemarpc/rpc"
)

// Message is one message of the conversation, as the page shows it.
type Message struct {
	// Seq is the message's place in the conversation, from 1.
	Seq int `json:"seq"`
	// From is the sender: "client" or "server".
	From string `json:"from"`
	// Time is when the inspector saw it.
	Time time.Time `json:"time"`
	// Kind is request, notification, response, batch or invalid.
	Kind string `json:"kind"`
	// Method is the method of a request or notification, and of the
	// request a response answers.
	Method string `json:"method,omitempty"`
	// Body is the message as it travelled, when it is JSON.
	Body json.RawMessage `json:"message,omitempty"`
	// Text is the message, when it is not JSON.
	Text string `json:"text,omitempty"`
	// Findings are what the validator found wrong with it.
	Findings []Finding `json:"findings,omitempty"`
}

// Finding is one problem the validator found in a message.
type Finding struct {
	// Pointer is a JSON pointer into the message ("" for all of it).
	Pointer string `json:"pointer"`
	// Code is the JSON-RPC code a schemarpc peer answers the message with.
	Code int `json:"code"`
	// Reason says what is wrong.
	Reason string `json:"reason"`
	// Violations are the schema violations behind the finding.
	Violations []rpc.Violation `json:"violations,omitempty"`
}

// recorder checks and records the conversation: the tap of the client's
// transport feeds it each message in the order it travelled, and it tells
// the page.
type recorder struct {
	mu      sync.Mutex
	checker *validate.Checker
	index   [3]int // messages seen, by sender
	msgs    []Message
	asked   map[string]string // the method of each unanswered request, by sender and id
	events  *events
}

func newRecorder(set *validate.Set, ev *events) *recorder {
	return &recorder{checker: set.NewChecker(), asked: map[string]string{}, events: ev}
}

// record checks one message and tells the page.
func (r *recorder) record(msg []byte, fromServer bool) {
	from := validate.FromClient
	if fromServer {
		from = validate.FromServer
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.index[from]++
	fs := r.checker.Check(msg, from, validate.Position{File: from.String(), Index: r.index[from]})
	m := Message{Seq: len(r.msgs) + 1, From: from.String(), Time: time.Now().UTC(), Kind: "invalid"}
	if json.Valid(msg) {
		m.Body = bytes.Clone(msg)
		m.Kind, m.Method = r.classify(msg, from)
	} else {
		m.Text = string(msg)
	}
	for _, f := range fs {
		m.Findings = append(m.Findings, Finding{Pointer: f.Pointer, Code: f.Code, Reason: f.Reason, Violations: f.Violations})
	}
	r.msgs = append(r.msgs, m)
	r.events.add("message", m)
}

// classify names a message's kind and method; a response is labelled with
// the method of the request it answers.
func (r *recorder) classify(msg []byte, from validate.Direction) (kind, method string) {
	if rpc.IsBatch(msg) {
		return "batch", ""
	}
	env, ok := rpc.ReadEnvelope(msg)
	if !ok {
		return "invalid", ""
	}
	k := env.Kind()
	_ = json.Unmarshal(env.Method, &method)
	switch k {
	case rpc.KindRequest:
		r.asked[from.String()+" "+string(env.ID)] = method
	case rpc.KindResponse:
		asker := validate.FromServer
		if from == validate.FromServer {
			asker = validate.FromClient
		}
		key := asker.String() + " " + string(env.ID)
		method = r.asked[key]
		delete(r.asked, key)
	}
	return k.String(), method
}

// export writes the conversation as JSON Lines transcript records, which
// "rpcgen validate" reads; a message that is not JSON is left out, as
// "rpcgen proxy --transcript" leaves it out.
func (r *recorder) export(w io.Writer) error {
	r.mu.Lock()
	msgs := r.msgs[:len(r.msgs):len(r.msgs)]
	r.mu.Unlock()
	var b []byte
	for _, m := range msgs {
		if m.Body == nil {
			continue
		}
		from, _ := validate.ParseDirection(m.From)
		b = validate.AppendRecord(b[:0], m.Body, from, "", "")
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
