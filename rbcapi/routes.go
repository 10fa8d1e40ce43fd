package rbcapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
)

// Handler returns the API's routes, all under /api/, for the caller's
// mux to serve as they are; addr gives a request's client address, which
// the per-address limits count (logins, registrations). Each path answers
// its other methods with 405 and unknown paths with 404, in JSON like
// every answer of the API.
func (a *API) Handler(addr func(*http.Request) string) http.Handler {
	h := &handlers{a: a, addr: addr}
	mux := http.NewServeMux()
	routes := []struct {
		method, path string
		h            http.HandlerFunc
	}{
		{"GET", "/api/version", h.version},
		{"POST", "/api/users/{$}", h.register},
		{"GET", "/api/users/{$}", h.authed(h.users)},
		{"GET", "/api/users", h.authed(h.users)}, // rc-register probes this
		{"POST", "/api/users/me", h.authed(h.me)},
		{"POST", "/api/users/me/max_games", h.authed(h.maxGames)},
		{"POST", "/api/users/me/ranked", h.authed(h.ranked)},
		{"GET", "/api/users/me/version", h.authed(h.getVersion)},
		{"POST", "/api/users/me/version", h.authed(h.newVersion)},
		{"GET", "/api/invitations/{$}", h.authed(h.invitations)},
		{"POST", "/api/invitations/{$}", h.authed(h.invite)},
		{"POST", "/api/invitations/{id}", h.authed(h.accept)},
		{"POST", "/api/invitations/{id}/finish", h.authed(h.finish)},
	}
	for _, e := range gameEndpoints {
		routes = append(routes, struct {
			method, path string
			h            http.HandlerFunc
		}{e.method, "/api/games/{id}/" + e.name, h.authed(h.gameEndpoint(e.handle))})
	}
	allowed := map[string][]string{}
	for _, r := range routes {
		mux.HandleFunc(r.method+" "+r.path, r.h)
		allowed[r.path] = append(allowed[r.path], r.method)
	}
	for path, methods := range allowed {
		allow := strings.Join(methods, ", ")
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			writeError(w, errorf(http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, allow))
		})
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path))
	})
	return mux
}

// handlers are the API's HTTP handlers: the API, and how to tell a
// request's client address.
type handlers struct {
	a    *API
	addr func(*http.Request) string
}

// writeJSON writes v as the response.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes a refusal as {"error": "..."} with its status.
func writeError(w http.ResponseWriter, e *Error) {
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="knightwatch", charset="UTF-8"`)
	}
	writeJSON(w, e.Status, map[string]string{"error": e.Message})
}

// readBody reads a JSON object body into its fields. An empty body is an
// empty object (the reference's client posts some calls without one).
func readBody(w http.ResponseWriter, r *http.Request) (map[string]json.RawMessage, *Error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, BodyLimit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errorf(http.StatusRequestEntityTooLarge, "request body over %d bytes", BodyLimit)
		}
		return nil, errorf(http.StatusBadRequest, "could not read the body: %v", err)
	}
	return decodeObject(data)
}

// decodeObject parses a request body: one JSON object, or nothing.
func decodeObject(data []byte) (map[string]json.RawMessage, *Error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, errorf(http.StatusBadRequest, "the body must be one JSON object: %v", err)
	}
	if fields == nil {
		return nil, errorf(http.StatusBadRequest, "the body must be a JSON object, not null")
	}
	return fields, nil
}

// field decodes the required field name of a body into v. JSON null is
// refused unless v can hold it (a pointer to a pointer: sense's square,
// where null means to sense nothing): encoding/json would leave v as it
// was, so {"ranked": null} would read as false.
func field(fields map[string]json.RawMessage, name string, v any, what string) *Error {
	raw, ok := fields[name]
	if !ok {
		return errorf(http.StatusBadRequest, "%q is missing (want %s)", name, what)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) && reflect.TypeOf(v).Elem().Kind() != reflect.Pointer {
		return errorf(http.StatusBadRequest, "%q must be %s, not null", name, what)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return errorf(http.StatusBadRequest, "%q must be %s, not %s", name, what, shortJSON(raw))
	}
	return nil
}

func shortJSON(raw json.RawMessage) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

func (h *handlers) version(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"version": ReconchessVersion})
}

// pathID reads the integer path value name.
func pathID(r *http.Request, name string) (int64, bool) { return parseID(r.PathValue(name)) }

// parseID reads an ID as a path has it: a positive integer.
func parseID(text string) (int64, bool) {
	id, err := strconv.ParseInt(text, 10, 64)
	return id, err == nil && id > 0
}
