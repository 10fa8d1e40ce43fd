package cli

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// serve documents --trust-proxy and --public-origin, and refuses a public
// origin that is not scheme://host[:port].
func TestServeSecurityFlags(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantErr    []string
	}{
		{"help", []string{"serve", "-h"}, 0, []string{"-trust-proxy", "KNIGHTWATCH_TRUST_PROXY", "-public-origin", "KNIGHTWATCH_PUBLIC_ORIGIN"}},
		{"bad public origin", []string{"serve", "--db", filepath.Join(dir, "a.db"), "--public-origin", "example.org/x"}, 1, []string{"public origin"}},
		{"public origin with a path", []string{"serve", "--db", filepath.Join(dir, "b.db"), "--public-origin", "https://example.org/app"}, 1, []string{"public origin"}},
	}
	for _, tc := range tests {
		checkServeRun(t, tc.name, tc.args, tc.wantStatus, tc.wantErr)
	}
}

// checkServeRun runs the command line args and checks its exit status and
// that its standard error holds each of wantErr.
func checkServeRun(t *testing.T, name string, args []string, wantStatus int, wantErr []string) {
	t.Helper()
	var out, errOut bytes.Buffer
	got := runMain(args, strings.NewReader(""), &out, &errOut)
	if got != wantStatus {
		t.Errorf("%s: status %d, want %d (stderr %q)", name, got, wantStatus, errOut.String())
	}
	for _, w := range wantErr {
		if !strings.Contains(errOut.String(), w) {
			t.Errorf("%s: stderr %q lacks %q", name, errOut.String(), w)
		}
	}
}

// The CSP allows no inline script, so the embedded pages may have none: no
// <script> without src, no on* handler attributes, no javascript: links.
func TestEmbeddedPagesNoInlineScript(t *testing.T) {
	templates, _, err := webFolders(repoAssets)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(templates, "*.html")
	more, _ := fs.Glob(templates, "partials/*.html")
	inline := regexp.MustCompile(`(?i)<script(\s[^>]*)?>|\son[a-z]+\s*=|javascript:`)
	for _, n := range append(names, more...) {
		b, err := fs.ReadFile(templates, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range inline.FindAllString(string(b), -1) {
			if strings.HasPrefix(strings.ToLower(m), "<script") && strings.Contains(m, " src=") {
				continue
			}
			t.Errorf("%s: inline script %q", n, m)
		}
	}
}
