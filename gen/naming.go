package gen

import (
	"strings"
	"unicode"
)

// builtinInitialisms are written in capitals (or their customary mixed
// case) when they make up a whole word of a name: userId → UserID, but
// Identifier stays.
var builtinInitialisms = []string{
	"ID", "URL", "URI", "JSON", "HTTP", "HTTPS", "API", "RPC", "UUID", "IP",
	"TTL", "MIME", "SQL", "TLS", "UI", "HTML", "XML", "OAuth", "JSONRPC",
}

// namer turns schema names into Go names with one set of initialisms: the
// built-in list plus the config's.
type namer struct {
	initialisms map[string]string // by lower-case word
}

func newNamer(extra []string) *namer {
	n := &namer{initialisms: map[string]string{}}
	for _, w := range append(append([]string(nil), builtinInitialisms...), extra...) {
		n.initialisms[strings.ToLower(w)] = w
	}
	return n
}

// defaultNamer knows the built-in initialisms only.
var defaultNamer = newNamer(nil)

// splitWords breaks a schema name into words: at separators (_ - . / $ and
// space, and anything else that cannot appear in a Go identifier), at
// lower→upper transitions, at the end of an upper-case run that is followed
// by a lower-case word (HTTPServer → HTTP Server), and at letter/digit
// boundaries.
func splitWords(s string) []string {
	rs := []rune(s)
	var words []string
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			words = append(words, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsDigit(r) != unicode.IsDigit(prev):
			flush(i)
			start = i
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			// The last capital of a run starts the next word, except for a
			// plural "s" closing the run (IDs, URLs).
			if rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2])) {
				continue
			}
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return words
}

// camel joins the words of s in Go's MixedCaps, applying initialisms. Two
// adjacent numbers are kept apart by an underscore (2.0 → 2_0). The result may
// be empty or begin with a digit.
//
// A SCREAMING_SNAKE name (several words, no lower-case letter) is read as
// words, not as initialisms: BLOCK_NOT_FOUND → BlockNotFound, TXN_ID →
// TxnID, while a lone upper-case word (FELT) stays as it is.
func (nm *namer) camel(s string) string {
	var b strings.Builder
	prevDigit := false
	words := splitWords(s)
	if len(words) > 1 && strings.ToUpper(s) == s {
		for i, w := range words {
			words[i] = strings.ToLower(w)
		}
	}
	for _, w := range words {
		r := []rune(w)
		isDigit := unicode.IsDigit(r[0])
		if isDigit && prevDigit {
			b.WriteByte('_')
		}
		prevDigit = isDigit
		if ini, ok := nm.initialisms[strings.ToLower(w)]; ok {
			b.WriteString(ini)
			continue
		}
		if plural, ok := nm.initialisms[strings.ToLower(strings.TrimSuffix(w, "s"))]; ok && strings.HasSuffix(w, "s") {
			// A plural keeps its initialism: ids, IDs → IDs.
			b.WriteString(plural + "s")
			continue
		}
		b.WriteString(string(unicode.ToUpper(r[0])) + string(r[1:]))
	}
	return b.String()
}

// exportedName turns a schema name into an exported Go identifier, or ""
// when the name has no letters or digits at all. A leading underscore is
// dropped with the other separators; a name that would not start with an
// upper-case letter (a digit, a caseless script, a keyword) gets an X prefix.
func (nm *namer) exported(s string) string {
	n := nm.camel(s)
	if n == "" {
		return ""
	}
	if r := []rune(n)[0]; !unicode.IsUpper(r) {
		return "X" + n
	}
	return n
}

// enumConstSuffix names one enum value inside its type's constant names:
// "ref/prompt" → RefPrompt, "2.0" → V2_0, "" → Empty.
func (nm *namer) enumSuffix(v string) string {
	n := nm.camel(v)
	switch {
	case v == "":
		return "Empty"
	case n == "":
		return ""
	case !unicode.IsUpper([]rune(n)[0]):
		return "V" + n
	}
	return n
}

// exportedName is namer.exported with the built-in initialisms only.
func exportedName(s string) string { return defaultNamer.exported(s) }

// enumConstSuffix is namer.enumSuffix with the built-in initialisms only.
func enumConstSuffix(v string) string { return defaultNamer.enumSuffix(v) }

// joinName appends a role (Params, Result) to a stem, without saying it
// twice: a method named StateDecodeParams has the params type
// StateDecodeParams, not StateDecodeParamsParams, unless that name is
// already taken.
func (c *converter) joinName(stem, role string) string {
	if strings.HasSuffix(stem, role) && len(stem) > len(role) {
		if _, taken := c.names[stem]; !taken {
			return stem
		}
	}
	return stem + role
}

// destutter drops a word that repeats the one before it
// (Filecoin.FilecoinAddressToEthAddress → FilecoinAddressToEthAddress),
// unless another name, or another method's own stem, has the shorter form.
func (c *converter) destutter(name string) string {
	words := splitWords(name)
	var b strings.Builder
	prev := ""
	for _, w := range words {
		if w == prev && !unicode.IsDigit([]rune(w)[0]) {
			continue
		}
		b.WriteString(w)
		prev = w
	}
	short := b.String()
	if short == name || short == "" {
		return name
	}
	if _, taken := c.names["Method"+short]; taken || c.stems[short] {
		return name
	}
	return short
}
