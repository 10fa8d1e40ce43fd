//go:build linux

package web

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"knightwatch/play"
	"knightwatch/recon"
)

// The fault test (issue 35): the database on a tiny tmpfs that fills up
// during play, and a write lock held by another process. Whatever the
// server cannot save it says so in words, nothing acknowledged is lost,
// and once the disk has room again (or the lock is released) the game
// goes on by itself. TestWriteLockDuringPlay (dbwait_test.go) is the
// write lock.

// tinyDisk is a tmpfs of its own, mounted for one test, that can be
// filled to the last byte and freed again.
type tinyDisk struct {
	t      *testing.T
	dir    string
	filler string
}

// tinyDiskSize holds the database with room for a few thousand commits;
// fill takes whatever is left.
const tinyDiskSize = "16m"

// mountTinyDisk mounts a tmpfs under the test's temporary folder, and
// unmounts it when the test ends (after the server and the store have
// closed, as their cleanups run first). Mounting needs root (CAP_SYS_ADMIN):
// elsewhere the test is skipped, with the reason, except under CI, which
// runs it and where its absence fails.
func mountTinyDisk(t *testing.T) *tinyDisk {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+tinyDiskSize+",mode=0755"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cannot mount a tmpfs for the full-disk test (%v): CI must run it as root", err)
		}
		t.Skipf("cannot mount a tmpfs (%v): run as root to test a full disk", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return &tinyDisk{t: t, dir: dir, filler: filepath.Join(dir, "filler")}
}

// fill writes a file until the disk has no byte left.
func (d *tinyDisk) fill() {
	d.t.Helper()
	f, err := os.OpenFile(d.filler, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{1 << 20, 4 << 10, 1} {
		buf := make([]byte, n)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					d.t.Fatal(err)
				}
				break
			}
		}
	}
}

// free removes what fill wrote.
func (d *tinyDisk) free() {
	d.t.Helper()
	if err := os.Remove(d.filler); err != nil {
		d.t.Fatal(err)
	}
}

// faultEnv is a server whose database lives on a tiny disk.
func faultEnv(t *testing.T, o envOpts) (*testEnv, *tinyDisk) {
	d := mountTinyDisk(t)
	o.dbPath = filepath.Join(d.dir, "kw.db")
	o.saveRetryFirst, o.saveRetryMax = 20*time.Millisecond, 100*time.Millisecond
	return newEnv(t, o), d
}

