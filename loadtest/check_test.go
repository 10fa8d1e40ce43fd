package loadtest

import (
	"slices"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// wantError fails the test unless err is nil when want is empty, or says
// want.
func wantError(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want no error", name, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v, want an error saying %q", name, err, want)
	}
}

// checkChess accepts exactly what a kill can leave behind: the moves a
// player saw acknowledged, then at most its own pending move and the
// engine's reply; anything lost, changed or added beyond is reported.
func TestCheckChess(t *testing.T) {
	seen := func(humanToMove bool, moves ...string) chessSeen {
		return chessSeen{ID: "g", Human: "white", Moves: moves, HumanToMove: humanToMove}
	}
	pending := func(s chessSeen, mv string, ply int) chessSeen {
		s.PendingKind, s.Pending, s.PendingPly = "move", mv, ply
		return s
	}
	takeback := func(s chessSeen, ply int) chessSeen { s.PendingKind, s.PendingPly = "takeback", ply; return s }
	over := func(s chessSeen) chessSeen { s.Over = true; return s }
	stored := func(moves ...string) chessStored { return chessStored{Moves: moves} }
	storedOver := func(moves ...string) chessStored { return chessStored{Moves: moves, Over: true} }
	tests := []struct {
		name   string
		seen   chessSeen
		stored chessStored
		want   string // "" for no error, else a word of the error
	}{
		{"nothing seen", chessSeen{ID: "g"}, stored(), ""},
		{"same", seen(true, "e2e4", "e7e5"), stored("e2e4", "e7e5"), ""},
		{"start, nothing played", seen(true), stored(), ""},
		{"last move lost", seen(true, "e2e4", "e7e5"), stored("e2e4"), "lost"},
		{"every move lost", seen(true, "e2e4", "e7e5"), stored(), "lost"},
		{"a move changed", seen(true, "e2e4", "e7e5"), stored("e2e4", "e7e6"), "lost"},
		{"pending move stored", pending(seen(true, "e2e4", "e7e5"), "g1f3", 2), stored("e2e4", "e7e5", "g1f3"), ""},
		{"pending move and reply stored", pending(seen(true, "e2e4", "e7e5"), "g1f3", 2), stored("e2e4", "e7e5", "g1f3", "b8c6"), ""},
		{"a move the player never sent", seen(true, "e2e4", "e7e5"), stored("e2e4", "e7e5", "g1f3"), "duplicated"},
		{"another move than the one sent", pending(seen(true, "e2e4", "e7e5"), "g1f3", 2), stored("e2e4", "e7e5", "d2d4"), "duplicated"},
		{"pending for an older ply", pending(seen(true, "e2e4", "e7e5"), "g1f3", 0), stored("e2e4", "e7e5", "g1f3"), "duplicated"},
		{"three moves after the acknowledged", pending(seen(true, "e2e4", "e7e5"), "g1f3", 2), stored("e2e4", "e7e5", "g1f3", "b8c6", "f1c4"), "duplicated"},
		{"engine's reply stored", seen(false, "e2e4"), stored("e2e4", "e7e5"), ""},
		{"two moves with the engine to move", seen(false, "e2e4"), stored("e2e4", "e7e5", "g1f3"), "duplicated"},
		{"takeback committed", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 4), stored("e2e4", "e7e5"), ""},
		{"takeback not committed", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 4), stored("e2e4", "e7e5", "g1f3", "b8c6"), ""},
		{"takeback racing the engine, committed", takeback(seen(false, "e2e4", "e7e5", "g1f3"), 3), stored("e2e4", "e7e5"), ""},
		{"takeback racing the engine, engine first", takeback(seen(false, "e2e4", "e7e5", "g1f3"), 3), stored("e2e4", "e7e5", "g1f3", "b8c6"), ""},
		{"takeback of one move too many", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 4), stored("e2e4"), "lost"},
		{"takeback of one move too few", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 4), stored("e2e4", "e7e5", "g1f3"), "lost"},
		{"a takeback never sent", seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), stored("e2e4", "e7e5"), "lost"},
		{"takeback for an older ply", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 2), stored("e2e4", "e7e5"), "lost"},
		{"takeback, then a different history", takeback(seen(true, "e2e4", "e7e5", "g1f3", "b8c6"), 4), stored("e2e4", "e7e6"), "lost"},
		{"over and unchanged", over(seen(false, "f2f3", "e7e5", "g2g4", "d8h4")), storedOver("f2f3", "e7e5", "g2g4", "d8h4"), ""},
		{"over, stored as playing", over(seen(false, "f2f3", "e7e5", "g2g4", "d8h4")), stored("f2f3", "e7e5", "g2g4", "d8h4"), "over"},
		{"over, then a move", over(seen(true, "e2e4")), storedOver("e2e4", "e7e5"), "over"},
	}
	for _, tc := range tests {
		wantError(t, tc.name, checkChess(tc.seen, tc.stored), tc.want)
	}
}

