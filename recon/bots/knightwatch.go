package bots

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// Knightwatch is Knightwatch's own Reconnaissance Chess bot. It keeps every
// board consistent with what it has observed (a weighted sample once there
// are too many), senses where the answer best improves the coming move
// decision, and chooses the move whose winning chance, judged on many
// possible boards by the engine, is best, leaving its king capturable as
// little as possible and taking the king whenever every board allows it.
type Knightwatch struct {
	cfg     KnightwatchConfig
	rng     *rand.Rand
	scorers []*scorer
	color   game.Color
	belief  *belief
	// forced is a request that captures the king on every board, found
	// while choosing the sense.
	forced game.Move
	stats  KnightwatchStats
	turn   int
	// turnStart and clockAtStart measure this turn; lastEnd and
	// lastClock the previous one, to infer the increment.
	turnStart    time.Time
	clockAtStart time.Duration
	lastClock    time.Duration
	lastUsed     time.Duration
	increment    time.Duration
	budget       time.Duration
	// hardStop is when this turn must be over whatever the search says: a
	// fifth of the clock from the sense, so that a slow machine or a large
	// belief never runs the clock out.
	hardStop time.Time
	// pondered is the belief expanded on the opponent's turn (Ponder),
	// by capture square, for the belief it was expanded from; nil when
	// none is ready.
	pondered *pondered
}

// pondered is what Ponder expanded: from, the belief it began with, grown
// by every opponent request, by the capture square each shows.
type pondered struct {
	from *belief
	by   map[game.Square]*belief
}

// KnightwatchStats sums up a game: the belief's size on each turn after
// the opponent's move and after the sense, whether it was exact, and the
// time spent.
type KnightwatchStats struct {
	Expanded, Sensed []int
	SampledTurns     int
	Recoveries       int
	SenseTime        []time.Duration
	MoveTime         []time.Duration
	// TruthChecks and TruthMisses count the checks TrueBoardInSet made
	// while the belief was exact (a miss there would be a bug);
	// SampledChecks and SampledMisses those made once it was sampled.
	TruthChecks, TruthMisses     int
	SampledChecks, SampledMisses int
}

// NewKnightwatch returns the bot with cfg; seed drives its sampling.
func NewKnightwatch(cfg KnightwatchConfig, seed uint64) *Knightwatch {
	if cfg.Workers <= 0 {
		cfg.Workers = defaultWorkers()
	}
	k := &Knightwatch{cfg: cfg, rng: rand.New(rand.NewPCG(seed, 0x6b77626f74))}
	for range cfg.Workers {
		k.scorers = append(k.scorers, newScorer(fogWeights{missed: cfg.MissedCheck, sneak: cfg.SneakCheck}))
	}
	return k
}

// Stats returns the game's statistics so far.
func (k *Knightwatch) Stats() KnightwatchStats { return k.stats }

// BeliefSize returns the number of boards held possible.
func (k *Knightwatch) BeliefSize() int { return k.belief.size() }

// TrueBoardInSet reports whether the true board is among the boards held
// possible (tests and match reports call it; the bot itself never sees the
// true board).
func (k *Knightwatch) TrueBoardInSet(truth *game.Position) bool {
	in := k.belief.contains(truth)
	if k.belief.exact {
		k.stats.TruthChecks++
		if !in {
			k.stats.TruthMisses++
		}
	} else {
		k.stats.SampledChecks++
		if !in {
			k.stats.SampledMisses++
		}
	}
	return in
}

// Report sums up the game so far in a line (see KnightwatchStats.Report).
func (k *Knightwatch) Report() string { return k.stats.Report() }

// Exact reports whether the belief still holds every consistent board.
func (k *Knightwatch) Exact() bool { return k.belief.exact }

func (k *Knightwatch) logf(format string, args ...any) {
	if k.cfg.Log != nil {
		fmt.Fprintf(k.cfg.Log, "%s %d: "+format+"\n", append([]any{k.color, k.turn}, args...)...)
	}
}

