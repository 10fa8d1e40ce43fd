package game

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
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

// FuzzPGNReader checks the streaming reader on any input: it never fails
// but for its reader, reads the same games however the input arrives,
// finds the same games with NextHeaders, agrees with ReadPGN up to the
// first bad game, and every game it returns (errors or not) writes as PGN
// that reads back the same and without errors.
func FuzzPGNReader(f *testing.F) {
	for _, s := range []string{featurePGN, trickyPGN, badDatabase, "1. g1f3 c7c5 2. e2e4 *", "[Variant \"Atomic\"]\n1. e4 *\n1. d4 *", "1. e4 \"x\\\"\n[Event \"y\"]", "1. e4 Zz9 (", "\xef\xbb\xbf[A \"\r\"]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ReadAllPGN(strings.NewReader(s))
		if err != nil {
			t.Fatalf("ReadAllPGN: %v", err)
		}
		byByte, err := ReadAllPGN(iotest.OneByteReader(strings.NewReader(s)))
		if err != nil || len(byByte) != len(games) {
			t.Fatalf("byte by byte: %d games, %v; at once %d", len(byByte), err, len(games))
		}
		pr := NewPGNReader(strings.NewReader(s))
		for i := 0; ; i++ {
			h, err := pr.NextHeaders()
			if err == io.EOF {
				if i != len(games) {
					t.Fatalf("%d headers, %d games", i, len(games))
				}
				break
			}
			// The reader adds the Variant tag a Chess960 FEN implies.
			if err != nil || i >= len(games) || !tagsEqual(h.Tags, games[i].Tags) && !tagsEqual(append(h.Tags, PGNTag{"Variant", "Chess960"}), games[i].Tags) {
				t.Fatalf("headers %d: %v, %v", i, h, err)
			}
		}
		old, oldErr := ReadPGN(strings.NewReader(s))
		for i, g := range games {
			if d := pgnGamesDiffer(g, byByte[i]); d != "" || len(g.Errors) != len(byByte[i].Errors) {
				t.Fatalf("game %d byte by byte: %s", i, d)
			}
			for _, e := range g.Errors {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Fatalf("game %d: error %#v", i, e)
				}
			}
			if i < len(old) && (len(g.Errors) > 0 || pgnGamesDiffer(g, old[i]) != "") {
				t.Fatalf("ReadPGN's game %d differs", i)
			}
			if i == len(old) && (len(g.Errors) == 0 || oldErr != g.Errors[0]) && oldErr == nil {
				t.Fatalf("ReadPGN stopped at game %d without error", i)
			}
			unplayable := false
			for _, e := range g.Errors {
				unplayable = unplayable || e.Kind == PGNBadFEN || e.Kind == PGNUnsupportedVariant
			}
			if unplayable {
				continue
			}
			var buf bytes.Buffer
			if err := g.Write(&buf); err != nil {
				t.Fatalf("game %d: Write: %v", i, err)
			}
			if _, err := g.Mainline(); err != nil {
				t.Fatalf("game %d: Mainline: %v", i, err)
			}
			back, err := ReadAllPGN(&buf)
			if err != nil || len(back) != 1 || len(back[0].Errors) > 0 {
				t.Fatalf("game %d written as\n%s\nreads back as %d games, %v", i, buf.String(), len(back), back[0].Errors)
			}
			if d := pgnGamesDiffer(g, back[0]); d != "" {
				t.Fatalf("game %d: %s", i, d)
			}
		}
		if len(old) > len(games) || len(old) < len(games) && oldErr == nil {
			t.Fatalf("ReadPGN: %d games, %v; ReadAllPGN %d", len(old), oldErr, len(games))
		}
	})
}
