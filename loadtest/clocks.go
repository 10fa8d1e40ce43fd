package loadtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/store"
)

// maxClockChecks bounds the games checkClocks reads on every server.
const maxClockChecks = 12

// spectatorClock is the clock of a chess state as a spectator is sent it
// (web/PROTOCOL.md), and when it was read.
type spectatorClock struct {
	White, Black int64
	Running      string
	at           time.Time
}

// checkClocks reads the clock of each timed chess game in play (up to
// maxClockChecks) from every server of a site, as a spectator does (which
// neither starts nor stops it), and reports where two servers disagree:
// the clock that stands must read the same to the millisecond, the one
// that runs by no more than the time between the two readings and a
// millisecond of rounding. Every server computes it from the committed
// record.
//
// It returns how many games it compared.
func checkClocks(dsn string, servers []string, games *storedGames) (compared int, problems []string) {
	st, err := store.Open(dsn)
	if err != nil {
		return 0, []string{fmt.Sprintf("clocks: open the store: %v", err)}
	}
	defer st.Close()
	var ids []string
	for id, g := range games.chess {
		if g.Status == store.StatusPlaying && g.Timed() {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	if len(ids) > maxClockChecks {
		ids = ids[:maxClockChecks]
	}
	for _, id := range ids {
		tok, err := st.Games().EnsureWatchToken(id)
		if err != nil {
			problems = append(problems, fmt.Sprintf("clocks: game %s: %v", id, err))
			continue
		}
		var seen []spectatorClock
		for _, base := range servers {
			c, err := readSpectatorClock(base, tok)
			if err != nil {
				problems = append(problems, fmt.Sprintf("clocks: game %s on %s: %v", id, base, err))
				continue
			}
			seen = append(seen, c)
		}
		if len(seen) == len(servers) {
			compared++
		}
		for i := 1; i < len(seen); i++ {
			if p := clockDisagreement(seen[0], seen[i]); p != "" {
				problems = append(problems, fmt.Sprintf("clocks: game %s: %s and %s: %s", id, servers[0], servers[i], p))
			}
		}
	}
	return compared, problems
}

// clockDisagreement says how two readings of one clock disagree, or "".
func clockDisagreement(a, b spectatorClock) string {
	if a.Running != b.Running {
		return fmt.Sprintf("running %q and %q", a.Running, b.Running)
	}
	gap := b.at.Sub(a.at).Milliseconds() + 1
	for _, side := range []struct {
		name string
		a, b int64
	}{{"white", a.White, b.White}, {"black", a.Black, b.Black}} {
		d := side.a - side.b
		if side.name != a.Running {
			if d != 0 {
				return fmt.Sprintf("%s's clock stands at %d and %d ms", side.name, side.a, side.b)
			}
			continue
		}
		if d < 0 || d > gap {
			return fmt.Sprintf("%s's clock runs, %d then %d ms, read %d ms apart", side.name, side.a, side.b, gap-1)
		}
	}
	return ""
}

// readSpectatorClock opens game's spectator page and socket (its watch
// token tok) on the server at base, as a browser does (the page sets the
// cookie the socket needs), and reads the clock of the first state.
func readSpectatorClock(base, tok string) (spectatorClock, error) {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return spectatorClock{}, err
	}
	hc := &http.Client{Jar: jar, Timeout: 15 * time.Second}
	resp, err := hc.Get(base + "/watch/" + tok)
	if err != nil {
		return spectatorClock{}, err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return spectatorClock{}, fmt.Errorf("the spectator page: %s", resp.Status)
	}
	d := websocket.Dialer{Jar: jar, HandshakeTimeout: 15 * time.Second}
	conn, resp, err := d.Dial("ws"+strings.TrimPrefix(base, "http")+"/ws/watch/"+tok, nil)
	if err != nil {
		if resp != nil {
			return spectatorClock{}, fmt.Errorf("the spectator socket: %s: %w", resp.Status, err)
		}
		return spectatorClock{}, err
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			return spectatorClock{}, err
		}
		var m struct {
			Type  string          `json:"type"`
			Clock *spectatorClock `json:"clock"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return spectatorClock{}, err
		}
		if m.Type != "state" {
			continue
		}
		if m.Clock == nil {
			return spectatorClock{}, fmt.Errorf("a state without a clock")
		}
		c := *m.Clock
		c.at = time.Now()
		return c, nil
	}
}
