package mcp

import (
	"fmt"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// A session answers in the shape of its negotiated version: what a later
// version added is left out for an older client (docs/versions.md). A
// stateless request (a nil session) is fitted to 2026-07-28, which has all
// of it but the 2025-11-25 tasks (a tool's execution member).
//
// Each function takes a value and returns a copy fitted to f; the value
// itself, which the server's registry may hold, is not changed.

// downgradeContent fits content blocks to a version. Blocks the version
// does not know become text blocks that say what they were, so an older
// client still gets a valid message with the information in it.
func downgradeContent(blocks []ContentBlock, f features) []ContentBlock {
	if f.titles && f.audio && f.resourceLink {
		return blocks
	}
	out := make([]ContentBlock, len(blocks))
	for i, b := range blocks {
		out[i] = downgradeBlock(b, f)
	}
	return out
}

// downgradeBlock fits one content block to a version.
func downgradeBlock(b ContentBlock, f features) ContentBlock {
	if a, ok := b.AsAudio(); ok && !f.audio {
		return Text(fmt.Sprintf("[audio content (%s) left out: this protocol version has no audio]", a.MIMEType))
	}
	if l, ok := b.AsResourceLink(); ok && !f.resourceLink {
		return Text(fmt.Sprintf("Resource: %s (%s)", l.URI, l.Name))
	}
	if f.titles {
		return b
	}
	// Before 2025-06-18 content blocks have no _meta and annotations no
	// lastModified.
	if x, ok := b.AsText(); ok {
		c := *x
		c.Meta, c.Annotations = nil, downgradeAnnotations(c.Annotations, f)
		return ContentBlock{Value: c}
	}
	if x, ok := b.AsImage(); ok {
		c := *x
		c.Meta, c.Annotations = nil, downgradeAnnotations(c.Annotations, f)
		return ContentBlock{Value: c}
	}
	if x, ok := b.AsAudio(); ok {
		c := *x
		c.Meta, c.Annotations = nil, downgradeAnnotations(c.Annotations, f)
		return ContentBlock{Value: c}
	}
	if x, ok := b.AsResource(); ok {
		c := *x
		c.Meta, c.Annotations = nil, downgradeAnnotations(c.Annotations, f)
		c.Resource = downgradeContents(c.Resource, f)
		return ContentBlock{Value: c}
	}
	return b
}

// downgradeAnnotations leaves out lastModified (2025-06-18) for older
// versions.
func downgradeAnnotations(a *Annotations, f features) *Annotations {
	if a == nil || f.titles || a.LastModified == "" {
		return a
	}
	c := *a
	c.LastModified = ""
	return &c
}

// downgradeContents leaves out the _meta of resource contents (2025-06-18)
// for older versions.
func downgradeContents(r AnyResourceContents, f features) AnyResourceContents {
	if f.titles {
		return r
	}
	if t, ok := r.AsTextResourceContents(); ok && t.Meta != nil {
		c := *t
		c.Meta = nil
		return AnyResourceContents{Value: c}
	}
	if b, ok := r.AsBlobResourceContents(); ok && b.Meta != nil {
		c := *b
		c.Meta = nil
		return AnyResourceContents{Value: c}
	}
	return r
}

// downgradeToolResult fits a tool result to a version. Structured content
// a version cannot carry (any before 2025-06-18; anything but an object
// before 2026-07-28) is left out, and when the result has no other content
// it is sent as text instead.
func downgradeToolResult(r CallToolResult, f features) CallToolResult {
	r.Content = downgradeContent(r.Content, f)
	sc := r.StructuredContent
	if _, object := jsonscan.NewObject(sc); len(sc) == 0 || (f.structured && (f.anyStructured || object)) {
		return r
	}
	r.StructuredContent = nil
	if len(r.Content) == 0 {
		r.Content = []ContentBlock{Text(string(sc))}
	}
	return r
}

// objectRooted reports whether a JSON Schema says "type": "object" at its
// root, as output schemas must before 2026-07-28.
func objectRooted(schema []byte) bool {
	t, _ := jsonscan.Member(schema, "type")
	return jsonscan.StringIs(t, "object")
}

// downgradeReadResult fits the contents of a resources/read result to a
// version.
func downgradeReadResult(r *ReadResourceResult, f features) *ReadResourceResult {
	if r == nil || f.titles {
		return r
	}
	c := *r
	c.Contents = make([]AnyResourceContents, len(r.Contents))
	for i, x := range r.Contents {
		c.Contents[i] = downgradeContents(x, f)
	}
	return &c
}

// downgradeTool fits a tool's description to a version: annotations from
// 2025-03-26; title, _meta and outputSchema from 2025-06-18 (an output
// schema whose root is not an object only from 2026-07-28); icons and
// execution from 2025-11-25 (execution also needs tasks, which 2026-07-28
// moved to an extension).
func downgradeTool(t Tool, f features) Tool {
	if !f.annotations {
		t.Annotations = nil
	}
	downgradeLabels(&t.Title, &t.Meta, &t.Icons, f)
	if !f.structured || (!f.anyStructured && len(t.OutputSchema) > 0 && !objectRooted(t.OutputSchema)) {
		t.OutputSchema = nil
	}
	if !f.tasks {
		t.Execution = nil
	}
	return t
}

// downgradeResource fits a resource's description to a version.
func downgradeResource(r Resource, f features) Resource {
	downgradeLabels(&r.Title, &r.Meta, &r.Icons, f)
	r.Annotations = downgradeAnnotations(r.Annotations, f)
	return r
}

// downgradeTemplate fits a resource template's description to a version.
func downgradeTemplate(r ResourceTemplate, f features) ResourceTemplate {
	downgradeLabels(&r.Title, &r.Meta, &r.Icons, f)
	r.Annotations = downgradeAnnotations(r.Annotations, f)
	return r
}

// downgradePrompt fits a prompt's description to a version.
func downgradePrompt(p Prompt, f features) Prompt {
	downgradeLabels(&p.Title, &p.Meta, &p.Icons, f)
	if !f.titles && len(p.Arguments) > 0 {
		args := make([]PromptArgument, len(p.Arguments))
		for i, a := range p.Arguments {
			a.Title = ""
			args[i] = a
		}
		p.Arguments = args
	}
	return p
}

// downgradeLabels fits the title, _meta and icons of a tool's, resource's,
// template's or prompt's description to a version: title and _meta from
// 2025-06-18, icons from 2025-11-25.
func downgradeLabels(title *string, meta *Meta, icons *[]Icon, f features) {
	if !f.titles {
		*title, *meta = "", nil
	}
	if !f.icons {
		*icons = nil
	}
}

// downgradeImplementation fits the server's identity to a version: title
// from 2025-06-18; description, icons and websiteUrl from 2025-11-25.
func downgradeImplementation(i Implementation, f features) Implementation {
	if !f.titles {
		i.Title = ""
	}
	if !f.icons {
		i.Description, i.Icons, i.WebsiteURL = "", nil, ""
	}
	return i
}

// downgradeElicit leaves out the mode member of a form request for
// 2025-06-18, which has only form mode and no such member.
func downgradeElicit(p *ElicitRequestParams, f features) *ElicitRequestParams {
	if f.urlElicit {
		return p
	}
	var form ElicitRequestFormParams
	switch x := p.Value.(type) {
	case ElicitRequestFormParams:
		form = x
	case *ElicitRequestFormParams:
		if x == nil {
			return p
		}
		form = *x
	default:
		return p
	}
	if form.Mode == "" {
		return p
	}
	form.Mode = ""
	return &ElicitRequestParams{Value: form}
}

// downgradeClientCapabilities fits what a client declares to the version
// it offers: no elicitation before 2025-06-18, and before 2025-11-25 an
// empty elicitation object (form mode, the only one) and no sampling.tools.
func downgradeClientCapabilities(c ClientCapabilities, f features) ClientCapabilities {
	if c.Elicitation != nil && !f.elicitation {
		c.Elicitation = nil
	}
	if c.Elicitation != nil && !f.urlElicit {
		c.Elicitation = &ClientCapabilitiesElicitation{}
	}
	if c.Sampling != nil && !f.samplingTools && c.Sampling.Tools != nil {
		sampling := *c.Sampling
		sampling.Tools = nil
		c.Sampling = &sampling
	}
	return c
}

// downgradeRoots leaves out the _meta of roots (2025-06-18) for older
// versions: the client's answer to roots/list.
func downgradeRoots(r *ListRootsResult, f features) *ListRootsResult {
	if r == nil || f.titles {
		return r
	}
	c := *r
	c.Roots = make([]Root, len(r.Roots))
	for i, root := range r.Roots {
		root.Meta = nil
		c.Roots[i] = root
	}
	return &c
}

// downgradeSamplingResult fits our client's answer to sampling/createMessage
// to the server's version, as downgradeBlock does a content block: audio
// (2025-03-26) becomes text; _meta and lastModified (2025-06-18) are left
// out.
func downgradeSamplingResult(r *CreateMessageResult, f features) *CreateMessageResult {
	if r == nil || (f.titles && f.audio) {
		return r
	}
	var b ContentBlock
	if x, ok := r.Content.AsText(); ok {
		b.Value = *x
	} else if x, ok := r.Content.AsImage(); ok {
		b.Value = *x
	} else if x, ok := r.Content.AsAudio(); ok {
		b.Value = *x
	} else {
		return r
	}
	v, ok := downgradeBlock(b, f).Value.(CreateMessageResultContentVariant)
	if !ok {
		return r
	}
	c := *r
	c.Content = CreateMessageResultContent{Value: v}
	return &c
}
