package mcpcheck

import (
	"errors"
	"fmt"
)

// The tasks extension of the stateless revision (SEP-2663,
// io.modelcontextprotocol/tasks) is defined outside the published schema and
// ours, so, as the official suite does, its messages are checked for their
// shape only: the methods tasks/get, tasks/update and tasks/cancel (client to
// server) and the notification notifications/tasks (server to client), whose
// results are "complete" ones; and the task a tools/call may answer with
// (resultType "task"), whose members are checked here.

// tasksExtensionMethods are the extension's methods, by the direction that
// sends them.
var tasksExtensionMethods = map[string]Direction{
	"tasks/get":           ClientToServer,
	"tasks/update":        ClientToServer,
	"tasks/cancel":        ClientToServer,
	"notifications/tasks": ServerToClient,
}

// tasksExtension reports whether method belongs to the tasks extension in
// the checker's version.
func (c *Checker) tasksExtension(method string) bool {
	_, ok := tasksExtensionMethods[method]
	return ok && c.version == StatelessVersion
}

// checkTasksExtensionCall checks a request or notification of the
// extension: its direction, kind and params, which name the task.
func checkTasksExtensionCall(dir Direction, m map[string]any, method string) error {
	_, isRequest := m["id"]
	notification := method == "notifications/tasks"
	switch {
	case dir != tasksExtensionMethods[method]:
		return fmt.Errorf("%q of the tasks extension is not sent %s", method, dir)
	case isRequest == notification:
		return fmt.Errorf("%q of the tasks extension is sent as the wrong kind of message", method)
	}
	p, _ := m["params"].(map[string]any)
	if _, ok := p["taskId"].(string); !ok {
		return fmt.Errorf("params of %q lack the string taskId", method)
	}
	return nil
}

// checkTasksExtensionResult checks the result of an extension request: a
// "complete" result.
func checkTasksExtensionResult(method string, result any) error {
	r, _ := result.(map[string]any)
	if r["resultType"] != "complete" {
		return fmt.Errorf("the result of %q has resultType %v, want \"complete\"", method, r["resultType"])
	}
	return nil
}

// isCreatedTask reports whether a result is the extension's created task.
func isCreatedTask(result any) bool {
	r, _ := result.(map[string]any)
	return r["resultType"] == "task"
}

// checkCreatedTask checks the members of a created task: flat, with the
// task's id, status and times, its durations named ttlMs and pollIntervalMs.
func checkCreatedTask(result any) error {
	r := result.(map[string]any)
	var errs []error
	for _, k := range []string{"taskId", "status", "createdAt", "lastUpdatedAt"} {
		if _, ok := r[k].(string); !ok {
			errs = append(errs, fmt.Errorf("a created task lacks the string %s", k))
		}
	}
	if _, ok := r["ttlMs"]; !ok {
		errs = append(errs, errors.New("a created task lacks ttlMs"))
	}
	for _, k := range []string{"task", "ttl", "pollInterval", "result", "error", "inputRequests", "requestState"} {
		if _, ok := r[k]; ok {
			errs = append(errs, fmt.Errorf("a created task carries %s", k))
		}
	}
	return errors.Join(errs...)
}
