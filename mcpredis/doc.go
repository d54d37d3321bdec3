// Package mcpredis keeps what the replicas of an MCP server share in
// Redis: the state of handshake-era sessions (mcp.SessionStore), the
// messages between replicas (mcp.Broker), the SSE events clients resume
// from (mcp.EventStore) and the records of 2025-11-25 tasks
// (mcp.TaskStore). It is a module of its own, so that the mcp package does
// not depend on a Redis client.
//
// Every replica makes a Store on the same Redis, with the same prefix, and
// hands its parts to the Streamable HTTP handler:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "redis:6379"})
//	st := mcpredis.New(rdb, mcpredis.Options{Prefix: "weather:"})
//	h := mcp.NewStreamableHTTPHandler(server, &mcp.HTTPOptions{
//		Sessions:   st.Sessions(),
//		Broker:     st.Broker(),
//		EventStore: st.Events(),
//		Tasks:      st.Tasks(),
//	})
//
// # What is stored where
//
// With prefix P, a session's state is the string key P+"session:"+id,
// written with SET … PX and expiring after the ttl the handler gives it.
//
// A session's SSE events are one Redis stream, P+"events:{s:"+session+"}",
// with a counter of its bytes beside it; the session id is a hash tag, so
// that on Redis Cluster both keys live in one slot. An append adds an entry
// and drops the oldest past Options.MaxEvents and Options.MaxEventBytes in
// one Lua script; both keys expire Options.EventTTL after the last append,
// so that sessions that end without Forget do not fill Redis. An event id
// is the stream's name (path-escaped) and the entry's Redis id:
// "<stream>/<milliseconds>-<sequence>". A replay from an event that was
// dropped, or never stored, fails with mcp.ErrEventNotFound.
//
// A session's tasks are one hash each, P+"task:{s:"+session+"}:"+id with
// the task id path-escaped, and a sorted set of the escaped ids,
// P+"task:{s:"+session+"}", for tasks/list. A task's hash holds its status,
// its Task as JSON, and its result or error as given, byte for byte; it
// expires after the keep of Create, or of End once the task has ended. The
// sorted set is scored by Redis's clock at Create, in milliseconds, so that
// replicas whose clocks disagree still list a session's tasks oldest first
// (those of one millisecond in the order of their escaped ids). It expires
// with the longest keep it was given, and List drops the ids of tasks that
// expired. Create, End and List are Lua scripts: End replaces a hash only
// while its status is working or input_required, so of two replicas ending
// a task at once, one wins. An escaped id holds no '}', so no two tasks
// share a key whatever their ids, and a session's keys share a hash tag
// (one Redis Cluster slot).
//
// A topic is the pub/sub channel P+"topic:"+topic. All subscriptions of a
// Store share one pub/sub connection, opened with the first subscription
// and closed with the last; Subscribe returns once Redis has confirmed the
// subscription, so a message published after that reaches it. Each
// subscriber has its own queue and goroutine: one that does not keep up
// loses messages instead of holding up the others.
//
// # When Redis is away
//
// Every call returns the client's error, within the client's timeouts
// (redis.Options DialTimeout, ReadTimeout, WriteTimeout, MaxRetries):
// nothing blocks until Redis comes back. Subscribe also gives up after
// Options.SubscribeTimeout. Subscriptions survive a lost connection:
// go-redis reconnects and subscribes again (its health check pings every
// few seconds), but messages published meanwhile are lost, as the
// at-most-once delivery of mcp.Broker allows. Events, tasks and session
// state live as long as Redis keeps them: run Redis with persistence, or
// replicated, if they must survive a restart of Redis.
//
// Redis 6.2 or later is needed (exclusive XRANGE).
package mcpredis
