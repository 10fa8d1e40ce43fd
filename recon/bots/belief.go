package bots

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/recon"
)

// belief is the set of true boards a player holds possible, each with a
// weight: its probability, the weights summing to 1. While exact is set the
// set holds every board consistent with what the player has observed;
// once the set outgrew its bound and was resampled, it holds a weighted
// sample and the true board may be missing.
type belief struct {
	boards  []game.Position
	weights []float64
	exact   bool
}

// newBelief returns the belief holding only the starting board.
func newBelief(start game.Position) *belief {
	return &belief{boards: []game.Position{start}, weights: []float64{1}, exact: true}
}

// size returns the number of boards.
func (s *belief) size() int { return len(s.boards) }

// contains reports whether a board with p's Zobrist key is in the set.
func (s *belief) contains(p *game.Position) bool {
	k := p.Hash()
	for i := range s.boards {
		if s.boards[i].Hash() == k {
			return true
		}
	}
	return false
}

// normalize makes the weights sum to 1; an all-zero set gets equal weights.
func (s *belief) normalize() {
	var sum float64
	for _, w := range s.weights {
		sum += w
	}
	if sum <= 0 {
		for i := range s.weights {
			s.weights[i] = 1 / float64(len(s.weights))
		}
		return
	}
	for i := range s.weights {
		s.weights[i] /= sum
	}
}

// The opponent model says how likely each board the opponent's turn can
// lead to is. Its requests are not equally likely: many of them come to
// nothing on a given board and lead to the same board as a pass, which a
// uniform weight on requests would make the likeliest outcome by far. So
// the model weighs outcomes instead: every distinct board a parent can
// lead to counts once, a board on which the opponent attacks the player's
// king counts threat times (opponents play for the king, and that board is
// the one a player cannot afford to overlook), and a board on which the
// piece the opponent just moved stands where the player wins it (attacked
// by a cheaper piece, or attacked and undefended, without having taken as
// much) counts hangWeight: opponents rarely give pieces away, and the
// weight those blunders take from the sound moves is what left a king
// attack's approach at about 1% of the belief in the lost games of
// docs/recon.md.

// On top of those traits the model can weigh each outcome by how good it
// is for the opponent, as a player who chooses its moves by a search would
// (StrangeFish scores its moves with Stockfish): the quiescence score of
// the outcome from the opponent's view, against the best of the parent's
// outcomes. Each pawn it falls short of the best makes it perPawn times
// less likely, down to evalFloor pawns (past a clear blunder, how much
// worse does not matter). A check is left out of it: the player may not
// see a check that loses material on the board, and the opponent plays it
// for that. Fitted to the opponents' real moves (BenchmarkOpponentModel),
// this predicts the moves of the attacks that won games against
// knightwatch 1.7 times better than the traits alone; it costs a
// quiescence search per outcome, and the bot, which scored no better
// against StrangeFish with it, leaves it off (KnightwatchConfig.ScoreFactor).

// opponentModel is what the belief's expansion weighs the opponent's
// outcomes by.
type opponentModel struct {
	// threat is a check's factor (outcomeWeight).
	threat float64
	// perPawn is how many times less likely each pawn of shortfall makes
	// an outcome (scoreShortfalls); 1 or less: scores do not count.
	perPawn float64
}

// evalFloor is the most pawns of shortfall the model counts.
const evalFloor = -1.5

// evaluators are the expansion's quiescence searches, one per worker at a
// time, kept between turns (each has its own hash table).
var evaluators = sync.Pool{New: func() any { return engine.NewEvaluator(engine.Options{}) }}

// moverScore returns child's quiescence score in pawns from the view of
// the side that just moved, between -10 and 10 (-10 when it left its king
// capturable).
func moverScore(ev *engine.Evaluator, child *game.Position) float64 {
	us := child.Side()
	if k := child.KingSquare(us.Other()); k == game.NoSquare || child.AttackersTo(k, child.Occupied())&child.ByColor(us) != 0 {
		return -10
	}
	return max(-10, min(10, -float64(ev.Quiesce(child))/100))
}

