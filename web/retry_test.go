package web

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// dbFault makes the games tables (chess and Reconnaissance Chess) refuse
// every insert and update while it is on, the way a full disk or a write
// lock held past the busy timeout would: triggers that RAISE while the
// table fault holds a row, set from a second connection.
type dbFault struct {
	t  *testing.T
	db *gorm.DB
}

func newDBFault(t *testing.T, e *testEnv) *dbFault {
	t.Helper()
	db, err := gorm.Open(sqlite.Open("file:"+e.dbPath+"?_busy_timeout=5000"), &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"CREATE TABLE fault (x INTEGER)",
		"CREATE TRIGGER fault_update BEFORE UPDATE ON games WHEN EXISTS (SELECT 1 FROM fault) BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
		"CREATE TRIGGER fault_insert BEFORE INSERT ON games WHEN EXISTS (SELECT 1 FROM fault) BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
		"CREATE TRIGGER fault_recon_update BEFORE UPDATE ON recon_games WHEN EXISTS (SELECT 1 FROM fault) BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
		"CREATE TRIGGER fault_recon_insert BEFORE INSERT ON recon_games WHEN EXISTS (SELECT 1 FROM fault) BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
		"CREATE TRIGGER fault_api_update BEFORE UPDATE ON api_games WHEN EXISTS (SELECT 1 FROM fault) BEGIN SELECT RAISE(ABORT, 'disk full (test)'); END",
	} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	})
	return &dbFault{t: t, db: db}
}

func (f *dbFault) set(on bool) {
	q := "DELETE FROM fault"
	if on {
		q = "INSERT INTO fault VALUES (1)"
	}
	if err := f.db.Exec(q).Error; err != nil {
		f.t.Error(err)
	}
}

// hookSearcher is fakeSearcher that calls hook(n) as search n (from 1)
// starts: after the person's move is committed, before the engine's is.
type hookSearcher struct {
	fakeSearcher
	n    atomic.Int32
	hook func(n int)
}

func (h *hookSearcher) Search(ctx context.Context, pos *game.Position, hist []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	if h.hook != nil {
		h.hook(int(h.n.Add(1)))
	}
	return h.fakeSearcher.Search(ctx, pos, hist, req)
}

// Issue 35 item 3: when the engine's move cannot be saved, the game waits
// (engine thinking, saving, its clock stopped, a notice in words) and
// plays the move by itself once the database takes writes again. Before
// the fix the move was dropped: the engine stayed to move, not thinking,
// and every move of the person got not_your_turn until a reload.
func TestEngineMoveSaveRetried(t *testing.T) {
	var fault atomic.Pointer[dbFault]
	hs := &hookSearcher{}
	hs.hook = func(n int) {
		if n == 2 { // the engine's second move
			fault.Load().set(true)
		}
	}
	e := newEnv(t, envOpts{searcher: hs, saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond})
	fault.Store(newDBFault(t, e))
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "5+3"))
	w := e.mustDial(c, id)
	w.state()
	w.send(map[string]any{"type": "move", "move": "e2e4", "ply": 0})
	w.stateAt(2)
	w.send(map[string]any{"type": "move", "move": "d2d4", "ply": 2})

	n := w.waitFor("the notice", func(m anyMsg) bool { return m.Type == "notice" })
	if n.Text != play.EngineMoveUnsavedNotice {
		t.Errorf("notice %q", n.Text)
	}
	s := w.sync()
	if s.Ply != 3 || !s.Thinking || !s.Saving || s.Turn != "black" || s.Clock.Running != "" {
		t.Fatalf("while the server cannot save: ply %d thinking %v saving %v turn %s running %q",
			s.Ply, s.Thinking, s.Saving, s.Turn, s.Clock.Running)
	}
	black := s.Clock.Black
	// time itself is what is tested: the engine's clock stands still while the server cannot save
	time.Sleep(300 * time.Millisecond)
	s = w.sync()
	if s.Clock.Black != black {
		t.Errorf("the engine's clock ran while the server could not save: %d then %d ms", black, s.Clock.Black)
	}
	// The person cannot move meanwhile, and is told why by the state.
	w.send(map[string]any{"type": "move", "move": "g1f3", "ply": 3})
	if m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" }); m.Code != play.CodeNotYourTurn {
		t.Errorf("move while saving: %s", m.raw)
	}
	if r := e.row(id); len(r.MoveList()) != 3 {
		t.Fatalf("row moves %v", r.MoveList())
	}

	fault.Load().set(false)
	s = w.waitFor("the engine's move", func(m anyMsg) bool { return m.Type == "state" && m.state.Ply == 4 }).state
	if s.Thinking || s.Saving || s.Turn != "white" || s.Clock.Running != "white" {
		t.Fatalf("after saving: thinking %v saving %v turn %s running %q", s.Thinking, s.Saving, s.Turn, s.Clock.Running)
	}
	if s.Clock.Black < black-50 || s.Clock.Black > black+3000+50 {
		t.Errorf("black's clock %d ms, want %d plus the increment", s.Clock.Black, black)
	}
	if r := e.row(id); len(r.MoveList()) != 4 {
		t.Fatalf("row moves %v", r.MoveList())
	}
	// And the game goes on.
	w.send(map[string]any{"type": "move", "move": "g1f3", "ply": 4})
	w.stateAt(6)
}

