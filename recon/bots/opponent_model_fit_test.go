package bots

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"knightwatch/engine"
	"knightwatch/game"
	"knightwatch/recon"
)

// The opponent model's fit (BenchmarkOpponentModel): how likely the model
// held the outcome each opponent really chose, from the true board before
// its move, in recorded games (bench/results). Its figure is nats per move,
// the mean of -ln(the true outcome's share of the parent's weight): lower
// is better; uniform over the distinct outcomes is the baseline.

// modelTraits are the traits of an outcome the model's factors stand on, in
// the order of traitFactors.
var modelTraits = [...]string{"check", "hang", "capture", "taken pawns", "nothing moved", "castling", "pawn", "development"}

// traitFactors returns the model's factor for each of modelTraits: the
// model counts a check and a hanging piece; the other traits are what a
// fit can weigh (the fit of docs/recon.md, played against StrangeFish, did
// not score better, so the model leaves them at 1).
func traitFactors(threat float64) [len(modelTraits)]float64 {
	return [...]float64{threat, hangWeight, 1, 1, 1, 1, 1, 1}
}

// outcomeTraits returns the traits of child, reached by enc from parent,
// as modelTraits orders them (a count of pawns for "taken pawns", else 0 or
// 1). It is written apart from outcomeWeight, which the fit and
// TestOutcomeWeightIsTraitProduct check against it.
func outcomeTraits(parent *game.Position, enc game.Move, child *game.Position) (t [len(modelTraits)]float64) {
	us := child.Side()
	them := us.Other()
	occ := child.Occupied()
	if k := child.KingSquare(us); k != game.NoSquare && child.AttackersTo(k, occ)&child.ByColor(them) != 0 {
		t[0] = 1
	}
	if enc == game.NoMove {
		t[4] = 1
		return t
	}
	if enc.IsCastling() {
		t[5] = 1
		return t
	}
	to := enc.To()
	moved := child.PieceAt(to).Type()
	taken := game.NoPieceType
	if enc.IsEnPassant() {
		taken = game.Pawn
	} else if pc := parent.PieceAt(to); pc != game.NoPiece {
		taken = pc.Type()
	}
	if taken != game.NoPieceType {
		t[2] = 1
		t[3] = float64(min(pieceValue[taken], pieceValue[game.Queen]))
	}
	switch moved {
	case game.Pawn:
		t[6] = 1
	case game.Knight, game.Bishop:
		if (them == game.White && enc.From().Rank() == 0) || (them == game.Black && enc.From().Rank() == 7) {
			t[7] = 1
		}
	}
	// The hang test: attacked by the player, not having taken as much as
	// it is worth, and undefended or attacked by something cheaper.
	attackers := child.AttackersTo(to, occ)
	ours := attackers & child.ByColor(us)
	if ours != 0 && pieceValue[taken] < pieceValue[moved] &&
		(attackers&child.ByColor(them) == 0 || cheapest(child, ours) < pieceValue[moved]) {
		t[1] = 1
	}
	return t
}

// fitCase is one opponent move: the features of every distinct outcome of
// the true board before it (modelTraits, then evalFeature), which outcome
// it chose, and whether it was one of the last attackMoves moves of a game
// the opponent won (the attack the model must not overlook).
type fitCase struct {
	features [][numFeatures]float64
	chosen   int
	attack   bool
}

// numFeatures counts modelTraits and the evaluation feature after them.
const numFeatures = len(modelTraits) + 1

// evalFeature indexes the outcome's evaluation among the features: its
// shortfall in pawns (scoreShortfalls), which the bot's model weighs by
// ScoreFactor per pawn.
const evalFeature = len(modelTraits)

// attackMoves is how many of a winning opponent's last moves count as its
// attack.
const attackMoves = 10

