package mcp

import (
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// acceptsByParsing is the definition accepts must agree with: every part
// parsed by mime.ParseMediaType.
func acceptsByParsing(r *http.Request, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, line := range r.Header.Values("Accept") {
		for _, part := range strings.Split(line, ",") {
			if acceptsPart(strings.TrimSpace(part), mediaType, major) {
				return true
			}
		}
	}
	return false
}

func TestAcceptsAgreesWithParsingEveryPart(t *testing.T) {
	for _, accept := range [][]string{
		nil,
		{""},
		{"application/json, text/event-stream"},
		{"text/event-stream, application/json"},
		{"Application/JSON"},
		{"application/*"},
		{"APPLICATION/*"},
		{"*/*"},
		{"*/*;q=0"},
		{"application/json;q=0", "text/event-stream"},
		{"application/json; q=0.0, text/*"},
		{"application/json;q=0.5"},
		{"application/json ; charset=utf-8"},
		{"text/html, image/png"},
		{"application/json-seq"},
		{"application/jsonx, application"},
		{"application/", "/json"},
		{"application/json,,"},
		{",application/json"},
		{"application/json;", "text/event-stream;;"},
		{"appl ication/json"},
		{"application/json\t"},
		{"text/event-stream", "application/json"},
		{"application/vnd.api+json"},
		{"*/json"},
		{"application/*;q=0, */*"},
	} {
		r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/", nil)
		for _, v := range accept {
			r.Header.Add("Accept", v)
		}
		for _, mt := range []string{"application/json", "text/event-stream"} {
			assert.Equal(t, acceptsByParsing(r, mt), accepts(r, mt), "Accept %q, %s", accept, mt)
		}
	}
}

func TestIsJSONBodyAgreesWithParsing(t *testing.T) {
	for _, ct := range []string{"", "application/json", "application/json; charset=utf-8", "Application/JSON", "text/plain", "application/json;", "application/jsonx", "application/json;charset"} {
		r, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1/", nil)
		if ct != "" {
			r.Header.Set("Content-Type", ct)
		}
		mt, _, err := mime.ParseMediaType(ct)
		assert.Equal(t, err == nil && mt == "application/json", isJSONBody(r), "Content-Type %q", ct)
	}
}
