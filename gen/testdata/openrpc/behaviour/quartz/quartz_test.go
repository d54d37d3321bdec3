package quartz

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"example.test/generated/harness"

	"github.com/schemarpc/schemarpc/rpc"
)

const (
	alice  = Address("0x00000000000000000000000000000000000a11ce")
	txHash = Hash32("0x1111111111111111111111111111111111111111111111111111111111111111")
	zero32 = Hash32("0x0000000000000000000000000000000000000000000000000000000000000000")
)

// node implements the generated server with canned answers.
type node struct {
	UnimplementedQuartzJSONRPCAPIServer
	mu     sync.Mutex
	events []QzSubscriptionParams
	fcu    []EngineForkchoiceUpdatedV1Params
	calls  []QzCallParams
}

func (n *node) QzChainID(context.Context) (Uint, error) { return "0x539", nil }

func (n *node) QzSyncing(context.Context) (*SyncingStatus, error) {
	return &SyncingStatus{Value: SyncingStatusNotSyncing(false)}, nil
}

func (n *node) QzGetBalance(_ context.Context, p *QzGetBalanceParams) (Uint, error) {
	if p.Address != alice || p.Block != "latest" {
		return "0x0", nil
	}
	return "0xde0b6b3a7640000", nil
}

func (n *node) QzGetBlockByNumber(_ context.Context, p *QzGetBlockByNumberParams) (*Block, error) {
	if p.Block == "pending" {
		return nil, nil
	}
	return &Block{Number: "0x10", Hash: zero32, Size: "0x200", Transactions: BlockTransactions{Value: BlockTransactionsTransactionHashes{txHash}}, Uncles: []Hash32{}}, nil
}

func (n *node) QzGetTransactionByHash(_ context.Context, p *QzGetTransactionByHashParams) (*TransactionInfo, error) {
	if p.TransactionHash != txHash {
		return nil, nil
	}
	return &TransactionInfo{
		Location: TransactionLocation{BlockHash: zero32, BlockNumber: "0x10", TransactionIndex: "0x0"},
		From:     alice,
		Hash:     txHash,
		Transaction: TransactionSigned{Value: Transaction1559Signed{
			Nonce: "0x1", Gas: "0x5208", Value: "0x0", Input: "0x", ChainID: "0x539",
			MaxFeePerGas: "0x3b9aca00", MaxPriorityFeePerGas: "0x1", R: "0x1", S: "0x2", YParity: SignatureYParity("0x1"),
		}},
	}, nil
}

func (n *node) QzSendRawTransaction(_ context.Context, p *QzSendRawTransactionParams) (Hash32, error) {
	switch p.Transaction {
	case "0x00":
		return "", NewNonceTooLowError()
	case "0x01":
		return "", NewExecutionRevertedError()
	}
	return txHash, nil
}

func (n *node) QzCall(_ context.Context, p *QzCallParams) (Bytes, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.calls = append(n.calls, *p)
	return "0x2a", nil
}

func (n *node) QzEstimateGas(_ context.Context, p *QzEstimateGasParams) (Uint, error) {
	if p.Block != nil {
		return "0x1", nil
	}
	return "0x5208", nil
}

func (n *node) QzSubscription(_ context.Context, p *QzSubscriptionParams) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.events = append(n.events, *p)
	return nil
}

func (n *node) EngineForkchoiceUpdatedV1(_ context.Context, p *EngineForkchoiceUpdatedV1Params) (*ForkchoiceUpdatedResult, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.fcu = append(n.fcu, *p)
	if p.ForkchoiceState.HeadBlockHash == zero32 {
		return nil, NewInvalidForkchoiceStateError()
	}
	res := &ForkchoiceUpdatedResult{PayloadStatus: PayloadStatus{Status: PayloadStatusV1Valid, LatestValidHash: &p.ForkchoiceState.HeadBlockHash}}
	if attrs, ok := p.PayloadAttributes.Get(); ok && attrs.Timestamp != "" {
		id := Bytes8("0x0000000000000001")
		res.PayloadID = &id
	}
	return res, nil
}

func connect(t *testing.T) (*QuartzJSONRPCAPIClient, *rpc.Conn, *harness.Wire, *node) {
	n := &node{}
	conn, wire := harness.Connect(t, func(r *rpc.Router) { RegisterQuartzJSONRPCAPIServer(r, n) }, MethodQzSubscription)
	return NewQuartzJSONRPCAPIClient(conn), conn, wire, n
}

