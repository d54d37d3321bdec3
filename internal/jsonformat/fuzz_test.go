package jsonformat_test

import "testing"

func FuzzFormatsAgreeWithLibrary(f *testing.F) {
	names := formatNames()
	for i, name := range names {
		for _, s := range append(formatCases[name].valid, formatCases[name].invalid...) {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		agree(t, names[int(which)%len(names)], s)
	})
}
