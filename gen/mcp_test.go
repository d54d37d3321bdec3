package gen_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// mcp07 builds a draft-07 MCP-shaped schema.json around the given
// definitions (JSONRPCMessage is there, as in every published file).
func mcp07(defs string) string {
	return `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"JSONRPCMessage": {"type": "object"}` + comma(defs) + `}}`
}

// mcp2020 builds a 2020-12 MCP-shaped schema.json around the given $defs.
func mcp2020(defs string) string {
	return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"JSONRPCMessage": {"type": "object"}` + comma(defs) + `}}`
}

func comma(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

// msg writes a message definition: a method const, and the extra
// properties given (`"id": {...}, "params": {...}`).
func msg(def, method, props string) string {
	return `"` + def + `": {"type": "object", "properties": {"method": {"const": "` + method + `", "type": "string"}` + comma(props) + `}, "required": ["method"]}`
}

// ref writes a union definition that is a single $ref.
func ref(union, container, def string) string {
	return `"` + union + `": {"$ref": "#/` + container + `/` + def + `"}`
}

// anyOfRefs writes a union definition listing definitions.
func anyOfRefs(union, container string, defs ...string) string {
	var items []string
	for _, d := range defs {
		items = append(items, `{"$ref": "#/`+container+`/`+d+`"}`)
	}
	return `"` + union + `": {"anyOf": [` + strings.Join(items, ", ") + `]}`
}

const obj = `"X": {"type": "object"}` // a result definition

func generateMCP(t *testing.T, dir, content string, cfg *gen.Config) ([]gen.File, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), dir, "schema.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return gen.Generate(gen.Options{Input: path, Package: "mcp", Format: gen.FormatMCP, Config: cfg})
}

func TestBadMCPSchemaIsReportedWithItsPointer(t *testing.T) {
	const d = "definitions"
	ping := msg("PingRequest", "ping", "")
	tests := []struct {
		name, input string
		want        []string
	}{
		// The top of the file.
		{"not an object", `[]`, []string{"schema.json#: an MCP schema.json must be a JSON object, not array"}},
		{"unknown top member", `{"definitions": {}, "methods": []}`, []string{"schema.json#/methods: unknown member methods at the top of an MCP schema.json"}},
		{"no container", `{"$schema": "http://json-schema.org/draft-07/schema#"}`, []string{"schema.json#: an MCP schema.json keeps its types in definitions (draft-07) or $defs (2020-12), and this file has neither"}},
		{"both containers", `{"definitions": {}, "$defs": {}}`, []string{"schema.json#/$defs: an MCP schema.json has definitions or $defs, not both"}},
		{"container not an object", `{"definitions": []}`, []string{"schema.json#/definitions: definitions must be an object, not array"}},
		{"$schema not a string", `{"$schema": 7, "definitions": {}}`, []string{"schema.json#/$schema: $schema must be a string, not number"}},
		{"other dialect", `{"$schema": "http://json-schema.org/draft-04/schema#", "definitions": {}}`, []string{`schema.json#/$schema: $schema "http://json-schema.org/draft-04/schema#" is neither draft-07 nor 2020-12`}},
		{"relative $id", `{"$id": "schema.json", "definitions": {}}`, []string{`schema.json#/$id: $id "schema.json" must be an absolute URL`}},

		// The unions.
		{"union of nothing usable", mcp07(`"ClientRequest": {"type": "object"}`), []string{"schema.json#/definitions/ClientRequest: ClientRequest is neither an anyOf of message definitions, nor a $ref to one, nor a copy of one"}},
		{"union member not a local definition", mcp07(ping + `, "ClientRequest": {"anyOf": [{"$ref": "#/definitions/PingRequest"}, {"$ref": "other.json#/definitions/X"}]}`),
			[]string{"schema.json#/definitions/ClientRequest/anyOf/1: a member of ClientRequest must be a $ref to a definition in /definitions"}},
		{"union member without a method const", mcp07(`"Request": {"type": "object", "properties": {"method": {"type": "string"}}}, ` + ref("ClientRequest", d, "Request")),
			[]string{"schema.json#/definitions/Request/properties/method: Request is a member of ClientRequest but has no method const, so it names no method"}},
		{"collapsed union naming no message", mcp2020(`"ClientNotification": {"type": "object", "properties": {"method": {"const": "notifications/gone", "type": "string"}}}`),
			[]string{`schema.json#/$defs/ClientNotification: ClientNotification lists method "notifications/gone", which no definition declares as a message`}},

		// Messages.
		{"method const not a string", mcp07(`"PingRequest": {"type": "object", "properties": {"method": {"const": 1}}}, ` + ref("ClientRequest", d, "PingRequest")),
			[]string{"schema.json#/definitions/PingRequest/properties/method/const: the method const of PingRequest must be a non-empty string, not 1"}},
		{"duplicate method", mcp07(obj + `, "PingResult": {"type": "object"}, ` + ping + `, ` + msg("OtherPingRequest", "ping", "") + `, ` + ref("ClientRequest", d, "PingRequest")),
			[]string{`schema.json#/definitions/OtherPingRequest/properties/method/const: method "ping" is already declared by schema.json#/definitions/PingRequest`}},
		{"request and notification at once", mcp07(`"PingResult": {"type": "object"}, ` + ping + `, ` + ref("ClientRequest", d, "PingRequest") + `, ` + ref("ServerNotification", d, "PingRequest")),
			[]string{`schema.json#/definitions/PingRequest: PingRequest (method "ping") is in both a …Request and a …Notification union`}},
		{"id on a notification", mcp2020(msg("PingNotification", "notifications/ping", `"id": {"type": "string"}`) + `, ` + ref("ServerNotification", "$defs", "PingNotification")),
			[]string{`schema.json#/$defs/PingNotification/properties/id: PingNotification (method "notifications/ping") has an id, which makes it a request, but is in a …Notification union`}},
		{"envelope era message of no known kind", mcp2020(msg("PingRequest", "ping", `"id": {"type": "string"}`) + `, "PingResult": {"type": "object"}, ` + ref("ClientRequest", "$defs", "PingRequest") + `, ` + msg("AskRequest", "ask", "")),
			[]string{`schema.json#/$defs/AskRequest: AskRequest (method "ask") has neither an id (a request) nor a place in a …Notification union, and is not a known multi-round-trip payload`}},
		{"message of no known kind", mcp07(msg("Thing", "thing", "")),
			[]string{`schema.json#/definitions/Thing: Thing (method "thing") is in no …Request or …Notification union and its name ends in neither Request nor Notification`}},
		{"message in no union", mcp07(`"PingResult": {"type": "object"}, ` + ping),
			[]string{`schema.json#/definitions/PingRequest: PingRequest (method "ping") is in none of ClientRequest and ServerRequest, so which side sends it is unknown`}},
		{"request without a result", mcp07(msg("AskRequest", "ask", "") + `, ` + ref("ClientRequest", d, "AskRequest")),
			[]string{`schema.json#/definitions/AskRequest: request AskRequest (method "ask") has no result: there is no definition AskResult and no override for it`}},
		{"request without a Go name", mcp07(msg("Request", "ask", "") + `, "Result": {"type": "object"}, ` + ref("ClientRequest", d, "Request")),
			[]string{`schema.json#/definitions/Request: the definition name Request gives no Go name for method "ask"`}},
		{"two methods with one Go name", mcp07(`"AskResult": {"type": "object"}, ` + msg("AskRequest", "ask", "") + `, ` + msg("AskNotification", "notifications/ask", "") + `, ` +
			ref("ClientRequest", d, "AskRequest") + `, ` + ref("ClientNotification", d, "AskNotification")),
			[]string{"schema.json#/definitions/AskNotification/properties/method/const: Go name MethodAsk collides with the one generated for schema.json#/definitions/AskRequest/properties/method/const"}},
		{"params not an object", mcp07(`"PingResult": {"type": "object"}, ` + msg("PingRequest", "ping", `"params": {"type": "string"}`) + `, ` + ref("ClientRequest", d, "PingRequest")),
			[]string{"schema.json#/definitions/PingRequest/properties/params: params must be an object schema"}},
		{"message that is not an object", mcp07(`"PingResult": {"type": "object"}, "PingRequest": {"type": "string", "properties": {"method": {"const": "ping"}, "params": {"type": "object"}}}, ` + ref("ClientRequest", d, "PingRequest")),
			[]string{"schema.json#/definitions/PingRequest/properties/params: the params of PingRequest became no field of the generated type PingRequest"}},
		{"service name taken by a definition", mcp07(`"MCPClient": {"type": "object"}`),
			[]string{"schema.json#/definitions/MCPClient: Go name MCPClient collides with the one generated for schema.json#"}},
		{"callbacks name taken by a definition", mcp07(`"PingResult": {"type": "object"}, "MCPCallbacks": {"type": "object"}, ` + ping + `, ` + ref("ServerRequest", d, "PingRequest")),
			[]string{"schema.json#: Go name MCPCallbacks collides with the one generated for schema.json#/definitions/MCPCallbacks"}},
		{"schema the validator rejects", mcp07(`"PingResult": {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?=x)"}}}, ` + ping + `, ` + ref("ClientRequest", d, "PingRequest")),
			[]string{"schema.json#/definitions/PingResult: the schema validator rejects this schema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := generateMCP(t, "x", tt.input, nil)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestMCPSchemaURL(t *testing.T) {
	const doc = `"PingResult": {"type": "object"}, "PingRequest": {"type": "object", "properties": {"method": {"const": "ping", "type": "string"}}, "required": ["method"]}, "ClientRequest": {"$ref": "#/definitions/PingRequest"}`
	withID := `{"$id": "https://example.test/mcp.json", "definitions": {"JSONRPCMessage": {"type": "object"}, ` + doc + `}}`
	tests := []struct {
		name, dir, input string
		cfg              *gen.Config
		want             string
	}{
		{"from the version directory", "2025-06-18", mcp07(doc), nil, "https://schemarpc.dev/mcp/2025-06-18/schema.json"},
		{"default", "mcp", mcp07(doc), nil, "https://schemarpc.dev/mcp/schema.json"},
		{"from the config", "2025-06-18", mcp07(doc), &gen.Config{SchemaURL: "https://example.test/s.json"}, "https://example.test/s.json"},
		{"from $id", "2025-06-18", withID, nil, "https://example.test/mcp.json"},
		{"from $id and the same config", "x", withID, &gen.Config{SchemaURL: "https://example.test/mcp.json"}, "https://example.test/mcp.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := generateMCP(t, tt.dir, tt.input, tt.cfg)
			require.NoError(t, err)
			lock := decodeLock(t, files)
			assert.Equal(t, tt.want, lock.Schema)
			assert.Contains(t, string(fileNamed(t, files, "schema_gen.go")), `"`+tt.want+`": `)
		})
	}
	_, err := generateMCP(t, "x", withID, &gen.Config{SchemaURL: "https://example.test/other.json"})
	assert.ErrorContains(t, err, `schema.json#/$id: the file's $id "https://example.test/mcp.json" and the config's schemaURL "https://example.test/other.json" differ`)
}

