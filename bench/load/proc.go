package load

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// defaultClockTicks is USER_HZ on every Linux architecture Go supports.
const defaultClockTicks = 100

// ClockTicks returns the kernel's clock ticks per second (USER_HZ), the unit
// of the CPU times in /proc/<pid>/stat, as `getconf CLK_TCK` reports it, or
// 100 when getconf is unavailable or says something unexpected.
func ClockTicks() int {
	out, err := exec.Command("getconf", "CLK_TCK").Output()
	if err != nil {
		return defaultClockTicks
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || n <= 0 {
		return defaultClockTicks
	}
	return n
}

// CPUTicks returns utime+stime of process pid, summed over all its threads,
// in clock ticks.
func CPUTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStatCPU(data)
}

// parseStatCPU extracts utime (field 14) + stime (field 15) from the text of
// /proc/<pid>/stat. The command name (field 2) sits in parentheses and may
// itself hold spaces and parentheses, so counting starts after the last ')'.
func parseStatCPU(data []byte) (int64, error) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, errors.New("proc stat: no command name in parentheses")
	}
	fields := strings.Fields(string(data[end+1:]))
	// fields[0] is field 3 (state), so field n is fields[n-3].
	const utime, stime = 14 - 3, 15 - 3
	if len(fields) <= stime {
		return 0, fmt.Errorf("proc stat: %d fields after the command name, want at least %d", len(fields), stime+1)
	}
	u, err := strconv.ParseInt(fields[utime], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("proc stat: utime: %w", err)
	}
	s, err := strconv.ParseInt(fields[stime], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("proc stat: stime: %w", err)
	}
	return u + s, nil
}

// PeakRSS returns the peak resident set size (VmHWM) of process pid in bytes.
func PeakRSS(pid int) (int64, error) { return statusBytes(pid, "VmHWM") }

// Resident is what a process holds in memory at one moment, in bytes:
// its peak resident set (VmHWM) and, of what is resident now, the pages
// backed by files (RssFile: its executable and libraries) and the
// anonymous ones (RssAnon: heap, stacks, the runtime's own).
type Resident struct {
	Peak, File, Anon int64
}

// ResidentOf reads the Resident of process pid from one read of
// /proc/<pid>/status.
func ResidentOf(pid int) (Resident, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Resident{}, err
	}
	return parseResident(data)
}

// parseResident reads a Resident from the text of /proc/<pid>/status.
func parseResident(data []byte) (Resident, error) {
	var r Resident
	for _, f := range []struct {
		name string
		into *int64
	}{{"VmHWM", &r.Peak}, {"RssFile", &r.File}, {"RssAnon", &r.Anon}} {
		v, err := parseStatusField(data, f.name)
		if err != nil {
			return Resident{}, err
		}
		*f.into = v
	}
	return r, nil
}

// RSS returns the resident set size (VmRSS) of process pid in bytes.
func RSS(pid int) (int64, error) { return statusBytes(pid, "VmRSS") }

// statusBytes reads one "<field>:  <n> kB" line of /proc/<pid>/status.
func statusBytes(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return parseStatusField(data, field)
}

// parseStatusField extracts the "<field>:  <n> kB" line of the text of
// /proc/<pid>/status, in bytes.
func parseStatusField(data []byte, field string) (int64, error) {
	for line := range strings.SplitSeq(string(data), "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("proc status: malformed %s line %q", field, line)
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("proc status: %s: %w", field, err)
		}
		return kb * 1024, nil
	}
	return 0, fmt.Errorf("proc status: no %s line", field)
}

// loadAverage returns the 1, 5 and 15 minute load averages from
// /proc/loadavg, or "" when they cannot be read.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return parseLoadAverage(data)
}

// parseLoadAverage keeps the first three fields of /proc/loadavg.
func parseLoadAverage(data []byte) string {
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return ""
	}
	return strings.Join(fields[:3], " ")
}
