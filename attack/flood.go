package attack

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// The engine floods of the attack test, shared with bench/starvation,
// which times what the tests only order: a level-1 reply under a flood.

// FloodFEN is a middlegame out of the opening book, where a full-strength
// search uses its whole time; White (the flood) to move. Its full-move
// number is past 30, so a draw offer there needs an evaluation.
const FloodFEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 40"

// Browser is one visitor of a running server: its own cookie jar and
// connections, redirects not followed.
type Browser struct {
	Base string // the server's URL, without a trailing slash
	HC   *http.Client
}

// NewBrowser returns a browser of the server at base.
func NewBrowser(base string) *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{Base: base, HC: &http.Client{
		Jar: jar, Timeout: 10 * time.Second, Transport: &http.Transport{},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// ChessForm is the new-game form for a game with no clock, the person
// White, at level, from fen when it is not "".
func ChessForm(level int, fen string) url.Values {
	f := url.Values{"color": {"white"}, "level": {fmt.Sprint(level)}, "variant": {"standard"}, "clock": {"none"}}
	if fen != "" {
		f.Set("fen", fen)
	}
	return f
}

// Post posts a form (same origin, as the page does): the status, the new
// game's ID when it redirected to one, the body and the Retry-After header.
func (b *Browser) Post(path string, form url.Values) (status int, id, body, retryAfter string, err error) {
	req, err := http.NewRequest("POST", b.Base+path, strings.NewReader(form.Encode()))
	if err != nil {
		return 0, "", "", "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.Base)
	resp, err := b.HC.Do(req)
	if err != nil {
		return 0, "", "", "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	id = strings.TrimPrefix(resp.Header.Get("Location"), "/game/")
	return resp.StatusCode, id, string(data), resp.Header.Get("Retry-After"), nil
}

// NewGame creates a game from form and returns its ID.
func (b *Browser) NewGame(form url.Values) (string, error) {
	status, id, body, _, err := b.Post("/games", form)
	if err != nil {
		return "", err
	}
	if status != http.StatusSeeOther || id == "" {
		return "", fmt.Errorf("new game: %d %.300s", status, body)
	}
	return id, nil
}

// Dial opens the socket of game id.
func (b *Browser) Dial(id string) (*websocket.Conn, *http.Response, error) {
	u := "ws" + strings.TrimPrefix(b.Base, "http") + "/ws/game/" + id
	d := websocket.Dialer{Jar: b.HC.Jar, HandshakeTimeout: 10 * time.Second}
	return d.Dial(u, http.Header{"Origin": {b.Base}})
}

// Msg is a server message, decoded as far as the floods and tests need.
type Msg struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Text    string `json:"text"`
	URL     string `json:"url"`
	Ply     int    `json:"ply"`
	Turn    string `json:"turn"`
	Human   string `json:"human"`
	Status  string `json:"status"`
	Legal   []struct {
		UCI string `json:"uci"`
	} `json:"legal"`
}

// Read reads the next message within d.
func Read(c *websocket.Conn, d time.Duration) (Msg, error) {
	c.SetReadDeadline(time.Now().Add(d))
	_, data, err := c.ReadMessage()
	if err != nil {
		return Msg{}, err
	}
	var m Msg
	if err := json.Unmarshal(data, &m); err != nil {
		return Msg{}, fmt.Errorf("not JSON: %q", data)
	}
	return m, nil
}

// WaitFor reads until ok, within d in all.
func WaitFor(c *websocket.Conn, d time.Duration, ok func(Msg) bool) (Msg, error) {
	deadline := time.Now().Add(d)
	for {
		m, err := Read(c, time.Until(deadline))
		if err != nil {
			return Msg{}, err
		}
		if ok(m) {
			return m, nil
		}
	}
}

// Send writes v as a JSON message.
func Send(c *websocket.Conn, v any) error {
	c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.WriteJSON(v)
}

// Flood is owners browsers with games games each at one level from
// FloodFEN, every socket open and doing what the flood's kind does.
type Flood struct {
	conns    []*websocket.Conn
	stop     chan struct{}
	wg       sync.WaitGroup
	replies  atomic.Int64 // engine replies to the flood's moves
	verdicts atomic.Int64 // draw offers answered on their merits
	recently atomic.Int64 // draw offers refused as too soon
	acked    atomic.Int64 // sockets whose first move the server took
	// changed is closed, and replaced, as the counts change (Wait).
	mu      sync.Mutex
	changed chan struct{}
}

// counted adds one to n and wakes Wait.
func (f *Flood) counted(n *atomic.Int64) {
	n.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.changed != nil {
		close(f.changed)
		f.changed = nil
	}
}

// Wait waits until ok, checked again each time one of the flood's counts
// changes, for at most limit.
func (f *Flood) Wait(limit time.Duration, ok func() bool) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		f.mu.Lock()
		if f.changed == nil {
			f.changed = make(chan struct{})
		}
		ch := f.changed
		f.mu.Unlock()
		if ok() {
			return nil
		}
		select {
		case <-ch:
		case <-timer.C:
			return fmt.Errorf("the flood's answers did not come in %v", limit)
		}
	}
}

// open creates the flood's games and opens their sockets.
func (f *Flood) open(base string, owners, games, level int) error {
	f.stop = make(chan struct{})
	for range owners {
		b := NewBrowser(base)
		for range games {
			id, err := b.NewGame(ChessForm(level, FloodFEN))
			if err != nil {
				f.Stop()
				return err
			}
			c, _, err := b.Dial(id)
			if err != nil {
				f.Stop()
				return err
			}
			f.conns = append(f.conns, c)
		}
	}
	return nil
}

// StartSearchFlood keeps the engine searching for every socket: each plays
// a random legal move as soon as the engine has replied to the last. It
// returns once every socket has sent its first move.
func StartSearchFlood(base string, owners, games, level int) (*Flood, error) {
	f := &Flood{}
	if err := f.open(base, owners, games, level); err != nil {
		return nil, err
	}
	var started sync.WaitGroup
	for i, c := range f.conns {
		started.Add(1)
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			first := true
			defer func() {
				if first {
					started.Done()
				}
			}()
			sent := -1 // the ply of the first move, once sent
			for {
				m, err := Read(c, time.Hour)
				if err != nil {
					return
				}
				if sent >= 0 && m.Type == "state" && m.Ply > sent {
					sent = -1
					f.counted(&f.acked) // the engine searches, or queues, on it
				}
				if m.Type != "state" || m.Status != "playing" || m.Turn != m.Human || len(m.Legal) == 0 {
					continue
				}
				if m.Ply > 0 {
					f.counted(&f.replies)
				}
				select {
				case <-f.stop:
					return
				default:
				}
				if Send(c, map[string]any{"type": "move", "move": m.Legal[rng.IntN(len(m.Legal))].UCI, "ply": m.Ply}) != nil {
					return
				}
				if first {
					first, sent = false, m.Ply
					started.Done()
				}
			}
		}()
	}
	started.Wait()
	return f, nil
}

