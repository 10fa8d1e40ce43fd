package loadtest

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// ProcSample is the server process's resources at one moment: resident
// memory and threads from /proc/PID/status, open descriptors from
// /proc/PID/fd, goroutines from the server's loopback debug endpoint
// (serve --debug-addr); -1 where a figure could not be read.
type ProcSample struct {
	RSSKiB, Threads, FDs, Goroutines int
}

// String writes "RSS 41.2 MiB, 12 threads, 35 fds, 20 goroutines".
func (p ProcSample) String() string {
	return fmt.Sprintf("RSS %.1f MiB, %d threads, %d fds, %d goroutines", float64(p.RSSKiB)/1024, p.Threads, p.FDs, p.Goroutines)
}

// SampleProc reads process pid's resources, goroutines aside (-1).
func SampleProc(pid int) ProcSample { return sampleProc(pid, "") }

// sampleProc reads pid's resources; debugBase is the debug endpoint's
// base URL ("" when there is none).
func sampleProc(pid int, debugBase string) ProcSample {
	s := ProcSample{RSSKiB: -1, Threads: -1, FDs: -1, Goroutines: -1}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		s.RSSKiB = statusField(string(b), "VmRSS:")
		s.Threads = statusField(string(b), "Threads:")
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		s.FDs = len(ents)
	}
	if debugBase != "" {
		s.Goroutines = goroutines(debugBase)
	}
	return s
}

// statusField reads the first number after key in /proc/PID/status text.
func statusField(status, key string) int {
	for _, l := range strings.Split(status, "\n") {
		if rest, ok := strings.CutPrefix(l, key); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				if n, err := strconv.Atoi(f[0]); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// cpuSeconds is the CPU time pid has used so far (user and system, from
// /proc/PID/stat, in the kernel's 100 ticks a second); -1 when unknown.
func cpuSeconds(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing parenthesis (utime and stime are fields 14 and
	// 15 of the whole line, so 12 and 13 after it).
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return -1
	}
	u, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return (u + st) / 100
}

var debugClient = &http.Client{Timeout: 5 * time.Second}

// goroutines asks the server's debug endpoint; -1 when it does not answer.
func goroutines(debugBase string) int {
	resp, err := debugClient.Get(debugBase + "/debug/goroutines")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64))
	if err != nil || resp.StatusCode != http.StatusOK {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return -1
	}
	return n
}

// Machine describes where a figure was measured: cores, CPU model, Go
// version and the load average at the moment of the call (the machine is
// shared, so the load goes beside every figure).
func Machine() string {
	return fmt.Sprintf("%d cores, %s, %s, load average %s", runtime.NumCPU(), cpuModel(), runtime.Version(), LoadAverage())
}

// LoadAverage is the 1, 5 and 15 minute load average from /proc/loadavg.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
