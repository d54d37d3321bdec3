package httpguard

import (
	"net/http"
	"strings"
)

// Encoded reports whether r's body has a content coding other than
// identity (gzip, say): the handlers do not decompress bodies, so such a
// request gets 415 (RFC 9110, 15.5.16) rather than a parse error for bytes
// that were never JSON.
func Encoded(r *http.Request) bool {
	// Indexed by the name as net/http keys it: Values would canonicalize
	// it again on every request.
	for _, v := range r.Header["Content-Encoding"] {
		for c := range strings.SplitSeq(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !strings.EqualFold(c, "identity") {
				return true
			}
		}
	}
	return false
}

// RefuseEncoded sets the header of the 415 answer to an encoded body: the
// only coding accepted is identity (RFC 7694).
func RefuseEncoded(h http.Header) { h.Set("Accept-Encoding", "identity") }

// EncodedReason is the reason given with the 415 for an encoded body.
const EncodedReason = "Content-Encoding is not supported: send the body uncompressed"
