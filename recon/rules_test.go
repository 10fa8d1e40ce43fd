package recon

import (
	"slices"
	"testing"

	"knightwatch/game"
)

func mustMove(t *testing.T, s string) game.Move {
	t.Helper()
	m, err := ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRevision covers each way a requested move becomes the taken one.
func TestRevision(t *testing.T) {
	tests := []struct {
		name, fen, request string
		taken              string // "pass" when nothing happens
		capture            string // "none" when nothing is captured
		after              string // the FEN after, when it matters
	}{
		{"legal move as requested", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4", "e2e4", "none", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"},
		{"rook stopped by an opponent piece captures it", "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1", "a1a8", "a1a5", "a5", "4k3/8/8/R7/8/8/8/4K3 b - - 0 1"},
		{"bishop revised", "k7/6p1/8/8/3n4/8/1B6/4K3 w - - 0 1", "b2h8", "b2d4", "d4", ""},
		{"queen revised backwards", "4k3/8/8/8/q7/8/2P5/Q3K3 b - - 0 1", "a4a1", "a4a1", "a1", ""},
		{"queen stopped downwards", "4k3/8/8/8/q7/8/P7/Q3K3 b - - 0 1", "a4a1", "a4a2", "a2", ""},
		{"blocked double step becomes a single step", "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e2e4", "e2e3", "none", "4k3/8/8/8/4n3/4P3/8/4K3 b - - 0 1"},
		{"double step blocked on the near square does nothing", "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e4", "pass", "none", "4k3/8/8/8/8/4n3/4P3/4K3 b - - 1 1"},
		{"pawn pushed onto a piece does nothing", "4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", "e3e4", "pass", "none", ""},
		{"pawn capture onto an empty square does nothing", "4k3/8/8/8/8/8/4P3/4K3 w - - 5 9", "e2d3", "pass", "none", "4k3/8/8/8/8/8/4P3/4K3 b - - 6 9"},
		{"en passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "e5d6", "d5", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2"},
		{"castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1g1", "none", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"},
		{"castling through check", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1", "e1g1", "none", "r3k2r/8/8/8/8/8/5r2/R4RK1 b kq - 1 1"},
		{"castling into check", "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", "e1g1", "e1g1", "none", ""},
		{"castling out of check", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1", "e1c1", "e1c1", "none", "r3k2r/8/8/8/8/8/4r3/2KR3R b kq - 1 1"},
		{"castling blocked by an opponent piece", "r3k2r/8/8/8/8/8/8/R3K1nR w KQkq - 0 1", "e1g1", "pass", "none", "r3k2r/8/8/8/8/8/8/R3K1nR b KQkq - 1 1"},
		{"queenside castling blocked on b1", "r3k2r/8/8/8/8/8/8/Rn2K2R w KQkq - 0 1", "e1c1", "pass", "none", ""},
		{"promotion to a knight", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n", "e7e8n", "none", "4N3/8/8/8/8/8/k7/4K3 b - - 0 1"},
		{"promotion to a rook by capture", "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8r", "e7d8r", "d8", "3R4/8/8/8/8/8/k7/4K3 b - - 0 1"},
		{"promotion to a bishop", "8/8/8/8/8/8/Kp6/7k b - - 0 1", "b2b1b", "b2b1b", "none", ""},
		{"missing promotion becomes a queen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8", "e7e8q", "none", "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1"},
		{"missing promotion on a capture becomes a queen", "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7d8", "e7d8q", "d8", ""},
		{"promotion pushed onto a piece does nothing", "4n3/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q", "pass", "none", ""},
		{"king captured by a revised move", "4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "e1e8", "e1e8", "e8", "4R3/8/8/8/8/8/8/5K2 b - - 0 1"},
		{"a king move ends its side's castling rights", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1e2", "e1e2", "none", "r3k2r/8/8/8/8/8/4K3/R6R b kq - 1 1"},
		{"a queen's diagonal stopped by the king captures it", "8/8/8/8/3k4/8/8/Q3K3 w - - 0 1", "a1h8", "a1d4", "d4", "8/8/8/8/3Q4/8/8/4K3 b - - 0 1"},
		{"captured king's rights vanish from the FEN", "r3k2r/8/8/8/8/8/8/R3Kq1R b KQkq - 0 1", "f1e1", "f1e1", "e1", "r3k2r/8/8/8/8/8/8/R3q2R w kq - 0 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseBoard(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			taken, capture, err := b.Move(mustMove(t, tc.request))
			if err != nil {
				t.Fatal(err)
			}
			if UCI(taken) != tc.taken || SquareName(capture) != tc.capture {
				t.Errorf("%s: taken %s capture %s, want %s %s", tc.request, UCI(taken), SquareName(capture), tc.taken, tc.capture)
			}
			if tc.after != "" && b.FEN() != tc.after {
				t.Errorf("FEN after %s\n want %s", b.FEN(), tc.after)
			}
		})
	}
}

// TestMoveActions checks what is offered: moves through opponent pieces,
// castling through check, pawn captures onto empty squares and their
// promotions, and nothing onto own pieces.
func TestMoveActions(t *testing.T) {
	b, err := ParseBoard("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	actions := b.MoveActions()
	has := func(s string) bool { return slices.Contains(actions, mustMove(t, s)) }
	for _, s := range []string{"e1g1", "e1c1", "a1a8", "h1h8", "b7b8q", "b7b8n", "b7a8", "b7a8r", "b7c8", "b7c8q"} {
		if !has(s) {
			t.Errorf("%s missing from %v", s, actions)
		}
	}
	for _, s := range []string{"b7b8", "e1h1", "a1e1", "e1e1"[:4]} {
		if m, err := ParseMove(s); err == nil && slices.Contains(actions, m) {
			t.Errorf("%s offered", s)
		}
	}

	// An own piece between king and rook stops castling; an opponent's
	// does not (it is not seen).
	b, _ = ParseBoard("4k3/8/8/8/8/8/8/RN2K1nR w KQ - 0 1")
	actions = b.MoveActions()
	if !has("e1g1") || has("e1c1") {
		t.Errorf("castling offered: %v", actions)
	}
}

// TestCheckMoveActionRefuses checks that a request outside the move
// actions is refused and changes nothing.
func TestCheckMoveActionRefuses(t *testing.T) {
	b := NewBoard()
	before := b.FEN()
	for _, s := range []string{"e2e5", "e1g1", "g1f3q", "a7a6", "d1d3"} {
		if _, _, err := b.Move(mustMove(t, s)); err == nil {
			t.Errorf("%s accepted", s)
		}
	}
	if b.FEN() != before {
		t.Errorf("board changed: %s", b.FEN())
	}
}

// TestSenseWindow checks the 3x3 window, clipped at corners and edges, in
// the reference's order.
func TestSenseWindow(t *testing.T) {
	b := NewBoard()
	tests := []struct {
		square string
		want   []string
	}{
		{"a1", []string{"a2=P", "b2=P", "a1=R", "b1=N"}},
		{"h8", []string{"g8=n", "h8=r", "g7=p", "h7=p"}},
		{"a5", []string{"a6=-", "b6=-", "a5=-", "b5=-", "a4=-", "b4=-"}},
		{"e8", []string{"d8=q", "e8=k", "f8=b", "d7=p", "e7=p", "f7=p"}},
		{"e4", []string{"d5=-", "e5=-", "f5=-", "d4=-", "e4=-", "f4=-", "d3=-", "e3=-", "f3=-"}},
	}
	for _, tc := range tests {
		s, _ := game.ParseSquare(tc.square)
		var got []string
		for _, sp := range b.Sense(s) {
			l := "-"
			if sp.Piece != game.NoPiece {
				l = sp.Piece.String()
			}
			got = append(got, sp.Square.String()+"="+l)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("sense %s: %v, want %v", tc.square, got, tc.want)
		}
	}
	if r := b.Sense(game.NoSquare); len(r) != 0 {
		t.Errorf("no sense gave %v", r)
	}
}

// TestParseMove covers the UCI forms accepted and refused.
func TestParseMove(t *testing.T) {
	for _, s := range []string{"e2e4", "e7e8q", "a7b8n", "h2h1r", "c2c1b"} {
		m, err := ParseMove(s)
		if err != nil || UCI(m) != s {
			t.Errorf("ParseMove(%q) = %s, %v", s, UCI(m), err)
		}
	}
	for _, s := range []string{"", "e2", "e2e4e", "e2e4k", "e2e4p", "E2E4", "i1a1", "e9e4", "e2e2", "0000", "e2e4qq", "e2-e4"} {
		if _, err := ParseMove(s); err == nil {
			t.Errorf("ParseMove(%q) accepted", s)
		}
	}
}
