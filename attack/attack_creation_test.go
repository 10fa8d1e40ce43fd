package attack

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"knightwatch/web"
)

// One browser creates games as fast as it can, with the new-game form and
// then with rematch over a socket. Before the limits that was about 2,000
// rows a second from one socket. Now it gets DefaultCreateBurst games at
// once and about DefaultCreateRate a second after that; every other
// attempt is refused with 429 (Retry-After and the words of the home page)
// or the error create_rate_limited, and creates nothing. Another browser
// is not held back.
func TestCreationFlood(t *testing.T) {
	const attempts = 30
	s := startServer(t)
	att := newVisitor(t, s)
	start := time.Now()
	created, refused := 0, 0
	var lastID string
	for i := 0; i < attempts; i++ {
		status, id, body, retry, err := att.Post("/games", ChessForm(1, ""))
		switch {
		case err != nil:
			t.Fatal(err)
		case status == http.StatusSeeOther:
			created++
			lastID = id
		case status == http.StatusTooManyRequests && retry != "" && strings.Contains(body, "You are starting new games too fast"):
			refused++
		default:
			t.Fatalf("new game %d: %d %.300s", i, status, body)
		}
	}
	// Rematch over the socket of the last game, as fast as the socket may send.
	c, _, err := att.Dial(lastID)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i := 0; i < attempts; i++ {
		if err := Send(c, map[string]string{"type": "rematch"}); err != nil {
			t.Fatal(err)
		}
	}
	for got := 0; got < attempts; {
		m, err := Read(c, 10*time.Second)
		if err != nil {
			t.Fatalf("after %d answers to rematch: %v", got, err)
		}
		switch {
		case m.Type == "redirect":
			created++
			got++
		case m.Type == "error" && m.Code == web.CodeCreateRateLimited && strings.Contains(m.Message, "too fast"):
			refused++
			got++
		case m.Type == "error":
			t.Fatalf("rematch: error %s %q", m.Code, m.Message)
		}
	}
	elapsed := time.Since(start)
	most := web.DefaultCreateBurst + int(elapsed.Seconds()*web.DefaultCreateRate) + 1
	if created > most || created+refused != 2*attempts {
		t.Errorf("%d created and %d refused of %d in %v; want at most %d created", created, refused, 2*attempts, elapsed, most)
	}
	if n := s.count("games"); n != created {
		t.Errorf("%d games stored, %d acknowledged", n, created)
	}
	// Someone else starts games as usual.
	other := newVisitor(t, s)
	other.newGame(ChessForm(1, ""))
	if _, id, _, _, _ := other.Post("/games", url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}); id == "" {
		t.Error("another browser could not start a Reconnaissance Chess game")
	}
}

// Issue 41 item 3: a client that sends no cookie is a new owner on every
// request, so the per-browser limits never held it: 300 of 300 new-game
// forms made games, about 200 a second. Now its address is limited too:
// DefaultCreateAddrBurst games at once and about DefaultCreateAddrRate a
// second after, the rest 429 with Retry-After and words, nothing stored
// for them; another address starts games as usual.
func TestCookielessCreationFlood(t *testing.T) {
	const attempts = 300
	s := startServer(t)
	att := stranger(t, s, "127.0.0.2")
	start := time.Now()
	created := 0
	for i := 0; i < attempts; i++ {
		form := ChessForm(1, "")
		if i%2 == 1 {
			form = url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"15+5"}}
		}
		status, _, body, retry, err := att.Post("/games", form)
		switch {
		case err != nil:
			t.Fatal(err)
		case status == http.StatusSeeOther:
			created++
		case status == http.StatusTooManyRequests && retry != "" && strings.Contains(body, "You are starting new games too fast"):
		default:
			t.Fatalf("new game %d: %d %.300s", i, status, body)
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d of %d cookieless new games created in %v", created, attempts, elapsed)
	if most := web.DefaultCreateAddrBurst + int(elapsed.Seconds()*web.DefaultCreateAddrRate) + 1; created > most {
		t.Errorf("%d of %d cookieless new games created in %v; want at most %d", created, attempts, elapsed, most)
	}
	if n := s.count("games") + s.count("recon_games"); n != created {
		t.Errorf("%d games stored, %d acknowledged", n, created)
	}
	other := visitorFrom(t, s, "127.0.0.3")
	other.newGame(ChessForm(1, ""))
}
