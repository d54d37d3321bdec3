package gen

// loadOpenRPC is the front end for an OpenRPC 1.x document.
func loadOpenRPC(l *loader, doc *document, cfg *Config) (*service, error) {
	return nil, ErrorList{{File: doc.rel, Message: "reading OpenRPC is not built yet"}}
}
