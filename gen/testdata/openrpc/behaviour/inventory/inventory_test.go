package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"example.test/generated/harness"

	"github.com/schemarpc/schemarpc/rpc"
)

// store implements the generated server.
type store struct {
	UnimplementedInventoryServer
	mu        sync.Mutex
	items     map[Sku]*Item
	restocked []InventoryRestockedParams
	adjusted  []InventoryAdjustParams
	listed    []InventoryListItemsParams
}

func newStore() *store {
	return &store{items: map[Sku]*Item{
		"BLT-0001": {Sku: "BLT-0001", Name: "Bolt", Quantity: 12, Category: CategoryNameHardware},
		"HSE-0002": {Sku: "HSE-0002", Name: "Hose", Quantity: 3, Category: CategoryNameGarden},
	}}
}

func (s *store) InventoryGetItem(_ context.Context, p *InventoryGetItemParams) (*Item, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[p.Sku]
	if !ok {
		return nil, NewItemNotFoundError()
	}
	out := *it
	if p.WithHistory != nil && *p.WithHistory {
		out.History = []Movement{{Kind: MovementKindDelivery, Delta: 12}}
	}
	return &out, nil
}

func (s *store) InventoryListItems(_ context.Context, p *InventoryListItemsParams) (*ItemPage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listed = append(s.listed, *p)
	page := &ItemPage{}
	for _, sku := range []Sku{"BLT-0001", "HSE-0002"} {
		if it := s.items[sku]; it.Category == p.Category {
			page.Items = append(page.Items, *it)
		}
	}
	return page, nil
}

func (s *store) InventoryAdjust(_ context.Context, p *InventoryAdjustParams) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.adjusted = append(s.adjusted, *p)
	it, ok := s.items[p.Sku]
	switch {
	case !ok:
		return 0, NewItemNotFoundError()
	case it.Quantity+p.Delta < 0:
		return 0, NewStockWouldGoNegativeError()
	}
	it.Quantity += p.Delta
	return it.Quantity, nil
}

func (s *store) InventoryRestocked(_ context.Context, p *InventoryRestockedParams) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.restocked = append(s.restocked, *p)
	return nil
}

func (s *store) InventoryCategories(context.Context) (*Category, error) {
	return &Category{Name: "all", Children: []Category{{Name: "hardware"}, {Name: "garden"}}}, nil
}

func (s *store) InventoryStatus(context.Context) (InventoryStatusResult, error) {
	return "", NewWarehouseOfflineError()
}

func (s *store) InventoryHistory(_ context.Context, p *InventoryHistoryParams) ([]Movement, error) {
	return nil, nil
}

func connect(t *testing.T) (*InventoryClient, *rpc.Conn, *harness.Wire, *store) {
	s := newStore()
	conn, wire := harness.Connect(t, func(r *rpc.Router) { RegisterInventoryServer(r, s) }, MethodInventoryRestocked)
	return NewInventoryClient(conn), conn, wire, s
}

