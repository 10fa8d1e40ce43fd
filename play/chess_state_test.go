package play

import (
	"reflect"
	"testing"

	"knightwatch/game"
)

// In Chess960 castling is king-takes-rook; the board offers it on the
// rook's square and on the king's destination, with the same UCI.
func TestChess960CastlingOffered(t *testing.T) {
	p, err := game.ParseFEN("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p.SetChess960(true)
	got := map[string]string{}
	for _, l := range legalViews(p) {
		if l.From == "e1" && (l.UCI == "e1g1" || l.UCI == "e1b1") {
			got[l.To] = l.UCI
		}
	}
	want := map[string]string{"g1": "e1g1", "b1": "e1b1", "c1": "e1b1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("castling offered %v, want %v", got, want)
	}
}
