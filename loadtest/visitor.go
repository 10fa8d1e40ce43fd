package loadtest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// visitor is one browser: its own cookie jar, so its own session and its
// own share of the server's per-visitor limits, as a real player has.
type visitor struct {
	base string // http://127.0.0.1:PORT
	jar  http.CookieJar
	hc   *http.Client
}

func newVisitor(base string) (*visitor, error) {
	if err := checkLoopback(base); err != nil {
		return nil, err
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	hc := &http.Client{
		Jar:           jar,
		Timeout:       30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &visitor{base: base, jar: jar, hc: hc}, nil
}

// opError is a failure with the kind it is counted under ("create: 429",
// "dial: refused", "read: closed").
type opError struct {
	kind string
	err  error
}

func (e *opError) Error() string { return e.kind + ": " + e.err.Error() }
func (e *opError) Unwrap() error { return e.err }

// kindOf is the kind an error is counted under.
func kindOf(err error) string {
	var oe *opError
	if errors.As(err, &oe) {
		return oe.kind
	}
	return "other"
}

// netKind names a network error briefly: refused, reset, timeout, closed.
func netKind(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "reset"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed):
		return "closed"
	case websocket.IsCloseError(err, websocket.CloseAbnormalClosure):
		return "closed"
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return fmt.Sprintf("close %d", ce.Code)
	}
	return "other"
}

// create starts a game from the new-game form's fields and returns its ID.
func (v *visitor) create(form url.Values) (string, error) {
	resp, err := v.hc.PostForm(v.base+"/games", form)
	if err != nil {
		return "", &opError{"create: " + netKind(err), err}
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		return "", &opError{fmt.Sprintf("create: %d", resp.StatusCode), errors.New(resp.Status)}
	}
	id, ok := strings.CutPrefix(resp.Header.Get("Location"), "/game/")
	if !ok || id == "" {
		return "", &opError{"create: no game", fmt.Errorf("redirect to %q", resp.Header.Get("Location"))}
	}
	return id, nil
}

// dial opens the game's WebSocket with the visitor's cookie.
func (v *visitor) dial(id string) (*websocket.Conn, error) {
	d := websocket.Dialer{Jar: v.jar, HandshakeTimeout: 15 * time.Second}
	c, resp, err := d.Dial("ws"+strings.TrimPrefix(v.base, "http")+"/ws/game/"+id, nil)
	if err != nil {
		if resp != nil {
			return nil, &opError{fmt.Sprintf("dial: %d", resp.StatusCode), err}
		}
		return nil, &opError{"dial: " + netKind(err), err}
	}
	return c, nil
}
