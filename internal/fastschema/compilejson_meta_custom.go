package fastschema

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// maxMetaDepth bounds custom metaschemas whose documents refer to
// documents of custom metaschemas, which could otherwise go round forever.
const maxMetaDepth = 4

// customDraft reads a document whose "$schema" names a metaschema of its
// own (an OpenRPC document names OpenRPC's): as the library does, the
// document is read in the draft the metaschema itself is written in, and
// must validate against it. The metaschema must be among the documents,
// name a draft in its own "$schema" and choose no vocabularies; text is the
// document.
func (c *jsonCompiler) customDraft(meta string, text []byte) (int, error) {
	u, frag, _ := strings.Cut(meta, "#")
	if frag != "" {
		return 0, fmt.Errorf("$schema %q: a metaschema URL has no fragment", meta)
	}
	metaText, err := c.docs(u)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("$schema %q is neither a draft's URL nor among the schema documents", meta)
	}
	if err != nil {
		return 0, fmt.Errorf("$schema %q: %s", meta, documentMissing(err))
	}
	doc, err := parseJSON(metaText)
	if err != nil {
		return 0, fmt.Errorf("metaschema %s is not a JSON document: %v", u, err)
	}
	obj, _ := doc.(map[string]any)
	s, _ := obj["$schema"].(string)
	d, err := draftOf(s)
	if err != nil {
		return 0, fmt.Errorf("metaschema %s must name a JSON Schema draft in its $schema: %v", u, err)
	}
	if _, has := obj["$vocabulary"]; has && d >= Draft2019 {
		return 0, fmt.Errorf("metaschema %s chooses vocabularies, which are not supported", u)
	}
	if c.metaDepth >= maxMetaDepth {
		return 0, fmt.Errorf("metaschema %s: metaschemas reach each other more than %d deep", u, maxMetaDepth)
	}
	// The metaschema is compiled on its own, so that it is finished
	// before it checks the document.
	v, err := newJSONCompiler(c.docs, c.draft, c.metaDepth+1).compile(u)
	if err != nil {
		return 0, fmt.Errorf("metaschema %s does not compile: %v", u, err)
	}
	if v.Check(text) != Valid {
		return 0, fmt.Errorf("the document does not validate against its metaschema %s", u)
	}
	return d, nil
}