// A full disk during a game against the engine: the person's move, the
// engine's move, a new game and a rematch.
func TestFullDiskChess(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"player's move", func(t *testing.T) {
			e, d := faultEnv(t, envOpts{})
			c := e.browser()
			id := e.newGame(c, form("white", "1", "standard", "5+3"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			w.stateAt(2)
			d.fill()
			w.send(`{"type":"move","move":"d2d4","ply":2}`)
			m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
			if m.Code != play.CodeServer || m.Message != play.MoveUnsavedText {
				t.Errorf("move on a full disk: %s", m.raw)
			}
			s := w.sync()
			if s.Ply != 2 || s.Saving || len(s.Legal) == 0 {
				t.Errorf("after the refusal: ply %d saving %v", s.Ply, s.Saving)
			}
			checkNothingLost(t, e, id, s)
			d.free()
			w.send(`{"type":"move","move":"d2d4","ply":2}`)
			checkNothingLost(t, e, id, w.stateAt(4))
		}},
		{"engine's move", func(t *testing.T) {
			var d *tinyDisk
			hs := &hookSearcher{}
			hs.hook = func(n int) {
				if n == 2 {
					d.fill()
				}
			}
			e, disk := faultEnv(t, envOpts{searcher: hs})
			d = disk
			c := e.browser()
			id := e.newGame(c, form("white", "1", "standard", "5+3"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			w.stateAt(2)
			w.send(`{"type":"move","move":"d2d4","ply":2}`)
			if m := w.waitFor("notice", func(m anyMsg) bool { return m.Type == "notice" }); m.Text != play.EngineMoveUnsavedNotice {
				t.Errorf("notice %q", m.Text)
			}
			s := w.sync()
			if s.Ply != 3 || !s.Saving || !s.Thinking || s.Clock.Running != "" {
				t.Fatalf("while the disk is full: ply %d saving %v thinking %v running %q", s.Ply, s.Saving, s.Thinking, s.Clock.Running)
			}
			checkNothingLost(t, e, id, s)
			d.free()
			var again bool
			s = w.waitFor("the engine's move", func(m anyMsg) bool {
				again = again || (m.Type == "notice" && m.Text == play.SavedAgainNotice)
				return m.Type == "state" && m.state.Ply == 4
			}).state
			if !again || s.Saving || s.Clock.Running != "white" {
				t.Errorf("after freeing: notice %v saving %v running %q", again, s.Saving, s.Clock.Running)
			}
			checkNothingLost(t, e, id, s)
			w.send(`{"type":"move","move":"g1f3","ply":4}`)
			checkNothingLost(t, e, id, w.stateAt(6))
		}},
		{"new game", func(t *testing.T) {
			e, d := faultEnv(t, envOpts{noEngine: true})
			c := e.browser()
			e.newGame(c, form("white", "1", "standard", "none")) // the cookie and a first game
			newGameOnFullDisk(t, e, d, c, form("white", "1", "standard", "none"))
			id := e.newGame(c, form("white", "1", "standard", "none"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"move","move":"e2e4","ply":0}`)
			checkNothingLost(t, e, id, w.stateAt(1))
		}},
		{"rematch", func(t *testing.T) {
			e, d := faultEnv(t, envOpts{noEngine: true})
			c := e.browser()
			id := e.newGame(c, form("white", "1", "standard", "none"))
			w := e.mustDial(c, id)
			w.state()
			w.send(`{"type":"resign","ply":0}`)
			w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
			before := e.countGames()
			d.fill()
			w.send(`{"type":"rematch"}`)
			m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" || m.Type == "redirect" })
			if m.Type != "error" || m.Code != play.CodeServer || m.Message != play.RematchUnsavedText {
				t.Errorf("rematch on a full disk: %s", m.raw)
			}
			if n := e.countGames(); n != before {
				t.Errorf("%d games, want %d", n, before)
			}
			d.free()
			w.send(`{"type":"rematch"}`)
			m = w.waitFor("redirect", func(m anyMsg) bool { return m.Type == "redirect" })
			nid := strings.TrimPrefix(m.URL, "/game/")
			if r := e.row(nid); r.Human.String() != "black" {
				t.Errorf("rematch colour %s", r.Human)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

// A full disk during a Reconnaissance Chess game: the person's sense and
// move, the bot's move, a new game.
func TestFullDiskRecon(t *testing.T) {
	start := func(t *testing.T, e *testEnv) (*wsConn, string) {
		c := e.browser()
		id := e.newRecon(c, "white", "random", "5+3")
		w := e.mustDial(c, id)
		w.reconWait("state", nil, isState)
		return w, id
	}
	refused := func(t *testing.T, w *wsConn, text string) {
		t.Helper()
		f := w.reconWait("error", nil, func(f reconFrame) bool { return f.Type == "error" })
		if !strings.Contains(string(f.Raw), `"code":"server"`) || !strings.Contains(string(f.Raw), text) {
			t.Errorf("on a full disk: %s", f.Raw)
		}
	}
	// personStep sends msg on a full disk (after before, each answered by
	// a state): refused in words (text), saved actions still saved; then
	// sends it again with room on the disk: after comes, saved2 actions saved.
	personStep := func(t *testing.T, before []string, msg, text string, saved int, after func(reconFrame) bool, saved2 int) {
		e, d := faultEnv(t, envOpts{})
		w, id := start(t, e)
		for _, m := range before {
			w.send(m)
			w.reconWait("state", nil, isState)
		}
		d.fill()
		w.send(msg)
		refused(t, w, text)
		if k, _ := e.reconActions(id); k != saved {
			t.Errorf("%d actions saved, want %d", k, saved)
		}
		d.free()
		w.send(msg)
		w.reconWait("the step, saved", nil, after)
		if k, _ := e.reconActions(id); k != saved2 {
			t.Errorf("%d actions saved, want %d", k, saved2)
		}
	}
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"sense", func(t *testing.T) {
			personStep(t, nil, `{"type":"sense","square":"e7","seq":0}`, play.SenseUnsavedText, 0,
				func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" }, 1)
		}},
		{"move", func(t *testing.T) {
			personStep(t, []string{`{"type":"sense","square":"e7","seq":0}`}, `{"type":"move","move":"e2e4","seq":1}`, play.MoveUnsavedText, 1,
				func(f reconFrame) bool { return isState(f) && f.State.Seq == 4 }, 4)
		}},
		{"bot's move", func(t *testing.T) {
			var d *tinyDisk
			var once sync.Once
			botAction := func(_ string, ph recon.Phase) {
				if ph == recon.PhaseMove {
					once.Do(d.fill)
				}
			}
			e, disk := faultEnv(t, envOpts{hooks: play.Hooks{BotAction: botAction}})
			d = disk
			w, id := start(t, e)
			w.send(`{"type":"sense","square":"e7","seq":0}`)
			w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
			w.send(`{"type":"move","move":"e2e4","seq":1}`)
			if n := w.reconWait("notice", nil, func(f reconFrame) bool { return f.Type == "notice" }); noticeText(n) != play.ReconBotUnsavedNotice {
				t.Errorf("notice %s", n.Raw)
			}
			// The bot's saved sense is not the person's to know yet: seq 2.
			if st := w.reconSync(); !st.Saving || st.Seq != 2 || st.Phase != "waiting" {
				t.Errorf("while the disk is full: %+v", st)
			}
			d.free()
			w.reconWait("the bot's move", nil, func(f reconFrame) bool { return isState(f) && f.State.Seq == 4 && !f.State.Saving })
			if k, _ := e.reconActions(id); k != 4 {
				t.Errorf("%d actions saved, want 4", k)
			}
			w.send(`{"type":"sense","square":"e5","seq":4}`)
			w.reconWait("the game goes on", nil, func(f reconFrame) bool { return isState(f) && f.State.Seq == 5 })
		}},
		{"new game", func(t *testing.T) {
			e, d := faultEnv(t, envOpts{})
			c := e.browser()
			e.newRecon(c, "white", "random", "5+3")
			newGameOnFullDisk(t, e, d, c, url.Values{"variant": {"recon"}, "color": {"white"}, "opponent": {"random"}, "clock": {"5+3"}})
			id := e.newRecon(c, "white", "random", "5+3")
			w := e.mustDial(c, id)
			w.reconWait("state", nil, isState)
			w.send(`{"type":"sense","square":"e7","seq":0}`)
			w.reconWait("move phase", nil, func(f reconFrame) bool { return isState(f) && f.State.Phase == "move" })
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.run)
	}
}

// newGameOnFullDisk posts the new-game form f with the disk full: 503 and
// the home page's words, no game created, and a new visitor's home page
// still loads; then it frees the disk.
func newGameOnFullDisk(t *testing.T, e *testEnv, d *tinyDisk, c *http.Client, f url.Values) {
	t.Helper()
	before := e.countGames()
	d.fill()
	resp, err := c.PostForm(e.ts.URL+"/games", f)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), "could not be saved") {
		t.Errorf("new game on a full disk: %s %.200s", resp.Status, b)
	}
	if code, _, _ := e.get(e.browser(), "/"); code != http.StatusOK {
		t.Errorf("home page on a full disk: %d", code)
	}
	if n := e.countGames(); n != before {
		t.Errorf("%d games, want %d", n, before)
	}
	d.free()
}
