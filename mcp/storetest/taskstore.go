package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// TaskStore runs the conformance suite for an mcp.TaskStore. newStore
// returns a fresh, empty store for each subtest; it may register cleanups
// on the t it is given.
func TaskStore(t *testing.T, newStore func(t *testing.T) mcp.TaskStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s mcp.TaskStore)
	}{
		{"CreateThenGetReturnsTheRecord", tasksRoundTrip},
		{"EndedRecordsAreByteExact", tasksEndedByteExact},
		{"AbsentPartsStayAbsent", tasksAbsentParts},
		{"AnyIDWorks", tasksAnyID},
		{"MutatingWhatWasStoredChangesNothingStored", tasksStoreCopies},
		{"MutatingWhatWasReturnedChangesNothingStored", tasksReturnCopies},
		{"MutatingTheExtraMembersChangesNothingStored", tasksExtraCopies},
		{"GetOfAnAbsentTaskIsErrTaskNotFound", tasksGetAbsent},
		{"GetOfAnotherSessionsTaskIsErrTaskNotFound", tasksGetOtherSession},
		{"ListIsOldestFirst", tasksListOrder},
		{"ListOfAnUnknownSessionIsEmpty", tasksListUnknown},
		{"SessionsAreIsolated", tasksSessionIsolation},
		{"UpdateOfARunningTaskReplacesItWithItsInput", tasksUpdateRunning},
		{"UpdateOfAnotherRevisionChangesNothing", tasksUpdateStale},
		{"UpdateOfAnEndedTaskChangesNothing", tasksUpdateEnded},
		{"UpdateToAFinalRecordChangesNothing", tasksUpdateToFinal},
		{"UpdateOfAnAbsentTaskIsErrTaskNotFound", tasksUpdateAbsent},
		{"UpdateKeepsTheExpiryOfCreate", tasksUpdateKeepsExpiry},
		{"EndOfARunningTaskReplacesIt", tasksEndRunning},
		{"EndOfAnInputRequiredTaskReplacesIt", tasksEndInputRequired},
		{"EndOfAnEndedTaskChangesNothing", tasksEndEnded},
		{"EndOfAnAbsentTaskIsErrTaskNotFound", tasksEndAbsent},
		{"EndOfAnotherSessionsTaskIsErrTaskNotFound", tasksEndOtherSession},
		{"ANeverEndedTaskExpiresAfterItsKeep", tasksExpire},
		{"EndRestartsTheExpiryAtItsKeep", tasksEndShortens},
		{"EndKeepOutlivesTheCreateKeep", tasksEndExtends},
		{"AnExpiredTaskIsGoneFromList", tasksExpiredListed},
		{"ConcurrentEndsOfOneTaskHaveOneWinner", tasksConcurrentEnd},
		{"ConcurrentCreates", tasksConcurrentCreate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newStore(t))
		})
	}
}

// taskKeep is long enough that no task a test stores with it expires while
// the test runs.
const taskKeep = time.Minute

// taskTime returns the ISO 8601 time n seconds after a fixed instant, so
// that tests can give tasks distinct, ordered creation times.
func taskTime(n int) string {
	return time.Date(2025, 11, 25, 10, 0, n, 123_000_000, time.UTC).Format("2006-01-02T15:04:05.000Z07:00")
}

// int64p returns a pointer to a new int64 holding v.
func int64p(v int64) *int64 { return &v }

// runningTask returns the record of a working task id of session, with
// every field of its Task set.
func runningTask(session, id string) mcp.TaskRecord {
	return mcp.TaskRecord{
		Session: session,
		Task: mcp.Task{
			TaskID:        id,
			Status:        mcp.TaskStatusWorking,
			StatusMessage: "working on " + id,
			CreatedAt:     taskTime(0),
			LastUpdatedAt: taskTime(1),
			TTL:           int64p(60_000),
			PollInterval:  int64p(500),
		},
	}
}

