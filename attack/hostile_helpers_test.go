package attack

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The helpers of issue 41's attacks: clients from other loopback
// addresses (127.0.0.2, ...), which the server counts as other clients,
// and API calls as a bot makes them.

// visitorFrom is a browser whose connections come from loopback address
// ip.
func visitorFrom(t *testing.T, s *server, ip string) *visitor {
	v := newVisitor(t, s)
	v.HC.Transport = &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}).DialContext}
	return v
}

// stranger is visitorFrom without a cookie jar: every request comes from
// someone new.
func stranger(t *testing.T, s *server, ip string) *visitor {
	v := visitorFrom(t, s, ip)
	v.HC.Jar = nil
	return v
}

// bot calls the API as one user from one loopback address.
type bot struct {
	s          *server
	user, pass string
	hc         *http.Client
}

func newBot(s *server, ip, user, pass string) *bot {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &bot{s: s, user: user, pass: pass, hc: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}}
}

// call makes one call with a JSON body (a string: as it is) and returns
// the status, the answer's fields and its error in words.
func (b *bot) call(method, path string, body any) (int, map[string]json.RawMessage, string) {
	var data string
	switch v := body.(type) {
	case nil:
	case string:
		data = v
	default:
		raw, _ := json.Marshal(v)
		data = string(raw)
	}
	req, err := http.NewRequest(method, b.s.URL()+path, strings.NewReader(data))
	if err != nil {
		return 0, nil, err.Error()
	}
	if b.user != "" {
		req.SetBasicAuth(b.user, b.pass)
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		return 0, nil, err.Error()
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]json.RawMessage
	json.Unmarshal(raw, &out)
	var msg string
	json.Unmarshal(out["error"], &msg)
	return resp.StatusCode, out, msg
}

// must makes a call that must succeed, decoding field into v.
func (b *bot) must(t *testing.T, method, path string, body any, field string, v any) {
	t.Helper()
	status, out, msg := b.call(method, path, body)
	if status != http.StatusOK {
		t.Fatalf("%s %s as %s: %d %s", method, path, b.user, status, msg)
	}
	if field != "" {
		if err := json.Unmarshal(out[field], v); err != nil {
			t.Fatalf("%s %s: %q: %v", method, path, field, err)
		}
	}
}

func (b *bot) register(t *testing.T) {
	t.Helper()
	b.must(t, "POST", "/api/users/", map[string]string{"username": b.user, "email": "", "affiliation": "", "password": b.pass}, "", nil)
}

// signIn signs the browser in on /bots; the status the form answered.
func (v *visitor) signIn(user, password string) int {
	status, _, _, _, err := v.Post("/account/signin", map[string][]string{"username": {user}, "password": {password}})
	if err != nil {
		v.t.Fatal(err)
	}
	return status
}