// Start begins with the starting board as the only possibility.
func (k *Knightwatch) Start(color game.Color, board recon.Board, _ string) {
	k.color = color
	for _, sc := range k.scorers {
		sc.us = color
	}
	k.belief = newBelief(board.Position())
	k.stats = KnightwatchStats{}
	k.turn = 0
	k.forced = game.NoMove
	k.pondered = nil
}

// OpponentMoveResult expands every board by the opponent's requests that
// agree with where it captured.
func (k *Knightwatch) OpponentMoveResult(capture game.Square) {
	k.turnStart = time.Now()
	s := k.belief
	if s.boards[0].Side() == k.color {
		// White's first turn: the opponent has not moved.
		k.stats.Expanded = append(k.stats.Expanded, s.size())
		return
	}
	maxBoards := k.boardBound()
	k.shrinkBeforeExpanding(maxBoards)
	s = k.belief
	var next *belief
	if p := k.pondered; p != nil && p.from == s {
		// Expanded on the opponent's turn: only the filter is left.
		if next = p.by[capture]; next == nil {
			next = &belief{exact: s.exact}
		}
	} else {
		next = s.expanded(capture, k.cfg.opponentModel(), k.cfg.Workers)
	}
	k.pondered = nil
	if next.size() > 0 {
		k.belief = next
	} else {
		k.recoverExpansion(s.boards, s.weights, capture)
	}
	s = k.belief
	if s.size() > maxBoards {
		s.resample(maxBoards, k.rng)
		k.logf("resampled to %d boards", s.size())
	}
	k.stats.Expanded = append(k.stats.Expanded, s.size())
	if !s.exact {
		k.stats.SampledTurns++
	}
}

// shrinkBeforeExpanding keeps the coming expansion within bounds: about
// 40 children a board, so at most a twentieth of maxBoards parents. The
// belief is resampled in place, so that Ponder and OpponentMoveResult
// resample it once between them, drawing the same numbers.
func (k *Knightwatch) shrinkBeforeExpanding(maxBoards int) {
	if limit := maxBoards / 20; k.belief.size() > limit {
		k.belief.resample(limit, k.rng)
		k.logf("resampled to %d boards before expanding", k.belief.size())
	}
}

// Ponder expands the belief by every request the opponent can make, while
// the opponent thinks (a remote game's opponent takes its time), so that
// OpponentMoveResult then only picks the boards that show its capture:
// the same boards, with the same weights, as without pondering. It
// returns when done or when ctx ends (the turn has come); cut short, it
// leaves the bot as it would be without it. The boards it keeps are the
// expansion's, about as many as OpponentMoveResult's own (the few more
// are those showing a capture), within the belief's bound. Call it only
// between MoveResult and OpponentMoveResult, from the goroutine that
// feeds the bot or with that one waiting.
func (k *Knightwatch) Ponder(ctx context.Context) {
	s := k.belief
	if s == nil || s.size() == 0 || s.boards[0].Side() == k.color || ctx.Err() != nil {
		return // the opponent has not moved yet, or no time
	}
	if k.pondered != nil && k.pondered.from == s {
		return
	}
	k.shrinkBeforeExpanding(k.boardBound())
	if by := k.belief.expandedAll(ctx, k.cfg.opponentModel(), k.cfg.Workers); by != nil {
		k.pondered = &pondered{from: k.belief, by: by}
	}
}

// Short of time the belief shrinks: expanding and filtering a large one
// takes seconds that no deadline can cut short, so below lowClock the
// bound falls with the square of the clock, to no less than minBoardBound.
const (
	lowClock      = 20 * time.Second
	minBoardBound = 5_000
)