func TestByNameMethodSendsAnObject(t *testing.T) {
	c, _, wire, _ := connect(t)
	yes := true
	it, err := c.InventoryGetItem(context.Background(), &InventoryGetItemParams{Sku: "BLT-0001", WithHistory: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if it.Name != "Bolt" || len(it.History) != 1 {
		t.Errorf("got %+v", it)
	}
	if got := wire.Last(MethodInventoryGetItem); got != `{"sku":"BLT-0001","withHistory":true}` {
		t.Errorf("sent %s", got)
	}
}

func TestByPositionMethodSendsAnArrayWithoutTrailingAbsentParams(t *testing.T) {
	c, _, wire, s := connect(t)
	limit := int64(5)
	page, err := c.InventoryListItems(context.Background(), &InventoryListItemsParams{Category: CategoryNameGarden, Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].Sku != "HSE-0002" {
		t.Errorf("got %+v", page)
	}
	if got := wire.Last(MethodInventoryListItems); got != `["garden",5]` {
		t.Errorf("sent %s", got)
	}
	if _, err := c.InventoryListItems(context.Background(), &InventoryListItemsParams{Category: CategoryNameKitchen}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodInventoryListItems); got != `["kitchen"]` {
		t.Errorf("sent %s", got)
	}
	if len(s.listed) != 2 || *s.listed[0].Limit != 5 || s.listed[1].Limit != nil {
		t.Errorf("the server saw %+v", s.listed)
	}
}

func TestByPositionGapThatCannotBeNullFailsBeforeSending(t *testing.T) {
	c, _, wire, _ := connect(t)
	_, err := c.InventoryListItems(context.Background(), &InventoryListItemsParams{Category: CategoryNameGarden, Cursor: "abc"})
	if err == nil || !strings.Contains(err.Error(), "limit is absent but cursor after it is present, and limit cannot be null") {
		t.Fatalf("got %v", err)
	}
	if got := wire.Last(MethodInventoryListItems); got != "<none>" {
		t.Errorf("sent %s anyway", got)
	}
}

func TestEitherMethodSendsByNameByDefault(t *testing.T) {
	c, _, wire, s := connect(t)
	q, err := c.InventoryAdjust(context.Background(), &InventoryAdjustParams{Sku: "BLT-0001", Delta: -2})
	if err != nil || q != 10 {
		t.Fatalf("got %d, %v", q, err)
	}
	if got := wire.Last(MethodInventoryAdjust); got != `{"sku":"BLT-0001","delta":-2}` {
		t.Errorf("sent %s", got)
	}
	q, err = c.InventoryAdjust(context.Background(), &InventoryAdjustParams{Sku: "BLT-0001", Delta: 1, Movement: &Movement{Kind: MovementKindCorrection, Delta: 1}})
	if err != nil || q != 11 {
		t.Fatalf("got %d, %v", q, err)
	}
	if got := wire.Last(MethodInventoryAdjust); got != `{"sku":"BLT-0001","delta":1,"movement":{"kind":"correction","delta":1}}` {
		t.Errorf("sent %s", got)
	}
	if len(s.adjusted) != 2 || s.adjusted[1].Movement == nil || s.adjusted[1].Reason != nil {
		t.Errorf("the server saw %+v", s.adjusted)
	}
}

func TestEitherMethodAcceptsBothFormsFromOtherClients(t *testing.T) {
	_, conn, _, _ := connect(t)
	for _, params := range []string{`["HSE-0002", 1]`, `{"delta": 1, "sku": "HSE-0002"}`, `["HSE-0002", 1, "found one", {"kind": "correction", "delta": 1}]`} {
		if e, res := harness.Raw(t, conn, MethodInventoryAdjust, params); e != nil {
			t.Errorf("%s: %v", params, e)
		} else if len(res) == 0 {
			t.Errorf("%s: no result", params)
		}
	}
}

func TestDeclaredErrorsArriveAsTypedValues(t *testing.T) {
	c, _, _, _ := connect(t)
	_, err := c.InventoryGetItem(context.Background(), &InventoryGetItemParams{Sku: "NOP-0000"})
	if harness.Code(err) != CodeItemNotFound || !errors.Is(err, NewItemNotFoundError()) {
		t.Errorf("got %v", err)
	}
	var e *rpc.Error
	if !errors.As(err, &e) || e.Message != "No item has this SKU" {
		t.Errorf("got %#v", err)
	}
	_, err = c.InventoryAdjust(context.Background(), &InventoryAdjustParams{Sku: "HSE-0002", Delta: -100})
	if !errors.Is(err, NewStockWouldGoNegativeError()) || CodeStockWouldGoNegative != 409 {
		t.Errorf("got %v", err)
	}
	_, err = c.InventoryStatus(context.Background())
	if harness.Code(err) != -32001 || CodeWarehouseOffline != -32001 {
		t.Errorf("got %v", err)
	}
	if CodeNameTaken != 410 || CodeUnreferenced != 500 {
		t.Error("component errors lost their codes")
	}
}

func TestBadParamsAreRefusedWithTheViolations(t *testing.T) {
	_, conn, _, _ := connect(t)
	tests := []struct {
		method, params, where string
	}{
		{MethodInventoryGetItem, `{"sku": "bolt"}`, `"/sku"`},
		{MethodInventoryGetItem, `{"sku": "BLT-0001", "colour": "red"}`, `colour`},
		{MethodInventoryGetItem, `{}`, `sku`},
		{MethodInventoryListItems, `["toys"]`, `"/0"`},
		{MethodInventoryListItems, `["garden", 0]`, `"/1"`},
		{MethodInventoryListItems, `["garden", 1, "", 4]`, ``},
		{MethodInventoryAdjust, `["BLT-0001", 1.5]`, `"/1"`},
		{MethodInventoryRestocked, `{"sku": "BLT-0001", "quantity": 0}`, `"/quantity"`},
	}
	for _, tt := range tests {
		e, _ := harness.Raw(t, conn, tt.method, tt.params)
		if e == nil || e.Code != rpc.CodeInvalidParams {
			t.Errorf("%s %s: got %v, want -32602", tt.method, tt.params, e)
			continue
		}
		if tt.where != "" && !strings.Contains(string(e.Data), tt.where) {
			t.Errorf("%s %s: error.data %s does not name %s", tt.method, tt.params, e.Data, tt.where)
		}
	}
	e, _ := harness.Raw(t, conn, MethodInventoryListItems, `{"category": "garden"}`)
	if e == nil || e.Code != rpc.CodeInvalidParams || !strings.Contains(e.Message, "by position") {
		t.Errorf("a by-position method took params by name: %v", e)
	}
}

func TestNotificationsReachTheServer(t *testing.T) {
	c, _, wire, s := connect(t)
	if err := c.InventoryRestocked(context.Background(), &InventoryRestockedParams{Sku: "BLT-0001", Quantity: 40}); err != nil {
		t.Fatal(err)
	}
	wire.Notified(t, MethodInventoryRestocked)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.restocked) != 1 || s.restocked[0].Quantity != 40 {
		t.Errorf("got %+v", s.restocked)
	}
}

func TestMethodsWithoutParamsAndRecursiveResults(t *testing.T) {
	c, _, wire, _ := connect(t)
	root, err := c.InventoryCategories(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if root.Name != "all" || len(root.Children) != 2 || root.Children[1].Name != "garden" {
		t.Errorf("got %+v", root)
	}
	if got := wire.Last(MethodInventoryCategories); got != "<absent>" {
		t.Errorf("sent %s", got)
	}
	b, _ := json.Marshal(root.Children[0])
	if string(b) != `{"name":"hardware","children":[]}` {
		t.Errorf("a required list went out as %s", b)
	}
}

func TestByPositionWithOnlyTheRequiredParam(t *testing.T) {
	c, _, wire, _ := connect(t)
	if _, err := c.InventoryHistory(context.Background(), &InventoryHistoryParams{Sku: "BLT-0001"}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodInventoryHistory); got != `["BLT-0001"]` {
		t.Errorf("sent %s", got)
	}
	since := Timestamp("2024-05-01T00:00:00Z")
	if _, err := c.InventoryHistory(context.Background(), &InventoryHistoryParams{Sku: "BLT-0001", Since: &since, Kinds: []MovementKind{}}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodInventoryHistory); got != `["BLT-0001","2024-05-01T00:00:00Z",[]]` {
		t.Errorf("sent %s", got)
	}
}
