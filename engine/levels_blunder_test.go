package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
)

// This file checks issue #4's requirement "level 1 must lose to a player who
// merely avoids blunders" by playing level 1 against a model of such a
// player. Everything is bounded by depth, never by time, so the games are the
// same on every run and on any machine load.

// blunderOpenings are short, common opening lines (UCI from the start
// position) so that the games differ; each is played with both colours.
// The test plays the first blunderLevelOpenings against level 1 and the
// first blunderControlOpenings in the control; the rest are spares.
var blunderOpenings = []string{
	"e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",      // Ruy Lopez
	"e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",      // Italian
	"e2e4 c7c5 g1f3 d7d6 d2d4 c5d4",      // Sicilian
	"e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",      // French
	"e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",      // Caro-Kann advance
	"d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",      // Queen's Gambit Declined
	"d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",      // King's Indian
	"d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",      // Slav
	"c2c4 e7e5 b1c3 g8f6 g2g3 d7d5",      // English
	"g1f3 d7d5 g2g3 g8f6 f1g2 c7c6",      // Reti
	"e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",      // Scandinavian
	"d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",      // Queen's Indian
	"e2e4 e7e5 f2f4 e5f4 g1f3 g7g5",      // King's Gambit
	"e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",      // Modern
	"d2d4 f7f5 g2g3 g8f6 f1g2 e7e6",      // Dutch
	"e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2", // Closed Sicilian
	"e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3", // Petrov
	"d2d4 d7d5 g1f3 g8f6 c1f4 e7e6 e2e3", // London
	"e2e4 e7e5 b1c3 g8f6 f1c4 b8c6 d2d3", // Vienna
	"c2c4 c7c5 g1f3 b8c6 b1c3 g7g6 g2g3", // Symmetrical English
	"e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4", // Pirc, Austrian attack
	"d2d4 e7e6 c2c4 f8b4 c1d2 b4d2 d1d2", // Bogo-Indian
	"e2e4 b8c6 d2d4 d7d5 b1c3 d5e4 d4d5", // Nimzowitsch defence
	"g2g3 e7e5 f1g2 d7d5 d2d3 g8f6 g1f3", // King's fianchetto
}

// blunderPlayer is one side of a test game.
type blunderPlayer interface {
	move(g *game.Game) game.Move
}

// blunderAvoider models "a player who merely avoids blunders", built from
// the engine's own search and evaluation (no noise):
//   - greed: a move is worth what a depth-1 search sees of it, the
//     quiescence search of the position after it, so it always takes free
//     material and never leaves a piece en prise;
//   - the blunder check: the score is lowered to what a search of depth
//     (full width, then quiescence) after the move finds, so it sees the
//     opponent's replies (a fork, a pin that wins a piece, a mate in one)
//     and avoids the moves they punish. A deeper gain of its own, such as a
//     fork it could play next, is never credited: it has no plan.
//
// Moves within window centipawns of the best are equally likely. A move that
// ends the game in a draw counts as 0, so that it does not shuffle into a
// repetition while it is ahead, as a person would not either.
//
// With only the greed part (depth 0) the model walks into mates in one and
// forks, and level 1 scores about 53% against it (measured when this test
// was written): such a player does not "avoid blunders".
type blunderAvoider struct {
	th     *thread
	rng    *rand.Rand
	window int
	// depth is the full-width depth of the blunder check after each
	// candidate move; 0 turns the check off.
	depth int
}

func newBlunderAvoider(seed uint64, depth int) *blunderAvoider {
	th := &thread{tt: newTransTable(1)}
	th.allocate()
	return &blunderAvoider{
		th:     th,
		rng:    rand.New(rand.NewPCG(seed, 0xb1)),
		window: 10,
		depth:  depth,
	}
}

