package gen

import "strings"

// A method's extension members ("x-…", as OpenRPC's specification
// extensions) are not the generator's business: it passes them through to
// the method's facts (<Service>MethodFacts), where the code serving the
// method reads what its schema declares of it beyond types.

// extensionPrefix begins the name of every extension member.
const extensionPrefix = "x-"

// isExtension reports whether key names an extension member.
func isExtension(key string) bool {
	return strings.HasPrefix(key, extensionPrefix) && len(key) > len(extensionPrefix)
}

// extensionsOf returns the extension members of a method object, in the
// order written, each value as compact JSON text.
func extensionsOf(n *node) []extension {
	var out []extension
	for _, m := range n.members {
		if isExtension(m.key) {
			out = append(out, extension{m.key, nodeJSON(m.val)})
		}
	}
	return out
}
