package cli

import (
	"bytes"
	"io"
	"log"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"knightwatch/store"
	"knightwatch/web"
)

// serve refuses bad invocations with a clear message and a status, before
// listening on anything.
func TestServeBadInvocations(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantErr    string
	}{
		{"help", []string{"serve", "-h"}, 0, "--addr"},
		{"unknown flag", []string{"serve", "--port", "1"}, 2, "flag provided but not defined"},
		{"stray argument", []string{"serve", "--db", filepath.Join(dir, "a.db"), "extra"}, 1, "unexpected arguments"},
		{"database in a missing folder", []string{"serve", "--db", filepath.Join(dir, "no", "such", "x.db")}, 1, "store:"},
		{"bad address", []string{"serve", "--db", filepath.Join(dir, "b.db"), "--addr", "256.0.0.1:bad"}, 1, ""},
		{"missing Syzygy folder", []string{"serve", "--db", filepath.Join(dir, "c.db"), "--addr", "127.0.0.1:0", "--syzygy", filepath.Join(dir, "no-tables")}, 1, "Syzygy tables"},
		{"read timeout not above zero", []string{"serve", "--db", filepath.Join(dir, "e.db"), "--read-timeout", "0s"}, 1, "--read-timeout must be above zero"},
		{"Syzygy folder without tables", []string{"serve", "--db", filepath.Join(dir, "d.db"), "--addr", "127.0.0.1:0", "--syzygy", dir}, 1, "no .rtbw table found"},
		{"missing Gaviota folder", []string{"serve", "--db", filepath.Join(dir, "f.db"), "--addr", "127.0.0.1:0", "--gaviota", filepath.Join(dir, "no-tables")}, 1, "Gaviota tables"},
		{"Gaviota folder without tables", []string{"serve", "--db", filepath.Join(dir, "g.db"), "--addr", "127.0.0.1:0", "--gaviota", dir}, 1, "no .gtb.cp4 table found"},
		{"negative review budget", []string{"serve", "--db", filepath.Join(dir, "e.db"), "--analysis-nodes", "-5"}, 1, "--analysis-nodes"},
		{"negative bot cores", []string{"serve", "--db", filepath.Join(dir, "e.db"), "--rbc-bot-cores", "-1"}, 1, "--rbc-bot-cores: -1 is not from 0"},
		{"bot cores beyond 4 a core", []string{"serve", "--db", filepath.Join(dir, "e.db"), "--rbc-bot-cores", "100000"}, 1, "--rbc-bot-cores: 100000 is not from 0"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		got := runMain(tc.args, strings.NewReader(""), &out, &errOut)
		if got != tc.wantStatus || !strings.Contains(errOut.String(), tc.wantErr) {
			t.Errorf("%s: status %d, stderr %q; want %d and %q", tc.name, got, errOut.String(), tc.wantStatus, tc.wantErr)
		}
	}
}

// The embedded front-end templates render with the data web gives them,
// and carry the hooks PROTOCOL.md promises.
func TestEmbeddedPagesRender(t *testing.T) {
	templates, static, err := webFolders(repoAssets)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	parts, closeParts, err := buildParts(st, partsFlags{noEngine: true}, log.New(io.Discard, "", 0))
	if err != nil {
		t.Fatal(err)
	}
	defer closeParts()
	srv, err := web.New(web.Config{Templates: templates, Static: static}, parts)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	get := func(path string) string {
		t.Helper()
		resp, err := c.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		return string(b)
	}
	home := get("/")
	for _, want := range []string{`id="new-game"`, `name="color"`, `name="level"`, `name="variant"`, `name="clock"`, `id="your-games"`} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	resp, err := c.PostForm(ts.URL+"/games", url.Values{"color": {"white"}, "level": {"1"}, "variant": {"standard"}, "clock": {"none"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/game/g_") {
		t.Fatalf("new game led to %s %s", resp.Status, resp.Request.URL)
	}
	if !strings.Contains(get("/"), "Continue") {
		t.Error("home page has no Continue control for the unfinished game")
	}
	if xp := get("/experience"); !strings.Contains(xp, `data-games="0"`) || !strings.Contains(xp, `id="experience-off"`) {
		t.Errorf("the experience page of a server without experience: %.300s", xp)
	}
}

// TestParseSecondsClock reads --rbc-clock values and refuses bad ones.
func TestParseSecondsClock(t *testing.T) {
	for _, tc := range []struct {
		in         string
		clock, inc time.Duration
		ok         bool
	}{
		{"900+5", 900 * time.Second, 5 * time.Second, true},
		{"120+1", 120 * time.Second, time.Second, true},
		{"20+0.5", 20 * time.Second, 500 * time.Millisecond, true},
		{"60+0", time.Minute, 0, true},
		{"0+5", 0, 0, false},
		{"-1+5", 0, 0, false},
		{"900", 0, 0, false},
		{"900+-1", 0, 0, false},
		{"abc+1", 0, 0, false},
		{"99999+1", 0, 0, false},
		{"NaN+1", 0, 0, false},
	} {
		c, i, err := parseSecondsClock(tc.in)
		if (err == nil) != tc.ok || c != tc.clock || i != tc.inc {
			t.Errorf("parseSecondsClock(%q) = %v, %v, %v", tc.in, c, i, err)
		}
	}
}

// A binary built without its web assets refuses to serve instead of
// serving blank pages.
func TestServeWithoutAssetsFails(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kw.db")
	for _, assets := range []fstest.MapFS{
		{},
		{"templates/game.html": {Data: []byte("x")}},
	} {
		var out, errb bytes.Buffer
		code := Run(assets, []string{"serve", "--addr", "127.0.0.1:0", "--db", db}, strings.NewReader(""), &out, &errb)
		if code != 1 || !strings.Contains(errb.String(), "web assets: no ") {
			t.Errorf("assets %v: exit %d, stderr %q; want 1 and the missing folder named", assets, code, errb.String())
		}
	}
}

// KNIGHTWATCH_SYZYGY sets --syzygy's default, KNIGHTWATCH_GAVIOTA
// --gaviota's: a bad folder there fails the start too, naming it.
func TestServeSyzygyEnv(t *testing.T) {
	for _, env := range []string{"KNIGHTWATCH_SYZYGY", "KNIGHTWATCH_GAVIOTA"} {
		dir := t.TempDir()
		bad := filepath.Join(dir, "no-tables")
		t.Setenv(env, bad)
		var out, errOut bytes.Buffer
		got := runMain([]string{"serve", "--db", filepath.Join(dir, "a.db"), "--addr", "127.0.0.1:0"}, strings.NewReader(""), &out, &errOut)
		if got != 1 || !strings.Contains(errOut.String(), bad) {
			t.Errorf("%s: status %d, stderr %q; want 1 and %s named", env, got, errOut.String(), bad)
		}
		t.Setenv(env, "")
	}
}
