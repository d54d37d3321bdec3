package counter

import (
	"context"
	"errors"
	"sync"
	"testing"

	"example.test/generated/harness"

	"github.com/schemarpc/schemarpc/rpc"
)

type counters struct {
	UnimplementedCounterServer
	mu     sync.Mutex
	values map[CounterID]CounterValue
}

func (c *counters) CounterGet(_ context.Context, p *CounterGetParams) (CounterValue, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.values[p.ID]
	if !ok {
		return 0, NewCounterNotFoundError()
	}
	return v, nil
}

func (c *counters) CounterAdd(_ context.Context, p *CounterAddParams) (CounterValue, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.values[p.ID]
	if !ok {
		return 0, NewCounterNotFoundError()
	}
	n := int64(v) + p.Amount
	if n > 1000 || n < -1000 {
		if p.Saturate == nil || !*p.Saturate {
			return 0, NewOutOfRangeError()
		}
		n = max(min(n, 1000), -1000)
	}
	c.values[p.ID] = CounterValue(n)
	return CounterValue(n), nil
}

func (c *counters) CounterReset(_ context.Context, p *CounterResetParams) (CounterValue, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev, ok := c.values[p.ID]
	if !ok {
		return 0, NewCounterNotFoundError()
	}
	c.values[p.ID] = 0
	if p.To != nil {
		c.values[p.ID] = *p.To
	}
	return prev, nil
}

func (c *counters) CounterList(context.Context) (map[string]CounterValue, error) {
	return nil, nil
}

func connect(t *testing.T) (*CounterClient, *rpc.Conn, *harness.Wire) {
	s := &counters{values: map[CounterID]CounterValue{"hits": 7}}
	conn, wire := harness.Connect(t, func(r *rpc.Router) { RegisterCounterServer(r, s) })
	return NewCounterClient(conn), conn, wire
}

func TestDefaultParamStructureIsEitherAndTheClientSendsByName(t *testing.T) {
	c, conn, wire := connect(t)
	ctx := context.Background()
	v, err := c.CounterAdd(ctx, &CounterAddParams{ID: "hits", Amount: 3})
	if err != nil || v != 10 {
		t.Fatalf("got %d, %v", v, err)
	}
	if got := wire.Last(MethodCounterAdd); got != `{"id":"hits","amount":3}` {
		t.Errorf("sent %s", got)
	}
	yes := true
	v, err = c.CounterAdd(ctx, &CounterAddParams{ID: "hits", Amount: 5000, Saturate: &yes})
	if err != nil || v != 1000 {
		t.Fatalf("got %d, %v", v, err)
	}
	if got := wire.Last(MethodCounterAdd); got != `{"id":"hits","amount":5000,"saturate":true}` {
		t.Errorf("sent %s", got)
	}
	if e, _ := harness.Raw(t, conn, MethodCounterGet, `{"id": "hits"}`); e != nil {
		t.Errorf("by name: %v", e)
	}
	if e, _ := harness.Raw(t, conn, MethodCounterGet, `["hits"]`); e != nil {
		t.Errorf("by position: %v", e)
	}
}

func TestByNameMethodRefusesAnArray(t *testing.T) {
	c, conn, wire := connect(t)
	prev, err := c.CounterReset(context.Background(), &CounterResetParams{ID: "hits"})
	if err != nil || prev != 7 {
		t.Fatalf("got %d, %v", prev, err)
	}
	if got := wire.Last(MethodCounterReset); got != `{"id":"hits"}` {
		t.Errorf("sent %s", got)
	}
	if e, _ := harness.Raw(t, conn, MethodCounterReset, `["hits"]`); e == nil || e.Code != rpc.CodeInvalidParams {
		t.Errorf("a by-name method took an array: %v", e)
	}
}

func TestComponentErrorsAreTyped(t *testing.T) {
	c, _, _ := connect(t)
	_, err := c.CounterGet(context.Background(), &CounterGetParams{ID: "misses"})
	if !errors.Is(err, NewCounterNotFoundError()) || harness.Code(err) != 20 {
		t.Errorf("got %v", err)
	}
	_, err = c.CounterAdd(context.Background(), &CounterAddParams{ID: "hits", Amount: 5000})
	if !errors.Is(err, NewOutOfRangeError()) || CodeOutOfRange != 21 {
		t.Errorf("got %v", err)
	}
}

func TestSchemaConstraintsOfComponentsApply(t *testing.T) {
	_, conn, _ := connect(t)
	for _, params := range []string{`["Hits"]`, `[1]`, `[]`, `{"id": "hits", "extra": 1}`} {
		if e, _ := harness.Raw(t, conn, MethodCounterGet, params); e == nil || e.Code != rpc.CodeInvalidParams {
			t.Errorf("%s: got %v, want -32602", params, e)
		}
	}
	if e, _ := harness.Raw(t, conn, MethodCounterReset, `{"id": "hits", "to": 1001}`); e == nil || e.Code != rpc.CodeInvalidParams {
		t.Errorf("got %v, want -32602", e)
	}
}

func TestNilMapResultIsSentAsEmpty(t *testing.T) {
	_, conn, _ := connect(t)
	if e, res := harness.Raw(t, conn, MethodCounterList, ""); e != nil || string(res) != "{}" {
		t.Errorf("got %s, %v", res, e)
	}
}