// ended returns rec ended with status, updated a second after it was
// created.
func ended(rec mcp.TaskRecord, status mcp.TaskStatus) mcp.TaskRecord {
	rec.Task.Status = status
	rec.Task.StatusMessage = string(status) + " " + rec.Task.TaskID
	rec.Task.LastUpdatedAt = taskTime(2)
	switch status {
	case mcp.TaskStatusCompleted:
		rec.Result = json.RawMessage(`{"content":[{"type":"text","text":"done"}]}`)
	case mcp.TaskStatusFailed:
		rec.Error = &rpc.Error{Code: -32603, Message: "failed", Data: json.RawMessage(`{"why":"disk full"}`)}
	}
	return rec
}

// finalStatuses are the statuses of an ended task.
var finalStatuses = []mcp.TaskStatus{mcp.TaskStatusCompleted, mcp.TaskStatusFailed, mcp.TaskStatusCancelled}

func createTask(t *testing.T, s mcp.TaskStore, rec mcp.TaskRecord, keep time.Duration) {
	t.Helper()
	require.NoError(t, s.Create(t.Context(), rec, keep))
}

func getTask(t *testing.T, s mcp.TaskStore, session, id string) mcp.TaskRecord {
	t.Helper()
	got, err := s.Get(t.Context(), session, id)
	require.NoError(t, err)
	return got
}

func endTask(t *testing.T, s mcp.TaskStore, rec mcp.TaskRecord, keep time.Duration) bool {
	t.Helper()
	ok, err := s.End(t.Context(), rec, keep)
	require.NoError(t, err)
	return ok
}

// taskIDs returns the task ids of recs, in order.
func taskIDs(recs []mcp.TaskRecord) []string {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = r.Task.TaskID
	}
	return ids
}

func tasksRoundTrip(t *testing.T, s mcp.TaskStore) {
	rec := runningTask("S", "t1")
	rec.Task.Extra = map[string]json.RawMessage{"x-trace": json.RawMessage(`{"id":"abc","n":[1,2.5,null]}`)}
	createTask(t, s, rec, taskKeep)
	assert.Equal(t, rec, getTask(t, s, "S", "t1"))
	assert.Equal(t, rec, getTask(t, s, "S", "t1"), "a Get does not consume the record")
}

func tasksEndedByteExact(t *testing.T, s mcp.TaskStore) {
	completed := runningTask("S", "done")
	createTask(t, s, completed, taskKeep)
	completed = ended(completed, mcp.TaskStatusCompleted)
	completed.Result = json.RawMessage("{ \"content\" : [ {\"type\":\"text\", \"text\":\"h\u00e9llo <b>&amp;\u2028\\u00e9\"} ],\n\t\"isError\":false }")
	require.True(t, endTask(t, s, completed, taskKeep))
	assert.Equal(t, completed, getTask(t, s, "S", "done"))
	assert.Equal(t, string(completed.Result), string(getTask(t, s, "S", "done").Result))

	failed := runningTask("S", "failed")
	createTask(t, s, failed, taskKeep)
	failed = ended(failed, mcp.TaskStatusFailed)
	failed.Error = &rpc.Error{Code: 7, Message: "it broke: <\u00e9>", Data: json.RawMessage(` [ "two words" , 3e2 ] `)}
	require.True(t, endTask(t, s, failed, taskKeep))
	got := getTask(t, s, "S", "failed")
	assert.Equal(t, failed, got)
	require.NotNil(t, got.Error)
	assert.Equal(t, string(failed.Error.Data), string(got.Error.Data))
}