// A flag fall that cannot be saved is saved later; the game does not stay
// half over.
func TestFlagSaveRetried(t *testing.T) {
	e := newEnv(t, envOpts{noEngine: true, saveRetryFirst: 20 * time.Millisecond, saveRetryMax: 100 * time.Millisecond})
	fault := newDBFault(t, e)
	c := e.browser()
	id := e.newGame(c, form("white", "1", "standard", "5+3"))
	rec := e.row(id)
	rec.SetMoveList([]string{"e2e4", "e7e5"})
	rec.WhiteMS = 150
	if err := e.store.Games().SaveGame(rec); err != nil {
		t.Fatal(err)
	}
	fault.set(true)
	w := e.mustDial(c, id)
	n := w.waitFor("the notice", func(m anyMsg) bool { return m.Type == "notice" })
	if n.Text != play.FlagUnsavedNotice {
		t.Errorf("notice %q", n.Text)
	}
	if s := w.sync(); s.Status != "playing" || !s.Saving {
		t.Fatalf("while the server cannot save: %s saving %v", s.Status, s.Saving)
	}
	fault.set(false)
	s := w.waitFor("flag", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
	if s.Result != "0-1" || s.Reason != game.TimeForfeit.String() || s.Saving {
		t.Fatalf("after saving: %s %s saving %v", s.Result, s.Reason, s.Saving)
	}
	if r := e.row(id); r.Status != store.StatusOver {
		t.Fatalf("row %+v", r)
	}
}

// The person's own actions fail with a clear error and change nothing
// while the server cannot save; once it can, the same action works.
func TestOwnActionsFailCleanly(t *testing.T) {
	tests := []struct {
		name  string
		fen   string
		moves []string // played before, person's first
		msg   map[string]any
		text  string
		after func(t *testing.T, w *wsConn) // the same action, now saved
	}{
		{"move", "", nil, map[string]any{"type": "move", "move": "e2e4", "ply": 0}, play.MoveUnsavedText,
			func(t *testing.T, w *wsConn) { w.stateAt(2) }},
		{"resign", "", nil, map[string]any{"type": "resign", "ply": 0}, play.ResignUnsavedText,
			func(t *testing.T, w *wsConn) {
				w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
			}},
		{"takeback", "", []string{"e2e4"}, map[string]any{"type": "takeback", "ply": 2}, play.TakebackUnsavedText,
			func(t *testing.T, w *wsConn) { w.stateAt(0) }},
		{"draw", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", nil, map[string]any{"type": "draw", "ply": 0}, play.DrawUnsavedText,
			func(t *testing.T, w *wsConn) {
				w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" })
			}},
		{"rematch", "", nil, map[string]any{"type": "rematch"}, play.RematchUnsavedText,
			func(t *testing.T, w *wsConn) {
				w.waitFor("redirect", func(m anyMsg) bool { return m.Type == "redirect" })
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, envOpts{})
			fault := newDBFault(t, e)
			c := e.browser()
			f := form("white", "1", "standard", "5+3")
			if tc.fen != "" {
				f.Set("fen", tc.fen)
			}
			id := e.newGame(c, f)
			w := e.mustDial(c, id)
			w.state()
			for i, mv := range tc.moves {
				w.send(map[string]any{"type": "move", "move": mv, "ply": 2 * i})
				w.stateAt(2 * (i + 1))
			}
			before := e.row(id)
			fault.set(true)
			w.send(tc.msg)
			m := w.waitFor("error", func(m anyMsg) bool { return m.Type == "error" })
			if m.Code != play.CodeServer || m.Message != tc.text {
				t.Errorf("error %s", m.raw)
			}
			s := w.sync()
			if s.Status != "playing" || s.Ply != len(before.MoveList()) || s.Saving || s.Thinking {
				t.Errorf("state after the refusal: %s ply %d saving %v thinking %v", s.Status, s.Ply, s.Saving, s.Thinking)
			}
			if r := e.row(id); r.Status != before.Status || strings.Join(r.MoveList(), " ") != strings.Join(before.MoveList(), " ") {
				t.Errorf("row changed: %+v", r)
			}
			fault.set(false)
			w.send(tc.msg)
			tc.after(t, w)
		})
	}
}

// checkNothingLost compares the stored game with the moves the person
// was last shown.
func checkNothingLost(t *testing.T, e *testEnv, id string, s *play.StateMessage) {
	t.Helper()
	var shown []string
	for _, m := range s.Moves {
		shown = append(shown, m.UCI)
	}
	if got, want := strings.Join(e.row(id).MoveList(), " "), strings.Join(shown, " "); got != want {
		t.Errorf("stored moves %q, shown %q", got, want)
	}
}