// recordedMoves returns the fit cases of every move of the player whose
// name starts with opponent in the games of path (one JSON history a line,
// gzipped), but the moves that took the king. ev scores the outcomes for
// the evaluation feature (nil: the feature is left 0).
func recordedMoves(tb testing.TB, path, opponent string, ev *engine.Evaluator) []fitCase {
	var out []fitCase
	var reqs []game.Move
	for _, h := range recordedHistories(tb, path, -1) {
		color := game.White
		if !strings.HasPrefix(h.Names[game.White], opponent) {
			color = game.Black
		}
		won := h.Outcome.Decisive && h.Outcome.Winner == color
		first := len(out)
		for i, fen := range h.FENsBefore[color] {
			b, err := recon.ParseBoard(fen)
			if err != nil {
				tb.Fatal(err)
			}
			parent := b.Position()
			_, played := recon.Revise(&parent, h.RequestedMoves[color][i])
			truth := parent
			recon.Apply(&truth, played)
			if truth.KingSquare(truth.Side()) == game.NoSquare {
				continue // the game is over: not a choice among outcomes
			}
			c := fitCase{chosen: -1}
			var seen []uint64
			reqs = append(opponentRequests(reqs[:0], &parent), game.NoMove)
			for _, req := range reqs {
				_, enc := recon.Revise(&parent, req)
				child := parent
				recon.Apply(&child, enc)
				if child.KingSquare(child.Side()) == game.NoSquare || containsHash(seen, child.Hash()) {
					continue
				}
				seen = append(seen, child.Hash())
				if child.Hash() == truth.Hash() {
					c.chosen = len(c.features)
				}
				var f [numFeatures]float64
				t := outcomeTraits(&parent, enc, &child)
				copy(f[:], t[:])
				if ev != nil {
					f[evalFeature] = moverScore(ev, &child)
				}
				c.features = append(c.features, f)
			}
			if c.chosen < 0 {
				tb.Fatalf("%s: the move played, %s, is not among the outcomes", fen, recon.UCI(h.RequestedMoves[color][i]))
			}
			if ev != nil {
				relativeScores(c.features)
			}
			out = append(out, c)
		}
		if won {
			for i := max(first, len(out)-attackMoves); i < len(out); i++ {
				out[i].attack = true
			}
		}
	}
	return out
}

// relativeScores turns the outcomes' mover scores into the evaluation
// feature, as the bot's expansion does (scoreShortfalls).
func relativeScores(fs [][numFeatures]float64) {
	scores := make([]float64, len(fs))
	checks := make([]bool, len(fs))
	for i, f := range fs {
		scores[i], checks[i] = f[evalFeature], f[0] != 0
	}
	scoreShortfalls(scores, checks)
	for i := range fs {
		fs[i][evalFeature] = scores[i]
	}
}

