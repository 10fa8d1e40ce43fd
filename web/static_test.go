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