// boardBound returns the bound on the belief for this turn, from the
// clock as the last turn left it.
func (k *Knightwatch) boardBound() int {
	bound := k.cfg.MaxBoards
	if k.turn == 0 || k.lastClock <= 0 || k.lastClock >= recon.Unlimited/2 {
		return bound
	}
	clock := k.lastClock - k.lastUsed + k.increment
	if clock < lowClock {
		f := max(clock, 0).Seconds() / lowClock.Seconds()
		bound = max(min(bound, minBoardBound), int(float64(bound)*f*f))
	}
	return bound
}

// turnBudget returns the time to spend on this turn.
func (k *Knightwatch) turnBudget(timeLeft time.Duration) time.Duration {
	// The increment is not announced: infer it from the clock.
	if timeLeft < recon.Unlimited/2 && k.turn > 0 {
		if inc := timeLeft - (k.lastClock - k.lastUsed); inc > 0 {
			k.increment = inc
		}
	}
	return budgetFor(timeLeft, k.turn, k.increment, k.cfg.TurnTime)
}

// budgetFor returns the time to spend on turn number turn with timeLeft on
// the clock, increment added each turn and turnTime the cap (0: none).
func budgetFor(timeLeft time.Duration, turn int, increment, turnTime time.Duration) time.Duration {
	if timeLeft >= recon.Unlimited/2 {
		if turnTime > 0 {
			return turnTime
		}
		return 5 * time.Second
	}
	turnsLeft := max(12, 35-turn/2)
	b := timeLeft/time.Duration(turnsLeft) + increment*8/10
	b = min(b, timeLeft/6)
	if timeLeft < lowClock {
		// Live on the increment, keeping the rest as a reserve.
		b = min(b, increment*6/10+timeLeft/40)
	}
	if turnTime > 0 {
		b = min(b, turnTime)
	}
	return max(b, 20*time.Millisecond)
}

// candidates returns the requests worth scoring: the distinct move
// actions and the pass.
func candidates(moveActions []game.Move, b *game.Position) []game.Move {
	out := distinctRequests(make([]game.Move, 0, len(moveActions)+1), moveActions, b)
	return append(out, game.NoMove)
}

// kingCaptureEverywhere returns a request that captures the king on every
// board held possible, if there is one among actions.
func (k *Knightwatch) kingCaptureEverywhere(actions []game.Move) (game.Move, bool) {
	them := k.color.Other()
	for _, a := range actions {
		if a == game.NoMove {
			continue
		}
		all := true
		for i := range k.belief.boards {
			if r := afterRequest(&k.belief.boards[i], a); r.KingSquare(them) != game.NoSquare {
				all = false
				break
			}
		}
		if all {
			return a, true
		}
	}
	return game.NoMove, false
}

// ChooseSense picks the square whose result is expected to improve the
// move decision most.
func (k *Knightwatch) ChooseSense(ctx context.Context, senseActions []game.Square, moveActions []game.Move, timeLeft time.Duration) game.Square {
	start := time.Now()
	defer func() { k.stats.SenseTime = append(k.stats.SenseTime, time.Since(start)) }()
	k.clockAtStart = timeLeft
	k.budget = k.turnBudget(timeLeft)
	k.hardStop = start.Add(timeLeft / 5)
	k.forced = game.NoMove
	if ctx.Err() != nil {
		return game.NoSquare // no time to think (a record being replayed)
	}
	actions := candidates(moveActions, &k.belief.boards[0])
	if m, ok := k.kingCaptureEverywhere(actions); ok {
		k.forced = m
		k.logf("%s takes the king on all %d boards", recon.UCI(m), k.belief.size())
		return game.NoSquare
	}
	if k.cfg.RandomSense || len(senseActions) == 0 {
		if len(senseActions) == 0 {
			return game.NoSquare
		}
		return senseActions[k.rng.IntN(len(senseActions))]
	}
	deadline := start.Add(k.budget * 45 / 100)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	boards, w := sampleBoards(k.belief, k.cfg.Sample, k.rng)
	t := buildTable(boards, w, actions, k.scorers, deadline, k.cfg.DeepBoards, k.cfg.Depth)
	values, base := senseValue(t, k.cfg.Risk, k.cfg.Caution, k.cfg.InfoBonus)
	best, bestValue := game.NoSquare, base
	for _, q := range senseActions {
		if values[q] > bestValue+1e-9 {
			best, bestValue = q, values[q]
		}
	}
	k.logf("sense %s: %.3f over %.3f without, %d boards, %d scored", recon.SquareName(best), bestValue, base, k.belief.size(), t.filled)
	return best
}

