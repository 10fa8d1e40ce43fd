package play

import (
	"errors"
	"strings"
	"testing"

	"knightwatch/game"
)

// TestParseTypedMove checks typed moves in any letter case, the b-file
// against bishop rule, and the three kinds of refusal (issue 34, item 7).
func TestParseTypedMove(t *testing.T) {
	const (
		start     = game.StartFEN
		pawnOrB   = "4k3/8/8/8/8/2n5/1P6/4BK2 w - - 0 1" // b2xc3 and Be1xc3 both legal
		bishopNoP = "4k3/8/8/8/8/2n5/7P/4BK2 w - - 0 1"  // only the bishop takes on c3
		pawnNoB   = "4k3/8/8/8/8/2n5/1P6/5K2 w - - 0 1"  // only the pawn takes on c3
		twoKnight = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"   // both knights reach d2
		castles   = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
		promote   = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
	)
	tests := []struct {
		fen, typed string
		want       string // UCI of the move, or "" for an error
		err        error  // the kind of refusal
	}{
		{start, "Nf3", "g1f3", nil},
		{start, "nf3", "g1f3", nil},
		{start, "NF3", "g1f3", nil},
		{start, "nF3", "g1f3", nil},
		{start, "e4", "e2e4", nil},
		{start, "E4", "e2e4", nil},
		{start, "e2E4", "e2e4", nil},
		{start, "E2E4", "e2e4", nil},
		{start, " g1f3 ", "g1f3", nil},
		{start, "Nf3+", "g1f3", nil},
		{start, "B4", "b2b4", nil}, // no bishop move: the b-pawn
		{start, "hello", "", game.ErrInvalidMove},
		{start, "zz", "", game.ErrInvalidMove},
		{start, "e9", "", game.ErrInvalidMove},
		{start, "--", "", game.ErrInvalidMove},
		{start, "0000", "", game.ErrInvalidMove},
		{start, "", "", game.ErrInvalidMove},
		{start, "Ke4", "", game.ErrIllegalMove},
		{start, "ke4", "", game.ErrIllegalMove},
		{start, "e5", "", game.ErrIllegalMove},
		{start, "E2E5", "", game.ErrIllegalMove},
		{start, "O-O", "", game.ErrIllegalMove},
		// b: the file or the bishop.
		{pawnOrB, "bxc3", "b2c3", nil}, // lower case b: the pawn when it can
		{pawnOrB, "Bxc3", "e1c3", nil}, // upper case B: the bishop
		{pawnOrB, "BXC3", "e1c3", nil},
		{pawnOrB, "bXC3", "b2c3", nil},
		{pawnOrB, "b2c3", "b2c3", nil},
		{pawnOrB, "e1c3", "e1c3", nil},
		{bishopNoP, "bxc3", "e1c3", nil}, // no pawn capture fits: the bishop
		{bishopNoP, "BXC3", "e1c3", nil},
		{pawnNoB, "Bxc3", "b2c3", nil}, // no bishop: the pawn
		{pawnNoB, "BXC3", "b2c3", nil},
		{pawnNoB, "bxd3", "", game.ErrIllegalMove},
		// Ambiguity among pieces stays a refusal, whatever the case.
		{twoKnight, "Nd2", "", game.ErrAmbiguousMove},
		{twoKnight, "nd2", "", game.ErrAmbiguousMove},
		{twoKnight, "nbd2", "b1d2", nil},
		{twoKnight, "NFD2", "f1d2", nil},
		{castles, "o-o", "e1g1", nil},
		{castles, "O-O-O", "e1c1", nil},
		{castles, "0-0", "e1g1", nil},
		{promote, "b8=q", "b7b8q", nil},
		{promote, "B8=Q", "b7b8q", nil},
		{promote, "b7b8N", "b7b8n", nil},
	}
	for _, tc := range tests {
		pos, err := game.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := parseTypedMove(pos, tc.typed)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s %q: got move %v err %v, want error %v", tc.fen, tc.typed, m, err, tc.err)
			}
			continue
		}
		if err != nil || pos.UCI(m) != tc.want {
			t.Errorf("%s %q: got %q (err %v), want %s", tc.fen, tc.typed, pos.UCI(m), err, tc.want)
		}
	}
}

// TestTypedMoveErrorWords: the refusal says "not a move" or "illegal".
func TestTypedMoveErrorWords(t *testing.T) {
	pos := game.NewPosition()
	for _, tc := range []struct{ typed, words string }{
		{"hello", "is not a move"},
		{"Ke4", "illegal move"},
	} {
		_, err := parseTypedMove(pos, tc.typed)
		pe := typedMoveError(tc.typed, err)
		if pe.Code != CodeIllegalMove || !strings.Contains(strings.ToLower(pe.Message), tc.words) {
			t.Errorf("%q: %s, want code %s and %q", tc.typed, pe, CodeIllegalMove, tc.words)
		}
	}
}