func tasksAbsentParts(t *testing.T, s mcp.TaskStore) {
	rec := mcp.TaskRecord{Session: "S", Task: mcp.Task{TaskID: "t1", Status: mcp.TaskStatusWorking, CreatedAt: taskTime(0), LastUpdatedAt: taskTime(0)}}
	createTask(t, s, rec, taskKeep)
	got := getTask(t, s, "S", "t1")
	assert.Equal(t, rec, got)
	assert.Nil(t, got.Task.TTL, "a nil ttl (no limit) is not 0")
	assert.Nil(t, got.Task.PollInterval)
	assert.Nil(t, got.Task.Extra)
	assert.Nil(t, got.Result)
	assert.Nil(t, got.Error)

	rec.Task.Status = mcp.TaskStatusCancelled
	require.True(t, endTask(t, s, rec, taskKeep))
	got = getTask(t, s, "S", "t1")
	assert.Equal(t, rec, got, "a cancelled task has neither result nor error")
	assert.Nil(t, got.Result)
	assert.Nil(t, got.Error)

	noData := runningTask("S", "t2")
	createTask(t, s, noData, taskKeep)
	noData.Task.Status = mcp.TaskStatusFailed
	noData.Error = &rpc.Error{Code: -32000, Message: "no detail"}
	require.True(t, endTask(t, s, noData, taskKeep))
	got = getTask(t, s, "S", "t2")
	assert.Equal(t, noData, got)
	require.NotNil(t, got.Error)
	assert.Nil(t, got.Error.Data, "an error without data stays without data")
}

func tasksAnyID(t *testing.T, s mcp.TaskStore) {
	ctx := t.Context()
	names := []string{"", "a", "a:b", "b:c", "a:b:c", "{x}", "x}", "{x", "a/b c", "%41", "é\u2028\x00", "*", "t1*"}
	for _, session := range names {
		for _, id := range names {
			rec := runningTask(session, id)
			rec.Task.StatusMessage = fmt.Sprintf("%q of %q", id, session)
			require.NoError(t, s.Create(ctx, rec, taskKeep), "task %q of session %q", id, session)
		}
	}
	for _, session := range names {
		for _, id := range names {
			got, err := s.Get(ctx, session, id)
			require.NoError(t, err, "task %q of session %q", id, session)
			assert.Equal(t, fmt.Sprintf("%q of %q", id, session), got.Task.StatusMessage)
			assert.Equal(t, session, got.Session)
		}
		list, err := s.List(ctx, session)
		require.NoError(t, err, "session %q", session)
		assert.ElementsMatch(t, names, taskIDs(list), "session %q lists its own tasks only", session)
	}
}

func tasksStoreCopies(t *testing.T, s mcp.TaskStore) {
	rec := runningTask("S", "t1")
	want := runningTask("S", "t1")
	createTask(t, s, rec, taskKeep)
	*rec.Task.TTL, *rec.Task.PollInterval = 1, 1
	assert.Equal(t, want, getTask(t, s, "S", "t1"), "Create keeps its own ttl and poll interval")

	done := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	wantDone := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	require.True(t, endTask(t, s, done, taskKeep))
	copy(done.Result, "XXXXXXXX")
	*done.Task.TTL = 2
	assert.Equal(t, wantDone, getTask(t, s, "S", "t1"), "End keeps its own result and ttl")

	createTask(t, s, runningTask("S", "t2"), taskKeep)
	failed := ended(runningTask("S", "t2"), mcp.TaskStatusFailed)
	wantFailed := ended(runningTask("S", "t2"), mcp.TaskStatusFailed)
	require.True(t, endTask(t, s, failed, taskKeep))
	copy(failed.Error.Data, "XXXXXXXX")
	failed.Error.Message = "changed"
	assert.Equal(t, wantFailed, getTask(t, s, "S", "t2"), "End keeps its own error")
}