// scoreShortfalls turns the mover scores of a parent's outcomes into how
// far each falls below the best, in pawns (0 or less), no further than
// evalFloor; 0 for the outcomes that are checks.
func scoreShortfalls(scores []float64, checks []bool) {
	best := math.Inf(-1)
	for _, x := range scores {
		best = max(best, x)
	}
	for i := range scores {
		scores[i] = max(scores[i]-best, evalFloor)
		if checks[i] {
			scores[i] = 0
		}
	}
}

// checksKing reports whether on child (the player to move) the opponent
// attacks the player's king.
func checksKing(child *game.Position) bool {
	us := child.Side()
	k := child.KingSquare(us)
	return k != game.NoSquare && child.AttackersTo(k, child.Occupied())&child.ByColor(us.Other()) != 0
}

// hangWeight is the weight of an outcome whose moved piece hangs.
const hangWeight = 0.25

// pieceValue is each piece type's value in pawns for the hang test; the
// king's is more than any exchange.
var pieceValue = [...]int{game.Pawn: 1, game.Knight: 3, game.Bishop: 3, game.Rook: 5, game.Queen: 9, game.King: 100}

// outcomeWeight is the model's weight of child, the board the opponent's
// encoded move enc (game.NoMove: nothing moved) led to from parent (the
// player to move on child).
func outcomeWeight(parent *game.Position, enc game.Move, child *game.Position, threat float64) float64 {
	us := child.Side()
	occ := child.Occupied()
	w := 1.0
	if checksKing(child) {
		w = threat
	}
	if enc == game.NoMove || enc.IsCastling() {
		return w
	}
	to := enc.To()
	attackers := child.AttackersTo(to, occ)
	ours := attackers & child.ByColor(us)
	if ours == 0 {
		return w
	}
	moved := pieceValue[child.PieceAt(to).Type()]
	taken := 0
	if enc.IsEnPassant() {
		taken = pieceValue[game.Pawn]
	} else if pc := parent.PieceAt(to); pc != game.NoPiece {
		taken = pieceValue[pc.Type()]
	}
	if taken >= moved {
		return w // an even trade or better
	}
	if attackers&child.ByColor(us.Other()) == 0 || cheapest(child, ours) < moved {
		return w * hangWeight
	}
	return w
}

// cheapest returns the value of the cheapest piece on the squares of set.
func cheapest(p *game.Position, set game.Bitboard) int {
	for _, pt := range [...]game.PieceType{game.Pawn, game.Knight, game.Bishop, game.Rook, game.Queen, game.King} {
		if set&p.ByType(pt) != 0 {
			return pieceValue[pt]
		}
	}
	return 0
}

// opponentRequests returns the distinct requests the opponent can make on
// b, without the pass.
func opponentRequests(dst []game.Move, b *game.Position) []game.Move {
	start := len(dst)
	return distinctRequests(dst[:start], recon.AppendMoveActions(dst, b)[start:], b)
}

// distinctRequests appends to dst the move actions that differ in effect:
// a bare pawn move to the last rank is its queen promotion, listed too.
func distinctRequests(dst, actions []game.Move, b *game.Position) []game.Move {
	for _, m := range actions {
		if recon.WithDefaultPromotion(b, m) == m {
			dst = append(dst, m)
		}
	}
	return dst
}

// expanded returns the boards the opponent's requests lead to from each
// board (the opponent to move on it) that agree with what the player was
// told: a capture on observed, or none (game.NoSquare). Children reached in
// several ways are merged, their weights added. Work is shared among
// workers goroutines; s is unchanged.
func (s *belief) expanded(observed game.Square, m opponentModel, workers int) *belief {
	out := s.expand(context.Background(), m, workers, observed, false)[observed]
	if out == nil {
		out = &belief{exact: s.exact}
	}
	return out
}

