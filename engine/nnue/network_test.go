package nnue_test

import (
	"bytes"
	"errors"
	"math/bits"
	"math/rand/v2"
	"testing"

	"knightwatch/engine/nnue"
	"knightwatch/engine/nnue/nnuetest"
	"knightwatch/game"
)

var testFENs = []string{
	game.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
}

// TestUpdateMatchesRefresh plays random games and checks that updating
// the parent's accumulator by the changed pieces gives exactly the
// accumulator computed from scratch: after every move (captures, castling,
// en passant, promotions), after null moves, and across several moves.
func TestUpdateMatchesRefresh(t *testing.T) {
	n := nnuetest.Random(1)
	rng := rand.New(rand.NewPCG(2, 3))
	for gi := 0; gi < 60; gi++ {
		p, err := game.ParseFEN(testFENs[gi%len(testFENs)])
		if err != nil {
			t.Fatal(err)
		}
		ps := nnue.PiecesOf(p)
		var acc nnue.Accumulator
		n.Refresh(&acc, &ps)
		older, olderPieces := acc, ps // a few moves back
		for ply := 0; ply < 120; ply++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if rng.IntN(10) == 0 && !p.InCheck() {
				p.MakeNullMove()
			} else {
				p.MakeMove(moves[rng.IntN(len(moves))])
			}
			next := nnue.PiecesOf(p)
			var updated, fresh, jumped nnue.Accumulator
			n.Update(&updated, &acc, &ps, &next)
			n.Refresh(&fresh, &next)
			if updated != fresh {
				t.Fatalf("game %d ply %d: update differs from refresh at %s", gi, ply, p.FEN())
			}
			n.Update(&jumped, &older, &olderPieces, &next)
			if jumped != fresh {
				t.Fatalf("game %d ply %d: update across several moves differs at %s", gi, ply, p.FEN())
			}
			if ply%5 == 0 {
				older, olderPieces = fresh, next
			}
			acc, ps = fresh, next
		}
	}
}

// mirrored flips a placement vertically and swaps the colours.
func mirrored(ps nnue.Pieces) nnue.Pieces {
	var m nnue.Pieces
	for c := range 2 {
		for i := range 6 {
			m[1-c][i] = game.Bitboard(bits.ReverseBytes64(uint64(ps[c][i])))
		}
	}
	return m
}

// The network sees each side from its own back rank, so a position and
// its colour-flipped mirror are the same to the side to move.
func TestEvaluateColourSymmetric(t *testing.T) {
	n := nnuetest.Random(4)
	distinct := map[int]bool{}
	for _, fen := range testFENs {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		ps, ms := nnue.PiecesOf(p), mirrored(nnue.PiecesOf(p))
		var acc, macc nnue.Accumulator
		n.Refresh(&acc, &ps)
		n.Refresh(&macc, &ms)
		a, b := n.Evaluate(&acc, p.Side()), n.Evaluate(&macc, p.Side().Other())
		if a != b || a != n.EvaluatePosition(p) {
			t.Errorf("%s: %d, mirrored %d", fen, a, b)
		}
		distinct[a] = true
	}
	if len(distinct) < len(testFENs)-1 {
		t.Errorf("a random network gave only %d distinct scores for %d positions", len(distinct), len(testFENs))
	}
}

func TestReadWriteRoundTrip(t *testing.T) {
	n := nnuetest.Random(5)
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := nnue.Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if *back != *n {
		t.Fatal("network changed in the round trip")
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	var good bytes.Buffer
	if err := nnuetest.Random(6).Write(&good); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	overflow := nnuetest.Random(6)
	for f := 0; f < 40; f++ {
		overflow.W1[f*nnue.Hidden] = 1100
	}
	var bad bytes.Buffer
	if err := overflow.Write(&bad); err != nil {
		t.Fatal(err)
	}
	wrongHidden := bytes.Clone(g)
	wrongHidden[12] = nnue.Hidden + 1
	cases := map[string][]byte{
		"empty":           nil,
		"wrong magic":     append([]byte("XXXX"), g[4:]...),
		"wrong hidden":    wrongHidden,
		"truncated":       g[:len(g)-1],
		"trailing data":   append(bytes.Clone(g), 0),
		"header only":     g[:16],
		"could overflow":  bad.Bytes(),
		"text, not a net": []byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
	}
	for name, data := range cases {
		if _, err := nnue.Read(bytes.NewReader(data)); !errors.Is(err, nnue.ErrFormat) {
			t.Errorf("%s: got %v, want nnue.ErrFormat", name, err)
		}
	}
}

// FuzzRead: any bytes give a network or nnue.ErrFormat, never a panic, and a
// network that loads evaluates without overflow checks failing.
func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	if err := nnuetest.Random(7).Write(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add([]byte("KWNN"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := nnue.Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, nnue.ErrFormat) {
				t.Fatalf("error %v is not nnue.ErrFormat", err)
			}
			return
		}
		n.EvaluatePosition(game.NewPosition())
	})
}

// benchPlacements is a random game's consecutive placements, for the
// update and evaluation benchmarks.
func benchPlacements(b *testing.B) []nnue.Pieces {
	rng := rand.New(rand.NewPCG(5, 6))
	var out []nnue.Pieces
	for _, fen := range testFENs {
		p, err := game.ParseFEN(fen)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, nnue.PiecesOf(p))
		for ply := 0; ply < 60; ply++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			p.MakeMove(moves[rng.IntN(len(moves))])
			out = append(out, nnue.PiecesOf(p))
		}
	}
	return out
}

// BenchmarkUpdate measures one move's accumulator update.
func BenchmarkUpdate(b *testing.B) {
	n := nnuetest.Random(1)
	ps := benchPlacements(b)
	var acc, dst nnue.Accumulator
	n.Refresh(&acc, &ps[0])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % (len(ps) - 1)
		n.Update(&dst, &acc, &ps[k], &ps[k+1])
	}
}

// BenchmarkEvaluate measures the output layer.
func BenchmarkEvaluate(b *testing.B) {
	n := nnuetest.Random(1)
	ps := benchPlacements(b)
	var acc nnue.Accumulator
	n.Refresh(&acc, &ps[len(ps)/2])
	sum := 0
	for i := 0; i < b.N; i++ {
		sum += n.Evaluate(&acc, game.Color(i&1))
	}
	if sum == 42 {
		b.Log(sum)
	}
}
