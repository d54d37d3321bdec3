package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schemarpc/schemarpc/gen"
)

// BenchmarkGenerateLargestThirdPartyDocument generates the largest document
// in ThirdPartyDir (lotus full.json, 240 methods, 1.2 MB) with no config:
// read, convert, render and gofmt every file. docs/codegen.md records the
// figure.
func BenchmarkGenerateLargestThirdPartyDocument(b *testing.B) {
	docs, _ := filepath.Glob(filepath.Join(ThirdPartyDir, "*.json"))
	largest, size := "", int64(-1)
	for _, d := range docs {
		if fi, err := os.Stat(d); err == nil && fi.Size() > size {
			largest, size = d, fi.Size()
		}
	}
	if largest == "" {
		b.Skipf("the third-party documents are not here (%s, next to the repository)", ThirdPartyDir)
	}
	b.ReportMetric(float64(size), "input-bytes")
	for b.Loop() {
		if _, err := gen.Generate(gen.Options{Input: largest, Package: "lotus"}); err != nil {
			b.Fatal(err)
		}
	}
}
