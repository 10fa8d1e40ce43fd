package recon

import (
	"errors"
	"testing"
	"time"

	"knightwatch/game"
)

// fakeClock is a settable time source for clock tests.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newFakeClock() *fakeClock               { return &fakeClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)} }
func clockConfig(c *fakeClock, clock, inc time.Duration) Config {
	return Config{Clock: clock, Increment: inc, MoveLimit: 100, Now: c.now}
}

// playTurn senses s and plays m, failing the test on any error.
func playTurn(t *testing.T, g *Game, s game.Square, m string) MoveResult {
	t.Helper()
	if _, err := g.Sense(s); err != nil {
		t.Fatalf("sense: %v", err)
	}
	var mv game.Move
	if m != "" {
		mv = mustMove(t, m)
	}
	r, err := g.Move(mv)
	if err != nil {
		t.Fatalf("move %s: %v", m, err)
	}
	if !g.IsOver() {
		if err := g.EndTurn(); err != nil {
			t.Fatalf("end turn: %v", err)
		}
	}
	return r
}

// TestGamePhases checks that actions come in order and that refused calls
// change nothing.
func TestGamePhases(t *testing.T) {
	g := NewGame(DefaultConfig(), "w", "b")
	if _, err := g.Sense(game.E4); !errors.Is(err, ErrNotStarted) {
		t.Errorf("sense before start: %v", err)
	}
	g.Start()
	if _, err := g.Move(game.NoMove); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("move before sense: %v", err)
	}
	if err := g.EndTurn(); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("end turn before move: %v", err)
	}
	if _, err := g.Sense(64); !errors.Is(err, ErrBadSquare) {
		t.Errorf("sense 64: %v", err)
	}
	if g.History().NumTurns() != 0 || g.Phase() != PhaseSense {
		t.Fatalf("a refused call changed the game")
	}
	if _, err := g.Sense(game.NoSquare); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Sense(game.E4); !errors.Is(err, ErrWrongPhase) {
		t.Errorf("second sense: %v", err)
	}
	before := g.Board()
	if _, err := g.Move(mustMove(t, "e2e5")); !errors.Is(err, ErrNotMoveAction) {
		t.Errorf("e2e5: %v", err)
	}
	after := g.Board()
	if before.FEN() != after.FEN() || len(g.History().RequestedMoves[game.White]) != 0 || g.Phase() != PhaseMove {
		t.Fatalf("a refused move changed the game")
	}
	if _, err := g.Move(mustMove(t, "e2e4")); err != nil {
		t.Fatal(err)
	}
	if g.Turn() != game.White || g.Phase() != PhaseEndTurn {
		t.Errorf("after the move: %s to %s, want white to end the turn", g.Turn(), g.Phase())
	}
	if err := g.EndTurn(); err != nil || g.Turn() != game.Black || g.Phase() != PhaseSense {
		t.Errorf("after end turn: %v, %s to %s", err, g.Turn(), g.Phase())
	}
}

// TestOpponentCaptureAndKingCapture checks what the opponent is told and
// that taking the king ends the game at once.
func TestOpponentCaptureAndKingCapture(t *testing.T) {
	g := NewGame(DefaultConfig(), "w", "b")
	g.Start()
	// The four-move attack on f7, black passing.
	playTurn(t, g, game.NoSquare, "e2e4")
	if g.OpponentCapture() != game.NoSquare {
		t.Errorf("capture reported after a quiet move")
	}
	playTurn(t, g, game.NoSquare, "")
	playTurn(t, g, game.NoSquare, "f1c4")
	playTurn(t, g, game.NoSquare, "")
	playTurn(t, g, game.NoSquare, "c4f7")
	if g.OpponentCapture() != game.F7 {
		t.Errorf("black is told of a capture on %s, want f7", SquareName(g.OpponentCapture()))
	}
	playTurn(t, g, game.NoSquare, "")
	r := playTurn(t, g, game.E8, "f7e8")
	if r.Capture != game.E8 || !g.IsOver() || g.Outcome() != Win(game.White, KingCapture) {
		t.Fatalf("after f7e8: %+v, %s", r, g.Outcome())
	}
	if err := g.EndTurn(); !errors.Is(err, ErrGameOver) {
		t.Errorf("end turn after the game: %v", err)
	}
	if g.MoveActions() != nil || g.SenseActions() != nil {
		t.Errorf("actions offered after the game")
	}
	if h := g.History(); h.Outcome != g.Outcome() || h.NumTurns() != 7 {
		t.Errorf("history: %s, %d turns", h.Outcome, h.NumTurns())
	}
}