func (a *blunderAvoider) move(g *game.Game) game.Move {
	pos := g.Position()
	// A search state without time or node limits: quiescence never stops.
	st := &searchState{depthLimit: a.depth + 1}
	st.startNanos.Store(time.Now().UnixNano())
	st.threads = []*thread{a.th}
	t := a.th
	t.st, t.nodes, t.rootDepth, t.completedDepth = st, 0, a.depth+1, 0
	t.keys = append(append(t.keys[:0], g.HashHistory()...), pos.Hash())

	var ml game.MoveList
	pos.GenerateLegal(&ml)
	scores := make([]int, ml.N)
	best := -infinity
	for i, m := range ml.Slice() {
		if g.Play(m) != nil {
			scores[i] = -infinity // cannot happen: m comes from GenerateLegal
			continue
		}
		o := g.OutcomeWithClaims()
		child := g.Position()
		g.Undo()
		switch {
		case o.Termination == game.Checkmate:
			scores[i] = mateValue - 1
		case o.Over():
			scores[i] = 0
		default:
			t.stack[0].move, t.stack[0].piece = m, pos.PieceAt(m.From())
			t.keys = append(t.keys, child.Hash())
			scores[i] = -t.qsearch(child, -infinity, infinity, 1, false)
			if a.depth > 0 {
				// The blunder check: what the opponent's best reply
				// does to us may lower the score, but a deeper gain of
				// our own (a fork) is not credited: no plan.
				t.fullWidth = true
				scores[i] = min(scores[i], -t.negamax(child, -infinity, infinity, a.depth, 1, false))
			}
			t.keys = t.keys[:len(t.keys)-1]
		}
		best = max(best, scores[i])
	}
	var cands []game.Move
	for i, m := range ml.Slice() {
		if scores[i] >= best-a.window {
			cands = append(cands, m)
		}
	}
	return cands[a.rng.IntN(len(cands))]
}

// enginePlayer plays with an Engine under fixed limits.
type enginePlayer struct {
	e   *Engine
	lim Limits
}

func (p *enginePlayer) move(g *game.Game) game.Move {
	return p.e.Search(context.Background(), g.Position(), g.HashHistory(), p.lim, nil).Move
}

// newLevelPlayer returns level n at its own depth cap. Its normal limit is
// the level's time per move, which the depth cap ends long before; the test
// passes the depth instead and an hour as the time so that the level's
// weakening step (whose budget is what remains of the move time) can never
// be cut short by a loaded machine, keeping the games reproducible.
func newLevelPlayer(level int, seed uint64) *enginePlayer {
	e := New(Options{HashMB: 1, Level: level})
	e.SetSeed(seed)
	return &enginePlayer{e: e, lim: Limits{Depth: levelTable[level-1].maxDepth, MoveTime: time.Hour}}
}

// Material values for adjudication, in centipawns.
var blunderMaterial = [...]int{game.Pawn: 100, game.Knight: 300, game.Bishop: 300, game.Rook: 500, game.Queen: 900}

// materialFor is c's material minus the opponent's.
func materialFor(p *game.Position, c game.Color) int {
	s := 0
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		s += blunderMaterial[pt] * (p.Pieces(c, pt).Count() - p.Pieces(c.Other(), pt).Count())
	}
	return s
}

// The claims are counts of wins: a draw or a loss counts for nothing. If
// the two players were equally strong, or the winner-to-be the weaker, each
// game would be won with probability at most 1/2; taking the games as
// independent, the number of wins is then at most Binomial(n, 1/2), and
// P(Bin(24, 1/2) >= 18) = 190,051 / 2^24 = 1.13%: the chance that either
// claim below holds by luck is at most 1.13%. (The games are reproducible,
// bounded by depth, so a given engine passes or fails on every run; the
// bound says how little a pass could owe to the openings drawn.) Earlier
// this test asked for a score above 65% in 48 games against level 1 and
// above 75% in 24 control games, whose Hoeffding bounds, exp(-2n(s-1/2)^2),
// are 11.5% and 5.0%, at twice the games against level 1.
const (
	// blunderLevelOpenings is how many openings (each played with both
	// colours) the blunder-avoider plays against level 1, and
	// blunderLevelMinWins how many of those 2*12 = 24 games it must win.
	// It won 20 (+20 =2 -2) when this was written, and 41 of 48 (+41 =2
	// -5) over all 24 openings.
	blunderLevelOpenings = 12
	blunderLevelMinWins  = 18
	// blunderAvoiderDepth is the blunder check's depth: every reply.
	blunderAvoiderDepth = 1
	// blunderControlDepth is the full-strength search that must beat the
	// blunder-avoider, on the first blunderControlOpenings openings. Depth 4
	// is not enough for a clear result (62.5% in 24 games when this was
	// written; its pruning leaves it little deeper than the model's
	// full-width two plies), depth 6 is (+21 =1 -2 in the 24 games when
	// this was last measured) and still cheap. It must win
	// blunderControlMinWins of the 24 games.
	blunderControlDepth    = 6
	blunderControlOpenings = 12
	blunderControlMinWins  = 18
	// blunderMaxPlies ends a game (after the opening) that is still going;
	// it is then adjudicated by material.
	blunderMaxPlies = 200
	// blunderWinMargin is the material lead that wins an adjudication.
	blunderWinMargin = 300
	// A lead of blunderCrushMargin held for blunderCrushPlies plies ends
	// the game early as a win: neither side here has the plan to convert
	// it quickly, and the rest of the game would only cost CPU.
	blunderCrushMargin = 900
	blunderCrushPlies  = 10
)

