package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"
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