func TestMCPServiceNameFromConfig(t *testing.T) {
	files, err := generateMCP(t, "x", mcp07(`"PingResult": {"type": "object"}, `+msg("PingRequest", "ping", "")+`, `+ref("ClientRequest", "definitions", "PingRequest")), &gen.Config{Service: "model-context"})
	require.NoError(t, err)
	assert.Contains(t, string(fileNamed(t, files, "methods_gen.go")), "type ModelContextServer interface")
	assert.Equal(t, "ModelContext", decodeLock(t, files).Service)
}

// lock is the part of methods.lock.json the tests read.
type lock struct {
	Schema  string `json:"schema"`
	Service string `json:"service"`
	Methods []struct {
		Method         string   `json:"method"`
		Kind           string   `json:"kind"`
		Direction      string   `json:"direction"`
		Definition     string   `json:"definition"`
		Params         string   `json:"params"`
		ParamsRequired bool     `json:"paramsRequired"`
		Result         string   `json:"result"`
		AltResults     []string `json:"altResults"`
	} `json:"methods"`
}

func decodeLock(t *testing.T, files []gen.File) lock {
	t.Helper()
	var l lock
	dec := json.NewDecoder(strings.NewReader(string(fileNamed(t, files, "methods.lock.json"))))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&l))
	return l
}

