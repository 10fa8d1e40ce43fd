package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEngineCommands(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string // substring of stdout (or stderr when code != 0)
	}{
		{"bench", []string{"bench", "--depth", "4"}, "", 0, "nodes "},
		{"bench bad depth", []string{"bench", "--depth", "0"}, "", 1, "--depth must be"},
		{"uci session", []string{"uci"}, "uci\nisready\nposition startpos moves e2e4\ngo depth 3\nquit\n", 0, "readyok"},
		{"uci extra args", []string{"uci", "extra"}, "", 1, "unexpected arguments"},
		{"tune without mode", []string{"tune"}, "", 2, "usage: knightwatch tune"},
		{"tune texel without input", []string{"tune", "texel"}, "", 1, "--in is required"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := runMain(c.args, strings.NewReader(c.stdin), &out, &errb)
		text := out.String()
		if c.code != 0 {
			text = errb.String()
		}
		if code != c.code || !strings.Contains(text, c.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, code, out.String(), errb.String())
		}
	}
}

func TestBenchIsDeterministic(t *testing.T) {
	nodes := func() string {
		var out bytes.Buffer
		if code := runMain([]string{"bench", "--depth", "5"}, nil, &out, &out); code != 0 {
			t.Fatalf("bench exit %d: %s", code, out.String())
		}
		for _, l := range strings.Split(out.String(), "\n") {
			if strings.HasPrefix(l, "nodes ") {
				return l
			}
		}
		t.Fatalf("no nodes line in %q", out.String())
		return ""
	}
	if a, b := nodes(), nodes(); a != b {
		t.Errorf("bench not deterministic: %q vs %q", a, b)
	}
}

func TestTuneCommandRoundTrip(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "pos.txt")
	var out, errb bytes.Buffer
	if code := runMain([]string{"tune", "gen", "--games", "1", "--nodes", "200", "--out", data}, nil, &out, &errb); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errb.String())
	}
	tuned := filepath.Join(dir, "tuned.go")
	out.Reset()
	if code := runMain([]string{"tune", "texel", "--in", data, "--epochs", "2", "--write", tuned}, nil, &out, &errb); code != 0 {
		t.Fatalf("texel: exit %d: %s", code, errb.String())
	}
	src, err := os.ReadFile(tuned)
	if err != nil || !strings.Contains(string(src), "var tunedWeights = evalWeights{") || !strings.Contains(out.String(), "positions ") {
		t.Errorf("tuned.go: %v\n%s\nstdout %s", err, src, out.String())
	}
}