// StartDrawFlood has every socket offer a draw every interval (keep it
// above the message limit's 50 ms), counting the answers.
func StartDrawFlood(base string, owners, games, level int, interval time.Duration) (*Flood, error) {
	f := &Flood{}
	if err := f.open(base, owners, games, level); err != nil {
		return nil, err
	}
	for _, c := range f.conns {
		f.wg.Add(2)
		go func() {
			defer f.wg.Done()
			for {
				m, err := Read(c, time.Hour)
				if err != nil {
					return
				}
				switch {
				case m.Type == "notice" && (strings.HasPrefix(m.Text, "The engine declines the draw") || strings.HasPrefix(m.Text, "The engine accepts the draw")):
					f.counted(&f.verdicts)
				case m.Type == "notice" && strings.HasPrefix(m.Text, "You offered a draw recently"):
					f.counted(&f.recently)
				}
			}
		}()
		go func() {
			defer f.wg.Done()
			tick := time.NewTicker(interval)
			defer tick.Stop()
			for {
				select {
				case <-f.stop:
					return
				case <-tick.C:
					if Send(c, map[string]any{"type": "draw", "ply": 0}) != nil {
						return
					}
				}
			}
		}()
	}
	return f, nil
}

// Sockets is how many sockets the flood holds.
func (f *Flood) Sockets() int { return len(f.conns) }

// Acked is how many of a search flood's sockets have had their first move
// taken by the server: the engine searches, or queues, on each.
func (f *Flood) Acked() int64 { return f.acked.Load() }

// Replies is how many engine replies the flood's sockets have had.
func (f *Flood) Replies() int64 { return f.replies.Load() }

// DrawVerdicts and DrawsTooSoon count the draw flood's answers: offers
// answered on their merits, and offers refused as too soon after another.
func (f *Flood) DrawVerdicts() int64 { return f.verdicts.Load() }

// DrawsTooSoon: see DrawVerdicts.
func (f *Flood) DrawsTooSoon() int64 { return f.recently.Load() }

// Stop closes every socket (the server withdraws their searches) and
// waits for the flood's goroutines.
func (f *Flood) Stop() {
	select {
	case <-f.stop:
	default:
		close(f.stop)
	}
	for _, c := range f.conns {
		c.Close()
	}
	f.wg.Wait()
}

// Reply plays 1. e4 in a new game at level of a browser of its own and
// waits (up to limit) for the engine's reply. It returns how long the
// reply took, and the value of count (when not nil) as the move was sent
// and as the reply came.
func Reply(base string, level int, limit time.Duration, count func() int64) (took time.Duration, atSend, atReply int64, err error) {
	b := NewBrowser(base)
	id, err := b.NewGame(ChessForm(level, ""))
	if err != nil {
		return 0, 0, 0, err
	}
	c, _, err := b.Dial(id)
	if err != nil {
		return 0, 0, 0, err
	}
	defer c.Close()
	if _, err := WaitFor(c, 20*time.Second, func(m Msg) bool { return m.Type == "state" }); err != nil {
		return 0, 0, 0, err
	}
	if count == nil {
		count = func() int64 { return 0 }
	}
	atSend = count()
	start := time.Now()
	if err := Send(c, map[string]any{"type": "move", "move": "e2e4", "ply": 0}); err != nil {
		return 0, 0, 0, err
	}
	if _, err := WaitFor(c, limit, func(m Msg) bool { return m.Type == "state" && m.Ply == 2 }); err != nil {
		return 0, 0, 0, fmt.Errorf("the level-%d reply never came: %w", level, err)
	}
	return time.Since(start), atSend, count(), nil
}