// checkRecon is checkChess for the person's senses and moves of a
// Reconnaissance Chess game.
func TestCheckRecon(t *testing.T) {
	seen := func(seq int, senses, moves []string) reconSeen {
		return reconSeen{ID: "r", Human: "white", Seq: seq, Senses: senses, Moves: moves}
	}
	pending := func(s reconSeen, kind, v string) reconSeen {
		s.PendingKind, s.Pending, s.PendingSeq = kind, v, s.Seq
		return s
	}
	l := func(v ...string) []string { return v }
	tests := []struct {
		name   string
		seen   reconSeen
		stored reconStored
		want   string
	}{
		{"nothing seen", reconSeen{ID: "r"}, reconStored{}, ""},
		{"same", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 4, Senses: l("e7"), Moves: l("e2e4")}, ""},
		{"a skipped sense kept", seen(4, l(""), l("pass")), reconStored{Seq: 4, Senses: l(""), Moves: l("pass")}, ""},
		{"sense lost", seen(5, l("e7", "d6"), l("e2e4")), reconStored{Seq: 4, Senses: l("e7"), Moves: l("e2e4")}, "lost"},
		{"move lost", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 3, Senses: l("e7"), Moves: l()}, "lost"},
		{"sense changed", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 4, Senses: l("e6"), Moves: l("e2e4")}, "lost"},
		{"pending sense stored", pending(seen(4, l("e7"), l("e2e4")), "sense", "d6"), reconStored{Seq: 5, Senses: l("e7", "d6"), Moves: l("e2e4")}, ""},
		{"pending move, then the bot's turn", pending(seen(5, l("e7", "d6"), l("e2e4")), "move", "d2d4"), reconStored{Seq: 8, Senses: l("e7", "d6"), Moves: l("e2e4", "d2d4")}, ""},
		{"a sense never sent", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 5, Senses: l("e7", "c6"), Moves: l("e2e4")}, "duplicated"},
		{"another sense than the one sent", pending(seen(4, l("e7"), l("e2e4")), "sense", "d6"), reconStored{Seq: 5, Senses: l("e7", "c6"), Moves: l("e2e4")}, "duplicated"},
		{"a move where a sense was sent", pending(seen(4, l("e7"), l("e2e4")), "sense", "d6"), reconStored{Seq: 5, Senses: l("e7"), Moves: l("e2e4", "d6d7")}, "duplicated"},
		{"two actions of the person's", pending(seen(4, l("e7"), l("e2e4")), "sense", "d6"), reconStored{Seq: 6, Senses: l("e7", "d6"), Moves: l("e2e4", "d2d4")}, "duplicated"},
		{"too many actions", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 8, Senses: l("e7"), Moves: l("e2e4")}, "action count"},
		{"fewer actions", seen(4, l("e7"), l("e2e4")), reconStored{Seq: 3, Senses: l("e7"), Moves: l("e2e4")}, "action count"},
		{"over, stored playing", func() reconSeen { s := seen(4, l("e7"), l("e2e4")); s.Over = true; return s }(), reconStored{Seq: 4, Senses: l("e7"), Moves: l("e2e4")}, "over"},
	}
	for _, tc := range tests {
		wantError(t, tc.name, checkRecon(tc.seen, tc.stored), tc.want)
	}
}

