package validate_test

import (
	"fmt"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// A conversation checked live, message by message: the handshake
// negotiates 2025-06-18, under which tasks/list is no method.
func ExampleChecker_followingAConversation() {
	set, err := validate.Open(validate.FollowSet)
	if err != nil {
		panic(err)
	}
	c := set.NewChecker()
	conversation := []struct {
		from validate.Direction
		msg  string
	}{
		{validate.FromClient, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{validate.FromServer, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`},
		{validate.FromClient, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{validate.FromClient, `{"jsonrpc":"2.0","id":2,"method":"tasks/list"}`},
	}
	for i, m := range conversation {
		for _, f := range c.Check([]byte(m.msg), m.from, validate.Position{Index: i + 1}) {
			fmt.Printf("message %d: %d at %q: %s\n", f.Index, f.Code, f.Pointer, f.Reason)
		}
	}
	fmt.Println("negotiated:", c.Version())
	// Output:
	// message 4: -32601 at "": method "tasks/list" is not in mcp/2025-06-18
	// negotiated: 2025-06-18
}
