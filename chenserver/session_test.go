package chenserver

import (
	"strings"
	"testing"
)

// play runs commands on s and fails unless each answers want.
func play(t *testing.T, s *Session, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		if got, _ := s.Execute(c); !strings.HasPrefix(got, "OK") {
			t.Fatalf("%q: got %q", c, got)
		}
	}
}

// TestErrorsLeaveStateUnchanged sends every kind of bad command from a
// game in progress: each must answer one line not starting with OK and
// leave position and history as they were.
func TestErrorsLeaveStateUnchanged(t *testing.T) {
	tests := []struct{ cmd, want string }{
		{"", "CANNOT_PARSE"},
		{"   \t ", "CANNOT_PARSE"},
		{"frobnicate", "UNKNOWN_COMMAND"},
		{"NEW", "UNKNOWN_COMMAND"},
		{"new game", "BAD_ARGS"},
		{"status now", "BAD_ARGS"},
		{"exit please", "BAD_ARGS"},
		{"legal tuna", "BAD_FORMAT"},
		{"legal pgn alg", "BAD_FORMAT"},
		{"history PGN", "BAD_FORMAT"},
		{"history pgn pgn", "BAD_FORMAT"},
		{"test", "BAD_ARGS"},
		{"test e4 e5", "BAD_ARGS"},
		{"test e9", "ILLEGAL"},
		{"test 0000", "ILLEGAL"},
		{"test --", "ILLEGAL"},
		{"move Nc3 Nc6 Qxf7", "BAD_MOVE Qxf7"},
		{"move zz", "BAD_MOVE zz"},
		{"move 0000", "BAD_MOVE 0000"},
		{"move Nc3 --", "BAD_MOVE --"},
		{"move e2e4", "BAD_MOVE e2e4"},
		{"move exd5 e2e4", "BAD_MOVE e2e4"},
		{"move e7e5", "BAD_MOVE e7e5"},
		{"think", "BAD_ARGS"},
		{"think 1 2", "BAD_ARGS"},
		{"think 0", "BAD_THINK_TIME"},
		{"think -5", "BAD_THINK_TIME"},
		{"think 300001", "BAD_THINK_TIME"},
		{"think 1e3", "BAD_THINK_TIME"},
		{"think tuna", "BAD_THINK_TIME"},
		{"think 99999999999999999999", "BAD_THINK_TIME"},
		{"undo", "BAD_ARGS"},
		{"undo 1 1", "BAD_ARGS"},
		{"undo 0", "BAD_NUM_TURNS"},
		{"undo -1", "BAD_NUM_TURNS"},
		{"undo 3", "BAD_NUM_TURNS"},
		{"undo two", "BAD_NUM_TURNS"},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			s := NewSession(&quickThinker{})
			play(t, s, "move e4 d5")
			before := snapshot(s)
			got, exit := s.Execute(tt.cmd)
			if got != tt.want || exit {
				t.Fatalf("got %q (exit %v), want %q", got, exit, tt.want)
			}
			if after := snapshot(s); after != before {
				t.Fatalf("state changed:\n%s\n%s", before, after)
			}
		})
	}
}

// TestMoveNotations covers the notations `move` and `test` accept: SAN or
// algebraic per move, castling as O-O or the king's two-square move,
// promotion as e7e8q or e8=Q, en passant, optional check/mate suffixes.
func TestMoveNotations(t *testing.T) {
	tests := []struct {
		name  string
		setup string // moves played first
		cmd   string
		want  string
		fen   string // status after, when not empty
	}{
		{"mixed notations", "", "move e2e4 e5 g1f3 Nc6", "OK 4", ""},
		{"castle O-O", "e4 e5 Nf3 Nc6 Bc4 Bc5", "move O-O", "OK 1",
			"* r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"},
		{"castle e1g1", "e4 e5 Nf3 Nc6 Bc4 Bc5", "move e1g1", "OK 1",
			"* r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"},
		{"castle O-O-O both notations", "d4 d5 Nc3 Nc6 Bf4 Bf5 Qd2 Qd7", "move O-O-O e8c8", "OK 2",
			"* 2kr1bnr/pppqpppp/2n5/3p1b2/3P1B2/2N5/PPPQPPPP/2KR1BNR w - - 8 6"},
		{"test castling", "e4 e5 Nf3 Nc6 Bc4 Bc5", "test O-O", "OK e1g1 O-O", ""},
		{"promotion e7e8q", "e4 d5 exd5 Nf6 c4 e6 dxe6 Bd6 exf7+ Ke7", "test f7f8q", "OK f7f8q f8=Q+", ""},
		{"promotion SAN", "e4 d5 exd5 Nf6 c4 e6 dxe6 Bd6 exf7+ Ke7", "test f8=N", "OK f7f8n f8=N", ""},
		{"promotion needs a piece", "e4 d5 exd5 Nf6 c4 e6 dxe6 Bd6 exf7+ Ke7", "test f7f8", "ILLEGAL", ""},
		{"under-promotion played", "e4 d5 exd5 Nf6 c4 e6 dxe6 Bd6 exf7+ Ke7", "move f7f8r", "OK 1",
			"* rnbq1R1r/ppp1k1pp/3b1n2/8/2P5/8/PP1P1PPP/RNBQKBNR b KQ - 0 6"},
		{"en passant algebraic", "e4 a6 e5 d5", "test e5d6", "OK e5d6 exd6", ""},
		{"en passant SAN", "e4 a6 e5 d5", "move exd6", "OK 1",
			"* rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"},
		{"check suffix optional", "e4 e5 Bc4 Nc6 Qh5 Nf6", "test Qxf7", "OK h5f7 Qxf7#", ""},
		{"mate suffix accepted", "e4 e5 Bc4 Nc6 Qh5 Nf6", "move Qxf7#", "OK 1", ""},
		{"check suffix accepted", "e4 e5 Bc4 Nc6", "test Bxf7+", "OK c4f7 Bxf7+", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(nil)
			if tt.setup != "" {
				play(t, s, "move "+tt.setup)
			}
			if got, _ := s.Execute(tt.cmd); got != tt.want {
				t.Fatalf("%q: got %q, want %q", tt.cmd, got, tt.want)
			}
			if tt.fen != "" {
				if got, _ := s.Execute("status"); got != tt.fen {
					t.Fatalf("status: got %q, want %q", got, tt.fen)
				}
			}
		})
	}
}

