package web

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"knightwatch/game"
)

func TestChess960BackRank(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{518, "RNBQKBNR"}, // the ordinary start position
		{0, "BBQNNRKR"},
		{959, "RKRNNQBB"},
		{1, "BQNBNRKR"},
	}
	for _, tc := range tests {
		got, err := chess960BackRank(tc.n)
		if err != nil || got != tc.want {
			t.Errorf("chess960BackRank(%d) = %q, %v; want %q", tc.n, got, err, tc.want)
		}
	}
	for _, bad := range []int{-1, 960} {
		if _, err := chess960BackRank(bad); err == nil {
			t.Errorf("chess960BackRank(%d) accepted", bad)
		}
	}
}

// Every start position must be a legal Chess960 setup: distinct ranks,
// bishops on opposite colours, king between the rooks, and the FEN must
// parse with castling rights for both sides.
func TestChess960AllPositions(t *testing.T) {
	seen := map[string]bool{}
	for n := 0; n < 960; n++ {
		r, err := chess960BackRank(n)
		if err != nil {
			t.Fatal(err)
		}
		if seen[r] {
			t.Fatalf("position %d repeats %s", n, r)
		}
		seen[r] = true
		b1, b2 := strings.IndexByte(r, 'B'), strings.LastIndexByte(r, 'B')
		r1, r2, k := strings.IndexByte(r, 'R'), strings.LastIndexByte(r, 'R'), strings.IndexByte(r, 'K')
		if (b1+b2)%2 == 0 || !(r1 < k && k < r2) {
			t.Fatalf("position %d = %s is not a Chess960 setup", n, r)
		}
		fen, _ := chess960FEN(n)
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatalf("position %d: %v", n, err)
		}
		for c := game.White; c <= game.Black; c++ {
			for side := 0; side < 2; side++ {
				if p.CastlingRook(c, side) == game.NoSquare {
					t.Fatalf("position %d (%s) lost a castling right", n, fen)
				}
			}
		}
	}
}

// TestChess960Number: the Scharnagl numbers of known start positions, the
// round trip over all 960, and FENs that are none of them.
func TestChess960Number(t *testing.T) {
	known := map[string]int{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1": 518,
		"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1": 0,
		"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1": 959,
	}
	for fen, want := range known {
		if n, ok := chess960Number(fen); !ok || n != want {
			t.Errorf("chess960Number(%q) = %d, %v; want %d", fen, n, ok, want)
		}
	}
	for n := 0; n < 960; n++ {
		fen, err := chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := chess960Number(fen); !ok || got != n {
			t.Fatalf("round trip %d: %q gives %d, %v", n, fen, got, ok)
		}
	}
	for _, fen := range []string{
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", // a move played
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1",      // Black does not mirror White
		"brbqkrnn/pppppppp/8/8/8/8/PPPPPPPP/BRBQKRNN w - - 0 1",      // both bishops on dark squares
		"rkbqnbnr/pppppppp/8/8/8/8/PPPPPPPP/KRBQNBNR w - - 0 1",      // king not between the rooks
		"", "8/8/8/8/8/8/8/8 w - - 0 1",
	} {
		if n, ok := chess960Number(fen); ok {
			t.Errorf("chess960Number(%q) = %d, want none", fen, n)
		}
	}
}

// TestChess960NumberShown: a Chess960 game's page and PGN give its start
// position's number; a standard game's do not.
func TestChess960NumberShown(t *testing.T) {
	e := newEnv(t, envOpts{})
	c := e.browser()
	get := func(path string) string {
		resp, err := c.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for i := 0; i < 5; i++ {
		id := e.newGame(c, form("white", "1", "chess960", "none"))
		rec, err := e.store.Games().GetGame(id)
		if err != nil {
			t.Fatal(err)
		}
		rank := strings.Split(strings.Fields(rec.StartFEN)[0], "/")[7]
		n, ok := chess960Number(rec.StartFEN)
		if back, _ := chess960BackRank(n); !ok || back != rank {
			t.Fatalf("start %q: number %d (%v) is %q", rec.StartFEN, n, ok, back)
		}
		want := "Chess960 position " + strconv.Itoa(n) + "<"
		if page := get("/game/" + id); !strings.Contains(page, want) {
			t.Fatalf("game page lacks %q: %s", want, page)
		}
		if pgn := get("/game/" + id + "/pgn"); !strings.Contains(pgn, `[Chess960Position "`+strconv.Itoa(n)+`"]`) {
			t.Fatalf("PGN lacks the number %d:\n%s", n, pgn)
		}
	}
	id := e.newGame(c, form("white", "1", "standard", "none"))
	if page := get("/game/" + id); strings.Contains(page, "Chess960") {
		t.Fatalf("standard game's page names Chess960: %s", page)
	}
	if pgn := get("/game/" + id + "/pgn"); strings.Contains(pgn, "Chess960Position") {
		t.Fatalf("standard game's PGN has a Chess960Position tag:\n%s", pgn)
	}
}
