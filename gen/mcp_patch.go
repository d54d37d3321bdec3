package gen

import "strings"

// Some schemas of the published MCP files cannot become a faithful Go type:
// they allow less than the protocol means (the files are generated from
// TypeScript, where a bare `number` became "integer", mcp-protocol §8.3), or
// they are unions that nothing in the JSON tells apart (a result is told
// from another only by the request it answers). The MCP front end maps them
// to json.RawMessage, exactly as a config entry
// `"types": {"schema.json#/…": "encoding/json.RawMessage"}` would, unless
// the config maps the location itself. The embedded schema stays the
// published file byte for byte, so run-time validation is unchanged.

// mcpRawSchema is a schema location (below the definitions container) the
// front end maps to raw JSON, and why.
type mcpRawSchema struct {
	ptr string
	why string
}

const (
	whyNumbers = "Kept as raw JSON, so that every JSON value decodes and re-encodes unchanged: the published schema allows only integer numbers here, which the TypeScript source of MCP does not intend."
	whyResults = "Kept as raw JSON: its variants are told apart only by the request the result answers; decode into the result type of the method instead."
	whyMessage = "Kept as raw JSON: the JSON-RPC envelope is the rpc package's; its variants are told apart by which of id, method, result and error are present."
	whySchemas = "Kept as raw JSON: several variants accept the same JSON (a string schema with and without enum, titled or not), so no member says which one a value is."
)

// mcpRawSchemas are the locations mapped to raw JSON when the schema has
// them. Besides these, the result of every <X>ResultResponse that is an
// anyOf (2026-07-28: InputRequiredResult or the method's result, told apart
// only by the value of resultType) is raw JSON too.
var mcpRawSchemas = []mcpRawSchema{
	{"/JSONValue", whyNumbers + " It also allows no null."},
	{"/ElicitResult/properties/content/additionalProperties", ""},
	{"/ClientResult", whyResults},
	{"/ServerResult", whyResults},
	{"/JSONRPCMessage", whyMessage},
	{"/JSONRPCBatchRequest", whyMessage},
	{"/JSONRPCBatchResponse", whyMessage},
	{"/PrimitiveSchemaDefinition", whySchemas},
	{"/EnumSchema", whySchemas},
	{"/MultiSelectEnumSchema", whySchemas},
}

// mcpConfig returns the config the converter uses for an MCP file: the
// user's, plus a raw JSON type for each location of mcpRawSchemas the file
// has and the user did not map. It also returns those locations, with the
// doc note of the ones that are definitions.
func mcpConfig(cfg *Config, doc *document, container string, defs *node) (*Config, map[string]string) {
	locs := map[string]string{} // location → note
	add := func(ptr, why string) {
		if _, ok := defs.lookup(ptr); !ok {
			return
		}
		key := loc{doc, "/" + container + ptr}.String()
		if _, mapped := cfg.Types[key]; mapped {
			return
		}
		locs[key] = why
	}
	for _, r := range mcpRawSchemas {
		add(r.ptr, r.why)
	}
	for _, d := range defs.members {
		if strings.HasSuffix(d.key, "ResultResponse") && d.val.get("properties").get("result").get("anyOf") != nil {
			add(pointerJoin("", d.key, "properties", "result"), "")
		}
	}
	if len(locs) == 0 {
		return cfg, locs
	}
	merged := *cfg
	merged.Types = map[string]string{}
	for k, v := range cfg.Types {
		merged.Types[k] = v
	}
	for k := range locs {
		merged.Types[k] = "encoding/json.RawMessage"
	}
	return &merged, locs
}
