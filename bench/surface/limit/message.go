package limit

import "bytes"

// request is what the limit server reads of one message: byte slices into
// the message, nothing copied or decoded.
type request struct {
	id, method []byte // id raw (nil when absent), method between its quotes
	tool       []byte // params.name between its quotes
	version    []byte // params.protocolVersion between its quotes (initialize)
	stateless  bool   // params._meta names a protocol version (2026-07-28)
	text       []byte // arguments.text raw, quotes included
	a, b       []byte // arguments.a and arguments.b raw
}

// The member names the scanner looks for.
var (
	keyID        = []byte("id")
	keyMethod    = []byte("method")
	keyParams    = []byte("params")
	keyName      = []byte("name")
	keyArguments = []byte("arguments")
	keyMeta      = []byte("_meta")
	keyVersion   = []byte("protocolVersion")
	keyStateless = []byte("io.modelcontextprotocol/protocolVersion")
	keyText      = []byte("text")
	keyA         = []byte("a")
	keyB         = []byte("b")
)

// parse reads msg in one pass. ok is false when msg is not a JSON object
// the scanner can walk.
func parse(msg []byte) (r request, ok bool) {
	s := scanner{b: msg, ok: true}
	s.object(func(key []byte) {
		switch {
		case bytes.Equal(key, keyID):
			r.id = s.value()
		case bytes.Equal(key, keyMethod):
			r.method = s.str()
		case bytes.Equal(key, keyParams):
			if s.i < len(s.b) && s.b[s.i] == '{' {
				s.object(func(key []byte) { r.param(&s, key) })
			} else {
				s.value()
			}
		default:
			s.value()
		}
	})
	return r, s.ok
}

// param reads one member of params.
func (r *request) param(s *scanner, key []byte) {
	switch {
	case bytes.Equal(key, keyName):
		r.tool = s.str()
	case bytes.Equal(key, keyVersion):
		r.version = s.str()
	case bytes.Equal(key, keyMeta) && s.i < len(s.b) && s.b[s.i] == '{':
		s.object(func(key []byte) {
			if bytes.Equal(key, keyStateless) {
				r.stateless = true
			}
			s.value()
		})
	case bytes.Equal(key, keyArguments) && s.i < len(s.b) && s.b[s.i] == '{':
		s.object(func(key []byte) {
			switch {
			case bytes.Equal(key, keyText):
				r.text = s.value()
			case bytes.Equal(key, keyA):
				r.a = s.value()
			case bytes.Equal(key, keyB):
				r.b = s.value()
			default:
				s.value()
			}
		})
	default:
		s.value()
	}
}
