package shapes

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"example.test/generated/harness"

	"github.com/schemarpc/schemarpc/rpc"
)

type board struct {
	UnimplementedShapesServer
	mu     sync.Mutex
	shapes map[int64]Shape
	moves  []ShapesMoveParams
	shared []ShapesShareParams
}

func area(s Shape) float64 {
	switch v := s.Value.(type) {
	case Circle:
		return math.Pi * v.Radius * v.Radius
	case Square:
		return v.Side * v.Side
	case Group:
		sum := 0.0
		for _, m := range v.Members {
			sum += area(m)
		}
		return sum
	}
	return -1
}

func (b *board) ShapesDraw(_ context.Context, p *ShapesDrawParams) (*DrawOutcome, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if g, ok := p.Shape.AsGroup(); ok && len(g.Members) == 0 {
		return &DrawOutcome{Value: Warned{Warning: "empty group"}}, nil
	}
	id := int64(len(b.shapes) + 1)
	b.shapes[id] = p.Shape
	return &DrawOutcome{Value: Drawn{ID: ShapeID{Value: ShapeIDInteger(id)}}}, nil
}

func (b *board) ShapesArea(_ context.Context, p *ShapesAreaParams) (float64, error) {
	return area(p.Shape), nil
}

func (b *board) lookup(id ShapeID) (Shape, error) {
	n, ok := id.AsInteger()
	if !ok {
		return Shape{}, NewNoSuchShapeError()
	}
	s, ok := b.shapes[int64(*n)]
	if !ok {
		return Shape{}, NewNoSuchShapeError()
	}
	return s, nil
}

