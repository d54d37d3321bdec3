package rpc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

// expectedReply is what one input line deserves: no reply (nil), or one
// reply line, an object or an array, with these ids in order and these
// error codes (0 for a result).
type expectedReply struct {
	array bool
	ids   []string
	codes []int // -1: any code, or a result
}

// expectFor derives the reply a line deserves from rpc.ParseFrame's
// classification (itself checked against an independent oracle by
// FuzzDecodeMessage).
func expectFor(msg []byte) *expectedReply {
	fr, perr := rpc.ParseFrame(msg)
	if perr != nil {
		return &expectedReply{ids: []string{"null"}, codes: []int{rpc.CodeParseError}}
	}
	if fr.Batch && (len(fr.Messages) == 0 || len(fr.Messages) > fzMaxBatch) {
		return &expectedReply{ids: []string{"null"}, codes: []int{rpc.CodeInvalidRequest}}
	}
	exp := &expectedReply{array: fr.Batch}
	for _, m := range fr.Messages {
		switch {
		case m.Kind == rpc.KindRequest:
			exp.ids, exp.codes = append(exp.ids, m.ID.String()), append(exp.codes, -1)
		case m.Kind == rpc.KindInvalid && !m.LooksLikeResponse:
			exp.ids, exp.codes = append(exp.ids, m.ID.String()), append(exp.codes, rpc.CodeInvalidRequest)
		}
	}
	if len(exp.ids) == 0 {
		return nil
	}
	return exp
}

// checkReplies compares the replies to one line with what it deserves.
func checkReplies(t *testing.T, input []byte, replies []string, want *expectedReply) {
	t.Helper()
	if want == nil {
		if len(replies) != 0 {
			t.Fatalf("%q deserves no reply, got %q", input, replies)
		}
		return
	}
	if len(replies) != 1 {
		t.Fatalf("%q deserves one reply line, got %q", input, replies)
	}
	objs, array := wellFormed(t, replies[0])
	if array != want.array || len(objs) != len(want.ids) {
		t.Fatalf("%q: reply %s, not array=%v of %d", input, replies[0], want.array, len(want.ids))
	}
	for i, o := range objs {
		if string(o["id"]) != want.ids[i] {
			t.Fatalf("%q: reply %d has id %s, want %s byte for byte (reply %s)", input, i, o["id"], want.ids[i], replies[0])
		}
		if c := want.codes[i]; c != -1 && o.code() != c {
			t.Fatalf("%q: reply %d has code %d, want %d (reply %s)", input, i, o.code(), c, replies[0])
		}
	}
}

