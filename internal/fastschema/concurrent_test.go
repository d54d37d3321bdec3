package fastschema_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

func TestCheckIsSafeForConcurrentUse(t *testing.T) {
	v := fastschema.Compile(compileDoc(t, unionSchema))
	inputs := map[string]fastschema.Verdict{
		`{"type":"text","text":"hi"}`:                      fastschema.Valid,
		`{"type":"image","data":"x","mimeType":"a/b"}`:     fastschema.Valid,
		`{"type":"t\u0065xt","text":"\u00e9\ud83d\ude00"}`: fastschema.Valid,
		`{"type":"text"}`:                                  fastschema.Invalid,
		`{"type":"text","text":"x","text":"y"}`:            fastschema.Unknown,
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				for in, want := range inputs {
					assert.Equal(t, want, v.Check([]byte(in)), in)
				}
			}
		}()
	}
	wg.Wait()
}
