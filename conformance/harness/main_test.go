package harness_test

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// helperEnv makes the test binary act as a stand-in server process (see TestMain).
const helperEnv = "HARNESS_TEST_HELPER"

// TestMain lets tests start the test binary itself as a child process: with helperEnv set
// to "idle" it writes to stderr and waits to be stopped (at most 30 s), with "exit" it
// ends at once with status 7, with "client" it acts as a conformance client that gives up
// on every scenario (a line on stderr, status 1).
func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "idle":
		fmt.Fprintln(os.Stderr, "helper idling")
		time.Sleep(30 * time.Second)
		os.Exit(0)
	case "exit":
		fmt.Fprintln(os.Stderr, "helper exiting")
		os.Exit(7)
	case "client":
		fmt.Fprintf(os.Stderr, "helper client gives up on %s\n", os.Getenv("MCP_CONFORMANCE_SCENARIO"))
		os.Exit(1)
	}
	os.Exit(m.Run())
}