// recordedHistories returns the first n games of path (one JSON history a
// line, gzipped; n < 0: all).
func recordedHistories(tb testing.TB, path string, n int) []*recon.History {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var out []*recon.History
	for (n < 0 || len(out) < n) && sc.Scan() {
		h, err := recon.UnmarshalHistory(sc.Bytes())
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, h)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func containsHash(hs []uint64, h uint64) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// natsPerMove returns the mean -ln of the chosen outcome's probability
// under the log-linear model with log-factors theta, and adds to grad (when
// not nil) the gradient of the sum.
func natsPerMove(cases []fitCase, theta [numFeatures]float64, grad *[numFeatures]float64) float64 {
	var total float64
	var ws []float64
	for _, c := range cases {
		ws = ws[:0]
		var z float64
		for _, f := range c.features {
			var s float64
			for i, x := range f {
				s += theta[i] * x
			}
			ws = append(ws, math.Exp(s))
			z += ws[len(ws)-1]
		}
		total -= math.Log(ws[c.chosen] / z)
		if grad != nil {
			for o, f := range c.features {
				for i, x := range f {
					grad[i] += ws[o] / z * x
				}
			}
			for i, x := range c.features[c.chosen] {
				grad[i] -= x
			}
		}
	}
	return total / float64(len(cases))
}

// fitFactors returns the log-factors of the maximum-likelihood fit to
// cases (gradient descent with a step that grows while it helps) of the
// features free marks, the others held at from's.
func fitFactors(cases []fitCase, from [numFeatures]float64, free [numFeatures]bool) [numFeatures]float64 {
	theta := from
	step, best := 0.5, natsPerMove(cases, theta, nil)
	for range 2000 {
		var g [numFeatures]float64
		natsPerMove(cases, theta, &g)
		next := theta
		for i := range next {
			if free[i] {
				next[i] -= step * g[i] / float64(len(cases))
			}
		}
		if v := natsPerMove(cases, next, nil); v < best {
			theta, best, step = next, v, step*1.1
		} else if step /= 2; step < 1e-7 {
			break
		}
	}
	return theta
}

// logFactors returns the opponent model m as log-linear weights.
func logFactors(m opponentModel) (theta [numFeatures]float64) {
	for i, f := range traitFactors(m.threat) {
		theta[i] = math.Log(f)
	}
	if m.perPawn > 1 {
		theta[evalFeature] = math.Log(m.perPawn)
	}
	return theta
}

// attackCases returns the cases of cs that are a winning opponent's attack.
func attackCases(cs []fitCase) []fitCase {
	var out []fitCase
	for _, c := range cs {
		if c.attack {
			out = append(out, c)
		}
	}
	return out
}

// modelGames are the recorded games the fit reads: knightwatch against
// StrangeFish (two matches, the first to fit on, the second held out) and
// against trout (the first half to fit on, the second held out).
var modelGames = []struct{ path, opponent string }{
	{"../../bench/results/rbc/strangefish-clock-120s-40games.jsonl.gz", "strangefish"},
	{"../../bench/results/rbc/strangefish-clock-120s-40games-hang.jsonl.gz", "strangefish"},
	{"../../bench/results/rbc/knightwatch-vs-trout-60s-100games.jsonl.gz", "trout"},
}

// BenchmarkOpponentModel reports the full-strength bot's opponent model's
// nats per move on the held-out games (StrangeFish's second match, trout's
// second half), beside those of: the uniform model, the model with the
// score factor tried in docs/recon.md ("score6-", score=6), and three fresh
// fits on the rest, of the traits' factors ("refit", the check held at
// threat, the model's by design), of the score factor alone on top of the
// model's traits ("scorefit") and of both ("allfit"). Each is reported over
// all held-out moves and over the attack moves alone (the last attackMoves
// moves of the games the opponent won): a model can predict the average
// move better and the attacks that lose games worse (docs/recon.md, "The
// opponent model"). The fits' factors are logged. The work timed is one
// pass of the model over the cases.
func BenchmarkOpponentModel(b *testing.B) {
	bot := knightwatchLevels[len(knightwatchLevels)-1].opponentModel()
	threat := bot.threat
	ev := engine.NewEvaluator(engine.Options{})
	sf1 := recordedMoves(b, modelGames[0].path, modelGames[0].opponent, ev)
	sf2 := recordedMoves(b, modelGames[1].path, modelGames[1].opponent, ev)
	trout := recordedMoves(b, modelGames[2].path, modelGames[2].opponent, ev)
	train := append(append([]fitCase{}, sf1...), trout[:len(trout)/2]...)
	model := logFactors(bot)
	scored := bot
	scored.perPawn = 6
	var traits, evalOnly, withEval [numFeatures]bool
	for i := 1; i < len(modelTraits); i++ {
		traits[i], withEval[i] = true, true
	}
	evalOnly[evalFeature], withEval[evalFeature] = true, true
	var start [numFeatures]float64
	start[0] = math.Log(threat)
	fits := []struct {
		name  string
		theta [numFeatures]float64
	}{
		{"", model},
		{"score6-", logFactors(scored)},
		{"uniform-", [numFeatures]float64{}},
		{"refit-", fitFactors(train, start, traits)},
		{"scorefit-", fitFactors(train, model, evalOnly)},
		{"allfit-", fitFactors(train, start, withEval)},
	}
	for _, f := range fits[3:] {
		var factors []string
		for i, th := range f.theta {
			name := "score (per pawn short)"
			if i < len(modelTraits) {
				name = modelTraits[i]
			}
			factors = append(factors, fmt.Sprintf("%s %.2f", name, math.Exp(th)))
		}
		b.Logf("%sfitted on %d moves: %s", f.name, len(train), strings.Join(factors, ", "))
	}
	held := map[string][]fitCase{"strangefish": sf2, "trout": trout[len(trout)/2:]}
	b.ResetTimer()
	for range b.N {
		natsPerMove(sf2, model, nil)
	}
	b.StopTimer()
	for _, name := range []string{"strangefish", "trout"} {
		cases, attacks := held[name], attackCases(held[name])
		for _, f := range fits {
			b.ReportMetric(natsPerMove(cases, f.theta, nil), f.name+"nats/move-"+name)
			if len(attacks) > 0 {
				b.ReportMetric(natsPerMove(attacks, f.theta, nil), f.name+"attack-nats/move-"+name)
			}
		}
	}
}

// TestOutcomeWeightIsTraitProduct checks that outcomeWeight is the product
// of traitFactors over outcomeTraits on every outcome of the opponents'
// moves of a recorded match, so that the fit measures the model the bot
// uses.
func TestOutcomeWeightIsTraitProduct(t *testing.T) {
	const threat = 4
	cases := 0
	factors := traitFactors(threat)
	var reqs []game.Move
	for _, h := range recordedHistories(t, modelGames[1].path, 4) {
		for _, color := range []game.Color{game.White, game.Black} {
			for _, fen := range h.FENsBefore[color] {
				b, err := recon.ParseBoard(fen)
				if err != nil {
					t.Fatal(err)
				}
				parent := b.Position()
				reqs = append(opponentRequests(reqs[:0], &parent), game.NoMove)
				for _, req := range reqs {
					_, enc := recon.Revise(&parent, req)
					child := parent
					recon.Apply(&child, enc)
					if child.KingSquare(child.Side()) == game.NoSquare {
						continue
					}
					want := 1.0
					for i, x := range outcomeTraits(&parent, enc, &child) {
						want *= math.Pow(factors[i], x)
					}
					if got := outcomeWeight(&parent, enc, &child, threat); math.Abs(got-want) > 1e-9*want {
						t.Fatalf("%s %s: weight %v, traits give %v", fen, recon.UCI(req), got, want)
					}
					cases++
				}
			}
		}
	}
	if cases < 1000 {
		t.Fatalf("only %d outcomes checked", cases)
	}
}
