package load

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
)

// The test binary doubles as a benchmark server: with fakeServerEnv set it
// serves the echo/add surface instead of running tests, and the value
// chooses a fault.
const fakeServerEnv = "MCPLOAD_FAKE_SERVER"

// Faults the fake server can show.
const (
	fakeGood      = "good"
	fakeSSE       = "sse"       // HTTP replies as event streams
	fakeWrongID   = "wrongid"   // answers a call with the next id
	fakeWrongText = "wrongtext" // echoes the wrong text
	fakeError     = "error"     // answers calls with a JSON-RPC error
	fakeExit      = "exit"      // exits at the first call
	fakeOldProto  = "oldproto"  // negotiates 2025-06-18
	fakeHang      = "hang"      // never answers a call
	fakeMute      = "mute"      // serves HTTP without announcing its address
	fakeGarbled   = "garbled"   // announces something that is not its address
	fakeDead      = "dead"      // exits at once over HTTP, announcing nothing

	fakeStatelessError = "statelesserror" // answers 2026-07-28 calls with a JSON-RPC error
	fakeHandshakeError = "handshakeerror" // answers 2025-11-25 calls with a JSON-RPC error
	fakeOneSession     = "onesession"     // refuses every HTTP initialize after the first
	fakeNoGET          = "noget"          // refuses a GET stream (405)
	fakeMuteStream     = "mutestream"     // never sends a GET stream's headers
	fakeOneStream      = "onestream"      // opens the first GET stream, refuses the others (409)
)

func TestMain(m *testing.M) {
	if fault := os.Getenv(fakeServerEnv); fault != "" {
		os.Exit(fakeServer(fault, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// useFakeServer makes the test binary the program of every named server.
func useFakeServer(t *testing.T, cfg *Config, fault string) {
	t.Helper()
	t.Setenv(fakeServerEnv, fault)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Binaries = map[string]string{}
	for _, s := range cfg.Servers {
		cfg.Binaries[s] = exe
	}
}

type fakeRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Meta      json.RawMessage `json:"_meta"`
		Name      string          `json:"name"`
		Arguments struct {
			Text string  `json:"text"`
			A    float64 `json:"a"`
			B    float64 `json:"b"`
		} `json:"arguments"`
	} `json:"params"`
}

// answer returns the reply to one message (nil for a notification) and
// whether the server should exit instead.
func (r *fakeRequest) answer(fault string) (reply map[string]any, exit bool) {
	if r.ID == nil {
		return nil, false
	}
	id := any(r.ID)
	switch r.Method {
	case "initialize":
		version := Protocol20251125
		if fault == fakeOldProto {
			version = "2025-06-18"
		}
		return map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{
			"protocolVersion": version, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "bench", "version": "1"},
		}}, false
	case "tools/call":
	default:
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "no such method"}}, false
	}
	switch fault {
	case fakeExit:
		return nil, true
	case fakeHang:
		return nil, false
	case fakeStatelessError, fakeHandshakeError:
		if (r.Params.Meta != nil) == (fault == fakeStatelessError) {
			return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": "fake failure in this era"}}, false
		}
	case fakeError:
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": "fake failure"}}, false
	case fakeWrongID:
		n, _ := strconv.ParseInt(string(r.ID), 10, 64)
		id = n + 1
	}
	args := r.Params.Arguments
	result := map[string]any{}
	switch r.Params.Name {
	case ToolEcho:
		text := args.Text
		if fault == fakeWrongText {
			text += "!"
		}
		result["content"] = []any{map[string]any{"type": "text", "text": text}}
	case ToolAdd:
		sum := args.A + args.B
		result["content"] = []any{map[string]any{"type": "text", "text": strconv.FormatFloat(sum, 'g', -1, 64)}}
		result["structuredContent"] = map[string]any{"sum": sum}
	default:
		return map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32602, "message": "no such tool"}}, false
	}
	return map[string]any{"jsonrpc": "2.0", "id": id, "result": result}, false
}

// fakeServer serves the benchmark surface on stdio, or over HTTP with -http.
func fakeServer(fault string, args []string) int {
	fs := flag.NewFlagSet("fake", flag.ContinueOnError)
	addr := fs.String("http", "", "")
	stateless := fs.Bool("stateless", false, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *addr != "" {
		return fakeHTTP(fault, *addr, *stateless)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var req fakeRequest
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "fake: bad line:", err)
			return 1
		}
		reply, exit := req.answer(fault)
		if exit {
			fmt.Fprintln(os.Stderr, "fake: exiting as told")
			return 3
		}
		if reply == nil {
			continue
		}
		data, _ := json.Marshal(reply)
		out.Write(append(data, '\n'))
		out.Flush()
	}
	return 0
}

func fakeHTTP(fault, addr string, stateless bool) int {
	const session = "fake-session"
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req fakeRequest
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if msg := fakeCheckHeaders(r, &req, stateless, session); msg != "" {
			http.Error(w, msg, http.StatusBadRequest)
			return
		}
		reply, exit := req.answer(fault)
		if exit {
			os.Exit(3)
		}
		if reply == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if req.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", session)
		}
		data, _ := json.Marshal(reply)
		if fault == fakeSSE {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "id: 0\ndata:\n\n: comment\n\nevent: message\ndata: %s\n\n", data)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}
	var initializes, streams atomic.Int64
	post := func(w http.ResponseWriter, r *http.Request) {
		if fault == fakeOneSession && r.Header.Get("Mcp-Session-Id") == "" && !stateless && initializes.Add(1) > 1 {
			http.Error(w, "no more sessions", http.StatusServiceUnavailable)
			return
		}
		handler(w, r)
	}
	stream := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != session || r.Header.Get("Accept") != "text/event-stream" {
			http.Error(w, "bad GET", http.StatusBadRequest)
			return
		}
		if fault == fakeOneStream && streams.Add(1) > 1 {
			http.Error(w, "one stream only", http.StatusConflict)
			return
		}
		if fault != fakeMuteStream {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", post)
	if fault != fakeNoGET {
		mux.HandleFunc("GET /mcp", stream)
	}
	if fault == fakeDead {
		fmt.Fprintln(os.Stderr, "fake: dying at start as told")
		return 4
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake:", err)
		return 1
	}
	switch fault {
	case fakeMute:
	case fakeGarbled:
		fmt.Println("ready")
	default:
		fmt.Println(announcePrefix + "http://" + ln.Addr().String() + "/mcp")
	}
	if err := http.Serve(ln, mux); err != nil {
		fmt.Fprintln(os.Stderr, "fake:", err)
		return 1
	}
	return 0
}

// fakeCheckHeaders returns what is wrong with the request's MCP headers, or "".
func fakeCheckHeaders(r *http.Request, req *fakeRequest, stateless bool, session string) string {
	if r.Header.Get("Accept") != "application/json, text/event-stream" {
		return "bad Accept"
	}
	if stateless {
		switch {
		case r.Header.Get("MCP-Protocol-Version") != Protocol20260728:
			return "missing protocol version header"
		case r.Header.Get("Mcp-Method") != req.Method:
			return "Mcp-Method mismatch"
		case req.Method == "tools/call" && r.Header.Get("Mcp-Name") != req.Params.Name:
			return "Mcp-Name mismatch"
		}
		return ""
	}
	if req.Method == "initialize" {
		return ""
	}
	if r.Header.Get("Mcp-Session-Id") != session {
		return "unknown session"
	}
	if r.Header.Get("MCP-Protocol-Version") != Protocol20251125 {
		return "missing protocol version header"
	}
	return ""
}