// FuzzHandleBytes feeds any bytes as one line to a Conn serving a Router,
// then a probe request. Every reply is a well-formed response (valid UTF-8
// JSON, "jsonrpc":"2.0", an id, exactly one of result and error); the line
// gets exactly the replies its classification deserves: none for
// notifications, responses and blank lines, -32700 with id null for what is
// not JSON, -32600 for invalid messages, one response per request with its
// id byte for byte, batches in one array in request order; and the probe is
// answered afterwards.
func FuzzHandleBytes(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"boom","id":1}`, `{"jsonrpc":"2.0","method":"boom"}`,
		`{"jsonrpc":"2.0","method":"fail","id":"f"}`, `{"jsonrpc":"2.0","method":"note","id":2}`,
		`{"jsonrpc":"2.0","method":"nope","id":3}`, `{"jsonrpc":"2.0","method":"echo","params":{"<&>":"\u2028"},"id":4}`,
		`[1,2,3,4,5,6,7,8,9]`, `[1,2,3,4,5,6,7,8]`, "   \t ", "\u00a0", "\r",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.Contains(b, []byte("fz-probe")) {
			return // the probe's id must stay unique
		}
		// One line: a raw newline inside JSON can only be whitespace or
		// an error, so it becomes a space. The transport drops a carriage
		// return before the newline.
		line := bytes.ReplaceAll(b, []byte("\n"), []byte(" "))
		msg := bytes.TrimSuffix(line, []byte("\r"))
		replies, _ := fzServe(t, line)
		var want *expectedReply
		if len(bytes.Trim(msg, " \t\r")) > 0 {
			want = expectFor(msg)
		}
		checkReplies(t, line, replies, want)
	})
}

// envelopeMembers are the member names of a JSON-RPC request.
var envelopeMembers = []string{"jsonrpc", "method", "params", "id"}

// FuzzKeyIsolation injects one member, name and value fuzzed, at any
// position of a valid request (or notification) to echo. The injected
// member never reaches dispatch: no handler runs and the reply is the same
// wherever the member stands. The envelope has no room for extra members
// (additionalProperties is false in schema/jsonrpc), so a member whose
// name differs from the four envelope names in any way — case ("Method",
// "ID", "PARAMS"), Unicode folding (U+017F for s, U+212A for K), a
// trailing NUL — is -32600 with the request's id; a member whose name is
// exactly an envelope name (however escaped) is a duplicate, refused with
// -32700 and id null, as is anything that makes the line not JSON.
func FuzzKeyIsolation(f *testing.F) {
	for _, name := range []string{"Method", "ID", "PARAMS", "JSONRPC", "Id", "\u017fite", "\u212aey", "method\x00", "method ",
		"result", "error", "_meta", "", "m\u00e9thod"} {
		f.Add(name, `"fail"`, uint8(1), false, false)
	}
	f.Add(`\u006dethod`, `"fail"`, uint8(2), true, false)
	f.Add(`id`, `7`, uint8(4), true, false)
	f.Add(`ID`, `7`, uint8(0), false, true)
	f.Add(`params`, `{"a":2}`, uint8(3), false, false)
	f.Add(`x`, `{"a":`, uint8(3), false, false)
	f.Add(`\ud800`, `1`, uint8(3), true, false)
	f.Fuzz(func(t *testing.T, name, value string, pos uint8, rawName, notification bool) {
		if strings.Contains(name+value, "fz-probe") || strings.ContainsAny(name+value, "\n\r") {
			return
		}
		nameText := string(mustMarshal(t, name))
		if rawName {
			nameText = `"` + name + `"`
		}
		members := []string{`"jsonrpc":"2.0"`, `"method":"echo"`, `"params":{"a":[1,"x"]}`}
		if !notification {
			members = append(members, `"id":42`)
		}
		at := func(i int) []byte {
			m := slices.Insert(slices.Clone(members), i, nameText+":"+value)
			return []byte("{" + strings.Join(m, ",") + "}")
		}
		line := at(int(pos) % (len(members) + 1))
		first := at(0)
		var decoded string
		nameOK := json.Unmarshal([]byte(nameText), &decoded) == nil && acceptable([]byte(nameText), 1)
		if notification && nameOK && decoded == "id" {
			// Not an extra member: an id turns the notification into a
			// request, answered as any request is.
			replies, _ := fzServe(t, line)
			checkReplies(t, line, replies, expectFor(line))
			return
		}
		replies, calls := fzServe(t, line, first)
		if len(calls) != 0 {
			t.Fatalf("%s reached dispatch: %q", line, calls)
		}
		if len(replies) != 2 {
			t.Fatalf("%s and %s deserve one reply each, got %q", line, first, replies)
		}
		for _, r := range replies {
			if objs, array := wellFormed(t, r); array || len(objs) != 1 {
				t.Fatalf("%s answered with an array: %s", line, r)
			}
		}
		objs, _ := wellFormed(t, replies[0])
		reply := objs[0]
		switch {
		case !acceptable(line, rpc.DefaultMaxDepth):
			for _, r := range replies {
				if o, _ := wellFormed(t, r); o[0].code() != rpc.CodeParseError || string(o[0]["id"]) != "null" {
					t.Fatalf("%s is not JSON under the policy, yet got %s", line, r)
				}
			}
			if nameOK && slices.Contains(envelopeMembers, decoded) && acceptable([]byte(value), rpc.DefaultMaxDepth-1) &&
				!strings.Contains(string(reply["error"]), "duplicate") {
				t.Fatalf("%s repeats an envelope member, yet the error does not say so: %s", line, replies[0])
			}
		default:
			wantID := "42"
			if notification {
				wantID = "null"
			}
			if reply.code() != rpc.CodeInvalidRequest || string(reply["id"]) != wantID {
				t.Fatalf("%s carries an extra member %q, yet got %s", line, decoded, replies[0])
			}
			// The member's place changes nothing (a parse error's
			// message gives a byte offset, so only here are the two
			// replies equal byte for byte).
			if replies[0] != replies[1] {
				t.Fatalf("%s and %s got different replies: %q", line, first, replies)
			}
		}
	})
}

// batchElement builds element i of a fuzzed batch from two bytes: its kind
// and the form of its id. It returns the element and what it deserves: an
// id and a code (0 for a result, -1 for none).
func batchElement(i int, kind, idForm byte) (elem, wantID string, wantCode int) {
	id := []string{
		fmt.Sprint(i), fmt.Sprintf(`"s%d"`, i), fmt.Sprintf(`"\u0073%d\u00e9"`, i),
		fmt.Sprintf("%d00000000000000000000000001", i+1), fmt.Sprintf("-%d.5e-1", i), fmt.Sprintf(`"q\"%d\\"`, i),
	}[int(idForm)%6]
	switch kind % 12 {
	case 0:
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"echo","params":["e%d"],"id":%s}`, i, id), id, 0
	case 1:
		return `{"jsonrpc":"2.0","method":"echo","params":[1]}`, "", -1
	case 2:
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"nope","id":%s}`, id), id, rpc.CodeMethodNotFound
	case 3:
		return []string{`1`, `"x"`, `null`, `true`, `[]`, `{}`, `[{"jsonrpc":"2.0","method":"echo","id":1}]`}[int(idForm)%7], "null", rpc.CodeInvalidRequest
	case 4:
		return fmt.Sprintf(`{"jsonrpc":"2.0","result":1,"id":%s}`, id), "", -1
	case 5:
		return fmt.Sprintf(`{"jsonrpc":"1.0","method":"echo","id":%s}`, id), id, rpc.CodeInvalidRequest
	case 6:
		return `{"jsonrpc":"2.0","method":"nope"}`, "", -1
	case 7:
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"note","id":%s}`, id), id, 0
	case 8:
		return `{"jsonrpc":"2.0","result":1}`, "", -1
	case 9:
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"boom","id":%s}`, id), id, rpc.CodeInternalError
	case 10:
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"echo","params":"s","id":%s}`, id), id, rpc.CodeInvalidRequest
	default:
		return fmt.Sprintf(`{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":%s}`, id), "", -1
	}
}