// TestClocks checks the charge, the increment, the flag falling in the
// middle of a turn, and that each player sees its own time.
func TestClocks(t *testing.T) {
	clk := newFakeClock()
	g := NewGame(clockConfig(clk, 60*time.Second, time.Second), "w", "b")
	if g.SecondsLeft(game.White) != time.Minute {
		t.Errorf("before start: %s", g.SecondsLeft(game.White))
	}
	g.Start()
	clk.advance(10 * time.Second)
	if got := g.SecondsLeft(game.White); got != 50*time.Second {
		t.Errorf("white after 10s: %s", got)
	}
	if got := g.SecondsLeft(game.Black); got != time.Minute {
		t.Errorf("black's clock ran during white's turn: %s", got)
	}
	playTurn(t, g, game.NoSquare, "e2e4")
	if got := g.SecondsLeft(game.White); got != 51*time.Second {
		t.Errorf("white after the turn: %s, want 51s (60 - 10 + 1)", got)
	}
	if d, ok := g.Deadline(); !ok || !d.Equal(clk.t.Add(time.Minute)) {
		t.Errorf("black's deadline %v %v", d, ok)
	}

	// Black senses, then lets its clock run out before moving.
	if _, err := g.Sense(game.E4); err != nil {
		t.Fatal(err)
	}
	clk.advance(59 * time.Second)
	if g.CheckClock() {
		t.Fatal("flag fell with a second left")
	}
	clk.advance(time.Second)
	if _, err := g.Move(mustMove(t, "e7e5")); !errors.Is(err, ErrGameOver) {
		t.Fatalf("move after the flag fell: %v", err)
	}
	if g.Outcome() != Win(game.White, Timeout) {
		t.Errorf("outcome %s", g.Outcome())
	}
	h := g.History()
	if len(h.Senses[game.Black]) != 1 || len(h.RequestedMoves[game.Black]) != 0 {
		t.Errorf("black's last turn should have a sense and no move")
	}
	// Such a record (sense without move) saves, loads and replays.
	h2, err := UnmarshalHistory(MarshalHistory(h))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := Playback(h2, PlaybackOptions{}); err != nil || n != 2 {
		t.Errorf("playback: %d, %v", n, err)
	}
}

// TestMoveLimit checks the reversible half-move limit: passes count, a
// pawn move or capture resets the count.
func TestMoveLimit(t *testing.T) {
	g := NewGame(Config{MoveLimit: 4}, "w", "b")
	g.Start()
	moves := []string{"g1f3", "", "f3g1", "g8f6"}
	for i, m := range moves {
		if g.IsOver() {
			t.Fatalf("over after %d turns: %s", i, g.Outcome())
		}
		playTurn(t, g, game.NoSquare, m)
	}
	if g.Outcome() != Draw(MoveLimit) {
		t.Fatalf("after 4 reversible half-moves: %s", g.Outcome())
	}

	// A pawn move or capture resets the count.
	g = NewGame(Config{MoveLimit: 3}, "w", "b")
	g.Start()
	for _, m := range []string{"g1f3", "", "e2e4", "", ""} {
		playTurn(t, g, game.NoSquare, m)
	}
	if g.IsOver() {
		t.Fatalf("over after a pawn move reset the count: %s", g.Outcome())
	}
	playTurn(t, g, game.NoSquare, "")
	if g.Outcome() != Draw(MoveLimit) {
		t.Fatalf("outcome %s", g.Outcome())
	}
}

