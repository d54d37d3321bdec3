package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "proc", name))
	if err != nil {
		t.Fatal(err)
	}
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
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ticks = %d, want %d", got, tt.want)
			}
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
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestParseStatusHWMReadsPeakRSSInBytes(t *testing.T) {
	got, err := parseStatusHWM(readFixture(t, "status"))
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(13420 * 1024); got != want {
		t.Errorf("VmHWM = %d, want %d", got, want)
	}
}

func TestParseStatusHWMRejectsMissingOrMalformedLine(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
	}{
		{"no VmHWM line (a kernel thread)", "Name:\tkthreadd\nState:\tS\n", "no VmHWM"},
		{"no unit", "VmHWM:\t123\n", "malformed"},
		{"not a number", "VmHWM:\tlots kB\n", "VmHWM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseStatusHWM([]byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}

func TestCPUTicksAndPeakRSSReadTheLiveProcess(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system: the driver measures only on Linux")
	}
	pid := os.Getpid()
	if _, err := CPUTicks(pid); err != nil {
		t.Errorf("CPUTicks(self): %v", err)
	}
	rss, err := PeakRSS(pid)
	if err != nil {
		t.Fatalf("PeakRSS(self): %v", err)
	}
	if rss <= 0 {
		t.Errorf("PeakRSS(self) = %d, want > 0", rss)
	}
	if ClockTicks() <= 0 {
		t.Error("ClockTicks() must be positive")
	}
}
