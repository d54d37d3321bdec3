package gen

// loadMCP is the front end for a published MCP schema.json.
func loadMCP(l *loader, doc *document, cfg *Config) (*service, error) {
	return nil, ErrorList{{File: doc.rel, Message: "reading MCP schema.json is not built yet"}}
}
