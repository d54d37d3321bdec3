package rpc_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestOnDoneRunsEachHookOnceWhenTheConnectionEnds(t *testing.T) {
	a, _ := rpc.NewPipe()
	c := rpc.NewConn(a)
	ran := make(chan string, 4)
	c.OnDone(func() {
		select {
		case <-c.Done():
		default:
			t.Error("a hook ran before Done was closed")
		}
		ran <- "first"
	})
	c.OnDone(func() { ran <- "second" })
	assert.Empty(t, ran, "nothing runs while the connection lives")
	require.NoError(t, c.Close())
	for _, want := range []string{"first", "second"} {
		select {
		case got := <-ran:
			assert.Equal(t, want, got)
		case <-time.After(10 * time.Second):
			t.Fatalf("hook %s did not run", want)
		}
	}
	// Registered after the end: runs at once, on the caller's goroutine.
	late := false
	c.OnDone(func() { late = true })
	assert.True(t, late)
	assert.Empty(t, ran, "no hook runs twice")
}