func tasksReturnCopies(t *testing.T, s mcp.TaskStore) {
	ctx := t.Context()
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	done := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	require.True(t, endTask(t, s, done, taskKeep))
	createTask(t, s, runningTask("S", "t2"), taskKeep)
	failed := ended(runningTask("S", "t2"), mcp.TaskStatusFailed)
	require.True(t, endTask(t, s, failed, taskKeep))
	mutate := func(rec mcp.TaskRecord) {
		*rec.Task.TTL, *rec.Task.PollInterval = 3, 3
		for i := range rec.Result {
			rec.Result[i] = 'X'
		}
		if rec.Error != nil {
			for i := range rec.Error.Data {
				rec.Error.Data[i] = 'X'
			}
			rec.Error.Message = "changed"
		}
	}

	mutate(getTask(t, s, "S", "t1"))
	mutate(getTask(t, s, "S", "t2"))
	assert.Equal(t, done, getTask(t, s, "S", "t1"), "a Get's record is the caller's")
	assert.Equal(t, failed, getTask(t, s, "S", "t2"), "a Get's record is the caller's")

	list, err := s.List(ctx, "S")
	require.NoError(t, err)
	for _, rec := range list {
		mutate(rec)
	}
	assert.Equal(t, done, getTask(t, s, "S", "t1"), "a List's records are the caller's")
	assert.Equal(t, failed, getTask(t, s, "S", "t2"), "a List's records are the caller's")
}

func tasksExtraCopies(t *testing.T, s mcp.TaskStore) {
	extra := func() map[string]json.RawMessage {
		return map[string]json.RawMessage{"x-a": json.RawMessage(`"a"`)}
	}
	rec := runningTask("S", "t1")
	rec.Task.Extra = extra()
	want := runningTask("S", "t1")
	want.Task.Extra = extra()
	createTask(t, s, rec, taskKeep)
	rec.Task.Extra["x-b"] = json.RawMessage(`"added"`)
	copy(rec.Task.Extra["x-a"], "X")
	assert.Equal(t, want, getTask(t, s, "S", "t1"), "Create keeps its own extra members")

	got := getTask(t, s, "S", "t1")
	got.Task.Extra["x-c"] = json.RawMessage(`"added"`)
	copy(got.Task.Extra["x-a"], "X")
	assert.Equal(t, want, getTask(t, s, "S", "t1"), "a Get's extra members are the caller's")
}

func tasksGetAbsent(t *testing.T, s mcp.TaskStore) {
	_, err := s.Get(t.Context(), "S", "never-created")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
}

func tasksGetOtherSession(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("A", "t1"), taskKeep)
	_, err := s.Get(t.Context(), "B", "t1")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound, "session B may not read session A's task")
	getTask(t, s, "A", "t1")
}

func tasksListOrder(t *testing.T, s mcp.TaskStore) {
	ids := []string{"c", "a", "d", "b"}
	for i, id := range ids {
		rec := runningTask("S", id)
		rec.Task.CreatedAt, rec.Task.LastUpdatedAt = taskTime(i), taskTime(i)
		createTask(t, s, rec, taskKeep)
		// The order is only promised across milliseconds.
		time.Sleep(3 * time.Millisecond)
	}
	// Ending a task does not move it.
	require.True(t, endTask(t, s, ended(getTask(t, s, "S", "a"), mcp.TaskStatusCompleted), taskKeep))
	list, err := s.List(t.Context(), "S")
	require.NoError(t, err)
	assert.Equal(t, ids, taskIDs(list))
	for _, rec := range list {
		assert.Equal(t, getTask(t, s, "S", rec.Task.TaskID), rec, "List gives the whole record")
	}
}

func tasksListUnknown(t *testing.T, s mcp.TaskStore) {
	list, err := s.List(t.Context(), "never-seen")
	assert.NoError(t, err, "a session without tasks is not an error")
	assert.Empty(t, list)
}

func tasksSessionIsolation(t *testing.T, s mcp.TaskStore) {
	ctx := t.Context()
	createTask(t, s, runningTask("A", "t1"), taskKeep)
	createTask(t, s, runningTask("A", "t2"), taskKeep)
	b := runningTask("B", "t1")
	b.Task.StatusMessage = "B's own"
	createTask(t, s, b, taskKeep)
	require.True(t, endTask(t, s, ended(runningTask("A", "t1"), mcp.TaskStatusCancelled), taskKeep))

	assert.Equal(t, b, getTask(t, s, "B", "t1"), "ending A's t1 leaves B's t1 alone")
	listA, err := s.List(ctx, "A")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"t1", "t2"}, taskIDs(listA))
	listB, err := s.List(ctx, "B")
	require.NoError(t, err)
	assert.Equal(t, []mcp.TaskRecord{b}, listB)
}

