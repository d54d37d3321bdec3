//go:build !unix

package harness

import "os"

// interrupt asks a server to shut down; without Unix signals that means killing it.
var interrupt = os.Kill