func fileNamed(t *testing.T, files []gen.File, name string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Name == name {
			return f.Content
		}
	}
	t.Fatalf("no generated file %s", name)
	return nil
}

// The mcp07 golden case is exercised through the runtime: echo requires its
// params (absent or empty, they are invalid); ping is served by the client
// only; the heartbeat goes both ways and requires params, which its schema
// would accept empty.
func init() {
	behaviourTests["mcp07"] = `package mcp07

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

type server struct{ UnimplementedMCPServer }

func (server) Echo(_ context.Context, p *EchoRequestParams) (*EchoResult, error) {
	return &EchoResult{Text: p.Text}, nil
}

func (server) Heartbeat(context.Context, *HeartbeatNotificationParams) error { return nil }

type client struct {
	UnimplementedMCPCallbacks
	beats chan int64
}

func (client) Ping(context.Context, *PingRequestParams) (*EmptyResult, error) {
	return &EmptyResult{}, nil
}

func (c client) Heartbeat(_ context.Context, p *HeartbeatNotificationParams) error {
	c.beats <- *p.Beat
	return nil
}

func TestMissingRequiredParamsAreInvalid(t *testing.T) {
	r := rpc.NewRouter()
	RegisterMCPServer(r, server{})
	for _, params := range []string{"", "{}"} {
		req := &rpc.Request{Method: MethodEcho}
		if params != "" {
			req.Params = json.RawMessage(params)
		}
		_, err := r.Handle(context.Background(), req)
		if e, ok := err.(*rpc.Error); !ok || e.Code != -32602 {
			t.Errorf("params %q: got %v, want -32602", params, err)
		}
	}
}

func TestParamsRequiredByTheMessageMustBeThere(t *testing.T) {
	r := rpc.NewRouter()
	RegisterMCPServer(r, server{})
	_, err := r.Handle(context.Background(), &rpc.Request{Method: MethodHeartbeat})
	if e, ok := err.(*rpc.Error); !ok || e.Code != -32602 || !strings.HasSuffix(e.Message, "params are required") {
		t.Errorf("got %v, want -32602 params are required", err)
	}
	_, err = r.Handle(context.Background(), &rpc.Request{Method: MethodHeartbeat, Params: json.RawMessage("{}")})
	if err != nil {
		t.Errorf("empty params: %v", err)
	}
}

func TestServerAndClientCallEachOther(t *testing.T) {
	st, ct := rpc.NewPipe()
	sr, cr := rpc.NewRouter(), rpc.NewRouter()
	RegisterMCPServer(sr, server{})
	c := client{beats: make(chan int64, 1)}
	RegisterMCPCallbacks(cr, c)
	sc := rpc.NewConn(st, rpc.WithHandler(sr))
	cc := rpc.NewConn(ct, rpc.WithHandler(cr))
	defer sc.Close()
	defer cc.Close()
	ctx := context.Background()
	res, err := NewMCPClient(cc).Echo(ctx, &EchoRequestParams{Text: "hi"})
	if err != nil || res.Text != "hi" {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	if _, err := NewMCPCallbacksClient(sc).Ping(ctx, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}
	beat := int64(7)
	if err := NewMCPCallbacksClient(sc).Heartbeat(ctx, &HeartbeatNotificationParams{Beat: &beat}); err != nil {
		t.Fatal(err)
	}
	if got := <-c.beats; got != 7 {
		t.Errorf("heartbeat %d", got)
	}
	if _, err := NewMCPClient(sc).Echo(ctx, &EchoRequestParams{Text: "x"}); err == nil {
		t.Error("the client serves echo, which only the server handles")
	}
}
`
}

