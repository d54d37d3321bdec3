package harness

import (
	"context"
	"os"
	"sync"
	"time"
)

// BuildOnce builds one package of the repository that holds the working
// directory the first time Path is called, into a temporary directory that
// lasts as long as the process, and gives that binary (or that error) to
// every later call: a test binary builds a program once, however many
// tests run it.
type BuildOnce struct {
	// Pkg is the package, relative to the repository root
	// (./examples/everything, say).
	Pkg string

	once sync.Once
	path string
	err  error
}

// Path returns the built binary's path.
func (b *BuildOnce) Path() (string, error) {
	b.once.Do(func() {
		root, err := FindRoot(".")
		if err != nil {
			b.err = err
			return
		}
		dir, err := os.MkdirTemp("", "harness-build-")
		if err != nil {
			b.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		b.path, b.err = Build(ctx, root, b.Pkg, dir)
	})
	return b.path, b.err
}