// blunderGame is one finished test game.
type blunderGame struct {
	g      *game.Game
	start  int     // plies of the opening
	score  float64 // White's score: 1, 0.5 or 0
	reason string
	// material[i] is White's material lead before ply start+i, and
	// queens[c][i] the number of queens of colour c then.
	material []int
	queens   [2][]int
}

// record notes the material and queens before the next ply.
func (bg *blunderGame) record() {
	p := bg.g.Position()
	bg.material = append(bg.material, materialFor(p, game.White))
	for c := game.White; c <= game.Black; c++ {
		bg.queens[c] = append(bg.queens[c], p.Pieces(c, game.Queen).Count())
	}
}

// playBlunderGame plays white against black from the opening line.
func playBlunderGame(t *testing.T, opening string, white, black blunderPlayer) *blunderGame {
	t.Helper()
	g := game.NewGame()
	for _, mv := range strings.Fields(opening) {
		if _, err := g.PlayMove(mv); err != nil {
			t.Fatalf("opening %q: %v", opening, err)
		}
	}
	bg := &blunderGame{g: g, start: g.Len()}
	crush := 0
	for ply := 0; ; ply++ {
		bg.record()
		if o := g.OutcomeWithClaims(); o.Over() {
			bg.reason = o.Termination.String()
			bg.score = 0.5
			if w, ok := o.Winner(); ok {
				bg.score = float64(1 - w) // White = 0
			}
			return bg
		}
		lead := bg.material[ply]
		if lead >= blunderCrushMargin || lead <= -blunderCrushMargin {
			crush++
		} else {
			crush = 0
		}
		if crush >= blunderCrushPlies || ply >= blunderMaxPlies {
			bg.reason = fmt.Sprintf("adjudicated at material %+d", lead)
			switch {
			case lead >= blunderWinMargin:
				bg.score = 1
			case lead <= -blunderWinMargin:
				bg.score = 0
			default:
				bg.score = 0.5
			}
			return bg
		}
		pl := white
		if g.Position().Side() == game.Black {
			pl = black
		}
		m := pl.move(g)
		if err := g.Play(m); err != nil {
			t.Fatalf("illegal move %v after %v: %v", m, g.UCIMoves(), err)
		}
	}
}

// queenGiveaways lists, for the player of colour c, its moves among its
// first n in bg that give the queen away for nothing: its queen count drops
// between its move and its next move, while its material balance over the
// same span (its move, the reply, and its recapture) falls by 600 or more,
// that is the queen for at most a minor piece.
func queenGiveaways(bg *blunderGame, c game.Color, n int) []string {
	var out []string
	sign := 1
	if c == game.Black {
		sign = -1
	}
	side := game.White
	if bg.start%2 == 1 {
		side = game.Black
	}
	seen := 0
	for i := 0; i < len(bg.material)-1 && seen < n; i++ {
		mover := side
		if i%2 == 1 {
			mover = side.Other()
		}
		if mover != c {
			continue
		}
		seen++
		j := min(i+3, len(bg.material)-1)
		if bg.queens[c][j] < bg.queens[c][i] && sign*(bg.material[j]-bg.material[i]) <= -600 {
			out = append(out, fmt.Sprintf("ply %d (%s)", bg.start+i+1, bg.g.SANMoves()[bg.start+i]))
		}
	}
	return out
}

// blunderMatch plays a against b over the openings, each with both colours,
// and returns a's games and its points.
func blunderMatch(t *testing.T, openings []string, newA, newB func(n int) blunderPlayer) (games []*blunderGame, aColor []game.Color, w, d, l int) {
	t.Helper()
	for i, op := range openings {
		for _, c := range []game.Color{game.White, game.Black} {
			n := 2*i + int(c)
			a, b := newA(n), newB(n)
			var bg *blunderGame
			if c == game.White {
				bg = playBlunderGame(t, op, a, b)
			} else {
				bg = playBlunderGame(t, op, b, a)
			}
			s := bg.score
			if c == game.Black {
				s = 1 - s
			}
			switch s {
			case 1:
				w++
			case 0.5:
				d++
			default:
				l++
			}
			games = append(games, bg)
			aColor = append(aColor, c)
			t.Logf("opening %2d, first player %-5v: %.1f  %3d plies, %s", i, c, s, bg.g.Len(), bg.reason)
		}
	}
	return games, aColor, w, d, l
}

