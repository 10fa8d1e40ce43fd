package nnue

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
)

// randomNetwork has weights large enough that every neuron's activation
// varies between positions, and small enough never to overflow.
func randomNetwork(seed uint64) *Network {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := new(Network)
	for i := range n.W1 {
		n.W1[i] = int16(rng.IntN(201) - 100)
	}
	for i := range n.B1 {
		n.B1[i] = int16(rng.IntN(256))
	}
	for i := range n.W2 {
		n.W2[i] = int16(rng.IntN(129) - 64)
	}
	n.B2 = int32(rng.IntN(2001) - 1000)
	return n
}

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
	n := randomNetwork(1)
	rng := rand.New(rand.NewPCG(2, 3))
	for gi := 0; gi < 60; gi++ {
		p, err := game.ParseFEN(testFENs[gi%len(testFENs)])
		if err != nil {
			t.Fatal(err)
		}
		ps := PiecesOf(p)
		var acc Accumulator
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
			next := PiecesOf(p)
			var updated, fresh, jumped Accumulator
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

// mirror flips a position vertically and swaps the colours.
func mirror(t *testing.T, fen string) *game.Position {
	t.Helper()
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch {
			case r >= 'a' && r <= 'z':
				return r - 'a' + 'A'
			case r >= 'A' && r <= 'Z':
				return r - 'A' + 'a'
			}
			return r
		}, s)
	}
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	castle := swap(f[2])
	ep := f[3]
	if ep != "-" {
		ep = string(ep[0]) + string('1'+'8'-ep[1])
	}
	p, err := game.ParseFEN(strings.Join([]string{swap(strings.Join(ranks, "/")), side, castle, ep, f[4], f[5]}, " "))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The network sees each side from its own back rank, so a position and
// its colour-flipped mirror are the same to the side to move.
func TestEvaluateColourSymmetric(t *testing.T) {
	n := randomNetwork(4)
	distinct := map[int]bool{}
	for _, fen := range testFENs {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		a, b := n.EvaluatePosition(p), n.EvaluatePosition(mirror(t, fen))
		if a != b {
			t.Errorf("%s: %d, mirrored %d", fen, a, b)
		}
		distinct[a] = true
	}
	if len(distinct) < len(testFENs)-1 {
		t.Errorf("a random network gave only %d distinct scores for %d positions", len(distinct), len(testFENs))
	}
}

func TestReadWriteRoundTrip(t *testing.T) {
	n := randomNetwork(5)
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if *back != *n {
		t.Fatal("network changed in the round trip")
	}
}

func TestReadRejectsMalformed(t *testing.T) {
	var good bytes.Buffer
	if err := randomNetwork(6).Write(&good); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	overflow := randomNetwork(6)
	for f := 0; f < 40; f++ {
		overflow.W1[f*Hidden] = 1100
	}
	var bad bytes.Buffer
	if err := overflow.Write(&bad); err != nil {
		t.Fatal(err)
	}
	wrongHidden := bytes.Clone(g)
	wrongHidden[12] = Hidden + 1
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
		if _, err := Read(bytes.NewReader(data)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: got %v, want ErrFormat", name, err)
		}
	}
}

// FuzzRead: any bytes give a network or ErrFormat, never a panic, and a
// network that loads evaluates without overflow checks failing.
func FuzzRead(f *testing.F) {
	var good bytes.Buffer
	if err := randomNetwork(7).Write(&good); err != nil {
		f.Fatal(err)
	}
	f.Add(good.Bytes())
	f.Add([]byte("KWNN"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not ErrFormat", err)
			}
			return
		}
		n.EvaluatePosition(game.NewPosition())
	})
}

// TestTrainLearnsMaterial trains on positions labelled by who has the
// extra piece; the network must fit them better than at the start, and
// its quantized integer form must agree with the labels' direction.
func TestTrainLearnsMaterial(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	var train, valid TrainingSet
	extra := []string{"Q", "R", "N"}
	for i := 0; i < 3000; i++ {
		// Kings, a few pawns and one extra piece for one side.
		board := [64]byte{}
		place := func(c byte) {
			for {
				sq := rng.IntN(64)
				if board[sq] == 0 && !(c == 'P' || c == 'p') || board[sq] == 0 && sq >= 8 && sq < 56 {
					board[sq] = c
					return
				}
			}
		}
		place('K')
		place('k')
		for range 3 {
			place('P')
			place('p')
		}
		piece := extra[rng.IntN(len(extra))]
		whiteUp := rng.IntN(2) == 0
		if !whiteUp {
			piece = strings.ToLower(piece)
		}
		place(piece[0])
		var sb strings.Builder
		for r := 7; r >= 0; r-- {
			empty := 0
			for f := 0; f < 8; f++ {
				c := board[r*8+f]
				if c == 0 {
					empty++
					continue
				}
				if empty > 0 {
					sb.WriteByte(byte('0' + empty))
					empty = 0
				}
				sb.WriteByte(c)
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
			}
			if r > 0 {
				sb.WriteByte('/')
			}
		}
		side := []string{"w", "b"}[rng.IntN(2)]
		p, err := game.ParseFEN(sb.String() + " " + side + " - - 0 1")
		if err != nil {
			continue // a king left in check by the random placement
		}
		target := 0.1
		if whiteUp {
			target = 0.9
		}
		if i%10 == 0 {
			valid.Add(p, target)
		} else {
			train.Add(p, target)
		}
	}
	var first, last float64
	net, err := Train(context.Background(), &train, &valid, TrainOptions{Epochs: 20, BatchSize: 256, LR: 0.01, Seed: 1, Threads: 2},
		func(epoch int, trainErr, validErr float64) {
			if epoch == 1 {
				first = validErr
			}
			last = validErr
		})
	if err != nil {
		t.Fatal(err)
	}
	if !(last < first*0.5) || math.IsNaN(last) {
		t.Fatalf("validation error %.4f after the first epoch, %.4f at the end: not learning", first, last)
	}
	for _, c := range []struct {
		fen  string
		sign int
	}{
		{"4k3/pp6/8/8/8/8/PP6/3QK3 w - - 0 1", 1},
		{"4k3/pp6/8/8/8/8/PP6/3QK3 b - - 0 1", -1},
		{"3qk3/pp6/8/8/8/8/PP6/4K3 w - - 0 1", -1},
		{"4k3/pp6/8/8/8/8/PP6/3RK3 b - - 0 1", -1},
	} {
		p, _ := game.ParseFEN(c.fen)
		if s := net.EvaluatePosition(p); s*c.sign < 50 {
			t.Errorf("%s: score %d, want at least 50 for the side %s", c.fen, s, map[int]string{1: "to move", -1: "not to move"}[c.sign])
		}
	}
}