// SenseResult keeps the boards that agree with the sense.
func (k *Knightwatch) SenseResult(r recon.SenseResult) {
	if next := k.belief.afterSense(r); next.size() > 0 {
		k.belief = next
	} else {
		k.recoverSense(k.belief.boards, k.belief.weights, r)
	}
	k.stats.Sensed = append(k.stats.Sensed, k.belief.size())
}

// ChooseMove picks the request with the best value over the boards.
func (k *Knightwatch) ChooseMove(ctx context.Context, moveActions []game.Move, timeLeft time.Duration) game.Move {
	start := time.Now()
	defer func() { k.stats.MoveTime = append(k.stats.MoveTime, time.Since(start)) }()
	if k.forced != game.NoMove && slices.Contains(moveActions, k.forced) {
		return k.forced
	}
	if ctx.Err() != nil {
		return game.NoMove // no time to think (a record being replayed)
	}
	actions := candidates(moveActions, &k.belief.boards[0])
	if m, ok := k.kingCaptureEverywhere(actions); ok {
		return m
	}
	remaining := k.budget - time.Since(k.turnStart)
	deadline := start.Add(max(remaining, k.budget/4))
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	if !k.hardStop.IsZero() && k.hardStop.Before(deadline) {
		deadline = k.hardStop
	}
	boards, w := sampleBoards(k.belief, k.cfg.Sample, k.rng)
	t := buildTable(boards, w, actions, k.scorers, deadline, k.cfg.DeepBoards, k.cfg.Depth)
	var exp []float64
	if k.cfg.Caution > 0 {
		// Exposure over the whole belief (sampled uniformly when large),
		// not only the table's boards, which are drawn by weight.
		exp = exposure(k.belief, actions, k.color, exposureSample, k.rng)
	}
	var mates []float64
	if k.cfg.MateCaution > 0 {
		mates = mateExposure(k.belief, actions, k.color, mateSample, k.rng)
	}
	values := k.moveValues(t, exp, mates)
	// A close decision earns more time: search deeper, up to twice the
	// turn's share.
	if top, second := topTwo(values); top-second < closeGap && k.cfg.Depth > 0 {
		extra := k.turnStart.Add(2 * k.budget)
		if d, ok := ctx.Deadline(); ok && d.Before(extra) {
			extra = d
		}
		if !k.hardStop.IsZero() && k.hardStop.Before(extra) {
			extra = k.hardStop
		}
		t.deepen(k.scorers, extra, k.cfg.DeepBoards, k.cfg.Depth+2)
		values = k.moveValues(t, exp, mates)
	}
	choice := bestAction(values)
	if k.cfg.Noise > 0 {
		choice = softmaxChoice(values, k.cfg.Noise, k.rng)
	}
	k.logf("move %s: %.3f (best %.3f), %d boards, %d scored, deepest %d", recon.UCI(actions[choice]), values[choice], values[bestAction(values)], k.belief.size(), t.filled, t.deepest)
	return actions[choice]
}

// moveValues returns each request's value: the table's aggregate, less the
// caution term for the exposure (the table's own, or exp over the whole
// belief when larger) and the mate caution term for mates, the share of
// boards on which it allows a mate in one (nil: not counted).
func (k *Knightwatch) moveValues(t *table, exp, mates []float64) []float64 {
	values := t.aggregate(nil, k.cfg.Risk, 0, nil)
	if k.cfg.Caution > 0 {
		tableExp := t.aggregate(nil, 0, 1, nil)
		plain := t.aggregate(nil, 0, 0, nil)
		for j := range values {
			values[j] -= k.cfg.Caution * max(exp[j], plain[j]-tableExp[j])
		}
	}
	for j := range mates {
		values[j] -= k.cfg.MateCaution * mates[j]
	}
	return values
}

