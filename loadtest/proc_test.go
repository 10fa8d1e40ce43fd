package loadtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// The process figures are read from /proc and the debug endpoint; what
// cannot be read is -1, never a made-up number.
func TestSampleProc(t *testing.T) {
	s := sampleProc(os.Getpid(), "")
	if s.RSSKiB <= 0 || s.Threads < 1 || s.FDs < 3 || s.Goroutines != -1 {
		t.Errorf("this process: %+v, want RSS, threads and descriptors read and goroutines -1 (no endpoint)", s)
	}
	if c := cpuSeconds(os.Getpid()); c < 0 {
		t.Errorf("this process's CPU time: %v", c)
	}
	if s := sampleProc(-5, ""); s.RSSKiB != -1 || s.FDs != -1 || s.Threads != -1 || cpuSeconds(-5) != -1 {
		t.Errorf("no such process: %+v, want -1s", s)
	}
	tests := []struct {
		body   string
		status int
		want   int
	}{
		{"42\n", http.StatusOK, 42},
		{"42", http.StatusOK, 42},
		{"many\n", http.StatusOK, -1},
		{"42\n", http.StatusNotFound, -1},
	}
	for _, tc := range tests {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/debug/goroutines" {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(tc.status)
			fmt.Fprint(w, tc.body)
		}))
		if got := goroutines(srv.URL); got != tc.want {
			t.Errorf("endpoint answering %d %q: %d, want %d", tc.status, tc.body, got, tc.want)
		}
		srv.Close()
	}
	if got := goroutines("http://127.0.0.1:1"); got != -1 {
		t.Errorf("no endpoint: %d, want -1", got)
	}
}

// The fsync probe times every sync and leaves nothing behind.
func TestFsyncLatency(t *testing.T) {
	dir := t.TempDir()
	s, err := fsyncLatency(dir, 5)
	if err != nil {
		t.Fatal(err)
	}
	if s.N != 5 || s.Max <= 0 {
		t.Errorf("summary %+v, want 5 timed syncs", s)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files left in the folder", len(ents))
	}
	if _, err := fsyncLatency(dir+"/missing", 1); err == nil {
		t.Error("no error for a missing folder")
	}
}