func TestTurnLimit(t *testing.T) {
	g := NewGame(Config{TurnLimit: 2}, "w", "b")
	g.Start()
	for i := 0; i < 4; i++ {
		if g.IsOver() {
			t.Fatalf("over after %d turns", i)
		}
		playTurn(t, g, game.NoSquare, "")
	}
	if g.Outcome() != Draw(TurnLimit) || g.History().NumTurns() != 4 {
		t.Fatalf("after two full turns: %s, %d turns", g.Outcome(), g.History().NumTurns())
	}
}

// TestResign checks resignation on either player's turn.
func TestResign(t *testing.T) {
	g := NewGame(DefaultConfig(), "w", "b")
	g.Start()
	playTurn(t, g, game.NoSquare, "e2e4")
	if err := g.Resign(game.White); err != nil { // on black's turn
		t.Fatal(err)
	}
	if g.Outcome() != Win(game.Black, Resign) {
		t.Errorf("outcome %s", g.Outcome())
	}
	if err := g.Resign(game.Black); !errors.Is(err, ErrGameOver) {
		t.Errorf("second resignation: %v", err)
	}
}

// TestRestore rebuilds games from their records at every point, a turn cut
// after its sense included, and checks the phase, the board and the
// clocks.
func TestRestore(t *testing.T) {
	clk := newFakeClock()
	g := NewGame(Config{Clock: time.Minute, Increment: time.Second, MoveLimit: 100, Now: clk.now}, "w", "b")
	g.Start()
	moves := []string{"e2e4", "e7e5", "g1f3", "", "f3e5"}
	for i, m := range moves {
		clk.advance(time.Duration(i+1) * time.Second)
		playTurn(t, g, game.Square(8*i), m)
	}
	if _, err := g.Sense(game.E4); err != nil { // black senses; the record stops mid-turn
		t.Fatal(err)
	}
	h, err := UnmarshalHistory(MarshalHistory(g.History()))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Restore(g.Config(), h, g.Clocks(), nil, game.White)
	if err != nil {
		t.Fatal(err)
	}
	before, after := g.Board(), r.Board()
	if r.Phase() != PhaseMove || r.Turn() != game.Black || after.FEN() != before.FEN() || r.Clocks() != g.Clocks() {
		t.Errorf("restored: %s to %s, %s, clocks %v; want black to move, %s, %v", r.Turn(), r.Phase(), after.FEN(), r.Clocks(), before.FEN(), g.Clocks())
	}
	if r.OpponentCapture() != g.OpponentCapture() {
		t.Errorf("opponent's capture %s, want %s", SquareName(r.OpponentCapture()), SquareName(g.OpponentCapture()))
	}
	// The restored game plays on like the original.
	if _, err := r.Move(mustMove(t, "d8e7")); err != nil {
		t.Fatal(err)
	}

	// A tampered record is refused.
	h.TakenMoves[game.White][0] = mustMove(t, "e2e3")
	if _, err := Restore(g.Config(), h, g.Clocks(), nil, game.White); err == nil {
		t.Error("a record whose taken move is wrong restored")
	}
}

// TestRestoreOpenTurn: a record cut after a move whose turn was not
// ended (the API's move before its end_turn) restores, with
// RestoreOpenTurn, to that turn's end-turn phase, the mover still to end
// it; Restore ends it, as a record's turns are.
func TestRestoreOpenTurn(t *testing.T) {
	clk := newFakeClock()
	g := NewGame(Config{Clock: time.Minute, Increment: time.Second, MoveLimit: 100, Now: clk.now}, "w", "b")
	g.Start()
	playTurn(t, g, game.E7, "e2e4")
	if _, err := g.Sense(game.E2); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Move(mustMove(t, "e7e5")); err != nil { // black moves, and has yet to end the turn
		t.Fatal(err)
	}
	h, err := UnmarshalHistory(MarshalHistory(g.History()))
	if err != nil {
		t.Fatal(err)
	}
	open, err := RestoreOpenTurn(g.Config(), h, g.Clocks(), nil, game.White)
	if err != nil {
		t.Fatal(err)
	}
	ob, gb := open.Board(), g.Board()
	if open.Turn() != game.Black || open.Phase() != PhaseEndTurn || ob.FEN() != gb.FEN() {
		t.Errorf("restored open: %s to %s, %s; want black to end its turn, %s", open.Turn(), open.Phase(), ob.FEN(), gb.FEN())
	}
	if err := open.EndTurn(); err != nil || open.Turn() != game.White {
		t.Errorf("ending the restored turn: %v, %s to act", err, open.Turn())
	}
	closed, err := Restore(g.Config(), h, g.Clocks(), nil, game.White)
	if err != nil {
		t.Fatal(err)
	}
	if closed.Turn() != game.White || closed.Phase() != PhaseSense {
		t.Errorf("restored: %s to %s; want white to sense", closed.Turn(), closed.Phase())
	}
}

