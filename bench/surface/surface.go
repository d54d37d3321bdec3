// Package surface describes what every benchmark server serves: the server's
// name and version and the two tools echo and add, with their schemas and
// the answers they give. The servers in bench/servers and the in-process
// benchmarks in bench/inproc build on it, so that all of them serve the same
// thing; its subpackages build the surface with each library.
package surface

import "strconv"

// The server's identity, as every benchmark server reports it.
const (
	// Name is the server name in serverInfo.
	Name = "bench"
	// Version is the server version in serverInfo.
	Version = "1.0.0"
)

// The tools and their schemas, as JSON text.
const (
	// EchoTool names the tool that returns its text argument as a text content.
	EchoTool = "echo"
	// EchoDescription describes EchoTool in tools/list.
	EchoDescription = "Returns its text."
	// EchoInputSchema is the input schema of EchoTool.
	EchoInputSchema = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`

	// AddTool names the tool that adds two numbers and returns the sum as
	// text and as structured content.
	AddTool = "add"
	// AddDescription describes AddTool in tools/list.
	AddDescription = "Adds two numbers."
	// AddInputSchema is the input schema of AddTool.
	AddInputSchema = `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`
	// AddOutputSchema is the output schema of AddTool (its structuredContent).
	AddOutputSchema = `{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`
)

// EchoIn is the argument object of EchoTool.
type EchoIn struct {
	// Text is returned as it is.
	Text string `json:"text"`
}

// AddIn is the argument object of AddTool.
type AddIn struct {
	// A is the first addend.
	A float64 `json:"a"`
	// B is the second addend.
	B float64 `json:"b"`
}

// AddOut is the structured content of AddTool's result.
type AddOut struct {
	// Sum is A+B.
	Sum float64 `json:"sum"`
}

// FormatSum is the text content of AddTool's result for sum: the shortest
// decimal that reads back as the same float64.
func FormatSum(sum float64) string {
	return strconv.FormatFloat(sum, 'g', -1, 64)
}

// AppendSum is FormatSum appending to dst.
func AppendSum(dst []byte, sum float64) []byte {
	return strconv.AppendFloat(dst, sum, 'g', -1, 64)
}