// waitingTask is rec waiting for input: the next revision, input_required,
// one request pending and one answered.
func waitingTask(rec mcp.TaskRecord) mcp.TaskRecord {
	rec.Task.Status = mcp.TaskStatusInputRequired
	rec.Task.LastUpdatedAt = taskTime(2)
	rec.Input = map[string]json.RawMessage{"b": json.RawMessage(`{"method":"elicitation/create","params":{"message":"B?"}}`)}
	rec.Answers = map[string]json.RawMessage{"a": json.RawMessage(`{"action":"accept","content":{"v":"1"}}`)}
	rec.Revision++
	return rec
}

func updateTask(t *testing.T, s mcp.TaskStore, rec mcp.TaskRecord) bool {
	t.Helper()
	ok, err := s.Update(t.Context(), rec)
	require.NoError(t, err)
	return ok
}

func tasksUpdateRunning(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	waiting := waitingTask(runningTask("S", "t1"))
	assert.True(t, updateTask(t, s, waiting))
	assert.Equal(t, waiting, getTask(t, s, "S", "t1"))
	resumed := waiting
	resumed.Task.Status = mcp.TaskStatusWorking
	resumed.Input, resumed.Revision = nil, waiting.Revision+1
	assert.True(t, updateTask(t, s, resumed), "the next revision")
	assert.Equal(t, resumed, getTask(t, s, "S", "t1"))
	done := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	assert.True(t, endTask(t, s, done, taskKeep), "an updated task still ends")
	assert.Equal(t, done, getTask(t, s, "S", "t1"))
}

func tasksUpdateStale(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	first := waitingTask(runningTask("S", "t1"))
	require.True(t, updateTask(t, s, first))
	assert.False(t, updateTask(t, s, first), "a second update of the same revision loses")
	skip := waitingTask(first)
	skip.Revision++
	assert.False(t, updateTask(t, s, skip), "a revision ahead loses too")
	assert.Equal(t, first, getTask(t, s, "S", "t1"))
}

func tasksUpdateEnded(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	done := ended(runningTask("S", "t1"), mcp.TaskStatusCancelled)
	require.True(t, endTask(t, s, done, taskKeep))
	assert.False(t, updateTask(t, s, waitingTask(runningTask("S", "t1"))))
	assert.Equal(t, done, getTask(t, s, "S", "t1"))
}

func tasksUpdateToFinal(t *testing.T, s mcp.TaskStore) {
	rec := runningTask("S", "t1")
	createTask(t, s, rec, taskKeep)
	done := ended(rec, mcp.TaskStatusCompleted)
	done.Revision = 1
	assert.False(t, updateTask(t, s, done), "only End ends a task")
	assert.Equal(t, rec, getTask(t, s, "S", "t1"))
}

func tasksUpdateAbsent(t *testing.T, s mcp.TaskStore) {
	_, err := s.Update(t.Context(), waitingTask(runningTask("S", "never-created")))
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
}

func tasksUpdateKeepsExpiry(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "short"), expiryTTL)
	require.True(t, updateTask(t, s, waitingTask(runningTask("S", "short"))))
	waitTaskExpired(t, s, "short")
}

func tasksEndRunning(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	done := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	assert.True(t, endTask(t, s, done, taskKeep))
	assert.Equal(t, done, getTask(t, s, "S", "t1"))
	list, err := s.List(t.Context(), "S")
	require.NoError(t, err)
	assert.Equal(t, []mcp.TaskRecord{done}, list)
}

