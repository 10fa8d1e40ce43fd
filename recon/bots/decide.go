package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/recon"
)

// A table scores each candidate request of the player on each of a sample
// of boards it holds possible: the player's chance of winning (0..1) once
// the request is played on that board. Sense and move choices are made
// from it.
type table struct {
	boards  []game.Position // the sampled boards, player to move
	w       []float64       // their weights, summing to 1
	actions []game.Move     // the candidates; game.NoMove is the pass
	s       []float32       // s[i*len(actions)+j]: board i, action j
	exposed []bool          // the request leaves the king capturable there
	filled  int             // boards scored (a deadline may stop early)
	deepest int             // the deepest search any row got
}

func (t *table) at(i, j int) float32 { return t.s[i*len(t.actions)+j] }

// scorer scores one request on one board; one per goroutine. It judges the
// board after the request with a quiescence search, or, for the boards a
// table scores deeply, with a short engine search.
type scorer struct {
	ev *engine.Evaluator
	e  *engine.Engine
	us game.Color
	// fog weighs the checks the engine's judgement takes as seen.
	fog fogWeights
}

// fogWeights are the chances that a quiet check goes unanswered: missed
// by the player (a board's winning chance falls by that share when the
// opponent can give one after the request) and by the opponent (the
// share of the rest gained when the request gives one). Zero: not
// counted.
type fogWeights struct {
	missed, sneak float64
}

func newScorer(fog fogWeights) *scorer {
	return &scorer{ev: engine.NewEvaluator(engine.Options{}), e: engine.New(engine.Options{HashMB: 8}), fog: fog}
}

// moveLimit is the reference's default draw: 100 half-moves without a
// capture or pawn move. The bot is not told the game's limit; it assumes
// this one.
const moveLimit = 100

// winLoss values: a captured king and an own king left capturable.
const (
	scoreWin     = 1
	scoreExposed = 0
	// cpScale maps centipawns to a winning chance: 1/(1+e^(-cp/cpScale)).
	cpScale = 300
)

// score returns the player's winning chance after requesting a on b,
// judging the result with a search of depth plies (0: quiescence only), and
// whether the request leaves the player's king capturable.
func (sc *scorer) score(ctx context.Context, b *game.Position, a game.Move, depth int) (float32, bool) {
	r := afterRequest(b, a)
	them := sc.us.Other()
	if r.KingSquare(them) == game.NoSquare {
		return scoreWin, false
	}
	if k := r.KingSquare(sc.us); k == game.NoSquare || r.AttackersTo(k, r.Occupied())&r.ByColor(them) != 0 {
		return scoreExposed, true
	}
	if r.HalfmoveClock() >= moveLimit {
		return 0.5, false
	}
	var cp int
	if depth > 0 {
		res := sc.e.Search(ctx, &r, nil, engine.Limits{Depth: depth}, nil)
		cp = -res.Score.CP
	} else {
		cp = -sc.ev.Quiesce(&r)
	}
	p := 1 / (1 + math.Exp(-float64(cp)/cpScale))
	if sc.fog.missed > 0 && quietCheck(&r) {
		p *= 1 - sc.fog.missed
	}
	if sc.fog.sneak > 0 && sneakyCheck(b, &r) {
		p += (1 - p) * sc.fog.sneak
	}
	return float32(p), false
}

// afterRequest returns board b after its side to move requested a (a
// pass for game.NoMove), as the arbiter would take it.
func afterRequest(b *game.Position, a game.Move) game.Position {
	req := a
	if req != game.NoMove {
		req = recon.WithDefaultPromotion(b, req)
	}
	_, enc := recon.Revise(b, req)
	r := *b
	recon.Apply(&r, enc)
	return r
}

