package storetest_test

import (
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/storetest"
)

func TestMemorySessionStore(t *testing.T) {
	storetest.SessionStore(t, func(*testing.T) mcp.SessionStore {
		return mcp.NewMemorySessionStore()
	})
}

func TestMemoryBroker(t *testing.T) {
	storetest.Broker(t, func(*testing.T) mcp.Broker {
		return &mcp.MemoryBroker{}
	})
}

func TestMemoryEventStore(t *testing.T) {
	storetest.EventStore(t, func(*testing.T) mcp.EventStore {
		return mcp.NewMemoryEventStore(nil)
	})
}

func TestMemoryEventStoreBounds(t *testing.T) {
	storetest.EventStoreBounds(t, func(_ *testing.T, maxEvents int) mcp.EventStore {
		return mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxEvents: maxEvents})
	})
}

func TestMemoryTaskStore(t *testing.T) {
	storetest.TaskStore(t, func(*testing.T) mcp.TaskStore { return mcp.NewMemoryTaskStore() })
}
