package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"knightwatch/rbcapi"
)

// Issue 41 item 2: failed logins are limited per (name, address) and per
// address, and a success resets its pair. Before, the limit per name was
// checked before the password, so four wrong passwords a second for bob
// from anywhere kept bob's own correct logins refused with 429 (and his
// API games lost on time).
func TestLoginLimitsPerAddress(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, e *testEnv, via loginVia)
	}{
		{"another address guessing bob's password", func(t *testing.T, e *testEnv, via loginVia) {
			mallory, bob := fromAddr("127.0.0.2"), fromAddr("127.0.0.1")
			last := 0
			for i := 0; i < 3*rbcapi.LoginBurst; i++ {
				last = via.login(e, mallory, "bob", fmt.Sprintf("guess %d", i))
				if got := via.login(e, bob, "bob", "bob's password"); got != http.StatusOK {
					t.Fatalf("bob's correct password after %d wrong ones from another address: %d", i+1, got)
				}
			}
			if last != http.StatusTooManyRequests {
				t.Errorf("the guesser after %d wrong passwords: %d, want 429", 3*rbcapi.LoginBurst, last)
			}
		}},
		{"one address guessing many names", func(t *testing.T, e *testEnv, via loginVia) {
			mallory, bob := fromAddr("127.0.0.3"), fromAddr("127.0.0.1")
			statuses := map[int]int{}
			for i := 0; i < rbcapi.AddrLoginBurst+5; i++ {
				statuses[via.login(e, mallory, fmt.Sprintf("name%d", i), "guess")]++
			}
			if statuses[http.StatusUnauthorized] != rbcapi.AddrLoginBurst || statuses[http.StatusTooManyRequests] != 5 {
				t.Errorf("%d failures over many names from one address: %v, want %d 401 and 5 429", rbcapi.AddrLoginBurst+5, statuses, rbcapi.AddrLoginBurst)
			}
			if got := via.login(e, bob, "bob", "bob's password"); got != http.StatusOK {
				t.Errorf("bob from his own address: %d", got)
			}
		}},
		{"a success resets its name and address", func(t *testing.T, e *testEnv, via loginVia) {
			bob := fromAddr("127.0.0.4")
			for round := 0; round < 3; round++ {
				for i := 0; i < rbcapi.LoginBurst-1; i++ {
					if got := via.login(e, bob, "bob", "typo"); got != http.StatusUnauthorized {
						t.Fatalf("round %d, wrong password %d: %d, want 401", round, i+1, got)
					}
				}
				if got := via.login(e, bob, "bob", "bob's password"); got != http.StatusOK {
					t.Fatalf("round %d: the right password after %d typos: %d", round, rbcapi.LoginBurst-1, got)
				}
			}
		}},
		{"one name and address", func(t *testing.T, e *testEnv, via loginVia) {
			mallory := fromAddr("127.0.0.5")
			for i := 0; i < rbcapi.LoginBurst; i++ {
				if got := via.login(e, mallory, "bob", "guess"); got != http.StatusUnauthorized {
					t.Fatalf("wrong password %d: %d", i+1, got)
				}
			}
			// The password is not checked any more from there: the right
			// one is refused as well, so guessing on tells nothing.
			if got := via.login(e, mallory, "bob", "bob's password"); got != http.StatusTooManyRequests {
				t.Errorf("from the guessing address after %d failures: %d, want 429", rbcapi.LoginBurst, got)
			}
			if got := via.login(e, mallory, "ann", "ann's password"); got != http.StatusOK {
				t.Errorf("another name from that address: %d", got)
			}
		}},
	}
	for _, via := range loginWays {
		for _, tc := range cases {
			t.Run(via.name+"/"+tc.name, func(t *testing.T) {
				e := newEnv(t, envOpts{loginEvery: time.Hour}) // no failure comes back during the test, however slow
				e.apiClient("bob", "bob's password").register()
				e.apiClient("ann", "ann's password").register()
				tc.run(t, e, via)
			})
		}
	}
}

// The address the per-address limits count by: the connection's, or
// behind a trusted proxy the one that proxy appended to X-Forwarded-For.
// Before, it was always the connection's, so behind a proxy every client
// shared the proxy's limits.
func TestClientAddr(t *testing.T) {
	cases := []struct {
		name   string
		trust  bool
		remote string
		fwd    []string
		want   string
	}{
		{"direct", false, "192.0.2.7:5000", nil, "192.0.2.7"},
		{"direct, the header ignored", false, "192.0.2.7:5000", []string{"203.0.113.9"}, "192.0.2.7"},
		{"proxy without the header", true, "10.0.0.1:5000", nil, "10.0.0.1"},
		{"proxy", true, "10.0.0.1:5000", []string{"203.0.113.9"}, "203.0.113.9"},
		{"proxy, a client's own entries first", true, "10.0.0.1:5000", []string{"1.2.3.4, 5.6.7.8,203.0.113.9"}, "203.0.113.9"},
		{"proxy, two headers", true, "10.0.0.1:5000", []string{"1.2.3.4", "203.0.113.9"}, "203.0.113.9"},
		{"proxy, IPv6", true, "10.0.0.1:5000", []string{"2001:db8::1"}, "2001:db8::1"},
		{"proxy, IPv4 in IPv6", true, "10.0.0.1:5000", []string{"::ffff:203.0.113.9"}, "203.0.113.9"},
		{"proxy, garbage", true, "10.0.0.1:5000", []string{"203.0.113.9, not an address"}, "10.0.0.1"},
		{"no port", false, "192.0.2.7", nil, "192.0.2.7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &site{cfg: Config{TrustProxy: tc.trust}}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.fwd {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := s.clientAddr(r); got != tc.want {
				t.Errorf("clientAddr = %q, want %q", got, tc.want)
			}
		})
	}
}