// exposes reports whether requesting a on b leaves the player's king
// capturable (and does not take the opponent's king first).
func exposes(b *game.Position, a game.Move, us game.Color) bool {
	r := afterRequest(b, a)
	if r.KingSquare(us.Other()) == game.NoSquare {
		return false
	}
	k := r.KingSquare(us)
	return k == game.NoSquare || r.AttackersTo(k, r.Occupied())&r.ByColor(us.Other()) != 0
}

// exposure returns, for each action, the share of boards (each board
// counting once, however unlikely: a king left en prise on a board the
// opponent's play makes rare is lost all the same) on which it leaves the
// player's king capturable. Past n boards, a uniform sample of n is used.
func exposure(s *belief, actions []game.Move, us game.Color, n int, rng *rand.Rand) []float64 {
	return boardShare(s, actions, n, rng, func(b *game.Position, a game.Move) bool { return exposes(b, a, us) })
}

// mateExposure returns, for each action, the share of boards (each
// counting once, as in exposure) on which it lets the opponent mate in
// one: after the request the opponent has a check the player cannot get
// out of, so its king is taken next turn whether or not it sees the
// check. Past n boards, a uniform sample of n is used.
func mateExposure(s *belief, actions []game.Move, us game.Color, n int, rng *rand.Rand) []float64 {
	return boardShare(s, actions, n, rng, func(b *game.Position, a game.Move) bool { return allowsMate(b, a, us) })
}

// boardShare returns, for each action, the share of s's boards (a uniform
// sample of n past n) on which bad holds.
func boardShare(s *belief, actions []game.Move, n int, rng *rand.Rand, bad func(*game.Position, game.Move) bool) []float64 {
	idx := make([]int, s.size())
	for i := range idx {
		idx[i] = i
	}
	if len(idx) > n {
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		idx = idx[:n]
	}
	out := make([]float64, len(actions))
	for j, a := range actions {
		c := 0
		for _, i := range idx {
			if bad(&s.boards[i], a) {
				c++
			}
		}
		out[j] = float64(c) / float64(len(idx))
	}
	return out
}

// allowsMate reports whether requesting a on b lets the opponent mate in
// one: the request neither takes the opponent's king nor leaves the
// player's capturable (exposes counts that), and the opponent then has a
// move that checks the player's king with no legal move to answer it.
func allowsMate(b *game.Position, a game.Move, us game.Color) bool {
	r := afterRequest(b, a)
	k := r.KingSquare(us)
	if r.KingSquare(us.Other()) == game.NoSquare || k == game.NoSquare || r.AttackersTo(k, r.Occupied())&r.ByColor(us.Other()) != 0 {
		return false
	}
	return mateInOne(&r)
}

// mateInOne reports whether the side to move on r has a move that checks
// the other king with no legal move to answer it.
func mateInOne(r *game.Position) bool {
	var ml game.MoveList
	r.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if !r.GivesCheck(m) {
			continue
		}
		c := *r
		c.MakeMove(m)
		if !c.HasLegalMoves() {
			return true
		}
	}
	return false
}

// sampleBoards returns at most n boards of s with their weights: all of
// them when they are few, else a systematic resample.
func sampleBoards(s *belief, n int, rng *rand.Rand) ([]game.Position, []float64) {
	if s.size() <= n {
		return slices.Clone(s.boards), slices.Clone(s.weights)
	}
	idx, w := systematic(s.weights, n, rng)
	boards := make([]game.Position, len(idx))
	for i, j := range idx {
		boards[i] = s.boards[j]
	}
	return boards, w
}

// byWeight orders boards by falling weight: a table scores the likeliest
// first, deeply, and a deadline cuts the least likely.
func byWeight(boards []game.Position, w []float64) {
	idx := make([]int, len(boards))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case w[a] > w[b]:
			return -1
		case w[a] < w[b]:
			return 1
		}
		return 0
	})
	nb := make([]game.Position, len(boards))
	nw := make([]float64, len(w))
	for i, j := range idx {
		nb[i], nw[i] = boards[j], w[j]
	}
	copy(boards, nb)
	copy(w, nw)
}