// TestGameEndings checks the status codes and what the other commands do
// once the game is over.
func TestGameEndings(t *testing.T) {
	tests := []struct {
		name, moves, status string
	}{
		{"black mates", "f3 e5 g4 Qh4#", "0-1 rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"},
		{"stalemate", "e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6",
			"1/2-1/2 5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10"},
		{"threefold repetition", "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
			"1/2-1/2 rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(&quickThinker{})
			play(t, s, "move "+tt.moves)
			if got, _ := s.Execute("status"); got != tt.status {
				t.Fatalf("status: got %q, want %q", got, tt.status)
			}
			before := snapshot(s)
			if got, _ := s.Execute("think 10"); got != "GAME_OVER" {
				t.Fatalf("think: got %q, want GAME_OVER", got)
			}
			if after := snapshot(s); after != before {
				t.Fatalf("think changed state")
			}
			play(t, s, "undo 1")
			if got, _ := s.Execute("status"); strings.HasPrefix(got, tt.status[:3]) {
				t.Fatalf("after undo still over: %q", got)
			}
		})
	}
}

// TestNoLegalMoves: `legal` answers OK 0 and `test` ILLEGAL when mated.
func TestNoLegalMoves(t *testing.T) {
	s := NewSession(nil)
	play(t, s, "move f3 e5 g4 Qh4#")
	for cmd, want := range map[string]string{"legal": "OK 0", "legal pgn": "OK 0", "test e2e4": "ILLEGAL", "move Kf2": "BAD_MOVE Kf2"} {
		if got, _ := s.Execute(cmd); got != want {
			t.Errorf("%q: got %q, want %q", cmd, got, want)
		}
	}
}

// TestNewResetsEverything: `new` restores the start position and history
// and tells the engine a new game begins.
func TestNewResetsEverything(t *testing.T) {
	q := &quickThinker{}
	s := NewSession(q)
	play(t, s, "move e4 e5", "think 5", "new")
	want := "* rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | OK 0"
	if got := snapshot(s); got != want {
		t.Fatalf("after new: %q", got)
	}
	if q.newGame != 1 {
		t.Fatalf("engine NewGame called %d times, want 1", q.newGame)
	}
}

// TestThinkWithoutEngine answers THINK_ERROR rather than panicking.
func TestThinkWithoutEngine(t *testing.T) {
	s := NewSession(nil)
	before := snapshot(s)
	if got, _ := s.Execute("think 10"); got != "THINK_ERROR" {
		t.Fatalf("got %q", got)
	}
	if snapshot(s) != before {
		t.Fatal("state changed")
	}
}

func TestThinkBudget(t *testing.T) {
	tests := []struct {
		millis             int
		wantMove, wantDead string
	}{
		{1, "900µs", "1ms"},
		{100, "90ms", "100ms"},
		{1000, "950ms", "1s"},
		{300000, "4m59.95s", "5m0s"},
	}
	for _, tt := range tests {
		mt, dl := thinkBudget(tt.millis)
		if mt.String() != tt.wantMove || dl.String() != tt.wantDead {
			t.Errorf("thinkBudget(%d) = %v, %v; want %s, %s", tt.millis, mt, dl, tt.wantMove, tt.wantDead)
		}
	}
}

// TestThinkRealEngine: with the real engine, even the shortest limits give
// a legal move in both notations, played on the board.
func TestThinkRealEngine(t *testing.T) {
	tests := []struct {
		name, setup, think string
	}{
		{"start, 1 ms", "", "think 1"},
		{"middlegame, 30 ms", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7", "think 30"},
		{"black to move, 5 ms", "d4 Nf6 c4 e6 Nc3", "think 5"},
		{"only one legal move", "e4 f5 Qh5+", "think 20"},
	}
	s := NewSession(NewEngineThinker(16))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			play(t, s, "new")
			if tt.setup != "" {
				play(t, s, "move "+tt.setup)
			}
			before, _ := s.Execute("status")
			got, _ := s.Execute(tt.think)
			checkThinkAnswer(t, before, got)
			if h, _ := s.Execute("history"); !strings.HasSuffix(h, " "+strings.Fields(got)[1]) {
				t.Fatalf("history %q does not end with the move thought", h)
			}
		})
	}
}
