package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"knightwatch/store"
)

func TestStaticAssetsRevalidateWithETag(t *testing.T) {
	h, err := newStaticHandler(fstest.MapFS{"js/app.js": {Data: []byte("export {}")}})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/static/js/app.js", nil))
	tag := rec.Header().Get("ETag")
	if rec.Code != http.StatusOK || tag == "" || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Fatalf("first load: code %d, ETag %q, Cache-Control %q", rec.Code, tag, rec.Header().Get("Cache-Control"))
	}
	req := httptest.NewRequest("GET", "/static/js/app.js", nil)
	req.Header.Set("If-None-Match", tag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("repeat load with If-None-Match: code %d, want 304", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/static/missing.js", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("missing asset: code %d, want 404", rec.Code)
	}
}

// /static/ lists no directory: a directory path is 404, with or without
// its slash, and so is the root.
func TestStaticNoDirectoryListing(t *testing.T) {
	h, err := newStaticHandler(fstest.MapFS{"js/app.js": {Data: []byte("export {}")}, "css/site.css": {Data: []byte("a{}")}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want int
	}{
		{"/static/", http.StatusNotFound},
		{"/static/js/", http.StatusNotFound},
		{"/static/js", http.StatusNotFound},
		{"/static/css/", http.StatusNotFound},
		{"/static/js/app.js", http.StatusOK},
		{"/static/css/site.css", http.StatusOK},
	}
	for _, tc := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
		if rec.Code != tc.want {
			t.Errorf("GET %s: %d, want %d (%q)", tc.path, rec.Code, tc.want, rec.Body.String())
		}
	}
}

// hashedURL matches a content-hashed static URL.
var hashedURL = regexp.MustCompile(`^/static/[A-Za-z0-9_/-]+\.[0-9a-f]{8}(\.[a-z]+)?$`)