// readChess replays a stored game and refuses one that does not replay,
// that is over on the board but stored as playing, that is over without
// a result, or whose clocks are beyond what the clock could give.
func TestReadChess(t *testing.T) {
	good := func() *store.Game {
		return &store.Game{ID: "g", Variant: "standard", StartFEN: game.StartFEN, Moves: "e2e4 e7e5", Status: store.StatusPlaying,
			ClockInitialMS: 300000, ClockIncrementMS: 3000, WhiteMS: 290000, BlackMS: 301000}
	}
	tests := []struct {
		name      string
		edit      func(g *store.Game)
		takebacks int
		want      string
	}{
		{"good", func(*store.Game) {}, 0, ""},
		{"untimed", func(g *store.Game) { g.ClockInitialMS, g.ClockIncrementMS, g.WhiteMS, g.BlackMS = 0, 0, 0, 0 }, 0, ""},
		{"bad start", func(g *store.Game) { g.StartFEN = "not a position" }, 0, "start position"},
		{"illegal move", func(g *store.Game) { g.Moves = "e2e4 e7e4" }, 0, "does not replay"},
		{"garbage move", func(g *store.Game) { g.Moves = "e2e4 zz" }, 0, "does not replay"},
		{"mated, stored playing", func(g *store.Game) { g.Moves = "f2f3 e7e5 g2g4 d8h4" }, 0, "board says"},
		{"mated and over", func(g *store.Game) {
			g.Moves, g.Status, g.Result, g.Reason = "f2f3 e7e5 g2g4 d8h4", store.StatusOver, "0-1", store.TerminationOf(game.Checkmate)
		}, 0, ""},
		{"over without a result", func(g *store.Game) { g.Status, g.Result = store.StatusOver, "*" }, 0, "without a result"},
		{"negative clock", func(g *store.Game) { g.WhiteMS = -1 }, 0, "clock"},
		{"clock beyond the increments", func(g *store.Game) { g.BlackMS = 300000 + 2*3000 }, 0, "clock"},
		{"increments kept by a takeback", func(g *store.Game) { g.BlackMS = 300000 + 2*3000 }, 1, ""},
		{"beyond the increments and a takeback", func(g *store.Game) { g.BlackMS = 300000 + 3*3000 }, 1, "clock"},
	}
	for _, tc := range tests {
		g := good()
		tc.edit(g)
		st, err := readChess(g, tc.takebacks)
		wantError(t, tc.name, err, tc.want)
		if err == nil && strings.Join(st.Moves, " ") != g.Moves {
			t.Errorf("%s: moves %q, want %q", tc.name, st.Moves, g.Moves)
		}
	}
}

// reconHistory plays a short Reconnaissance Chess game: White senses e7
// and plays e2e4, Black skips its sense and plays e7e5, White senses d7.
func reconHistory(t *testing.T) *recon.History {
	t.Helper()
	g := recon.NewGame(recon.Config{MoveLimit: 100}, "You", "Bot")
	g.Start()
	steps := []func() error{
		func() error { _, err := g.Sense(game.E7); return err },
		func() error { _, err := g.Move(game.NewMove(game.E2, game.E4)); return err },
		g.EndTurn,
		func() error { _, err := g.Sense(game.NoSquare); return err },
		func() error { _, err := g.Move(game.NewMove(game.E7, game.E5)); return err },
		g.EndTurn,
		func() error { _, err := g.Sense(game.D7); return err },
	}
	for i, f := range steps {
		if err := f(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return g.History()
}

// readRecon replays a stored history through the arbiter and reads the
// person's senses and moves; a history that disagrees with the arbiter,
// a status that disagrees with the outcome and impossible clocks are
// refused.
func TestReadRecon(t *testing.T) {
	h := reconHistory(t)
	hist := string(recon.MarshalHistory(h))
	// The same game with the black king of a recorded board or sense
	// result made a queen.
	tampered := strings.Replace(hist, `"k"`, `"q"`, 1)
	if tampered == hist {
		t.Fatal("the history has no black king to tamper with")
	}
	good := func() *store.ReconGame {
		return &store.ReconGame{ID: "r", Human: store.ColorOf(game.White), History: hist, Status: store.StatusPlaying,
			ClockInitialMS: 300000, ClockIncrementMS: 3000, WhiteMS: 299000, BlackMS: 300000}
	}
	tests := []struct {
		name   string
		edit   func(g *store.ReconGame)
		want   string
		seq    int
		senses []string
		moves  []string
	}{
		{"good", func(*store.ReconGame) {}, "", 5, []string{"e7", "d7"}, []string{"e2e4"}},
		{"the person is Black", func(g *store.ReconGame) { g.Human = store.ColorOf(game.Black) }, "", 5, []string{""}, []string{"e7e5"}},
		{"nothing played", func(g *store.ReconGame) { g.History = "" }, "", 0, nil, nil},
		{"not JSON", func(g *store.ReconGame) { g.History = "{" }, "history", 0, nil, nil},
		{"a board the arbiter disagrees with", func(g *store.ReconGame) { g.History = tampered }, "playback", 0, nil, nil},
		{"over without an outcome", func(g *store.ReconGame) { g.Status = store.StatusOver }, "outcome", 0, nil, nil},
		{"clock beyond the increments", func(g *store.ReconGame) { g.WhiteMS = 300000 + 2*3000 }, "clock", 0, nil, nil},
	}
	for _, tc := range tests {
		g := good()
		tc.edit(g)
		st, err := readRecon(g)
		wantError(t, tc.name, err, tc.want)
		if err == nil && (st.Seq != tc.seq || !slices.Equal(st.Senses, tc.senses) || !slices.Equal(st.Moves, tc.moves)) {
			t.Errorf("%s: read %+v, want seq %d, senses %q, moves %q", tc.name, st, tc.seq, tc.senses, tc.moves)
		}
	}
}
