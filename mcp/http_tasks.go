package mcp

import (
	"context"
	"encoding/json"
)

// tasksTopic is the broker topic where replicas tell each other that a
// task ended or is to be cancelled.
const tasksTopic = "mcp/tasks"

// shareTasks makes the handler's sessions (2025-11-25) and stateless
// requests (the tasks extension) keep their tasks in HTTPOptions.Tasks,
// where every replica answers from, and, with a Broker, connects this
// replica's tasks with the others': a tasks/cancel at any replica stops
// the work where it runs, a tasks/result waiting at any replica returns as
// soon as the task ends, and a task whose input a tasks/update at any
// replica completed goes on at once. It returns what stops the connection;
// without HTTPOptions.Tasks the server's own store serves, and it does
// nothing.
func (h *StreamableHTTPHandler) shareTasks() (stop func()) {
	if h.opts.Tasks == nil {
		return func() {}
	}
	h.tasks = newTaskRunner(h.opts.Tasks)
	b := h.opts.Broker
	if b == nil {
		return func() {}
	}
	self := h.self
	h.tasks.signal = func(sig taskSignal) {
		sig.From = self
		out, _ := json.Marshal(sig)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := b.Publish(ctx, tasksTopic, out); err != nil {
			h.log.Warn("mcp: cannot tell the other replicas of a task", "task", sig.Task, "kind", sig.Kind, "error", err)
		}
	}
	unsubscribe, err := b.Subscribe(context.Background(), tasksTopic, func(msg []byte) {
		var sig taskSignal
		if json.Unmarshal(msg, &sig) != nil || sig.From == self {
			return
		}
		h.tasks.heard(sig)
	})
	if err != nil {
		h.log.Warn("mcp: cannot hear the other replicas about tasks", "error", err)
		return func() {}
	}
	return unsubscribe
}
