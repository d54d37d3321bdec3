package load

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListDropsEmptyItemsAndSpaces(t *testing.T) {
	assert.Equal(t, []string{"a", "b"}, List(" a,, b ,"))
	assert.Nil(t, List(""))
}

func TestCheckFormatNamesTheThreeFormats(t *testing.T) {
	for _, f := range []string{FormatText, FormatMarkdown, FormatJSON} {
		assert.NoError(t, CheckFormat(f))
	}
	assert.EqualError(t, CheckFormat("yaml"), `unknown format "yaml" (want text, markdown or json)`)
}

func TestReadSavedNamesTheFileItCannotRead(t *testing.T) {
	dir := t.TempDir()
	var rep Report
	require.Error(t, ReadSaved(filepath.Join(dir, "none.json"), &rep))
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("{"), 0o600))
	assert.ErrorContains(t, ReadSaved(bad, &rep), bad+": ")
}

func TestEmitWritesToTheFileOrStdout(t *testing.T) {
	write := func(w io.Writer) error { _, err := io.WriteString(w, "report"); return err }
	var stdout bytes.Buffer
	require.NoError(t, Emit("", &stdout, write))
	assert.Equal(t, "report", stdout.String())

	out := filepath.Join(t.TempDir(), "r.txt")
	require.NoError(t, Emit(out, &stdout, write))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, "report", string(got))

	assert.Error(t, Emit(filepath.Join(t.TempDir(), "no", "dir", "r.txt"), &stdout, write))
	failed := errors.New("render failed")
	assert.ErrorIs(t, Emit(filepath.Join(t.TempDir(), "r.txt"), &stdout, func(io.Writer) error { return failed }), failed)
}
