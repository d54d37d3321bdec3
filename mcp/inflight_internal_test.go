package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestCallsInFlightHoldALoneCallWithoutAMap(t *testing.T) {
	var c callsInFlight
	a := &requestContext{id: rpc.Int64ID(1)}
	c.put(a)
	assert.Nil(t, c.byID, "one call made a map")
	assert.Same(t, a, c.get("1"))
	assert.Nil(t, c.get("2"))
	assert.Equal(t, []*requestContext{a}, c.all())

	again := &requestContext{id: rpc.Int64ID(1)}
	c.put(again)
	assert.Nil(t, c.byID, "a call in place of one with its id made a map")
	assert.Same(t, again, c.get("1"), "the later call with an id takes its place")
	c.remove(a)
	assert.Same(t, again, c.get("1"), "a call no longer registered removes nothing")
	c.remove(again)
	assert.Nil(t, c.get("1"))
	assert.Equal(t, callsInFlight{}, c)
	assert.Empty(t, c.all())
}

func TestCallsInFlightFindEveryCallWhileSeveralRun(t *testing.T) {
	var c callsInFlight
	calls := []*requestContext{{id: rpc.Int64ID(1)}, {id: rpc.StringID("x")}, {id: rpc.Int64ID(3)}}
	for _, rc := range calls {
		c.put(rc)
	}
	require.NotNil(t, c.byID)
	for _, rc := range calls {
		assert.Same(t, rc, c.get(rc.id.String()), rc.id.String())
	}
	assert.ElementsMatch(t, calls, c.all())

	stale := &requestContext{id: rpc.Int64ID(1)}
	c.remove(stale)
	assert.Same(t, calls[0], c.get("1"), "a call no longer registered removes nothing")

	c.remove(calls[0])
	assert.NotNil(t, c.byID, "two calls left, held in the map")
	c.remove(calls[2])
	assert.Nil(t, c.byID, "one call left, still in a map")
	assert.Same(t, calls[1], c.get(`"x"`))
	assert.Nil(t, c.get("1"))
	assert.Nil(t, c.get("3"))
	c.remove(calls[1])
	assert.Equal(t, callsInFlight{}, c)
}