// TestLevel1LosesToBlunderAvoider plays the blunder-avoiding model against
// level 1 and checks that it wins clearly more (at least 18 of 24 games,
// which two equal players would manage with probability at most 1.13%),
// that level 1 still never throws its queen away in the opening (the
// weakening looks human, not random), and, as a check that the harness
// measures strength at all, that a full-strength depth-6 search beats the
// blunder-avoider just as clearly (again at least 18 of 24).
func TestLevel1LosesToBlunderAvoider(t *testing.T) {
	openings := blunderOpenings[:blunderLevelOpenings]

	games, colors, w, d, l := blunderMatch(t, openings,
		func(n int) blunderPlayer { return newBlunderAvoider(uint64(1000+n), blunderAvoiderDepth) },
		func(n int) blunderPlayer { return newLevelPlayer(1, uint64(n)) })
	score := (float64(w) + float64(d)/2) / float64(w+d+l)
	t.Logf("blunder-avoider vs level 1: +%d =%d -%d, %.1f%%", w, d, l, 100*score)
	if w < blunderLevelMinWins {
		t.Errorf("blunder-avoider wins %d of %d games against level 1 (+%d =%d -%d), want at least %d", w, w+d+l, w, d, l, blunderLevelMinWins)
	}
	for i, bg := range games {
		if bad := queenGiveaways(bg, colors[i].Other(), 10); len(bad) > 0 {
			t.Errorf("game %d: level 1 gives its queen away in its first 10 moves at %v: %v", i, bad, bg.g.SANMoves())
		}
	}

	ctrl := blunderOpenings[:blunderControlOpenings]
	_, _, w, d, l = blunderMatch(t, ctrl,
		func(n int) blunderPlayer {
			return &enginePlayer{e: New(Options{HashMB: 4}), lim: Limits{Depth: blunderControlDepth}}
		},
		func(n int) blunderPlayer { return newBlunderAvoider(uint64(2000+n), blunderAvoiderDepth) })
	score = (float64(w) + float64(d)/2) / float64(w+d+l)
	t.Logf("full strength depth %d vs blunder-avoider: +%d =%d -%d, %.1f%%", blunderControlDepth, w, d, l, 100*score)
	if w < blunderControlMinWins {
		t.Errorf("depth-%d search wins only %d of %d games against the blunder-avoider (+%d =%d -%d), want at least %d", blunderControlDepth, w, w+d+l, w, d, l, blunderControlMinWins)
	}
}

// TestQueenGiveaways checks the control's detector on scripted games, so
// that its silence in the match means something.
func TestQueenGiveaways(t *testing.T) {
	tests := []struct {
		name  string
		moves string // UCI from the start position
		c     game.Color
		n     int
		want  int
	}{
		{"queen for nothing", "e2e4 d7d5 d1g4 c8g4 g1f3 g4f3", game.White, 10, 1},
		{"outside the first moves", "e2e4 d7d5 d1g4 c8g4 g1f3 g4f3", game.White, 1, 0},
		{"the winner gives nothing", "e2e4 d7d5 d1g4 c8g4 g1f3 g4f3", game.Black, 10, 0},
		{"queen trade", "e2e4 e7e5 d2d4 e5d4 d1d4 d8f6 d4f6 g8f6 b1c3", game.White, 10, 0},
		{"queen trade, other side", "e2e4 e7e5 d2d4 e5d4 d1d4 d8f6 d4f6 g8f6 b1c3", game.Black, 10, 0},
		{"queen for a pawn", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a2 a1a2", game.Black, 10, 1},
		{"queen for a rook is not for nothing", "e2e4 h7h5 d1f3 h8h6 d2d3 h6f6 f3f6 e7f6 b1c3", game.White, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bg := &blunderGame{g: game.NewGame()}
			for _, mv := range strings.Fields(tt.moves) {
				bg.record()
				if _, err := bg.g.PlayMove(mv); err != nil {
					t.Fatalf("%s: %v", mv, err)
				}
			}
			bg.record()
			if got := queenGiveaways(bg, tt.c, tt.n); len(got) != tt.want {
				t.Errorf("queenGiveaways = %v, want %d entries", got, tt.want)
			}
		})
	}
}
