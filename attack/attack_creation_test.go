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
