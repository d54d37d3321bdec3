package load

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"time"
)

// Setup is one way of serving: Replicas replicas, sharing through Redis
// or, for one replica alone, in memory.
type Setup struct {
	// Replicas is how many replica processes serve.
	Replicas int
	// Memory keeps sessions and events in the one replica's memory, with
	// no Redis: the baseline a single process gives.
	Memory bool
}

// String names the setup in reports: "3 replicas", "1 replica (memory)".
func (s Setup) String() string {
	name := fmt.Sprintf("%d replicas", s.Replicas)
	if s.Replicas == 1 {
		name = "1 replica"
	}
	if s.Memory {
		return name + " (memory)"
	}
	return name + " on Redis"
}

// scaleCluster is a setup running: its replicas and the proxy before them.
type scaleCluster struct {
	replicas []*process
	proxy    *http.Server
	url      string
}

// startCluster starts s's replicas of program and a round-robin proxy;
// redisURL is where replicas share (unused for a memory setup).
func startCluster(s Setup, program, redisURL, prefix string) (*scaleCluster, error) {
	if s.Replicas < 1 || (s.Memory && s.Replicas != 1) {
		return nil, fmt.Errorf("setup %q: a memory setup has one replica, others at least one", s)
	}
	c := &scaleCluster{}
	var targets []*url.URL
	for i := range s.Replicas {
		addr, err := freeLocalAddr()
		if err != nil {
			c.stop()
			return nil, err
		}
		args := []string{"-http", addr}
		if !s.Memory {
			args = append(args, "-redis", redisURL, "-prefix", prefix)
		}
		p, err := startListening(fmt.Sprintf("replica %d", i+1), program, addr, args...)
		if err != nil {
			c.stop()
			return nil, err
		}
		c.replicas = append(c.replicas, p)
		targets = append(targets, &url.URL{Scheme: "http", Host: addr})
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.stop()
		return nil, err
	}
	c.proxy = &http.Server{Handler: roundRobin(targets), ReadHeaderTimeout: 10 * time.Second}
	go c.proxy.Serve(ln)
	c.url = "http://" + ln.Addr().String() + "/mcp"
	return c, nil
}

// pids are the replicas' process ids.
func (c *scaleCluster) pids() []int {
	out := make([]int, len(c.replicas))
	for i, p := range c.replicas {
		out[i] = p.pid()
	}
	return out
}

// alive returns an error naming the first replica that exited.
func (c *scaleCluster) alive() error {
	var errs []error
	for _, p := range c.replicas {
		if err := p.alive(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// stop ends the proxy and the replicas.
func (c *scaleCluster) stop() {
	if c.proxy != nil {
		c.proxy.Close()
	}
	var wg sync.WaitGroup
	for _, p := range c.replicas {
		wg.Go(p.stop)
	}
	wg.Wait()
}

// roundRobin is a reverse proxy that sends each request to the next
// target in turn, with no affinity, as a load balancer spreading requests
// over replicas does. Responses stream through unbuffered.
func roundRobin(targets []*url.URL) http.Handler {
	var next atomic.Uint64
	transport := &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 256, IdleConnTimeout: time.Minute, DisableCompression: true}
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			t := targets[(next.Add(1)-1)%uint64(len(targets))]
			r.SetURL(t)
			r.Out.Host = r.In.Host
		},
		Transport:     transport,
		FlushInterval: -1,
	}
}
