package jsonformat_test

import (
	"testing"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
)

// BenchmarkValidate checks the first valid edge case of each format, with
// our check and with the library's.
func BenchmarkValidate(b *testing.B) {
	for _, name := range jsonformat.Names() {
		v := formatCases[name].valid[0]
		ours, theirs := jsonformat.Lookup(name), oracle(b, name).Format
		b.Run(name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ours.Validate(v) != nil {
					b.Fatal("refused")
				}
			}
		})
		b.Run(name+"/library", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if theirs.Validate(v) != nil {
					b.Fatal("refused")
				}
			}
		})
	}
}
