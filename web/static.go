package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Static files are served under two names each:
//
//   - a content-hashed one, such as /static/js/game.3f9a1c2b.js, cached
//     for a year as immutable: a new binary whose file changed has a new
//     name, so it is never served stale. Pages link to these through the
//     template function asset ({{asset "js/game.js"}}).
//   - the plain one, /static/js/game.js, for anything that still links to
//     it (old pages, bookmarks, the /favicon.ico redirect), with an ETag and
//     "no-cache": a repeat load costs a 304, and a changed file is never
//     served stale either.
//
// ES modules import each other by relative specifier ('./board.js') and
// the JS and CSS name pieces and icons by absolute path ('/static/...'):
// at startup those references, when they name a file that exists, are
// rewritten to the hashed names, and a file's hash is that of the
// rewritten bytes, so a change in board.js also renames game.js, which
// imports it. Rewriting was chosen over an import map because an import
// map is an inline script, which the CSP (script-src 'self') forbids unless
// each page carries its hash; and rewriting also covers the pieces' URLs
// and CSS url()s, which an import map cannot. References must not form a
// cycle (a file's name would depend on itself): New fails if they do.
//
// Text files (JS, CSS, SVG, ...) are gzipped once at startup and sent
// compressed to clients that accept gzip, with Vary: Accept-Encoding.

// immutableCache is the Cache-Control of the hashed names.
const immutableCache = "public, max-age=31536000, immutable"

// staticFile is one name under /static/.
type staticFile struct {
	data      []byte
	gz        []byte // gzipped data; nil when not text or not smaller
	ctype     string
	etag      string // quoted content hash; the gzip variant appends "-gz"
	immutable bool   // the hashed name
}

// staticAssets holds every file under both its names.
type staticAssets struct {
	files  map[string]*staticFile // path below /static/ -> file
	hashed map[string]string      // plain path -> hashed path, both below /static/
}

var (
	// jsImport matches a relative module specifier in an import or export:
	// `from './x.js'`, `import './x.js'`, `import('./x.js')`.
	jsImport = regexp.MustCompile(`(\bfrom\s*|\bimport\s*\(?\s*)(['"])(\.{1,2}/[A-Za-z0-9_./-]+)(['"])`)
	// staticLiteral matches a quoted absolute /static/ path in JS.
	staticLiteral = regexp.MustCompile("(['\"`])/static/([A-Za-z0-9_./-]+)(['\"`])")
	// cssURL matches a CSS url(), quoted or not.
	cssURL = regexp.MustCompile(`url\(\s*(['"]?)([^'")\s]+)(['"]?)\s*\)`)
)

// contentTypes are fixed here for the types that matter, rather than left
// to the system's mime.types, which differ between machines.
var contentTypes = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
	".html": "text/html; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
}

func contentType(name string, data []byte) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return http.DetectContentType(data)
}

// compressible reports whether a content type is worth gzipping.
func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.HasPrefix(ctype, "image/svg+xml") ||
		strings.HasPrefix(ctype, "application/json") || strings.HasPrefix(ctype, "application/javascript")
}

// hashedName inserts the hash before the extension: js/game.js ->
// js/game.3f9a1c2b.js; LICENSE -> LICENSE.3f9a1c2b.
func hashedName(name, hash string) string {
	ext := path.Ext(name)
	if ext == path.Base(name) { // ".hidden"
		ext = ""
	}
	return strings.TrimSuffix(name, ext) + "." + hash + ext
}