func get(t *testing.T, h http.Handler, path, acceptEncoding string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

var testStatic = fstest.MapFS{
	"js/app.js":   {Data: []byte("import { x } from './dep.js';\nimport * as y from \"./sub/y.js\";\nconst img = '/static/img/p.svg';\nconst other = '/static/img/none.svg';\nexport const z = x + y.w + img + other;\n" + strings.Repeat("// padding that compresses well\n", 40))},
	"js/dep.js":   {Data: []byte("export const x = 1;\n")},
	"js/sub/y.js": {Data: []byte("import { x } from '../dep.js';\nexport const w = x;\n")},
	"img/p.svg":   {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
	"css/a.css":   {Data: []byte("body { background: url(/static/img/p.svg); } .x { background: url('../img/p.svg'); }")},
	"bin.png":     {Data: []byte("\x89PNG\r\n\x1a\n not really")},
}

// The hashed name is served for a year as immutable, with the right type;
// references between files name the hashed files, and each file's hash is
// that of the bytes served (rewritten references included).
func TestStaticHashedNames(t *testing.T) {
	a, err := loadStatic(testStatic)
	if err != nil {
		t.Fatal(err)
	}
	h := a.handler()
	for name, ctype := range map[string]string{"js/app.js": "text/javascript; charset=utf-8", "css/a.css": "text/css; charset=utf-8", "img/p.svg": "image/svg+xml", "bin.png": "image/png"} {
		u := a.url(name)
		if !hashedURL.MatchString(u) {
			t.Fatalf("url(%q) = %q, not a hashed name", name, u)
		}
		rec := get(t, h, u, "")
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != immutableCache || rec.Header().Get("Content-Type") != ctype {
			t.Errorf("GET %s: %d, Cache-Control %q, Content-Type %q; want 200, %q, %q", u, rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("Content-Type"), immutableCache, ctype)
		}
		sum := sha256.Sum256(rec.Body.Bytes())
		if want := hex.EncodeToString(sum[:4]); !strings.Contains(u, "."+want) {
			t.Errorf("%s: the name's hash is not that of the bytes served (%s)", u, want)
		}
		plain := get(t, h, "/static/"+name, "")
		if plain.Code != http.StatusOK || plain.Header().Get("Cache-Control") != "no-cache" || !bytes.Equal(plain.Body.Bytes(), rec.Body.Bytes()) {
			t.Errorf("GET /static/%s: %d, Cache-Control %q, same bytes %v", name, plain.Code, plain.Header().Get("Cache-Control"), bytes.Equal(plain.Body.Bytes(), rec.Body.Bytes()))
		}
	}
	app := get(t, h, a.url("js/app.js"), "").Body.String()
	for _, want := range []string{
		"from './" + path.Base(a.hashed["js/dep.js"]) + "'",
		`from "./sub/` + path.Base(a.hashed["js/sub/y.js"]) + `"`,
		"'/static/" + a.hashed["img/p.svg"] + "'",
		"'/static/img/none.svg'", // no such file: left alone
	} {
		if !strings.Contains(app, want) {
			t.Errorf("app.js lacks %s:\n%s", want, app[:200])
		}
	}
	if y := get(t, h, a.url("js/sub/y.js"), "").Body.String(); !strings.Contains(y, "from '../"+path.Base(a.hashed["js/dep.js"])+"'") {
		t.Errorf("sub/y.js: %s", y)
	}
	css := get(t, h, a.url("css/a.css"), "").Body.String()
	if !strings.Contains(css, "url(/static/"+a.hashed["img/p.svg"]+")") || !strings.Contains(css, "url('../img/"+path.Base(a.hashed["img/p.svg"])+"')") {
		t.Errorf("a.css: %s", css)
	}
	// A change in a dependency renames what imports it.
	changed := fstest.MapFS{}
	for k, v := range testStatic {
		changed[k] = v
	}
	changed["js/dep.js"] = &fstest.MapFile{Data: []byte("export const x = 2;\n")}
	b, err := loadStatic(changed)
	if err != nil {
		t.Fatal(err)
	}
	if b.url("js/app.js") == a.url("js/app.js") || b.url("js/sub/y.js") == a.url("js/sub/y.js") || b.url("img/p.svg") != a.url("img/p.svg") {
		t.Errorf("after changing dep.js: app %s -> %s, y %s -> %s, p.svg %s -> %s", a.url("js/app.js"), b.url("js/app.js"),
			a.url("js/sub/y.js"), b.url("js/sub/y.js"), a.url("img/p.svg"), b.url("img/p.svg"))
	}
	if got := a.url("js/nope.js"); got != "/static/js/nope.js" {
		t.Errorf("url of a missing file: %q", got)
	}
}

// A wrong or stale hash is 404, like any other name that is not a file.
func TestStaticWrongHash404(t *testing.T) {
	a, err := loadStatic(testStatic)
	if err != nil {
		t.Fatal(err)
	}
	h := a.handler()
	good := a.url("js/app.js")
	for _, p := range []string{"/static/js/app.00000000.js", strings.Replace(good, ".js", "0.js", 1), "/static/js/app..js", "/static/js/dep." + strings.Split(good, ".")[1] + ".js"} {
		if rec := get(t, h, p, "gzip"); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, rec.Code)
		}
	}
}

// Text files go gzipped to clients that accept it and decode to the same
// bytes; Vary: Accept-Encoding either way; binary files are never gzipped.
func TestStaticGzip(t *testing.T) {
	a, err := loadStatic(testStatic)
	if err != nil {
		t.Fatal(err)
	}
	h := a.handler()
	for _, u := range []string{a.url("js/app.js"), "/static/js/app.js"} {
		plain := get(t, h, u, "")
		if plain.Header().Get("Content-Encoding") != "" || plain.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("GET %s without gzip: Content-Encoding %q, Vary %q", u, plain.Header().Get("Content-Encoding"), plain.Header().Get("Vary"))
		}
		for _, ae := range []string{"gzip", "gzip, deflate, br, zstd", "br;q=1, gzip;q=0.5", "*"} {
			rec := get(t, h, u, ae)
			if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
				t.Fatalf("GET %s (Accept-Encoding %q): Content-Encoding %q, Vary %q", u, ae, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
			}
			if rec.Body.Len() >= plain.Body.Len() || rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
				t.Errorf("GET %s gzipped: %d bytes (Content-Length %s), plain %d", u, rec.Body.Len(), rec.Header().Get("Content-Length"), plain.Body.Len())
			}
			if rec.Header().Get("ETag") == plain.Header().Get("ETag") || rec.Header().Get("Content-Type") != plain.Header().Get("Content-Type") {
				t.Errorf("GET %s gzipped: ETag %q (plain %q), Content-Type %q", u, rec.Header().Get("ETag"), plain.Header().Get("ETag"), rec.Header().Get("Content-Type"))
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, plain.Body.Bytes()) {
				t.Errorf("GET %s gzipped decodes to %d bytes (err %v), plain is %d", u, len(got), err, plain.Body.Len())
			}
		}
		for _, ae := range []string{"gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0, *"} {
			if rec := get(t, h, u, ae); rec.Header().Get("Content-Encoding") != "" {
				t.Errorf("GET %s (Accept-Encoding %q): Content-Encoding %q", u, ae, rec.Header().Get("Content-Encoding"))
			}
		}
	}
	if rec := get(t, h, a.url("bin.png"), "gzip"); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("a PNG was gzipped")
	}
	// A repeat load of the gzipped variant revalidates against its own ETag.
	first := get(t, h, "/static/js/app.js", "gzip")
	req := httptest.NewRequest("GET", "/static/js/app.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("If-None-Match", first.Header().Get("ETag"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("gzipped repeat load: %d, want 304", rec.Code)
	}
}