func TestEitherMethodsGoByPositionLikeEthereumClients(t *testing.T) {
	c, _, wire, _ := connect(t)
	bal, err := c.QzGetBalance(context.Background(), &QzGetBalanceParams{Address: alice, Block: "latest"})
	if err != nil || bal != "0xde0b6b3a7640000" {
		t.Fatalf("got %s, %v", bal, err)
	}
	if got := wire.Last(MethodQzGetBalance); got != `["`+string(alice)+`","latest"]` {
		t.Errorf("sent %s", got)
	}
	if _, err := c.QzEstimateGas(context.Background(), &QzEstimateGasParams{Transaction: GenericTransaction{To: rpc.Null[Address]()}}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodQzEstimateGas); got != `[{"to":null}]` {
		t.Errorf("sent %s", got)
	}
}

func TestNullResultsAndTypedTransactions(t *testing.T) {
	c, _, _, _ := connect(t)
	ctx := context.Background()
	b, err := c.QzGetBlockByNumber(ctx, &QzGetBlockByNumberParams{Block: "pending"})
	if err != nil || b != nil {
		t.Fatalf("got %+v, %v", b, err)
	}
	b, err = c.QzGetBlockByNumber(ctx, &QzGetBlockByNumberParams{Block: "0x10", HydratedTransactions: false})
	if err != nil || b == nil || b.Number != "0x10" {
		t.Fatalf("got %+v, %v", b, err)
	}
	if hashes, ok := b.Transactions.AsTransactionHashes(); !ok || len(*hashes) != 1 || (*hashes)[0] != txHash {
		t.Fatalf("got %+v, %v", b, err)
	}
	info, err := c.QzGetTransactionByHash(ctx, &QzGetTransactionByHashParams{TransactionHash: txHash})
	if err != nil {
		t.Fatal(err)
	}
	tx, ok := info.Transaction.Value.(Transaction1559Signed)
	if !ok || tx.MaxFeePerGas != "0x3b9aca00" || tx.Type != "0x2" {
		t.Errorf("got %#v", info.Transaction.Value)
	}
	missing, err := c.QzGetTransactionByHash(ctx, &QzGetTransactionByHashParams{TransactionHash: zero32})
	if err != nil || missing != nil {
		t.Errorf("got %+v, %v", missing, err)
	}
}