// expandedAll returns what expanded returns for every capture square the
// opponent's turn can show (game.NoSquare: none), by the square: each the
// same boards with the same weights, in the same order, as expanded gives
// for it. It returns nil when ctx ends first.
func (s *belief) expandedAll(ctx context.Context, m opponentModel, workers int) map[game.Square]*belief {
	return s.expand(ctx, m, workers, game.NoSquare, true)
}

// expand is expanded for the capture on only, or for every capture when
// all is set; nil when ctx ended first (checked every few dozen boards).
func (s *belief) expand(ctx context.Context, m opponentModel, workers int, only game.Square, all bool) map[game.Square]*belief {
	type part struct {
		boards  []game.Position
		weights []float64
		index   map[uint64]int32
	}
	// outcome is one distinct child of a parent: kids[kid], its hash,
	// the capture it shows and the model's weight.
	type outcome struct {
		hash    uint64
		kid     int
		capture game.Square
		weight  float64
	}
	if workers < 1 {
		workers = 1
	}
	workers = min(workers, max(1, len(s.boards)/64))
	parts := make([]map[game.Square]*part, workers)
	var wg sync.WaitGroup
	chunk := (len(s.boards) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min(len(s.boards), (w+1)*chunk)
		wg.Add(1)
		go func(pw *map[game.Square]*part) {
			defer wg.Done()
			pts := map[game.Square]*part{}
			*pw = pts
			var buf []game.Move
			var outs []outcome
			var kids []game.Position // a parent's children, reused
			var scores []float64
			var checks []bool
			var ev *engine.Evaluator
			lnPerPawn := math.Log(max(m.perPawn, 1))
			if m.perPawn > 1 {
				ev = evaluators.Get().(*engine.Evaluator)
				defer evaluators.Put(ev)
			}
			for i := lo; i < hi; i++ {
				if (i-lo)%64 == 63 && ctx.Err() != nil {
					return
				}
				b := &s.boards[i]
				buf = opponentRequests(buf[:0], b)
				// Every distinct outcome of the parent, for the model's
				// normalisation, whether or not it fits the observation.
				outs, kids = outs[:0], kids[:0]
				var total float64
				for j := 0; j <= len(buf); j++ {
					req := game.NoMove
					if j < len(buf) {
						req = buf[j]
					}
					_, enc := recon.Revise(b, req)
					kids = append(kids, *b)
					child := &kids[len(kids)-1]
					recon.Apply(child, enc)
					if child.KingSquare(child.Side()) == game.NoSquare {
						kids = kids[:len(kids)-1]
						continue // the player's king is taken: that game is over
					}
					k := child.Hash()
					seen := false
					for o := range outs {
						if outs[o].hash == k {
							seen = true
							break
						}
					}
					if seen {
						kids = kids[:len(kids)-1]
						continue
					}
					o := outcome{hash: k, kid: len(kids) - 1, capture: recon.CaptureSquare(b, enc), weight: outcomeWeight(b, enc, child, m.threat)}
					total += o.weight
					outs = append(outs, o)
				}
				if ev != nil {
					scores, checks = scores[:0], checks[:0]
					for _, o := range outs {
						scores = append(scores, moverScore(ev, &kids[o.kid]))
						checks = append(checks, checksKing(&kids[o.kid]))
					}
					scoreShortfalls(scores, checks)
					total = 0
					for j := range outs {
						outs[j].weight *= math.Exp(lnPerPawn * scores[j])
						total += outs[j].weight
					}
				}
				for _, o := range outs {
					if !all && o.capture != only {
						continue
					}
					pt := pts[o.capture]
					if pt == nil {
						// Most children show no capture: room for them
						// from the start (about 16 a parent).
						n := 16
						if o.capture == game.NoSquare {
							n = (hi - lo) * 16
						}
						pt = &part{index: make(map[uint64]int32, n), boards: make([]game.Position, 0, n), weights: make([]float64, 0, n)}
						pts[o.capture] = pt
					}
					w := s.weights[i] * o.weight / total
					if at, ok := pt.index[o.hash]; ok {
						pt.weights[at] += w
						continue
					}
					pt.index[o.hash] = int32(len(pt.boards))
					pt.boards = append(pt.boards, kids[o.kid])
					pt.weights = append(pt.weights, w)
				}
			}
		}(&parts[w])
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	// Merged part by part in order, as each capture's own expansion would.
	merged := map[game.Square]*part{}
	for _, pts := range parts {
		for c, pt := range pts {
			m := merged[c]
			if m == nil {
				merged[c] = pt
				continue
			}
			for i := range pt.boards {
				k := pt.boards[i].Hash()
				if at, ok := m.index[k]; ok {
					m.weights[at] += pt.weights[i]
					continue
				}
				m.index[k] = int32(len(m.boards))
				m.boards = append(m.boards, pt.boards[i])
				m.weights = append(m.weights, pt.weights[i])
			}
		}
	}
	out := make(map[game.Square]*belief, len(merged))
	for c, m := range merged {
		b := &belief{boards: m.boards, weights: m.weights, exact: s.exact}
		b.normalize()
		out[c] = b
	}
	return out
}

// filter returns, in a new belief, the boards for which keep returns true,
// as keep leaves them: it gets a copy, which it may change. s is unchanged.
func (s *belief) filter(keep func(b *game.Position) bool) *belief {
	out := &belief{exact: s.exact}
	for i := range s.boards {
		b := s.boards[i]
		if keep(&b) {
			out.boards = append(out.boards, b)
			out.weights = append(out.weights, s.weights[i])
		}
	}
	out.normalize()
	return out
}

// senseMatches reports whether b shows what the sense showed.
func senseMatches(b *game.Position, r recon.SenseResult) bool {
	for _, sp := range r {
		if b.PieceAt(sp.Square) != sp.Piece {
			return false
		}
	}
	return true
}

// afterSense returns the boards that agree with a sense result.
func (s *belief) afterSense(r recon.SenseResult) *belief {
	return s.filter(func(b *game.Position) bool { return senseMatches(b, r) })
}

// afterOwnMove returns the boards on which the player's request would have
// been taken as it was, capturing where it did, with that move made.
func (s *belief) afterOwnMove(r recon.MoveResult) *belief {
	return s.filter(func(b *game.Position) bool {
		req := r.Requested
		if req != game.NoMove {
			req = recon.WithDefaultPromotion(b, req)
		}
		taken, enc := recon.Revise(b, req)
		if taken != r.Taken || recon.CaptureSquare(b, enc) != r.Capture {
			return false
		}
		recon.Apply(b, enc)
		return true
	})
}

// resample shrinks the set to at most n boards by systematic resampling on
// the weights (a board drawn more than once is kept once, with the weight of
// its draws); the set is then no longer exact.
func (s *belief) resample(n int, rng *rand.Rand) {
	if len(s.boards) <= n {
		return
	}
	idx, w := systematic(s.weights, n, rng)
	boards := make([]game.Position, len(idx))
	for i, j := range idx {
		boards[i] = s.boards[j]
	}
	s.boards, s.weights, s.exact = boards, w, false
	s.normalize()
}

// systematic draws n times from weights (summing to 1) by systematic
// resampling and returns the distinct indices drawn, ascending, with the
// share of draws each received.
func systematic(weights []float64, n int, rng *rand.Rand) ([]int, []float64) {
	var idx []int
	var w []float64
	step := 1 / float64(n)
	u := rng.Float64() * step
	var cum float64
	for i, wi := range weights {
		cum += wi
		draws := 0
		for u < cum && draws+len(idx) < n*2 {
			draws++
			u += step
		}
		if draws > 0 {
			idx = append(idx, i)
			w = append(w, float64(draws)*step)
		}
	}
	return idx, w
}

// defaultWorkers is how many goroutines a bot's heavy work uses.
func defaultWorkers() int { return max(1, min(runtime.GOMAXPROCS(0), 8)) }
