package gen

import (
	"fmt"
	"net/url"
	"strings"
)

// Documents names a file system of a Go package (an embed.FS variable)
// that holds every input document, so that the generated package reads
// them from it instead of holding a copy of each: a program that links
// that package anyway then carries the documents once, not twice.
// Without it the generated package holds its documents, verbatim, and
// needs nothing else.
type Documents struct {
	// FS is the qualified name of the variable, an io/fs.FS:
	// "github.com/schemarpc/schemarpc/schema.FS".
	FS string `json:"fs"`
	// Base is the URL of the file system's root: a document's URL is Base
	// followed by its path in FS. It ends with a slash.
	Base string `json:"base"`
}

// check reports what is wrong with the member, under the config's name.
func (d *Documents) check(c *Config) []error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: documents: %s: %s", c.file, member, fmt.Sprintf(format, args...)))
	}
	if t, err := parseGoType(d.FS); err != nil || t.path == "" {
		bad("fs", "%q is not a qualified variable name (import/path.Name)", d.FS)
	}
	if u, err := url.Parse(d.Base); err != nil || !u.IsAbs() || u.Host == "" || !strings.HasSuffix(d.Base, "/") || u.Fragment != "" || u.RawQuery != "" {
		bad("base", "%q must be an absolute URL with a host, ending with a slash", d.Base)
	}
	return errs
}

// paths returns the path in the file system of each document of svc, in
// the order of svc.docs; a document whose URL is not under Base (one the
// front end made, say) cannot be read from the file system, and is an
// error.
func (d *Documents) paths(svc *service) ([]string, error) {
	paths := make([]string, 0, len(svc.docs))
	for _, doc := range svc.docs {
		p, ok := strings.CutPrefix(doc.url, d.Base)
		if !ok || p == "" {
			return nil, fmt.Errorf("config documents: the document %s is not under the base %s, so %s cannot hold it", doc.url, d.Base, d.FS)
		}
		paths = append(paths, p)
	}
	return paths, nil
}