func tasksEndInputRequired(t *testing.T, s mcp.TaskStore) {
	rec := runningTask("S", "t1")
	rec.Task.Status = mcp.TaskStatusInputRequired
	createTask(t, s, rec, taskKeep)
	cancelled := ended(rec, mcp.TaskStatusCancelled)
	assert.True(t, endTask(t, s, cancelled, taskKeep), "input_required is running")
	assert.Equal(t, cancelled, getTask(t, s, "S", "t1"))
}

func tasksEndEnded(t *testing.T, s mcp.TaskStore) {
	for _, first := range finalStatuses {
		for _, second := range finalStatuses {
			id := fmt.Sprint(first, "-then-", second)
			createTask(t, s, runningTask("S", id), taskKeep)
			won := ended(runningTask("S", id), first)
			require.True(t, endTask(t, s, won, taskKeep), id)
			late := ended(runningTask("S", id), second)
			late.Task.StatusMessage = "too late"
			assert.False(t, endTask(t, s, late, taskKeep), "%s: a task ends once", id)
			assert.Equal(t, won, getTask(t, s, "S", id), "%s: the first end stays", id)
		}
	}
}

func tasksEndAbsent(t *testing.T, s mcp.TaskStore) {
	ctx := t.Context()
	ok, err := s.End(ctx, ended(runningTask("S", "never-created"), mcp.TaskStatusCompleted), taskKeep)
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
	assert.False(t, ok)
	_, err = s.Get(ctx, "S", "never-created")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound, "End does not create a task")
	list, err := s.List(ctx, "S")
	require.NoError(t, err)
	assert.Empty(t, list)
}

func tasksEndOtherSession(t *testing.T, s mcp.TaskStore) {
	rec := runningTask("A", "t1")
	createTask(t, s, rec, taskKeep)
	ok, err := s.End(t.Context(), ended(runningTask("B", "t1"), mcp.TaskStatusCancelled), taskKeep)
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound, "session B may not end session A's task")
	assert.False(t, ok)
	assert.Equal(t, rec, getTask(t, s, "A", "t1"))
}

// waitTaskExpired waits until the task id of session S is gone.
func waitTaskExpired(t *testing.T, s mcp.TaskStore, id string) {
	t.Helper()
	var err error
	eventually(t, expiryBound, func() bool {
		_, err = s.Get(t.Context(), "S", id)
		return err != nil
	}, "the task did not expire")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
}

func tasksExpire(t *testing.T, s mcp.TaskStore) {
	ctx := t.Context()
	createTask(t, s, runningTask("S", "short"), expiryTTL)
	createTask(t, s, runningTask("S", "long"), taskKeep)
	waitTaskExpired(t, s, "short")
	getTask(t, s, "S", "long")
	ok, err := s.End(ctx, ended(runningTask("S", "short"), mcp.TaskStatusCompleted), taskKeep)
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound, "an expired task cannot end")
	assert.False(t, ok)
}

func tasksEndShortens(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "t1"), taskKeep)
	require.True(t, endTask(t, s, ended(runningTask("S", "t1"), mcp.TaskStatusCompleted), expiryTTL))
	waitTaskExpired(t, s, "t1")
}

func tasksEndExtends(t *testing.T, s mcp.TaskStore) {
	const keep = 500 * time.Millisecond
	createTask(t, s, runningTask("S", "t1"), keep)
	done := ended(runningTask("S", "t1"), mcp.TaskStatusCompleted)
	require.True(t, endTask(t, s, done, taskKeep))
	time.Sleep(keep + 200*time.Millisecond)
	assert.Equal(t, done, getTask(t, s, "S", "t1"), "the ended task outlived its create keep")
	list, err := s.List(t.Context(), "S")
	require.NoError(t, err)
	assert.Equal(t, []mcp.TaskRecord{done}, list)
}