// Every schema methods.openrpc.json points at must exist in the input, under
// the URL the generated code gives it.
func TestMCPOpenRPCExportPointsIntoTheSchema(t *testing.T) {
	for _, name := range []string{"mcp07", "mcp2020"} {
		t.Run(name, func(t *testing.T) {
			files := generateCase(t, name)
			var doc struct {
				OpenRPC string `json:"openrpc"`
				Methods []struct {
					Name         string `json:"name"`
					Direction    string `json:"x-direction"`
					ParamsSchema struct {
						Ref string `json:"$ref"`
					} `json:"x-params-schema"`
				} `json:"methods"`
			}
			content := fileNamed(t, files, "methods.openrpc.json")
			require.NoError(t, json.Unmarshal(content, &doc))
			assert.Equal(t, "1.4.0", doc.OpenRPC)
			l := decodeLock(t, files)
			require.Len(t, doc.Methods, len(l.Methods))
			for i, m := range doc.Methods {
				assert.Equal(t, l.Methods[i].Method, m.Name)
				assert.Equal(t, l.Methods[i].Direction, m.Direction)
			}

			raw, err := os.ReadFile(filepath.Join("testdata", name, "input.json"))
			require.NoError(t, err)
			c := jsonschema.NewCompiler()
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			require.NoError(t, err)
			require.NoError(t, c.AddResource(l.Schema, v))
			refs := regexp.MustCompile(`"\$ref": "([^"]+)"`).FindAllStringSubmatch(string(content), -1)
			require.NotEmpty(t, refs)
			for _, r := range refs {
				_, err := c.Compile(r[1])
				assert.NoError(t, err, r[1])
			}
		})
	}
}

