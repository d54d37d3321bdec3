package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"strconv"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// maxBody bounds what the page may post.
const maxBody = 4 << 20

// routes is the page, its files and the JSON API the page uses.
func (in *Inspector) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", in.index)
	mux.Handle("GET /ui/", http.StripPrefix("/ui/", http.FileServerFS(uiFiles)))
	mux.HandleFunc("GET /api/session", in.sessionInfo)
	mux.HandleFunc("GET /api/events", in.stream)
	mux.HandleFunc("GET /api/export", in.export)
	mux.HandleFunc("GET /api/tools", listAll(in, in.session.Tools, "tools", in.rememberTools))
	mux.HandleFunc("GET /api/resources", listAll(in, in.session.Resources, "resources", nil))
	mux.HandleFunc("GET /api/templates", listAll(in, in.session.ResourceTemplates, "resourceTemplates", nil))
	mux.HandleFunc("GET /api/prompts", listAll(in, in.session.Prompts, "prompts", nil))
	mux.HandleFunc("POST /api/tools/call", in.callTool)
	mux.HandleFunc("POST /api/prompts/get", callAPI(in.session.GetPrompt))
	mux.HandleFunc("POST /api/resources/read", callAPI(in.session.ReadResource))
	mux.HandleFunc("POST /api/complete", callAPI(in.session.Complete))
	mux.HandleFunc("POST /api/logging", in.setLevel)
	mux.HandleFunc("POST /api/asks/{id}", in.answer)
	return mux
}

// Session is what the page shows of the server and the session.
type Session struct {
	// Target names the server: its command line or URL.
	Target string `json:"target"`
	// ProtocolVersion is the version the session agreed on.
	ProtocolVersion string `json:"protocolVersion"`
	// Stateless is true in the 2026-07-28 era, false in the handshake one.
	Stateless bool `json:"stateless"`
	// ServerInfo, Capabilities and Instructions are what the server said
	// of itself.
	ServerInfo   *mcp.Implementation     `json:"serverInfo"`
	Capabilities *mcp.ServerCapabilities `json:"capabilities"`
	Instructions string                  `json:"instructions,omitempty"`
}

func (in *Inspector) sessionInfo(w http.ResponseWriter, r *http.Request) {
	s := in.session
	writeJSON(w, http.StatusOK, Session{Target: in.cfg.Target, ProtocolVersion: s.ProtocolVersion(), Stateless: s.Stateless(),
		ServerInfo: s.ServerInfo(), Capabilities: s.ServerCapabilities(), Instructions: s.Instructions()})
}

// listAll answers with every item of a paginated list, under name; keep,
// when set, sees them.
func listAll[T any](in *Inspector, list func(context.Context) iter.Seq2[*T, error], name string, keep func([]*T)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		items := []*T{}
		for it, err := range list(r.Context()) {
			if err != nil {
				writeError(w, err)
				return
			}
			items = append(items, it)
		}
		if keep != nil {
			keep(items)
		}
		writeJSON(w, http.StatusOK, map[string]any{name: items})
	}
}

// callAPI answers with the result of one call whose params the page posts.
func callAPI[P, R any](call func(context.Context, *P) (*R, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var p P
		if !readJSON(w, r, &p) {
			return
		}
		res, err := call(r.Context(), &p)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"result": res})
	}
}

func (in *Inspector) rememberTools(tools []*mcp.Tool) {
	in.toolsMu.Lock()
	defer in.toolsMu.Unlock()
	clear(in.tools)
	for _, t := range tools {
		in.tools[t.Name] = t
	}
}

// CallResult is a tool's result, with what is wrong with its structured
// content by the tool's output schema.
type CallResult struct {
	// Result is the tool's result.
	Result *mcp.CallToolResult `json:"result"`
	// OutputFindings are where the structured content breaks the output
	// schema of the tool as last listed.
	OutputFindings []Finding `json:"outputFindings,omitempty"`
}

func (in *Inspector) callTool(w http.ResponseWriter, r *http.Request) {
	var p mcp.CallToolRequestParams
	if !readJSON(w, r, &p) {
		return
	}
	// The server's progress notifications show in the traffic.
	ctx := mcp.WithProgressHandler(r.Context(), func(*mcp.ProgressNotificationParams) {})
	res, err := in.session.CallTool(ctx, &p)
	if err != nil {
		writeError(w, err)
		return
	}
	in.toolsMu.Lock()
	tool := in.tools[p.Name]
	in.toolsMu.Unlock()
	out := CallResult{Result: res}
	if tool != nil {
		out.OutputFindings = checkOutput(tool.OutputSchema, res)
	}
	writeJSON(w, http.StatusOK, out)
}

func (in *Inspector) setLevel(w http.ResponseWriter, r *http.Request) {
	var p struct {
		Level mcp.LoggingLevel `json:"level"`
	}
	if !readJSON(w, r, &p) {
		return
	}
	if err := in.session.SetLoggingLevel(r.Context(), p.Level); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

func (in *Inspector) answer(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "the ask id is not a number"})
		return
	}
	var a Answer
	if !readJSON(w, r, &a) {
		return
	}
	if err := in.asks.answer(id, a); err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, errNoAsk) {
			code = http.StatusNotFound
		}
		writeJSON(w, code, apiError{Message: err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{})
}

// stream sends the page the event log as server-sent events, from the event
// after the one numbered by the "after" parameter (or Last-Event-ID), then
// each new event as it comes.
func (in *Inspector) stream(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("after"))
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		n, _ = strconv.Atoi(id)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for {
		list, from, wake := in.events.since(n)
		n = from
		for _, b := range list {
			n++
			if _, err := fmt.Fprintf(w, "id: %d\ndata: %s\n\n", n, b); err != nil {
				return
			}
		}
		if rc.Flush() != nil {
			return
		}
		select {
		case <-wake:
		case <-r.Context().Done():
			return
		case <-in.closing:
			return
		}
	}
}

// export sends the conversation as JSON Lines transcript records, the
// input of "rpcgen validate".
func (in *Inspector) export(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="inspect.jsonl"`)
	in.Export(w)
}

// Export writes the conversation so far as JSON Lines transcript records,
// the input of "rpcgen validate" (a message that was not JSON is left out).
func (in *Inspector) Export(w io.Writer) error { return in.rec.export(w) }

// apiError is how the API reports a failure: the JSON-RPC error the server
// answered with, or what went wrong before.
type apiError struct {
	Code    int             `json:"code,omitempty"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// writeError reports a failed call: 502 for the server's error answer or a
// failure to reach it.
func writeError(w http.ResponseWriter, err error) {
	var re *rpc.Error
	if errors.As(err, &re) {
		writeJSON(w, http.StatusBadGateway, map[string]any{"error": apiError{Code: re.Code, Message: re.Message, Data: re.Data}})
		return
	}
	writeJSON(w, http.StatusBadGateway, map[string]any{"error": apiError{Message: err.Error()}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// readJSON decodes the posted JSON into v, or answers why it cannot. Only
// application/json is taken: a form posted by another page is not.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeJSON(w, http.StatusUnsupportedMediaType, apiError{Message: "post application/json"})
		return false
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(v); err != nil {
		writeJSON(w, http.StatusBadRequest, apiError{Message: "the request body: " + err.Error()})
		return false
	}
	return true
}