// loadStatic reads every file of files, rewrites references between them
// to hashed names, hashes and compresses them.
func loadStatic(files fs.FS) (*staticAssets, error) {
	raw := map[string][]byte{}
	err := fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, name)
		if err != nil {
			return err
		}
		raw[name] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	a := &staticAssets{files: map[string]*staticFile{}, hashed: map[string]string{}}
	content := map[string][]byte{} // rewritten
	visiting := map[string]bool{}
	var resolve func(name string, chain []string) error
	resolve = func(name string, chain []string) error {
		if _, done := a.hashed[name]; done {
			return nil
		}
		if visiting[name] {
			return fmt.Errorf("web: static files refer to each other in a cycle: %s", strings.Join(append(chain, name), " -> "))
		}
		visiting[name] = true
		defer delete(visiting, name)
		chain = append(chain, name)
		var failed error
		// ref returns the hashed form of a reference to target, or ""
		// when target is not a static file.
		ref := func(target string) string {
			if _, ok := raw[target]; !ok || failed != nil {
				return ""
			}
			if err := resolve(target, chain); err != nil {
				failed = err
				return ""
			}
			return a.hashed[target]
		}
		data := raw[name]
		switch strings.ToLower(path.Ext(name)) {
		case ".js", ".mjs":
			data = jsImport.ReplaceAllFunc(data, func(m []byte) []byte {
				g := jsImport.FindSubmatch(m)
				spec := string(g[3])
				if !bytes.Equal(g[2], g[4]) {
					return m
				}
				h := ref(path.Join(path.Dir(name), spec))
				if h == "" {
					return m
				}
				return []byte(string(g[1]) + string(g[2]) + spec[:strings.LastIndex(spec, "/")+1] + path.Base(h) + string(g[4]))
			})
			data = rewriteStaticLiterals(data, ref)
		case ".css":
			data = cssURL.ReplaceAllFunc(data, func(m []byte) []byte {
				g := cssURL.FindSubmatch(m)
				u := string(g[2])
				if !bytes.Equal(g[1], g[3]) {
					return m
				}
				var h string
				switch {
				case strings.HasPrefix(u, "/static/"):
					if h = ref(strings.TrimPrefix(u, "/static/")); h != "" {
						h = "/static/" + h
					}
				case !strings.Contains(u, ":") && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "#"):
					if h = ref(path.Join(path.Dir(name), u)); h != "" {
						h = u[:strings.LastIndex(u, "/")+1] + path.Base(h)
					}
				}
				if h == "" {
					return m
				}
				return []byte("url(" + string(g[1]) + h + string(g[3]) + ")")
			})
		}
		if failed != nil {
			return failed
		}
		sum := sha256.Sum256(data)
		content[name] = data
		a.hashed[name] = hashedName(name, hex.EncodeToString(sum[:4]))
		return nil
	}
	for name := range raw {
		if err := resolve(name, nil); err != nil {
			return nil, err
		}
	}
	// One compressor for every file: each new one allocates about 1 MB of
	// tables, garbage the heap would carry into the first games.
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestCompression)
	for name, data := range content {
		sum := sha256.Sum256(data)
		plain := &staticFile{data: data, ctype: contentType(name, data), etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		if compressible(plain.ctype) {
			var buf bytes.Buffer
			zw.Reset(&buf)
			zw.Write(data)
			if err := zw.Close(); err != nil {
				return nil, err
			}
			if buf.Len() < len(data) {
				plain.gz = buf.Bytes()
			}
		}
		hashed := *plain
		hashed.immutable = true
		if _, clash := raw[a.hashed[name]]; clash {
			return nil, fmt.Errorf("web: static file %s has the name %s would get hashed", a.hashed[name], name)
		}
		a.files[name] = plain
		a.files[a.hashed[name]] = &hashed
	}
	return a, nil
}

// rewriteStaticLiterals replaces quoted '/static/...' paths of known files.
func rewriteStaticLiterals(data []byte, ref func(string) string) []byte {
	return staticLiteral.ReplaceAllFunc(data, func(m []byte) []byte {
		g := staticLiteral.FindSubmatch(m)
		if !bytes.Equal(g[1], g[3]) {
			return m
		}
		h := ref(string(g[2]))
		if h == "" {
			return m
		}
		return []byte(string(g[1]) + "/static/" + h + string(g[3]))
	})
}

// url is the address of the static file name (a path below /static/, such
// as "js/game.js"): its hashed name, or the plain one when there is no
// such file (so a page still works, uncached, if a name is wrong).
func (a *staticAssets) url(name string) string {
	name = strings.TrimPrefix(name, "/")
	if a != nil {
		if h, ok := a.hashed[name]; ok {
			return "/static/" + h
		}
	}
	return "/static/" + name
}

// handler serves the files under /static/.
func (a *staticAssets) handler() http.Handler {
	return http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the files themselves, under their names: a directory, a
		// wrong hash or anything else is 404, never a listing.
		f, ok := a.files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.ctype)
		if f.immutable {
			h.Set("Cache-Control", immutableCache)
		} else {
			h.Set("Cache-Control", "no-cache")
		}
		data, etag := f.data, f.etag
		if f.gz != nil {
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Get("Accept-Encoding")) {
				data, etag = f.gz, strings.TrimSuffix(f.etag, `"`)+`-gz"`
				h.Set("Content-Encoding", "gzip")
				// ServeContent leaves out the length of an encoded
				// body; it is known. No ranges of it: the files are small.
				h.Set("Content-Length", strconv.Itoa(len(data)))
				r.Header.Del("Range")
			}
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
	}))
}

// acceptsGzip reads an Accept-Encoding header: gzip (or x-gzip, or *)
// listed with a non-zero q and not refused by "gzip;q=0".
func acceptsGzip(header string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

// newStaticHandler serves files (see above) under /static/.
func newStaticHandler(files fs.FS) (http.Handler, error) {
	a, err := loadStatic(files)
	if err != nil {
		return nil, err
	}
	return a.handler(), nil
}
