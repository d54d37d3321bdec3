package mcp

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// keywordForm is the definition inKeywordForm scans for: WORD= at the start.
var keywordForm = regexp.MustCompile(`^[^ \t\n]*=`)

func TestInKeywordFormFindsWordEqualsAtTheStart(t *testing.T) {
	for tag, want := range map[string]bool{
		"minimum=1":                true,
		"description=a b,format=x": true,
		"=x":                       true,
		"a free text description":  false,
		"see a=b":                  false,
		"tab\t=x":                  false,
		"line\n=x":                 false,
		"":                         false,
		"no equals sign":           false,
	} {
		assert.Equal(t, want, inKeywordForm(tag), "%q", tag)
		assert.Equal(t, keywordForm.MatchString(tag), inKeywordForm(tag), "%q: the scan and the definition disagree", tag)
	}
}

func TestInKeywordFormAgreesWithItsDefinitionOnRandomTags(t *testing.T) {
	const alphabet = "ab= \t\n,é"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]rune, r.IntN(8))
		for i := range b {
			b[i] = []rune(alphabet)[r.IntN(len([]rune(alphabet)))]
		}
		tag := string(b)
		if keywordForm.MatchString(tag) != inKeywordForm(tag) {
			t.Fatalf("%q: the scan says %v, the definition %v", tag, inKeywordForm(tag), keywordForm.MatchString(tag))
		}
	}
}