// buildTable scores actions on the boards, likeliest first, sharing the
// work among the scorers' goroutines until the deadline. Every board is
// first judged by quiescence (at least one board always is); then, while
// time lasts, the likeliest boards are judged again by searches one ply
// deeper at a time, up to maxDepth plies: 4*deep boards at depth 1, deep at
// depth 2, deep/4 at depth 3, and so on. A deeper row replaces the
// shallower one only when complete.
func buildTable(boards []game.Position, w []float64, actions []game.Move, scorers []*scorer, deadline time.Time, deep, maxDepth int) *table {
	byWeight(boards, w)
	t := &table{boards: boards, w: w, actions: actions, s: make([]float32, len(boards)*len(actions)),
		exposed: make([]bool, len(boards)*len(actions))}
	done := scorePass(t, len(boards), 0, scorers, deadline, t.s)
	// Keep the scored boards only.
	n := 0
	for i := range boards {
		if !done[i] {
			continue
		}
		if n != i {
			t.boards[n], t.w[n] = t.boards[i], t.w[i]
			copy(t.s[n*len(actions):(n+1)*len(actions)], t.s[i*len(actions):(i+1)*len(actions)])
			copy(t.exposed[n*len(actions):(n+1)*len(actions)], t.exposed[i*len(actions):(i+1)*len(actions)])
		}
		n++
	}
	t.boards, t.w, t.s, t.filled = t.boards[:n], t.w[:n], t.s[:n*len(actions)], n
	t.exposed = t.exposed[:n*len(actions)]
	var sum float64
	for _, x := range t.w {
		sum += x
	}
	for i := range t.w {
		t.w[i] /= sum
	}
	t.deepen(scorers, deadline, deep, maxDepth)
	return t
}

// deepen judges the likeliest boards again by deeper searches, from one
// ply beyond the deepest done so far, until maxDepth or the deadline: 4*deep
// boards at depth 1, a quarter as many each ply deeper, always the
// likeliest one.
func (t *table) deepen(scorers []*scorer, deadline time.Time, deep, maxDepth int) {
	actions, n := t.actions, t.filled
	for d := t.deepest + 1; d <= maxDepth && deep > 0 && time.Now().Before(deadline); d++ {
		rows := min(n, max(1, 4*deep>>(2*(d-1))))
		deeper := make([]float32, rows*len(actions))
		done := scorePass(t, rows, d, scorers, deadline, deeper)
		for i, ok := range done {
			if ok {
				copy(t.s[i*len(actions):(i+1)*len(actions)], deeper[i*len(actions):(i+1)*len(actions)])
				t.deepest = max(t.deepest, d)
			}
		}
	}
}

// scorePass scores the first rows boards of t at depth into dst, shared
// among the scorers, and reports which rows it finished before the
// deadline. At depth 0 the first row is always finished.
func scorePass(t *table, rows, depth int, scorers []*scorer, deadline time.Time, dst []float32) []bool {
	var next atomic.Int64
	done := make([]bool, rows)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	var wg sync.WaitGroup
	for _, sc := range scorers {
		wg.Add(1)
		go func(sc *scorer) {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= rows || ((i > 0 || depth > 0) && time.Now().After(deadline)) {
					return
				}
				row := dst[i*len(t.actions) : (i+1)*len(t.actions)]
				for j, a := range t.actions {
					if depth > 0 && j%8 == 7 && time.Now().After(deadline) {
						return // an unfinished deeper row is dropped
					}
					var exposed bool
					row[j], exposed = sc.score(ctx, &t.boards[i], a, depth)
					if depth > 0 && ctx.Err() != nil {
						return // cut short: the row is dropped
					}
					if depth == 0 {
						t.exposed[i*len(t.actions)+j] = exposed
					}
				}
				done[i] = true
			}
		}(sc)
	}
	wg.Wait()
	return done
}

