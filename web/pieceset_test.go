package web

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestPieceSets: every piece set theme.js accepts has an option in the
// control, its twelve SVG files and a LICENSE beside them, and pieces.js
// names exactly those twelve files for it (so pages load only that set's).
func TestPieceSets(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	js, layout, pieces := read("../static/js/theme.js"), read("../templates/layout.html"), read("../static/js/pieces.js")
	m := regexp.MustCompile(`SETS = \[([^\]]*)\]`).FindStringSubmatch(js)
	if m == nil {
		t.Fatal("theme.js: no SETS list")
	}
	var sets []string
	for _, q := range strings.Split(m[1], ",") {
		sets = append(sets, strings.Trim(strings.TrimSpace(q), "'"))
	}
	if len(sets) < 2 || sets[0] != "cburnett" {
		t.Fatalf("sets %v: want cburnett (the default) and at least one more", sets)
	}
	named := regexp.MustCompile(`'/static/(pieces/[a-z/]*[wb][KQRBNP]\.svg)'`).FindAllStringSubmatch(pieces, -1)
	for _, set := range sets {
		dir := "pieces/" + set + "/"
		if set == "cburnett" {
			dir = "pieces/"
		}
		if !strings.Contains(layout, `<option value="`+set+`">`) {
			t.Errorf("set %s: no option in the control", set)
		}
		if _, err := os.Stat("../static/" + dir + "LICENSE"); err != nil {
			t.Errorf("set %s: no LICENSE beside its pieces: %v", set, err)
		}
		want := map[string]bool{}
		for _, c := range "wb" {
			for _, p := range "KQRBNP" {
				f := dir + string(c) + string(p) + ".svg"
				want[f] = true
				if svg, err := os.ReadFile("../static/" + f); err != nil || !strings.Contains(string(svg), "<svg") {
					t.Errorf("set %s: %s missing or not an SVG (%v)", set, f, err)
				}
			}
		}
		got := 0
		for _, n := range named {
			if path.Dir(n[1])+"/" == dir {
				got++
				if !want[n[1]] {
					t.Errorf("set %s: pieces.js names %s, not one of its pieces", set, n[1])
				}
			}
		}
		if got != 12 {
			t.Errorf("set %s: pieces.js names %d of its pieces, want 12", set, got)
		}
	}
}
