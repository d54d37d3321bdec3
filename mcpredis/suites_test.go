package mcpredis_test

import (
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/storetest"
	"github.com/schemarpc/schemarpc/mcpredis"
)

func TestSessionStoreConforms(t *testing.T) {
	c := startRedis(t).client(t)
	storetest.SessionStore(t, func(*testing.T) mcp.SessionStore {
		return mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Sessions()
	})
}

func TestBrokerConforms(t *testing.T) {
	c := startRedis(t).client(t)
	storetest.Broker(t, func(*testing.T) mcp.Broker {
		return mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Broker()
	})
}

func TestEventStoreConforms(t *testing.T) {
	c := startRedis(t).client(t)
	storetest.EventStore(t, func(*testing.T) mcp.EventStore {
		return mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Events()
	})
}

func TestEventStoreBoundsConform(t *testing.T) {
	c := startRedis(t).client(t)
	storetest.EventStoreBounds(t, func(_ *testing.T, maxEvents int) mcp.EventStore {
		return mcpredis.New(c, mcpredis.Options{Prefix: newPrefix(), MaxEvents: maxEvents}).Events()
	})
}

func TestTaskStoreConforms(t *testing.T) {
	c := startRedis(t).client(t)
	storetest.TaskStore(t, func(*testing.T) mcp.TaskStore {
		return mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
	})
}
