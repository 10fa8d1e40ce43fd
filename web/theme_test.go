package web

import (
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// relLuminance is WCAG 2's relative luminance of #rrggbb.
func relLuminance(t *testing.T, hex string) float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q: want #rrggbb", hex)
	}
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}

func contrast(t *testing.T, a, b string) float64 {
	la, lb := relLuminance(t, a), relLuminance(t, b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// TestBoardThemes: every theme theme.js accepts has its colours in app.css
// and an option in the control, and the high-contrast one meets WCAG AA:
// the dark square 4.5:1 against both pieces' fill (#fff and #000), the
// light square 4.5:1 against the black fill, which is also the white
// pieces' outline (their fill being as light as the square), and the
// squares 4.5:1 against each other.
func TestBoardThemes(t *testing.T) {
	css, err := os.ReadFile("../static/css/app.css")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("../static/js/theme.js")
	if err != nil {
		t.Fatal(err)
	}
	layout, err := os.ReadFile("../templates/layout.html")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`THEMES = \[([^\]]*)\]`).FindSubmatch(js)
	if m == nil {
		t.Fatal("theme.js: no THEMES list")
	}
	var themes []string
	for _, q := range strings.Split(string(m[1]), ",") {
		themes = append(themes, strings.Trim(strings.TrimSpace(q), "'"))
	}
	if len(themes) < 3 || themes[0] != "brown" {
		t.Fatalf("themes %v: want brown (the default) and at least two more", themes)
	}
	colours := map[string][2]string{}
	rule := regexp.MustCompile(`html\[data-board-theme="([a-z]+)"\] \{ --light: (#[0-9a-f]{6}); --dark: (#[0-9a-f]{6}); \}`)
	for _, r := range rule.FindAllSubmatch(css, -1) {
		colours[string(r[1])] = [2]string{string(r[2]), string(r[3])}
	}
	for _, th := range themes {
		if !strings.Contains(string(layout), `<option value="`+th+`">`) {
			t.Errorf("theme %s: no option in the control", th)
		}
		if _, ok := colours[th]; !ok && th != "brown" {
			t.Errorf("theme %s: no colours in app.css", th)
		}
	}
	hc, ok := colours["contrast"]
	if !ok {
		t.Fatal("no high-contrast theme")
	}
	light, dark := hc[0], hc[1]
	for _, c := range []struct {
		what string
		a, b string
	}{
		{"white piece on dark square", "#ffffff", dark},
		{"black piece on dark square", "#000000", dark},
		{"black piece (and white piece's outline) on light square", "#000000", light},
		{"light square against dark square", light, dark},
	} {
		if r := contrast(t, c.a, c.b); r < 4.5 {
			t.Errorf("high contrast: %s: %.2f:1, want at least 4.5:1", c.what, r)
		}
	}
}
