package inproc_test

import (
	"testing"
)

// window is how many calls the pipelined benchmarks keep in flight.
const window = 64

// warmID is the id of the call made before measuring, outside the ids the
// measured calls use.
const warmID = 1 << 30

// warm makes one call before the measurement, so that what a server sets
// up on its first call (buffers, caches) is not counted.
func warm(b *testing.B, s *session, e era, c toolCall) {
	s.send(b, c.request(nil, e, warmID))
	reply := s.recv(b)
	if id, wrong := c.check(reply, e); wrong != "" || id != warmID {
		b.Fatalf("first call: got id %d, %s: %s", id, wrong, reply)
	}
}

// BenchmarkToolsCall measures one tools/call through each server's stdio
// path: sequential (one call in flight) and pipelined (window in flight,
// reported per call). Every reply is checked; a wrong one fails the run.
func BenchmarkToolsCall(b *testing.B) {
	for _, srv := range servers {
		b.Run(srv.name, func(b *testing.B) {
			for _, e := range eras {
				b.Run(e.name, func(b *testing.B) {
					for _, c := range toolCalls {
						b.Run(c.tool, func(b *testing.B) { sequential(b, srv.serve, e, c) })
						b.Run(c.tool+"/pipelined", func(b *testing.B) { pipelined(b, srv.serve, e, c) })
					}
				})
			}
		})
	}
}

func sequential(b *testing.B, serve stdioServer, e era, c toolCall) {
	s := startSession(b, serve)
	defer s.close(b)
	begin(b, s, e)
	warm(b, s, e, c)
	buf := make([]byte, 0, 512)
	b.ReportAllocs()
	id := 0
	for b.Loop() {
		id++
		buf = c.request(buf[:0], e, id)
		s.send(b, buf)
		reply := s.recv(b)
		if got, wrong := c.check(reply, e); wrong != "" || got != id {
			b.Fatalf("call %d: got id %d, %s: %s", id, got, wrong, reply)
		}
	}
}

func pipelined(b *testing.B, serve stdioServer, e era, c toolCall) {
	s := startSession(b, serve)
	defer s.close(b)
	begin(b, s, e)
	warm(b, s, e, c)
	n := b.N
	seen := make([]uint64, n/64+1)
	slots := make(chan struct{}, window)
	stop := make(chan struct{})
	defer close(stop)
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		buf := make([]byte, 0, 512)
		for id := 1; id <= n; id++ {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			buf = c.request(buf[:0], e, id)
			if _, err := s.stdin.Write(buf); err != nil {
				return // the reader sees the server end
			}
		}
	}()
	for range n {
		reply := s.recv(b)
		id, wrong := c.check(reply, e)
		switch {
		case wrong != "":
			b.Fatalf("call %d: %s: %s", id, wrong, reply)
		case id < 1 || id > n || seen[id/64]&(1<<(id%64)) != 0:
			b.Fatalf("reply to an id not in flight: %s", reply)
		}
		seen[id/64] |= 1 << (id % 64)
		<-slots
	}
	b.StopTimer()
}
