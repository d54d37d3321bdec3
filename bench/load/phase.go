package load

import "time"

// limits bound one phase by call count and by time.
type limits struct {
	calls    int64
	deadline time.Time
}

// phase is what a run of calls measured on the driver's side.
type phase struct {
	wall      time.Duration
	latencies []time.Duration
}

// calls is the number of verified replies.
func (p phase) calls() int64 { return int64(len(p.latencies)) }