// The mcp2020 golden case pins the defect handling: JSONValue and the
// values of ElicitResult content keep any JSON value exactly, and objects
// keep the members the schema does not name.
func init() {
	behaviourTests["mcp2020"] = `package mcp2020

import (
	"encoding/json"
	"testing"
)

func TestJSONValueKeepsAnyValue(t *testing.T) {
	for _, in := range []string{"1.5", "null", "12345678901234567890", "{\"a\":[1,2.25,null]}"} {
		var r CallToolResult
		if err := json.Unmarshal([]byte("{\"resultType\":\"complete\",\"text\":\"\",\"structuredContent\":"+in+"}"), &r); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if string(r.StructuredContent) != in {
			t.Errorf("got %s, want %s", r.StructuredContent, in)
		}
	}
}

func TestElicitResultContentKeepsAnyNumber(t *testing.T) {
	var r ElicitResult
	if err := json.Unmarshal([]byte("{\"action\":\"accept\",\"content\":{\"age\":2.5}}"), &r); err != nil {
		t.Fatal(err)
	}
	if string(r.Content["age"]) != "2.5" {
		t.Errorf("got %s", r.Content["age"])
	}
}

func TestUnknownMembersSurviveARoundTrip(t *testing.T) {
	in := "{\"resultType\":\"complete\",\"text\":\"hi\",\"x-new\":{\"a\":1.50}}"
	var r CallToolResult
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Errorf("got %s, want %s", out, in)
	}
}
`
}

// MCP's error types narrow Error.data (unconstrained) with allOf: the
// narrower declaration gives the field its type, in either order.
func TestAllOfNarrowsAnUnconstrainedProperty(t *testing.T) {
	for _, order := range []string{
		`[{"$ref": "#/$defs/Base"}, {"properties": {"data": {"$ref": "#/$defs/Data"}}}]`,
		`[{"properties": {"data": {"$ref": "#/$defs/Data"}}}, {"$ref": "#/$defs/Base"}]`,
	} {
		input := writeInput(t, map[string]string{"input.json": withDefs(`"A": {"allOf": ` + order + `},
			"Base": {"type": "object", "properties": {"code": {"type": "integer"}, "data": {}}, "required": ["code"]},
			"Data": {"type": "object", "properties": {"why": {"type": "string"}}}`)})
		files, err := gen.Generate(gen.Options{Input: input, Package: "x"})
		require.NoError(t, err, order)
		assert.Regexp(t, `(?m)^\s+Data \*Data\s+`+"`"+`json:"data,omitempty"`+"`", string(fileNamed(t, files, "types_gen.go")), order)
	}
}

// A location the config maps keeps the user's type; the MCP front end adds
// its raw JSON mapping only where the config says nothing.
func TestMCPConfigTypesWinOverTheBuiltInRawMappings(t *testing.T) {
	const d = "definitions"
	schema := mcp07(`"PingResult": {"type": "object"}, ` + msg("PingRequest", "ping", "") + `, ` + ref("ClientRequest", d, "PingRequest") +
		`, "ClientResult": {"anyOf": [{"$ref": "#/definitions/PingResult"}, {"type": "string"}]}`)
	files, err := generateMCP(t, "x", schema, nil)
	require.NoError(t, err)
	assert.Contains(t, string(fileNamed(t, files, "types_gen.go")), "type ClientResult = json.RawMessage")

	files, err = generateMCP(t, "x", schema, &gen.Config{Types: map[string]string{"schema.json#/definitions/ClientResult": "string"}})
	require.NoError(t, err)
	assert.Contains(t, string(fileNamed(t, files, "types_gen.go")), "type ClientResult string\n")
}