func TestUnionResultOfAKindAndAnObject(t *testing.T) {
	c, _, _, _ := connect(t)
	s, err := c.QzSyncing(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := s.Value.(SyncingStatusNotSyncing); !ok || bool(v) {
		t.Errorf("got %#v", s.Value)
	}
}

func TestDeclaredErrorsOfTheDocument(t *testing.T) {
	c, _, wire, _ := connect(t)
	ctx := context.Background()
	_, err := c.QzSendRawTransaction(ctx, &QzSendRawTransactionParams{Transaction: "0x00"})
	if !errors.Is(err, NewNonceTooLowError()) || CodeNonceTooLow != -32000 {
		t.Errorf("got %v", err)
	}
	var e *rpc.Error
	if !errors.As(err, &e) || e.Message != "nonce too low" {
		t.Errorf("got %#v", err)
	}
	_, err = c.QzSendRawTransaction(ctx, &QzSendRawTransactionParams{Transaction: "0x01"})
	if !errors.Is(err, NewExecutionRevertedError()) || CodeExecutionReverted != 3 {
		t.Errorf("got %v", err)
	}
	if got := wire.Last(MethodQzSendRawTransaction); got != `["0x01"]` {
		t.Errorf("sent %s", got)
	}
	if CodeInvalidParams != -32602 || CodeTransactionUnderpriced != -32010 {
		t.Error("the document's codes were not kept")
	}
}

func TestEngineMethodWithANullableOptionalParam(t *testing.T) {
	c, _, wire, n := connect(t)
	ctx := context.Background()
	head := Hash32("0x2222222222222222222222222222222222222222222222222222222222222222")
	state := ForkchoiceState{HeadBlockHash: head, SafeBlockHash: zero32, FinalizedBlockHash: zero32}
	res, err := c.EngineForkchoiceUpdatedV1(ctx, &EngineForkchoiceUpdatedV1Params{ForkchoiceState: state})
	if err != nil || res.PayloadID != nil || *res.PayloadStatus.LatestValidHash != head {
		t.Fatalf("got %+v, %v", res, err)
	}
	if got := wire.Last(MethodEngineForkchoiceUpdatedV1); strings.Count(got, "{") != 1 || !strings.HasPrefix(got, `[{"headBlockHash"`) {
		t.Errorf("sent %s", got)
	}
	if _, err := c.EngineForkchoiceUpdatedV1(ctx, &EngineForkchoiceUpdatedV1Params{ForkchoiceState: state, PayloadAttributes: rpc.Null[PayloadAttributes]()}); err != nil {
		t.Fatal(err)
	}
	if got := wire.Last(MethodEngineForkchoiceUpdatedV1); !strings.HasSuffix(got, `},null]`) {
		t.Errorf("sent %s", got)
	}
	attrs := PayloadAttributes{Timestamp: "0x64", PrevRandao: Bytes32(zero32), SuggestedFeeRecipient: alice}
	res, err = c.EngineForkchoiceUpdatedV1(ctx, &EngineForkchoiceUpdatedV1Params{ForkchoiceState: state, PayloadAttributes: rpc.Some(attrs)})
	if err != nil || res.PayloadID == nil {
		t.Fatalf("got %+v, %v", res, err)
	}
	_, err = c.EngineForkchoiceUpdatedV1(ctx, &EngineForkchoiceUpdatedV1Params{ForkchoiceState: ForkchoiceState{HeadBlockHash: zero32, SafeBlockHash: zero32, FinalizedBlockHash: zero32}})
	if !errors.Is(err, NewInvalidForkchoiceStateError()) || harness.Code(err) != -38002 {
		t.Errorf("got %v", err)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.fcu) != 4 || n.fcu[0].PayloadAttributes.Set || !n.fcu[1].PayloadAttributes.IsNull() {
		t.Errorf("the server saw %+v", n.fcu)
	}
}

func TestHexPatternsAreEnforcedAtTheirPosition(t *testing.T) {
	_, conn, _, _ := connect(t)
	for _, tt := range []struct{ method, params, where string }{
		{MethodQzGetBalance, `["0xABC", "latest"]`, `"/0"`},
		{MethodQzGetBalance, `["` + string(alice) + `", "newest"]`, `"/1"`},
		{MethodQzGetBalance, `{"Address": "` + string(alice) + `", "Block": "0x01"}`, `"/Block"`},
		{MethodQzSendRawTransaction, `{"Transaction": "0x00"}`, ``},
		{MethodEngineForkchoiceUpdatedV1, `[{"headBlockHash": "0x00"}]`, `"/0`},
		{MethodQzGetProof, `["` + string(alice) + `", ["0x1"]]`, `"/1/0"`},
	} {
		e, _ := harness.Raw(t, conn, tt.method, tt.params)
		if e == nil || e.Code != rpc.CodeInvalidParams {
			t.Errorf("%s %s: got %v, want -32602", tt.method, tt.params, e)
			continue
		}
		if !strings.Contains(string(e.Data), tt.where) {
			t.Errorf("%s %s: error.data %s does not name %s", tt.method, tt.params, e.Data, tt.where)
		}
	}
	if e, res := harness.Raw(t, conn, MethodQzChainID, `[]`); e != nil || string(res) != `"0x539"` {
		t.Errorf("a method without params refused []: %v", e)
	}
}

func TestSubscriptionNotificationCarriesAUnion(t *testing.T) {
	c, _, wire, n := connect(t)
	ev := SubscriptionEvent{Value: SubscriptionEventNewPendingTransaction{Hash: txHash}}
	if err := c.QzSubscription(context.Background(), &QzSubscriptionParams{Subscription: "0x1", Result: ev}); err != nil {
		t.Fatal(err)
	}
	wire.Notified(t, MethodQzSubscription)
	if got := wire.Last(MethodQzSubscription); got != `{"subscription":"0x1","result":{"kind":"newPendingTransactions","hash":"`+string(txHash)+`"}}` {
		t.Errorf("sent %s", got)
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if v, ok := n.events[0].Result.Value.(SubscriptionEventNewPendingTransaction); !ok || v.Hash != txHash {
		t.Errorf("got %#v", n.events[0].Result.Value)
	}
}
