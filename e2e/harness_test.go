package e2e

import (
	"io"
	"maps"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestFenSquares checks the FEN expansion the board checks rely on.
func TestFenSquares(t *testing.T) {
	cases := []struct {
		fen  string
		want map[string]string
	}{
		{"8/8/8/8/8/8/8/8 w - - 0 1", map[string]string{}},
		{"7k/8/R7/8/8/8/8/1R4K1 w - - 0 1", map[string]string{"h8": "bK", "a6": "wR", "b1": "wR", "g1": "wK"}},
		{"4k3/P7/8/8/8/8/4PPPP/4K3 w - - 0 1", map[string]string{"e8": "bK", "a7": "wP", "e2": "wP", "f2": "wP", "g2": "wP", "h2": "wP", "e1": "wK"}},
		{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", nil}, // checked by count below
	}
	for _, c := range cases {
		got := fenSquares(c.fen)
		if c.want == nil {
			if len(got) != 32 || got["e4"] != "wP" || got["e2"] != "" || got["d8"] != "bQ" || got["a1"] != "wR" {
				t.Errorf("fenSquares(%q) = %v", c.fen, got)
			}
			continue
		}
		if !maps.Equal(got, c.want) {
			t.Errorf("fenSquares(%q) = %v, want %v", c.fen, got, c.want)
		}
	}
}

// TestServerLifecycle checks the harness itself: the server starts, answers
// /healthz, survives a graceful stop and a kill -9 with a restart on the same
// address and database, and is down in between.
func TestServerLifecycle(t *testing.T) {
	tmp := t.TempDir()
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartServer(binPath, filepath.Join(tmp, "kw.db"), addr, filepath.Join(tmp, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop(10 * time.Second)
	healthy := func() bool {
		c := &http.Client{Timeout: 2 * time.Second}
		resp, err := c.Get(srv.URL() + "/healthz")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode == http.StatusOK
	}
	steps := []struct {
		name string
		stop func() error
	}{
		{"graceful", func() error { return srv.Stop(10 * time.Second) }},
		{"kill -9", srv.Kill},
	}
	for _, s := range steps {
		if !healthy() || !srv.Running() {
			t.Fatalf("before %s: server not healthy", s.name)
		}
		if err := s.stop(); err != nil {
			t.Errorf("%s: %v", s.name, err)
		}
		if healthy() || srv.Running() {
			t.Errorf("after %s: server still answers", s.name)
		}
		if err := srv.Start(); err != nil {
			t.Fatalf("restart after %s: %v", s.name, err)
		}
		if srv.Addr != addr {
			t.Errorf("restart moved the server from %s to %s", addr, srv.Addr)
		}
	}
	if !healthy() {
		t.Error("not healthy after the last restart")
	}
}
