package bots

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// Boards for the mate tests: Black facing the scholar's mate on f7, and
// White with a back rank its rook alone guards (with and without room for
// the king on h2).
const (
	scholarsMate = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
	backRank     = "3r2k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
	backRankLuft = "3r2k1/5ppp/8/8/8/7P/5PP1/R5K1 w - - 0 1"
)

func TestAllowsMate(t *testing.T) {
	tests := []struct {
		name, fen, request string
		us                 game.Color
		want               bool
	}{
		{"the knight leaves f7 to Qxf7", scholarsMate, "g8f6", game.Black, true},
		{"a pass leaves f7 to Qxf7", scholarsMate, "", game.Black, true},
		{"g6 blocks the queen's diagonal", scholarsMate, "g7g6", game.Black, false},
		{"the queen defends f7", scholarsMate, "d8e7", game.Black, false},
		{"the rook leaves the back rank", backRank, "a1a5", game.White, true},
		{"the rook stays on it", backRank, "a1b1", game.White, false},
		{"the king has h2", backRankLuft, "a1a5", game.White, false},
		{"a king left capturable is exposure, not a mate", "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", "a1a2", game.White, false},
		{"taking the king ends the game", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "h1h8", game.White, false},
		{"taking the king first", "R3k3/8/8/8/8/8/8/4K3 w - - 0 1", "a8e8", game.White, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := recon.ParseBoard(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			p := b.Position()
			a := game.NoMove
			if tc.request != "" {
				if a, err = recon.ParseMove(tc.request); err != nil {
					t.Fatal(err)
				}
			}
			if got := allowsMate(&p, a, tc.us); got != tc.want {
				t.Errorf("allowsMate(%s) = %v, want %v", tc.request, got, tc.want)
			}
		})
	}
}

// TestMateExposureCountsBoards checks that each board counts once: the
// rook leaving the back rank allows a mate on one of two boards, whatever
// their weights.
func TestMateExposureCountsBoards(t *testing.T) {
	s := beliefOf(t, backRank, backRankLuft)
	s.weights = []float64{0.01, 0.99}
	var actions []game.Move
	for _, u := range []string{"a1a5", "a1b1"} {
		m, err := recon.ParseMove(u)
		if err != nil {
			t.Fatal(err)
		}
		actions = append(actions, m)
	}
	got := mateExposure(s, actions, game.White, mateSample, rand.New(rand.NewPCG(1, 2)))
	if want := []float64{0.5, 0}; math.Abs(got[0]-want[0]) > 1e-9 || got[1] != want[1] {
		t.Errorf("mateExposure = %v, want %v", got, want)
	}
}

// TestMateCautionSteersTheMove: on the likeliest board the rook's
// departure wins a queen safely (the king has h2); on an unlikely one it
// allows a back-rank mate. Judged as the bulk of a large belief is, by
// quiescence alone, the bot takes the queen unless mates are counted.
func TestMateCautionSteersTheMove(t *testing.T) {
	// Rxa5 wins the queen; on both boards every move of the rook up the
	// a-file stops at a5 or a6.
	const bait = "3r2k1/5ppp/p7/q7/8/7P/5PP1/R5K1 w - - 0 1"
	const mate = "3r2k1/5ppp/p7/8/8/8/5PPP/R5K1 w - - 0 1"
	for _, tc := range []struct {
		caution float64
		mates   bool // whether the move played allows the mate
	}{{0, true}, {30, false}} {
		s := beliefOf(t, bait, mate)
		s.weights = []float64{0.98, 0.02}
		k := testBot(t, s)
		k.cfg.DeepBoards, k.cfg.Depth = 0, 0
		k.cfg.MateCaution = tc.caution
		pos := s.boards[0]
		m := k.ChooseMove(t.Context(), recon.MoveActions(&pos), time.Minute)
		if got := allowsMate(&s.boards[1], m, game.White); got != tc.mates {
			t.Errorf("mate caution %v: played %s, allowing the mate on the unlikely board: %v, want %v", tc.caution, recon.UCI(m), got, tc.mates)
		}
	}
}

// BenchmarkMateExposure: what counting the mates each request allows costs
// the bot a move, on its beliefs of real games (those of BenchmarkBelief*
// before the sense) with every candidate request, on one goroutine:
// board-request pairs judged a second and the time per decision (at most
// mateSample boards).
func BenchmarkMateExposure(b *testing.B) {
	_, cases := recordedBeliefs(b, 6, 100)
	rng := rand.New(rand.NewPCG(1, 2))
	pairs := 0
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		c := cases[i%len(cases)]
		pos := c.s.boards[0]
		actions := candidates(recon.MoveActions(&pos), &pos)
		mateExposure(c.s, actions, pos.Side(), mateSample, rng)
		pairs += min(c.s.size(), mateSample) * len(actions)
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(pairs)/el, "pairs/s")
	b.ReportMetric(el/float64(b.N)*1000, "ms/decision")
}