// TestForfeit checks that a forfeit ends the game on time for the side
// that gave up, on either side's turn, charging the mover's running turn.
func TestForfeit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		loser game.Color
	}{{"the mover", game.Black}, {"the waiting side", game.White}} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			g := NewGame(clockConfig(clk, time.Minute, time.Second), "w", "b")
			if err := g.Forfeit(game.White); !errors.Is(err, ErrNotStarted) {
				t.Fatalf("forfeit before the start: %v", err)
			}
			g.Start()
			playTurn(t, g, game.NoSquare, "e2e4")
			clk.advance(10 * time.Second) // Black's turn
			if err := g.Forfeit(tc.loser); err != nil {
				t.Fatal(err)
			}
			if g.Outcome() != Win(tc.loser.Other(), Timeout) {
				t.Errorf("outcome %s", g.Outcome())
			}
			if got := g.SecondsLeft(tc.loser); got != 0 {
				t.Errorf("loser's clock %s, want 0", got)
			}
			if tc.loser == game.White {
				if got := g.SecondsLeft(game.Black); got != 50*time.Second {
					t.Errorf("the mover's clock %s, want 50s", got)
				}
			}
			if err := g.Forfeit(tc.loser.Other()); !errors.Is(err, ErrGameOver) {
				t.Errorf("forfeit after the end: %v", err)
			}
			if g.MoveActionsOf(game.White) != nil {
				t.Error("move actions after the end")
			}
		})
	}
}

// TestMoveActionsOf checks that each side's move actions are its own on
// either side's turn: the mover's as the arbiter has them, the other's
// as they would be with that side to move.
func TestMoveActionsOf(t *testing.T) {
	g := NewGame(DefaultConfig(), "w", "b")
	g.Start()
	playTurn(t, g, game.NoSquare, "e2e4")
	b := g.Board()
	if got, want := uciList(g.MoveActionsOf(game.Black)), uciList(b.MoveActions()); got != want {
		t.Errorf("the mover's actions\n got %s\nwant %s", got, want)
	}
	white, err := ParseBoard("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := uciList(g.MoveActionsOf(game.White)), uciList(white.MoveActions()); got != want {
		t.Errorf("the waiting side's actions\n got %s\nwant %s", got, want)
	}
}

func uciList(ms []game.Move) string {
	s := ""
	for _, m := range ms {
		s += UCI(m) + " "
	}
	return s
}

// TestCharge: a restored game's mover is charged time its turn had used
// before the restore, as if the turn had started that much earlier; the
// end of the turn charges the rest. Nothing else is charged.
func TestCharge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		clock  time.Duration
		charge time.Duration
		want   time.Duration // White's time left after the charge and 2 s more
	}{
		{"six seconds", time.Minute, 6 * time.Second, 52 * time.Second},
		{"nothing", time.Minute, 0, 58 * time.Second},
		{"negative", time.Minute, -time.Second, 58 * time.Second},
		{"no clock", 0, 6 * time.Second, Unlimited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			g := NewGame(clockConfig(clk, tc.clock, time.Second), "w", "b")
			g.Charge(tc.charge) // before the start: nothing
			g.Start()
			g.Charge(tc.charge)
			clk.advance(2 * time.Second)
			if got := g.SecondsLeft(game.White); got != tc.want {
				t.Errorf("White's time left %v, want %v", got, tc.want)
			}
			if got := g.SecondsLeft(game.Black); tc.clock > 0 && got != tc.clock {
				t.Errorf("Black's time left %v, want %v", got, tc.clock)
			}
		})
	}
}