// aggregate returns each action's value over the rows (all when rows is
// nil): the weighted mean of its scores, blended with the mean of its worst
// cvarShare (by weight) as risk says (0: mean only, 1: worst cases only),
// less caution times the share of the rows (each counting once) on which
// it leaves the king capturable.
func (t *table) aggregate(rows []int, risk, caution float64, out []float64) []float64 {
	out = out[:0]
	if rows == nil {
		rows = make([]int, t.filled)
		for i := range rows {
			rows[i] = i
		}
	}
	var total float64
	for _, i := range rows {
		total += t.w[i]
	}
	type ws struct {
		w float64
		s float32
	}
	var sorted []ws
	for j := range t.actions {
		var mean float64
		for _, i := range rows {
			mean += t.w[i] * float64(t.at(i, j))
		}
		mean /= total
		v := mean
		if risk > 0 {
			sorted = sorted[:0]
			for _, i := range rows {
				sorted = append(sorted, ws{t.w[i], t.at(i, j)})
			}
			slices.SortFunc(sorted, func(a, b ws) int {
				switch {
				case a.s < b.s:
					return -1
				case a.s > b.s:
					return 1
				}
				return 0
			})
			limit := cvarShare * total
			var acc, tail float64
			for _, x := range sorted {
				take := math.Min(x.w, limit-acc)
				if take <= 0 {
					break
				}
				acc += take
				tail += take * float64(x.s)
			}
			v = (1-risk)*mean + risk*tail/acc
		}
		if caution > 0 {
			c := 0
			for _, i := range rows {
				if t.exposed[i*len(t.actions)+j] {
					c++
				}
			}
			v -= caution * float64(c) / float64(len(rows))
		}
		out = append(out, v)
	}
	return out
}

// cvarShare is the weight of the worst cases the risk term averages.
const cvarShare = 0.25

// bestAction returns the index of the highest value, the first on ties.
func bestAction(values []float64) int {
	best := 0
	for j, v := range values {
		if v > values[best] {
			best = j
		}
	}
	return best
}

// window returns the squares a sense centred on q reveals.
var window = func() (w [64][]game.Square) {
	for q := game.A1; q <= game.H8; q++ {
		for dr := 1; dr >= -1; dr-- {
			for df := -1; df <= 1; df++ {
				r, f := q.Rank()+dr, q.File()+df
				if r >= 0 && r <= 7 && f >= 0 && f <= 7 {
					w[q] = append(w[q], game.NewSquare(f, r))
				}
			}
		}
	}
	return w
}()

// signature packs what board b shows in the window around q.
func signature(b *game.Position, q game.Square) uint64 {
	var sig uint64
	for _, s := range window[q] {
		sig = sig<<4 | uint64(b.PieceAt(s))
	}
	return sig
}

// senseValue returns, for each square, the expected value of the move
// decision after sensing there (the mean over the possible results of the
// best action's value given that result), plus infoBonus times the
// expected weight of boards the result rules out; and the value of
// deciding without a sense. A square whose window looks the same on every
// sampled board is worth exactly the latter.
func senseValue(t *table, risk, caution, infoBonus float64) (values [64]float64, base float64) {
	var agg []float64
	agg = t.aggregate(nil, risk, caution, agg)
	base = agg[bestAction(agg)]
	groups := map[uint64][]int{}
	for q := game.A1; q <= game.H8; q++ {
		clear(groups)
		for i := 0; i < t.filled; i++ {
			sig := signature(&t.boards[i], q)
			groups[sig] = append(groups[sig], i)
		}
		if len(groups) <= 1 {
			values[q] = base
			continue
		}
		var v, kept float64
		for _, rows := range groups {
			var wg float64
			for _, i := range rows {
				wg += t.w[i]
			}
			agg = t.aggregate(rows, risk, caution, agg)
			v += wg * agg[bestAction(agg)]
			kept += wg * wg
		}
		values[q] = v + infoBonus*(1-kept)
	}
	return values, base
}
