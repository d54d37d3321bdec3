package mcpredis

import (
	"net/url"
	"strconv"
	"strings"
)

// An event id is "<stream>/<entry>": the stream's name, path-escaped so
// that the id is visible ASCII and holds no '/' before the last, and the
// id of the session's Redis stream entry, "<milliseconds>-<sequence>".

// formatEventID names the entry of a session's Redis stream that holds an
// event of stream.
func formatEventID(stream, entry string) string {
	return url.PathEscape(stream) + "/" + entry
}

// parseEventID splits an id formatEventID made; ok is false for anything
// else, including other spellings of the same stream name.
func parseEventID(id string) (stream, entry string, ok bool) {
	i := strings.LastIndexByte(id, '/')
	if i < 0 {
		return "", "", false
	}
	stream, err := url.PathUnescape(id[:i])
	if err != nil || url.PathEscape(stream) != id[:i] || !isEntryID(id[i+1:]) {
		return "", "", false
	}
	return stream, id[i+1:], true
}

// isEntryID reports whether s is a Redis stream entry id as Redis writes
// it: two canonical decimal numbers joined by '-'.
func isEntryID(s string) bool {
	ms, seq, ok := strings.Cut(s, "-")
	return ok && isCanonicalUint(ms) && isCanonicalUint(seq)
}

// isCanonicalUint reports whether s is a uint64 in decimal without a
// sign or leading zeros.
func isCanonicalUint(s string) bool {
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && strconv.FormatUint(n, 10) == s
}
