package load

import "fmt"

// The start-up and memory goals: ours over the best peer (or over
// the limit server) at most this much.
const (
	TargetSpawnOverBestPeer   = 0.9
	TargetSpawnOverLimit      = 1.5
	TargetPeakRSSOverBestPeer = 1.0
	TargetSessionOverBestPeer = 0.5
	TargetStreamOverBestPeer  = 0.5
)

// startupGoal is one bound on one measure's ratio.
type startupGoal struct {
	measure string
	limit   bool // over the limit server rather than over the best peer
	bound   float64
}

var startupGoals = []startupGoal{
	{MeasureSpawn, false, TargetSpawnOverBestPeer},
	{MeasureSpawn, true, TargetSpawnOverLimit},
	{MeasurePeakRSS, false, TargetPeakRSSOverBestPeer},
	{MeasureSession, false, TargetSessionOverBestPeer},
	{MeasureStream, false, TargetStreamOverBestPeer},
}

// startupTargets checks the goals against every comparison they bound.
func startupTargets(comparisons []Comparison, ours string) []Target {
	var out []Target
	for _, c := range comparisons {
		for _, g := range startupGoals {
			if g.measure != c.Measure {
				continue
			}
			over, v := "best peer", c.OverBestPeer
			if g.limit {
				over, v = "limit", c.OverLimit
			}
			out = append(out, Target{
				Goal:  fmt.Sprintf("%s: %s/%s ≤ %g", c.Measure, ours, over, g.bound),
				Where: c.Where, Server: ours, Value: v, Status: check(v, g.bound, true),
			})
		}
	}
	return out
}
