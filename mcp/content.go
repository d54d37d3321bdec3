package mcp

import "encoding/base64"

// Text returns a text content block.
func Text(s string) ContentBlock { return ContentBlock{Value: TextContent{Text: s}} }

// Image returns an image content block of the given bytes and MIME type
// (image/png, …); the bytes are sent base64-encoded.
func Image(data []byte, mimeType string) ContentBlock {
	return ContentBlock{Value: ImageContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mimeType}}
}

// Audio returns an audio content block (audio/wav, …), base64-encoded.
// Sessions older than 2025-03-26 have no audio: they receive a text block
// saying what was left out.
func Audio(data []byte, mimeType string) ContentBlock {
	return ContentBlock{Value: AudioContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mimeType}}
}

// Link returns a resource_link content block pointing at a resource the
// client may read. Sessions older than 2025-06-18 receive the link as text.
func Link(r *Resource) ContentBlock {
	return ContentBlock{Value: ResourceLink{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
		MIMEType: r.MIMEType, Size: r.Size, Icons: r.Icons, Annotations: r.Annotations, Meta: r.Meta}}
}

// Embedded returns a content block that carries a resource's contents
// (see [TextResource] and [BlobResource]).
func Embedded(contents AnyResourceContents) ContentBlock {
	return ContentBlock{Value: EmbeddedResource{Resource: contents}}
}

// TextResource returns the contents of a text resource.
func TextResource(uri, mimeType, text string) AnyResourceContents {
	return AnyResourceContents{Value: TextResourceContents{URI: uri, MIMEType: mimeType, Text: text}}
}

// BlobResource returns the contents of a binary resource, base64-encoded.
func BlobResource(uri, mimeType string, data []byte) AnyResourceContents {
	return AnyResourceContents{Value: BlobResourceContents{URI: uri, MIMEType: mimeType, Blob: base64.StdEncoding.EncodeToString(data)}}
}
