package tune

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
)

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

// NetworkSets blends scored positions' labels, holds out every n-th
// position and turns targets to the side to move's view.
func TestNetworkSets(t *testing.T) {
	data := []TrainingPosition{
		{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 1},
		{FEN: "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", Result: 1, Score: 160, Scored: true},
		{FEN: "4k3/8/8/8/8/8/q7/4K3 w - - 0 1", Result: 0, Score: -160, Scored: true},
		{FEN: game.StartFEN, Result: 0.5},
	}
	cases := []struct {
		name          string
		lambda, share float64
		train, valid  int
		targets       []float32 // the training set's, side to move's view
	}{
		{"no held-out share", 0.5, 0, 4, 0, []float32{1,
			float32(1 - (0.5 + 0.5*Sigmoid(160, NetworkScale))), float32(0.5 * Sigmoid(-160, NetworkScale)), 0.5}},
		{"results only, every second held out", 1, 0.5, 2, 2, []float32{1, 0}},
		{"a tiny share still holds out every 50th", 1, 0.02, 4, 0, nil},
	}
	for _, c := range cases {
		train, valid, scored, err := NetworkSets(data, c.lambda, c.share)
		if err != nil || scored != 2 || train.Len() != c.train || valid.Len() != c.valid {
			t.Errorf("%s: %d to train, %d held out, %d scored, %v", c.name, train.Len(), valid.Len(), scored, err)
			continue
		}
		for i, want := range c.targets {
			if math.Abs(float64(train.target[i]-want)) > 1e-6 {
				t.Errorf("%s: target %d = %v, want %v", c.name, i, train.target[i], want)
			}
		}
	}
	if _, _, _, err := NetworkSets([]TrainingPosition{{FEN: "x", Result: 1}}, 1, 0); err == nil {
		t.Error("a bad FEN was accepted")
	}
	if _, err := Train(context.Background(), new(TrainingSet), nil, TrainOptions{Epochs: 1}, nil); err == nil {
		t.Error("Train accepted no positions")
	}
}