func (b *board) ShapesMove(_ context.Context, p *ShapesMoveParams) (*Shape, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.moves = append(b.moves, *p)
	s, err := b.lookup(p.ID)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (b *board) ShapesGet(_ context.Context, p *ShapesGetParams) (*Shape, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.lookup(p.ID)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (b *board) ShapesShare(_ context.Context, p *ShapesShareParams) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.shared = append(b.shared, *p)
	return nil
}

func connect(t *testing.T) (*ShapesClient, *rpc.Conn, *harness.Wire, *board) {
	b := &board{shapes: map[int64]Shape{}}
	conn, wire := harness.Connect(t, func(r *rpc.Router) { RegisterShapesServer(r, b) }, MethodShapesShare)
	return NewShapesClient(conn), conn, wire, b
}

var unit = Shape{Value: Square{Color: ColorRed, Corner: Point{X: 0, Y: 0}, Side: 1}}

func TestUnionsTravelByTheirDiscriminator(t *testing.T) {
	c, _, wire, _ := connect(t)
	ctx := context.Background()
	group := Shape{Value: Group{Color: ColorBlue, Members: []Shape{
		unit,
		{Value: Circle{Color: ColorGreen, Center: Point{X: 1, Y: 1}, Radius: 2}},
		{Value: Group{Color: ColorRed, Members: []Shape{unit}}},
	}}}
	out, err := c.ShapesDraw(ctx, &ShapesDrawParams{Shape: group})
	if err != nil {
		t.Fatal(err)
	}
	drawn, ok := out.AsDrawn()
	if !ok {
		t.Fatalf("got %#v", out.Value)
	}
	if id, ok := drawn.ID.AsInteger(); !ok || *id != 1 {
		t.Errorf("got id %#v", drawn.ID.Value)
	}
	if sent := wire.Last(MethodShapesDraw); !strings.Contains(sent, `"kind":"group"`) || !strings.Contains(sent, `"kind":"circle"`) {
		t.Errorf("the discriminator did not go out: %s", sent)
	}
	back, err := c.ShapesGet(ctx, &ShapesGetParams{ID: drawn.ID})
	if err != nil {
		t.Fatal(err)
	}
	g, ok := back.AsGroup()
	if !ok || len(g.Members) != 3 {
		t.Fatalf("got %#v", back.Value)
	}
	if inner, ok := g.Members[2].AsGroup(); !ok || len(inner.Members) != 1 {
		t.Errorf("a group inside a group came back as %#v", g.Members[2].Value)
	}
	a, err := c.ShapesArea(ctx, &ShapesAreaParams{Shape: group})
	if err != nil || math.Abs(a-(2+4*math.Pi)) > 1e-9 {
		t.Errorf("got %v, %v", a, err)
	}
	if sent := wire.Last(MethodShapesArea); !strings.HasPrefix(sent, `[{"color":"blue","kind":"group"`) {
		t.Errorf("a by-position union param went out as %s", sent)
	}
}

func TestUnionTellsResultsApartByKey(t *testing.T) {
	c, _, _, _ := connect(t)
	out, err := c.ShapesDraw(context.Background(), &ShapesDrawParams{Shape: Shape{Value: Group{Color: ColorRed}}})
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := out.AsWarned(); !ok || w.Warning != "empty group" {
		t.Errorf("got %#v", out.Value)
	}
}

func TestUnknownVariantsAreRefusedByTheSchemaAndKeptByTheTypes(t *testing.T) {
	_, conn, _, _ := connect(t)
	e, _ := harness.Raw(t, conn, MethodShapesArea, `[{"kind": "triangle", "color": "red"}]`)
	if e == nil || e.Code != rpc.CodeInvalidParams || len(e.Data) == 0 {
		t.Fatalf("got %v", e)
	}
	var s Shape
	if err := json.Unmarshal([]byte(`{"kind":"triangle","color":"red"}`), &s); err != nil {
		t.Fatal(err)
	}
	u, ok := s.Value.(UnknownShape)
	if !ok || string(u.Raw) != `{"kind":"triangle","color":"red"}` {
		t.Errorf("got %#v", s.Value)
	}
	if b, _ := json.Marshal(s); string(b) != `{"kind":"triangle","color":"red"}` {
		t.Errorf("re-encoded as %s", b)
	}
}

func TestNullFillsAGapWhenTheSchemaAllowsIt(t *testing.T) {
	c, _, wire, b := connect(t)
	ctx := context.Background()
	if _, err := c.ShapesDraw(ctx, &ShapesDrawParams{Shape: unit}); err != nil {
		t.Fatal(err)
	}
	id := ShapeID{Value: ShapeIDInteger(1)}
	dy := 2.5
	if _, err := c.ShapesMove(ctx, &ShapesMoveParams{ID: id, Dy: &dy}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodShapesMove); got != `[1,null,2.5]` {
		t.Errorf("sent %s", got)
	}
	if _, err := c.ShapesMove(ctx, &ShapesMoveParams{ID: id, Dx: rpc.Some(1.5)}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodShapesMove); got != `[1,1.5]` {
		t.Errorf("sent %s", got)
	}
	if _, err := c.ShapesMove(ctx, &ShapesMoveParams{ID: id, Dx: rpc.Null[float64]()}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodShapesMove); got != `[1,null]` {
		t.Errorf("sent %s", got)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.moves) != 3 || !b.moves[0].Dx.IsNull() || *b.moves[0].Dy != 2.5 || b.moves[1].Dx.Value != 1.5 || !b.moves[2].Dx.IsNull() || b.moves[2].Dy != nil {
		t.Errorf("the server saw %+v", b.moves)
	}
}

func TestKindUnionsAndDeclaredErrors(t *testing.T) {
	c, conn, _, _ := connect(t)
	_, err := c.ShapesGet(context.Background(), &ShapesGetParams{ID: ShapeID{Value: ShapeIDString("imported-7")}})
	if !errors.Is(err, NewNoSuchShapeError()) || harness.Code(err) != 404 {
		t.Errorf("got %v", err)
	}
	for _, params := range []string{`{"id": 0}`, `{"id": ""}`, `{"id": true}`, `["x", 1]`} {
		if e, _ := harness.Raw(t, conn, MethodShapesGet, params); e == nil || e.Code != rpc.CodeInvalidParams {
			t.Errorf("%s: got %v, want -32602", params, e)
		}
	}
}

func TestNullableResultAndRequiredNullableParam(t *testing.T) {
	c, _, wire, b := connect(t)
	ctx := context.Background()
	if _, err := c.ShapesMove(ctx, &ShapesMoveParams{ID: ShapeID{Value: ShapeIDInteger(9)}}); !errors.Is(err, NewNoSuchShapeError()) {
		t.Errorf("got %v", err)
	}
	if err := c.ShapesShare(ctx, &ShapesShareParams{With: Contact{Value: ContactPhone{Phone: "+4412345"}}}); err != nil {
		t.Fatal(err)
	}
	wire.Notified(t, MethodShapesShare)
	if got := wire.Last(MethodShapesShare); got != `{"with":{"phone":"+4412345"},"note":null}` {
		t.Errorf("sent %s", got)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.shared) != 1 || b.shared[0].Note != nil {
		t.Fatalf("got %+v", b.shared)
	}
	if p, ok := b.shared[0].With.AsPhone(); !ok || p.Phone != "+4412345" {
		t.Errorf("got %#v", b.shared[0].With.Value)
	}
}
