package game

import (
	"bytes"
	"strings"
	"testing"
)

// fuzzPositions are the boards FuzzParseSAN and FuzzParseUCI parse moves in:
// castling both ways, en passant, promotions, disambiguation and Chess960.
var fuzzPositions = []string{
	StartFEN,
	castlingBoth,
	epReady,
	promoteA8,
	knightsOnFiles,
	threeQueens,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"4k3/8/8/8/8/8/8/RK5R w HA - 0 1",
}

func FuzzParseFEN(f *testing.F) {
	for _, s := range append(fuzzPositions, "", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 -2") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := ParseBoardFEN(s); err == nil {
			var ml MoveList
			p.GeneratePseudoLegal(&ml)
			p.GenerateLegal(&ml) // kingless boards must not panic either
			_ = p.FEN()
		}
		p, err := ParseFEN(s)
		if err != nil {
			if p != nil {
				t.Fatalf("position and error both returned for %q", s)
			}
			return
		}
		fen := p.FEN()
		q, err := ParseFEN(fen)
		if err != nil {
			t.Fatalf("FEN() of %q gave %q, which does not parse: %v", s, fen, err)
		}
		q.SetChess960(p.Chess960())
		if q.FEN() != fen || q.Hash() != p.Hash() || p.Hash() != p.computeHash() {
			t.Fatalf("%q: round trip %q -> %q", s, fen, q.FEN())
		}
		if Perft(p, 2) != Perft(q, 2) {
			t.Fatalf("%q: perft differs after the round trip", s)
		}
	})
}

// fuzzMoveParser checks a move parser on every fuzz position: no panic, the
// position unchanged, and an accepted move legal and written back the same.
func fuzzMoveParser(t *testing.T, idx uint8, s string, parse func(*Position, string) (Move, error), write func(*Position, Move) string) {
	p, err := ParseFEN(fuzzPositions[int(idx)%len(fuzzPositions)])
	if err != nil {
		t.Fatal(err)
	}
	before := *p
	m, err := parse(p, s)
	if *p != before {
		t.Fatalf("parsing %q changed the position", s)
	}
	if err != nil {
		return
	}
	if m == NullMove {
		return
	}
	if !p.IsLegal(m) {
		t.Fatalf("%q accepted as illegal move %v in %s", s, m, p.FEN())
	}
	if back, err := parse(p, write(p, m)); err != nil || back != m {
		t.Fatalf("%q -> %v -> %q -> %v, %v", s, m, write(p, m), back, err)
	}
}

func FuzzParseSAN(f *testing.F) {
	for i, s := range []string{"e4", "Nf3", "O-O", "0-0-0+", "exd6e.p.", "a8=Q", "a8q", "Nbd2", "Qh4e1", "--", "Rxa8#", "Ng1-f3!?", "x", ""} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, idx uint8, s string) {
		fuzzMoveParser(t, idx, s, (*Position).ParseSAN, (*Position).SAN)
	})
}

func FuzzParseUCI(f *testing.F) {
	for i, s := range []string{"e2e4", "e1g1", "e1h1", "a7a8q", "a7b8N", "0000", "b1a1", "e5d6", "e2e", "i1i2", ""} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, idx uint8, s string) {
		fuzzMoveParser(t, idx, s, (*Position).ParseUCI, (*Position).UCI)
	})
}

func FuzzReadPGN(f *testing.F) {
	for _, s := range []string{featurePGN, canonicalPGN, "1. e4 (1. d4 d5 (1... Nf6)) 1... e5 *", "[Event \"x\"\n", "{", "1. e4 $300", "%x\n1. e4 ; c\ne5 1-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadPGN(strings.NewReader(s))
		if err != nil {
			if _, ok := err.(*PGNError); !ok {
				t.Fatalf("error %v is not a *PGNError", err)
			}
		}
		var buf bytes.Buffer
		for _, g := range games {
			if err := g.Write(&buf); err != nil {
				t.Fatalf("writing a game that was read: %v", err)
			}
			if _, err := g.Mainline(); err != nil {
				t.Fatalf("main line of a game that was read: %v", err)
			}
		}
		again, err := ReadPGN(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("reading what was written: %v\n%s", err, buf.String())
		}
		if len(again) != len(games) {
			t.Fatalf("%d games became %d", len(games), len(again))
		}
		for i := range games {
			if d := pgnGamesDiffer(games[i], again[i]); d != "" {
				t.Fatalf("game %d: %s\n%s", i, d, buf.String())
			}
		}
	})
}
