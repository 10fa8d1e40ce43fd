package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"
)

// newStaticHandler serves the embedded assets with a content-hash ETag and
// "no-cache" (revalidate every time). Embedded files carry no modification
// time, so without the ETag every page load downloaded every asset again;
// with it a repeat load gets 304s, and a new binary's changed files are
// never served stale.
func newStaticHandler(files fs.FS) (http.Handler, error) {
	etags := map[string]string{}
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		etags[path] = `"` + hex.EncodeToString(sum[:8]) + `"`
		return nil
	})
	if err != nil {
		return nil, err
	}
	fileServer := http.FileServerFS(files)
	return http.StripPrefix("/static/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the files themselves: a directory (or anything not found
		// at startup) is 404, never a listing of what is there.
		tag, ok := etags[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", tag)
		w.Header().Set("Cache-Control", "no-cache")
		fileServer.ServeHTTP(w, r)
	})), nil
}
