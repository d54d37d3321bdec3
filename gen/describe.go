package gen

import "slices"

// Description is what a schema input says about the messages of its
// service, without any Go: the method index and the documents that hold the
// schemas. rpcgen validate and rpcgen proxy check messages against it.
type Description struct {
	// Service is the service's Go stem (Calc, MCP).
	Service string
	// Version is the protocol version the input describes, when the front
	// end knows it (an MCP schema.json in a directory named for its
	// version); empty otherwise.
	Version string
	// IndexURL is the absolute URL of the index document.
	IndexURL string
	// Documents maps the absolute URL of every document the input is made
	// of to its bytes, verbatim; the schema locations below point into
	// them. An OpenRPC input adds the params document the generator
	// derives (see docs/codegen.md).
	Documents map[string][]byte
	// Draft07 says documents without "$schema" are draft-07 rather than
	// 2020-12 (OpenRPC).
	Draft07 bool
	// Methods lists the methods in index order.
	Methods []MethodInfo
}

// MethodInfo describes one method of a Description.
type MethodInfo struct {
	// Name is the method's wire name.
	Name string
	// Notification is true for a notification, false for a request.
	Notification bool
	// Direction is "client-to-server", "server-to-client" or "both".
	Direction string
	// Params is the absolute location of the params schema (URL and
	// fragment); empty when the method declares no params.
	Params string
	// ParamsRequired says a message without params is invalid even when
	// the params schema accepts an empty object (MCP).
	ParamsRequired bool
	// Structure is "by-name", "by-position" or "either".
	Structure string
	// ParamNames are the params in positional order, for by-position and
	// either methods: a params array is read as an object with these keys.
	ParamNames []string
	// Results are the absolute locations of the result schemas a response
	// may satisfy: the method's result first, then alternatives (an MCP
	// task or input_required result). Empty for notifications.
	Results []string
}

// Describe reads the input at opts.Input with the front end of its format,
// as Generate does, and returns its method index and documents. opts.Package
// is not needed. Problems in the input come back as an ErrorList.
func Describe(opts Options) (*Description, error) {
	svc, err := load(opts, true, nil)
	if err != nil {
		return nil, err
	}
	d := &Description{
		Service:   svc.name,
		Version:   svc.version,
		IndexURL:  svc.indexURL,
		Documents: map[string][]byte{},
		Draft07:   svc.defaultDraft07(),
	}
	for _, doc := range svc.docs {
		d.Documents[doc.url] = slices.Clone(doc.raw)
	}
	for _, m := range svc.methods {
		d.Methods = append(d.Methods, MethodInfo{
			Name:           m.name,
			Notification:   m.notification,
			Direction:      directionNames[m.direction],
			Params:         m.paramsURL,
			ParamsRequired: m.paramsRequired,
			Structure:      structureNames[m.structure],
			ParamNames:     slices.Clone(m.paramNames),
			Results:        slices.Clone(m.resultURLs),
		})
	}
	return d, nil
}

// structureNames are the schemarpc spellings of the param structures.
var structureNames = map[paramStructure]string{byName: "by-name", byPosition: "by-position", either: "either"}
