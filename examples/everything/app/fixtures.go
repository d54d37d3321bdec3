package app

// The fixed payloads the conformance suite compares byte for byte.
const (
	// pngBase64 is a 1×1 PNG image.
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	// wavBase64 is a WAV file with one silent sample.
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

// URIs of the fixed resources.
const (
	uriStaticText     = "test://static-text"
	uriStaticBinary   = "test://static-binary"
	uriWatched        = "test://watched-resource"
	uriTemplate       = "test://template/{id}/data"
	uriEmbedded       = "test://embedded-resource"
	uriMixedContent   = "test://mixed-content-resource"
	uriPromptEmbedded = "test://prompt-embedded-resource"
)

// Texts the suite checks for.
const (
	textSimple      = "This is a simple text response for testing."
	textStatic      = "This is the content of the static text resource."
	textEmbedded    = "This is an embedded resource content."
	textToolFailure = "This tool intentionally returns an error for testing."
)
