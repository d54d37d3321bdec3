package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
	"github.com/schemarpc/schemarpc/schema"
)

// typesFileOf generates the 2024-11-05 bindings from schema.FS with cfg
// and returns types_gen.go, or the error.
func typesFileOf(t *testing.T, cfg *gen.Config) (string, error) {
	t.Helper()
	files, err := gen.Generate(gen.Options{FS: schema.FS, Input: "mcp/2024-11-05/index.json", Package: "mcp", Config: cfg})
	if err != nil {
		return "", err
	}
	for _, f := range files {
		if f.Name == "types_gen.go" {
			return string(f.Content), nil
		}
	}
	t.Fatal("no types_gen.go")
	return "", nil
}

func TestARecurringStructsTableIsMarkedRecurring(t *testing.T) {
	plain, err := typesFileOf(t, nil)
	require.NoError(t, err)
	assert.NotContains(t, plain, "Recurring")
	marked, err := typesFileOf(t, &gen.Config{Recurring: []string{"Implementation"}})
	require.NoError(t, err)
	start := strings.Index(marked, "var codecImplementation = rpc.StructCodec{")
	require.GreaterOrEqual(t, start, 0)
	end := start + strings.Index(marked[start:], "\n}\n")
	assert.Contains(t, marked[start:end], "Recurring: true")
	assert.Equal(t, 1, strings.Count(marked, "Recurring: true"), "only the struct named")
}

func TestARecurringNameThatIsNoGeneratedStructIsAnError(t *testing.T) {
	for _, name := range []string{"NoSuchType", "LoggingLevel"} {
		_, err := typesFileOf(t, &gen.Config{Recurring: []string{name}})
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), `recurring: "`+name+`" is not a generated struct with members`)
	}
}
