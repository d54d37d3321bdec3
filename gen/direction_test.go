package gen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// The direction golden case is exercised over a real connection: the server
// calls the client's callbacks while serving the client's call.
func init() {
	behaviourTests["direction"] = `package direction

import (
	"context"
	"fmt"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

type server struct{ UnimplementedChatServer }

// Say asks the client back before answering, over the same connection.
func (server) Say(ctx context.Context, p *Line) (int64, error) {
	back := NewChatCallbacksClient(rpc.ConnFromContext(ctx))
	echo, err := back.Ask(ctx, &Line{Text: "really " + p.Text + "?"})
	if err != nil {
		return 0, err
	}
	return int64(len(echo.Text)), nil
}

type client struct{ UnimplementedChatCallbacks }

func (client) Ask(_ context.Context, p *Line) (*Line, error) { return &Line{Text: p.Text + " yes"}, nil }

func TestTheServerCallsTheClientsCallbacks(t *testing.T) {
	st, ct := rpc.NewPipe()
	sr, cr := rpc.NewRouter(), rpc.NewRouter()
	RegisterChatServer(sr, server{})
	RegisterChatCallbacks(cr, client{})
	sc := rpc.NewConn(st, rpc.WithHandler(sr))
	cc := rpc.NewConn(ct, rpc.WithHandler(cr))
	defer sc.Close()
	defer cc.Close()
	n, err := NewChatClient(cc).Say(context.Background(), &Line{Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(len("really hi? yes")); n != want {
		t.Errorf("got %d, want %d", n, want)
	}
}

func TestEachSideRegistersOnlyTheMethodsItHandles(t *testing.T) {
	sr, cr := rpc.NewRouter(), rpc.NewRouter()
	RegisterChatServer(sr, server{})
	RegisterChatCallbacks(cr, client{})
	if got, want := fmt.Sprint(sr.Methods()), fmt.Sprint([]string{MethodBye, MethodPing, MethodProgress, MethodSay}); got != want {
		t.Errorf("server registers %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(cr.Methods()), fmt.Sprint([]string{MethodAsk, MethodHeard, MethodPing, MethodProgress}); got != want {
		t.Errorf("client registers %s, want %s", got, want)
	}
}
`
}

func TestBadDirectionIsReportedWithItsPointer(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"unknown word", index(`"methods": [{"name": "a", "direction": "up", "result": true}]`),
			`input.json#/methods/0/direction: direction must be "client-to-server", "server-to-client" or "both", not "up"`},
		{"not a string", index(`"methods": [{"name": "a", "direction": 2, "result": true}]`),
			`input.json#/methods/0/direction: direction must be "client-to-server", "server-to-client" or "both", not 2`},
		{"callbacks name taken by a definition", index(`"methods": [{"name": "a", "direction": "both", "result": true}], "$defs": {"XCallbacks": {"type": "string"}}`),
			"input.json#/service: Go name XCallbacks collides with the one generated for input.json#/$defs/XCallbacks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": tt.input}), Package: "x"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestCallbacksNamesAreFreeWithoutCallbacks(t *testing.T) {
	input := writeInput(t, map[string]string{"input.json": index(`"methods": [{"name": "a", "direction": "client-to-server", "result": true}], "$defs": {"XCallbacks": {"type": "string"}}`)})
	_, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	assert.NoError(t, err)
}
