package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "proc", name))
	require.NoError(t, err)
	return data
}

func TestParseStatCPUSumsUserAndSystemTicks(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want int64
	}{
		{"a plain command name", readFixture(t, "stat"), 1234 + 56},
		{"a command name with spaces and parentheses", readFixture(t, "stat-odd-name"), 7 + 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStatCPU(tt.data)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseStatCPURejectsMalformedText(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
	}{
		{"no parentheses", "1 cmd S 1 2 3", "no command name"},
		{"too few fields", "1 (cmd) S 1 2 3", "fields after the command name"},
		{"utime not a number", "1 (c) S 1 1 1 0 -1 0 0 0 0 0 x 5 0", "utime"},
		{"stime not a number", "1 (c) S 1 1 1 0 -1 0 0 0 0 0 5 y 0", "stime"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStatCPU([]byte(tt.data))
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestParseStatusFieldReadsPeakAndCurrentRSSInBytes(t *testing.T) {
	status := readFixture(t, "status")
	got, err := parseStatusField(status, "VmHWM")
	require.NoError(t, err)
	assert.Equal(t, int64(13420*1024), got)
	got, err = parseStatusField(status, "VmRSS")
	require.NoError(t, err)
	assert.Equal(t, int64(12288*1024), got)
}

func TestParseResidentSplitsTheResidentPagesByKind(t *testing.T) {
	got, err := parseResident(readFixture(t, "status"))
	require.NoError(t, err)
	assert.Equal(t, Resident{Peak: 13420 * 1024, File: 9216 * 1024, Anon: 3072 * 1024}, got)
}

func TestParseResidentNamesTheLineItMisses(t *testing.T) {
	_, err := parseResident([]byte("VmHWM:\t100 kB\nRssAnon:\t10 kB\n"))
	assert.ErrorContains(t, err, "RssFile")
}

func TestParseStatusFieldRejectsMissingOrMalformedLine(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
	}{
		{"no VmHWM line (a kernel thread)", "Name:\tkthreadd\nState:\tS\n", "no VmHWM"},
		{"no unit", "VmHWM:\t123\n", "malformed"},
		{"not a number", "VmHWM:\tlots kB\n", "VmHWM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStatusField([]byte(tt.data), "VmHWM")
			assert.ErrorContains(t, err, tt.wantErr)
		})
	}
}

func TestCPUTicksAndPeakRSSReadTheLiveProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system: the driver measures only on Linux")
	}
	pid := os.Getpid()
	_, err := CPUTicks(pid)
	assert.NoError(t, err)
	rss, err := RSS(pid)
	require.NoError(t, err)
	peak, err := PeakRSS(pid) // read second: the size may grow in between
	require.NoError(t, err)
	res, err := ResidentOf(pid)
	require.NoError(t, err)
	assert.Positive(t, res.File, "the test binary's own pages")
	assert.Positive(t, res.Anon)
	assert.Positive(t, rss)
	assert.GreaterOrEqual(t, peak, rss, "the peak is at least the current size")
	assert.Positive(t, ClockTicks())
}

func TestCPUTicksAndPeakRSSFailForAMissingProcess(t *testing.T) {
	_, err := CPUTicks(-1)
	assert.Error(t, err)
	_, err = PeakRSS(-1)
	assert.Error(t, err)
	_, err = RSS(-1)
	assert.Error(t, err)
	_, err = ResidentOf(-1)
	assert.Error(t, err)
}

func TestParseLoadAverageKeepsTheThreeAverages(t *testing.T) {
	assert.Equal(t, "4.97 2.97 2.39", parseLoadAverage([]byte("4.97 2.97 2.39 3/412 30454\n")))
	assert.Empty(t, parseLoadAverage([]byte("garbage")))
}