func tasksExpiredListed(t *testing.T, s mcp.TaskStore) {
	createTask(t, s, runningTask("S", "short"), expiryTTL)
	createTask(t, s, runningTask("S", "long"), taskKeep)
	createTask(t, s, runningTask("S", "ends-short"), taskKeep)
	require.True(t, endTask(t, s, ended(runningTask("S", "ends-short"), mcp.TaskStatusFailed), expiryTTL))
	var ids []string
	eventually(t, expiryBound, func() bool {
		list, err := s.List(t.Context(), "S")
		require.NoError(t, err)
		ids = taskIDs(list)
		return len(ids) == 1
	}, "expired tasks stayed in List")
	assert.Equal(t, []string{"long"}, ids)

	createTask(t, s, runningTask("T", "short"), expiryTTL)
	eventually(t, expiryBound, func() bool {
		list, err := s.List(t.Context(), "T")
		require.NoError(t, err)
		return len(list) == 0
	}, "a session whose tasks all expired lists nothing")
}

// tasksConcurrentEnd has many goroutines end one task at once, each with
// its own record: exactly one wins, and its record is the one stored.
func tasksConcurrentEnd(t *testing.T, s mcp.TaskStore) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const tasks, racers = 5, 12
	for n := range tasks {
		id := fmt.Sprint("t", n)
		createTask(t, s, runningTask("S", id), taskKeep)
		recs := make([]mcp.TaskRecord, racers)
		won := make([]bool, racers)
		var wins atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for r := range racers {
			recs[r] = ended(runningTask("S", id), finalStatuses[r%len(finalStatuses)])
			recs[r].Task.StatusMessage = fmt.Sprint("racer ", r)
			wg.Go(func() {
				<-start
				ok, err := s.End(ctx, recs[r], taskKeep)
				if assert.NoError(t, err) && ok {
					won[r] = true
					wins.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		require.Equal(t, int32(1), wins.Load(), "task %s: exactly one End wins", id)
		got := getTask(t, s, "S", id)
		for r := range racers {
			if won[r] {
				assert.Equal(t, recs[r], got, "task %s: the winner's record is stored", id)
			}
		}
	}
}

// tasksConcurrentCreate has goroutines create, read and end tasks in their
// own sessions and in one they share.
func tasksConcurrentCreate(t *testing.T, s mcp.TaskStore) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const workers, each = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			errs <- taskWorker(ctx, s, w, each)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	shared, err := s.List(ctx, "shared")
	require.NoError(t, err)
	assert.Len(t, shared, workers*each)
	for w := range workers {
		own, err := s.List(ctx, fmt.Sprint("own-", w))
		require.NoError(t, err)
		want := make([]string, each)
		for i := range want {
			want[i] = fmt.Sprint(w, "/", i)
		}
		assert.ElementsMatch(t, want, taskIDs(own))
		for _, rec := range own {
			assert.Equal(t, mcp.TaskStatusCompleted, rec.Task.Status, "task %s", rec.Task.TaskID)
		}
	}
}

// taskWorker is one goroutine of tasksConcurrentCreate.
func taskWorker(ctx context.Context, s mcp.TaskStore, w, each int) error {
	own := fmt.Sprint("own-", w)
	for i := range each {
		id := fmt.Sprint(w, "/", i)
		for _, session := range []string{own, "shared"} {
			if err := s.Create(ctx, runningTask(session, id), taskKeep); err != nil {
				return err
			}
		}
		got, err := s.Get(ctx, own, id)
		if err != nil {
			return err
		}
		if got.Task.TaskID != id || got.Session != own {
			return fmt.Errorf("worker %d read task %q of %q, created %q of %q", w, got.Task.TaskID, got.Session, id, own)
		}
		ok, err := s.End(ctx, ended(runningTask(own, id), mcp.TaskStatusCompleted), taskKeep)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("worker %d could not end its task %q", w, id)
		}
		if _, err := s.List(ctx, "shared"); err != nil {
			return err
		}
	}
	return nil
}
