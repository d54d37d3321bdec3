package mcpredis_test

import (
	"log"
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

// One replica of a server whose sessions, events, tasks and messages
// between replicas live in Redis. Run as many as needed behind a load
// balancer, each with the same Redis and prefix.
func Example() {
	server := mcp.NewServer(&mcp.Implementation{Name: "weather", Version: "1.0.0"}, nil)

	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	st := mcpredis.New(rdb, mcpredis.Options{Prefix: "weather:"})

	h := mcp.NewStreamableHTTPHandler(server, &mcp.HTTPOptions{
		Sessions:   st.Sessions(),
		Broker:     st.Broker(),
		EventStore: st.Events(),
		Tasks:      st.Tasks(),
	})
	defer h.Close()
	log.Fatal(http.ListenAndServe("127.0.0.1:8080", h))
}