// Files that refer to each other in a circle cannot be hashed: New fails.
func TestStaticReferenceCycle(t *testing.T) {
	_, err := loadStatic(fstest.MapFS{
		"js/a.js": {Data: []byte("import './b.js';")},
		"js/b.js": {Data: []byte("import { a } from './a.js';")},
	})
	if err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("err = %v, want a cycle", err)
	}
}

// The real pages link every static file by its hashed name, and each of
// the real modules' imports and piece URLs names a file that is served.
func TestStaticPagesUseHashedNames(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "kw.db"))
	if err != nil {
		t.Fatal(err)
	}
	k := newStack(t, st, envOpts{noEngine: true, config: &Config{Templates: os.DirFS("../templates"), Static: os.DirFS("../static"),
		Logger: log.New(io.Discard, "", 0)}})
	ts := httptest.NewServer(k.srv)
	defer func() { k.close(); ts.Close(); st.Close() }()
	e := &testEnv{stack: k, t: t, ts: ts, store: st}
	srv := k.srv
	c := e.browser()
	resp, err := c.PostForm(ts.URL+"/games", form("white", "1", "standard", "none"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/game/") {
		t.Fatalf("new game: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	resp, err = c.Get(ts.URL + resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	gamePage, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp, err = c.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	homePage, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	attr := regexp.MustCompile(`(?:src|href)="(/static/[^"]*)"`)
	served := map[string]bool{}
	for name, page := range map[string][]byte{"home": homePage, "game": gamePage} {
		links := attr.FindAllSubmatch(page, -1)
		if len(links) < 3 {
			t.Errorf("%s page: only %d static links", name, len(links))
		}
		for _, m := range links {
			u := string(m[1])
			if !hashedURL.MatchString(u) {
				t.Errorf("%s page links %s, not a hashed name", name, u)
			}
			served[u] = true
		}
	}
	for _, want := range []string{"js/game.js", "js/home.js", "css/app.css", "favicon.svg", "pieces/wK.svg"} {
		if !served[srv.assets.url(want)] {
			t.Errorf("no page links %s (%s)", want, srv.assets.url(want))
		}
	}
	// Every module, and what each refers to, is served under its hashed name.
	ref := regexp.MustCompile(`(?:from\s*|import\s*\(?\s*)'(\.[^']+)'|'(/static/[^']+)'`)
	for plain, hashed := range srv.assets.hashed {
		if !strings.HasSuffix(plain, ".js") {
			continue
		}
		body := get(t, srv, "/static/"+hashed, "").Body.String()
		for _, m := range ref.FindAllStringSubmatch(body, -1) {
			u := m[2]
			if m[1] != "" {
				u = path.Join("/static", path.Dir(hashed), m[1])
			}
			if !hashedURL.MatchString(u) {
				t.Errorf("%s refers to %s, not a hashed name", plain, u)
			} else if rec := get(t, srv, u, ""); rec.Code != http.StatusOK {
				t.Errorf("%s refers to %s: %d", plain, u, rec.Code)
			}
		}
	}
	// Twelve pieces in each of the three sets, each under its hashed name.
	if n := strings.Count(get(t, srv, srv.assets.url("js/pieces.js"), "").Body.String(), "'/static/pieces/"); n != 36 {
		t.Errorf("pieces.js names %d pieces, want 36", n)
	}
}
