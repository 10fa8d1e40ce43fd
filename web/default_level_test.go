package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"knightwatch/enginepool"
)

// TestDefaultLevel: the middle of the levels, the lower one of two middles;
// with the engine's eight, level 4.
func TestDefaultLevel(t *testing.T) {
	for _, c := range []struct{ levels, want int }{{8, 4}, {7, 4}, {5, 3}, {2, 1}, {1, 1}} {
		if got := defaultLevel(c.levels); got != c.want {
			t.Errorf("defaultLevel(%d) = %d, want %d", c.levels, got, c.want)
		}
	}
	if n := len(enginepool.Levels()); defaultLevel(n) != 4 {
		t.Errorf("with the engine's %d levels the default is %d, want 4 (Club)", n, defaultLevel(n))
	}
}

// TestHomeFormDefaultLevel: the real home page checks the middle level, and
// only that one.
func TestHomeFormDefaultLevel(t *testing.T) {
	srv := realHomeServer(t)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	if !strings.Contains(page, `name="level" value="4" checked`) {
		t.Errorf("level 4 is not checked by default")
	}
	if n := strings.Count(page, `name="level" value="`); n != len(testLevels) {
		t.Errorf("%d level choices, want %d", n, len(testLevels))
	}
	for i := 1; i <= len(testLevels); i++ {
		if i != 4 && strings.Contains(page, `name="level" value="`+strconv.Itoa(i)+`" checked`) {
			t.Errorf("level %d is checked too", i)
		}
	}
}