// topTwo returns the highest and second highest values.
func topTwo(values []float64) (float64, float64) {
	top, second := math.Inf(-1), math.Inf(-1)
	for _, v := range values {
		switch {
		case v > top:
			top, second = v, top
		case v > second:
			second = v
		}
	}
	return top, second
}

// closeGap is how near the two best requests must be for the bot to spend
// extra time on the move.
const closeGap = 0.02

// exposureSample is how many boards, at most, the exposure of each
// request is counted on.
const exposureSample = 4096

// mateSample is how many boards, at most, the mates each request allows
// are counted on: finding a mate in one costs about a generation of the
// opponent's moves and a make of each of its checks, some microseconds a
// board and request.
const mateSample = 1024

// softmaxChoice draws an index with probability proportional to
// exp(value/temperature).
func softmaxChoice(values []float64, temperature float64, rng *rand.Rand) int {
	best := values[bestAction(values)]
	ps := make([]float64, len(values))
	var sum float64
	for i, v := range values {
		ps[i] = math.Exp((v - best) / temperature)
		sum += ps[i]
	}
	x := rng.Float64() * sum
	for i, p := range ps {
		if x < p {
			return i
		}
		x -= p
	}
	return len(values) - 1
}

// MoveResult keeps the boards on which the move went as it did, and makes
// it on them.
func (k *Knightwatch) MoveResult(r recon.MoveResult) {
	if next := k.belief.afterOwnMove(r); next.size() > 0 {
		k.belief = next
	} else {
		k.recoverMove(k.belief.boards, k.belief.weights, r)
	}
	k.lastClock = k.clockAtStart
	k.lastUsed = time.Since(k.turnStart)
	k.turn++
}

// End does nothing more.
func (k *Knightwatch) End(recon.Outcome, *recon.History) {}

// Report writes the game's statistics in one line.
func (s KnightwatchStats) Report() string {
	med := func(xs []int) (int, int) {
		if len(xs) == 0 {
			return 0, 0
		}
		c := slices.Clone(xs)
		sort.Ints(c)
		return c[len(c)/2], c[len(c)-1]
	}
	dur := func(ds []time.Duration) (time.Duration, time.Duration) {
		if len(ds) == 0 {
			return 0, 0
		}
		c := slices.Clone(ds)
		slices.Sort(c)
		var sum time.Duration
		for _, d := range c {
			sum += d
		}
		return sum / time.Duration(len(c)), c[len(c)-1]
	}
	em, ew := med(s.Expanded)
	sm, sw := med(s.Sensed)
	sa, sx := dur(s.SenseTime)
	ma, mx := dur(s.MoveTime)
	line := fmt.Sprintf("boards before sense median %d worst %d, after sense median %d worst %d; sampled on %d of %d turns; sense %s avg %s max, move %s avg %s max",
		em, ew, sm, sw, s.SampledTurns, len(s.Expanded), sa.Round(time.Millisecond), sx.Round(time.Millisecond), ma.Round(time.Millisecond), mx.Round(time.Millisecond))
	if s.Recoveries > 0 {
		line += fmt.Sprintf("; %d recoveries", s.Recoveries)
	}
	if s.TruthChecks > 0 {
		line += fmt.Sprintf("; true board in the exact set %d of %d checks", s.TruthChecks-s.TruthMisses, s.TruthChecks)
	}
	if s.SampledChecks > 0 {
		line += fmt.Sprintf(", in the sampled set %d of %d", s.SampledChecks-s.SampledMisses, s.SampledChecks)
	}
	return line
}