// FuzzBatch builds a batch from fuzz bytes (two per element: its kind and
// its id's form) and checks the reply: one array with one response per
// request and per invalid element, in order, ids byte for byte and the
// expected codes; nothing for notifications and responses; no reply at all
// when nothing is to be answered (never an empty array); and a single
// -32600 object with id null for an empty batch or one past the limit.
func FuzzBatch(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 1, 3, 2, 4, 3, 5, 4, 7, 5, 9, 0}, " ")
	f.Add([]byte{1, 0, 6, 0, 4, 1, 8, 0, 11, 2}, "")
	f.Add([]byte{}, "")
	f.Add([]byte{0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 0, 0, 1, 0, 2}, "\t")
	f.Add([]byte{3, 6, 10, 1}, "\r\t ")
	f.Fuzz(func(t *testing.T, data []byte, space string) {
		if strings.Trim(space, " \t\r") != "" {
			return
		}
		n := min(len(data)/2, 2*fzMaxBatch)
		var elems, wantIDs []string
		var wantCodes []int
		for i := range n {
			elem, id, code := batchElement(i, data[2*i], data[2*i+1])
			elems = append(elems, elem)
			if code != -1 {
				wantIDs, wantCodes = append(wantIDs, id), append(wantCodes, code)
			}
		}
		line := []byte("[" + space + strings.Join(elems, space+","+space) + space + "]")
		replies, _ := fzServe(t, line)
		var want *expectedReply
		switch {
		case n == 0 || n > fzMaxBatch:
			want = &expectedReply{ids: []string{"null"}, codes: []int{rpc.CodeInvalidRequest}}
		case len(wantIDs) > 0:
			want = &expectedReply{array: true, ids: wantIDs, codes: wantCodes}
		}
		checkReplies(t, line, replies, want)
	})
}
