package engine

import (
	"bufio"
	"context"
	"fmt"
	"go/format"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"knightwatch/game"
)

// This file holds the tools behind `knightwatch tune`: self-play to collect
// labelled positions, and a Texel tuner (minimise the squared error between
// the game result and a sigmoid of the evaluation) over the scalar
// evaluation weights. They change the package-level weights, so they must
// not run while engines are searching in the same process.

// TrainingPosition is a quiet position labelled with the final result of
// the game it came from, from White's point of view (1, 0.5 or 0).
type TrainingPosition struct {
	FEN    string
	Result float64
	// Score is the search score of the position in centipawns from
	// White's view, when Scored; the neural network's trainer learns from
	// it (see engine/nnue), the Texel tuner ignores it.
	Score  int
	Scored bool
}

// SelfPlayOptions configure GenerateTrainingData.
type SelfPlayOptions struct {
	Games       int
	Nodes       uint64 // node budget per move
	RandomPlies int    // random moves after the book to diversify openings
	MaxPlies    int
	Seed        uint64
	// Network plays and scores the games with the built-in network. The
	// default is the hand-written evaluation: the data the built-in
	// network learned from were made that way, and the same seeds give
	// the same data only with the same evaluation.
	Network bool
}

// GenerateTrainingData plays fast self-play games and returns their quiet
// positions labelled with the results. progress, when not nil, is called
// after each game.
func GenerateTrainingData(ctx context.Context, o SelfPlayOptions, progress func(game int, result string)) []TrainingPosition {
	if o.MaxPlies <= 0 {
		o.MaxPlies = 300
	}
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	e := New(Options{HashMB: 8, HandWrittenEval: !o.Network})
	e.SetSeed(o.Seed)
	var book *Book
	if b := loadBook(DefaultBookFile); b != nil {
		book = b
	}
	var out []TrainingPosition
	for gi := 0; gi < o.Games && ctx.Err() == nil; gi++ {
		e.NewGame()
		g := game.NewGame()
		// Opening: book moves while there are any, then random plies.
		for ply := 0; ply < 16 && book != nil; ply++ {
			m, ok := book.Choose(g.Position(), rng)
			if !ok {
				break
			}
			g.Play(m)
		}
		for i := 0; i < o.RandomPlies && !g.Outcome().Over(); i++ {
			moves := g.Position().LegalMoves()
			g.Play(moves[rng.IntN(len(moves))])
		}
		type scoredFEN struct {
			fen   string
			score int
		}
		var fens []scoredFEN
		result := ""
		adjudicate := 0
		for g.Len() < o.MaxPlies {
			if oc := g.OutcomeWithClaims(); oc.Over() {
				result = string(oc.Result)
				break
			}
			p := g.Position()
			res := e.Search(ctx, p, g.HashHistory(), Limits{Nodes: o.Nodes}, nil)
			if ctx.Err() != nil {
				return out
			}
			// Resign adjudication saves time in decided games.
			cp := res.Score.CP
			if p.Side() == game.Black {
				cp = -cp
			}
			quiet := !p.InCheck() && !p.IsCapture(res.Move) && !res.Move.IsPromotion() && res.Score.Mate == 0
			if quiet {
				fens = append(fens, scoredFEN{p.FEN(), cp})
			}
			if res.Score.Mate != 0 || cp > 1000 || cp < -1000 {
				adjudicate++
				if adjudicate >= 6 {
					if cp > 0 {
						result = string(game.WhiteWins)
					} else {
						result = string(game.BlackWins)
					}
					break
				}
			} else {
				adjudicate = 0
			}
			g.Play(res.Move)
		}
		if result == "" {
			result = string(game.Draw)
		}
		label := 0.5
		switch result {
		case string(game.WhiteWins):
			label = 1
		case string(game.BlackWins):
			label = 0
		}
		for _, f := range fens {
			out = append(out, TrainingPosition{FEN: f.fen, Result: label, Score: f.score, Scored: true})
		}
		if progress != nil {
			progress(gi+1, result)
		}
	}
	return out
}

// WriteTrainingData writes positions as "FEN;result" lines, or
// "FEN;result;score" for a scored position.
func WriteTrainingData(w io.Writer, ps []TrainingPosition) error {
	bw := bufio.NewWriter(w)
	for _, p := range ps {
		if p.Scored {
			fmt.Fprintf(bw, "%s;%g;%d\n", p.FEN, p.Result, p.Score)
		} else {
			fmt.Fprintf(bw, "%s;%g\n", p.FEN, p.Result)
		}
	}
	return bw.Flush()
}

// ReadTrainingData parses "FEN;result" or "FEN;result;score" lines (the expected result from
// White's view: 1, 0.5 or 0 for a game result, or any value between for a
// label blended with a search score; see TrainingFromPGN). Blank lines and
// lines starting with # are skipped.
func ReadTrainingData(r io.Reader) ([]TrainingPosition, error) {
	var out []TrainingPosition
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.IndexByte(line, ';')
		if i < 0 {
			return nil, fmt.Errorf("line %d: missing ';result'", n)
		}
		resText, scoreText, _ := strings.Cut(line[i+1:], ";")
		scoreText = strings.TrimSpace(scoreText)
		res, err := strconv.ParseFloat(strings.TrimSpace(resText), 64)
		if err != nil || !(res >= 0 && res <= 1) {
			return nil, fmt.Errorf("line %d: result must be a number from 0 to 1", n)
		}
		fen := strings.TrimSpace(line[:i])
		if _, err := game.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		tp := TrainingPosition{FEN: fen, Result: res}
		if scoreText != "" {
			score, err := strconv.Atoi(scoreText)
			if err != nil || score < -100000 || score > 100000 {
				return nil, fmt.Errorf("line %d: score must be a whole number of centipawns", n)
			}
			tp.Score, tp.Scored = score, true
		}
		out = append(out, tp)
	}
	return out, sc.Err()
}

// TrainingFromPGN turns one finished game into training positions: each
// position from ply skip on where the side to move is not in check and
// plays a quiet move (no capture or promotion), labelled with the game's
// result from White's view. Games between engines at real time controls
// are better labelled than the fast node-limited games of
// GenerateTrainingData, and the repository keeps thousands of them.
//
// With lambda below 1 the label blends the result with the mover's search
// score from the move's comment, as match writes it ("+0.35/14 0.120s"):
// lambda·result + (1-lambda)·sigmoid(score), the sigmoid with scale k. A
// position whose move carries no score keeps the plain result. Positions
// whose score is a mate are left out: the game was decided there, and the
// static evaluation cannot say by how much.
//
// A game without a result (or whose moves are illegal) gives no positions.
func TrainingFromPGN(pg *game.PGNGame, skip int, lambda, k float64) ([]TrainingPosition, error) {
	// Mainline checks every move and works out the result (from the board,
	// or from the result marker and tags).
	g, err := pg.Mainline()
	if err != nil {
		return nil, err
	}
	var label float64
	switch g.Outcome().Result {
	case game.WhiteWins:
		label = 1
	case game.BlackWins:
		label = 0
	case game.Draw:
		label = 0.5
	default:
		return nil, nil
	}
	p := pg.StartPosition()
	var out []TrainingPosition
	ply := 0
	for n := &pg.Root; len(n.Variations) > 0; n, ply = n.Variations[0], ply+1 {
		child := n.Variations[0]
		m := child.Move
		if m == game.NullMove {
			return nil, fmt.Errorf("move %d is a null move", ply+1)
		}
		quiet := ply >= skip && !p.InCheck() && !p.IsCapture(m) && !m.IsPromotion()
		score, mate, scored := commentScore(child.Comment)
		if p.Side() == game.Black {
			score = -score
		}
		switch {
		case !quiet || scored && mate:
		case scored && lambda < 1:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: lambda*label + (1-lambda)*sigmoid(k, float64(score)), Score: score, Scored: true})
		case scored:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: label, Score: score, Scored: true})
		default:
			out = append(out, TrainingPosition{FEN: p.FEN(), Result: label})
		}
		p.MakeMove(m)
	}
	return out, nil
}

// commentScore reads the score at the start of a match comment: "+0.35/14
// ..." gives 35 centipawns, "-M3/20 ..." a mate. ok is false when the
// comment does not start with a score.
func commentScore(c string) (cp int, mate, ok bool) {
	c = strings.TrimSpace(c)
	if i := strings.IndexAny(c, "/ "); i >= 0 {
		c = c[:i]
	}
	if len(c) < 2 || (c[0] != '+' && c[0] != '-') {
		return 0, false, false
	}
	if c[1] == 'M' {
		_, err := strconv.Atoi(c[2:])
		return 0, true, err == nil
	}
	f, err := strconv.ParseFloat(c, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, false
	}
	return int(math.Round(f * 100)), false, true
}

// tuneSample is one training position reduced to what the tuner needs:
// the evaluation's terms (White minus Black) and the factors that turn
// their weighted sums into the White-view score
//
//	score = Σ coef·(mgFactor·mg weight + egFactor·eg weight)
type tuneSample struct {
	terms              []int32
	coefs              []int16
	mgFactor, egFactor float64
	result             float64
}

func (s *tuneSample) score(w *[2][]float64) float64 {
	var mg, eg float64
	for i, t := range s.terms {
		c := float64(s.coefs[i])
		mg += c * w[0][t]
		eg += c * w[1][t]
	}
	return mg*s.mgFactor + eg*s.egFactor
}

// newTuneSample traces p's evaluation. ok is false for positions the
// tuner should not learn from: in check, or not quiet (a capture sequence
// changes the static evaluation, so the label would judge the wrong
// position).
func newTuneSample(p *game.Position, result float64, q *thread) (tuneSample, bool) {
	if p.InCheck() {
		return tuneSample{}, false
	}
	static := evaluate(p)
	q.keys = append(q.keys[:0], p.Hash())
	if q.qsearch(p, -infinity, infinity, 0, false) != static {
		return tuneSample{}, false
	}
	var tr evalTrace
	evaluateTraced(p, &tr)
	return sampleFromTrace(&tr, result), true
}

// sampleFromTrace keeps a trace's non-zero terms and its scale factors.
func sampleFromTrace(tr *evalTrace, result float64) tuneSample {
	s := tuneSample{result: result}
	for t, c := range tr.coef {
		if c != 0 {
			s.terms = append(s.terms, int32(t))
			s.coefs = append(s.coefs, int16(c))
		}
	}
	s.mgFactor = float64(tr.phase) / maxPhase * tr.drawScale
	s.egFactor = float64(maxPhase-tr.phase) / maxPhase * tr.egScale * tr.drawScale
	return s
}

// newQuietThread returns a search thread for quiescence checks outside a
// search.
func newQuietThread() *thread {
	t := &thread{id: 1, tt: newTransTable(1), st: &searchState{depthLimit: maxPly - 1}}
	t.allocate()
	return t
}

func sigmoid(k, score float64) float64 {
	return 1 / (1 + math.Pow(10, -k*score/400))
}

// tuneError is the mean squared error of the predicted results.
func tuneError(samples []tuneSample, w *[2][]float64, k float64) float64 {
	return parallelSum(len(samples), func(lo, hi int) float64 {
		sum := 0.0
		for i := lo; i < hi; i++ {
			d := samples[i].result - sigmoid(k, samples[i].score(w))
			sum += d * d
		}
		return sum
	}) / float64(len(samples))
}

// parallelSum splits [0, n) across the CPUs and adds up f's results.
func parallelSum(n int, f func(lo, hi int) float64) float64 {
	workers := runtime.GOMAXPROCS(0)
	sums := make([]float64, workers)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sums[i] = f(n*i/workers, n*(i+1)/workers)
		}(i)
	}
	wg.Wait()
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total
}

// TuneOptions configure Tune.
type TuneOptions struct {
	Epochs       int     // passes over the data (gradient steps); 0 means 500
	LearningRate float64 // Adam step size in centipawns; 0 means 1
	// Reg penalises moving a weight away from its starting value (L2,
	// per centipawn squared); it keeps rarely-seen weights, such as a
	// pawn on a square it seldom reaches, from wandering on noise.
	Reg float64
}

// TuneResult summarises a Texel tuning run.
type TuneResult struct {
	K                 float64 // sigmoid scale fitted to the starting weights
	Before, After     float64 // mean squared error
	Epochs, Positions int
	Skipped           int // positions dropped as not quiet or in check
	Changed           int // weights that moved
	weights           evalWeights
}

// Tune fits every evaluation weight to the game results by minimising the
// squared error between each result and a sigmoid of the evaluation
// (Texel's method), with full-batch gradient descent (Adam). The evaluation
// is linear in its weights, so one trace per position gives exact
// gradients. The engine's weights are not changed; the tuned ones are in
// the result (see WriteTunedGo).
func Tune(ctx context.Context, data []TrainingPosition, o TuneOptions, progress func(epoch int, err float64)) (TuneResult, error) {
	var r TuneResult
	if o.Epochs <= 0 {
		o.Epochs = 500
	}
	if o.LearningRate <= 0 {
		o.LearningRate = 1
	}
	q := newQuietThread()
	samples := make([]tuneSample, 0, len(data))
	for _, d := range data {
		p, err := game.ParseFEN(d.FEN)
		if err != nil {
			return r, err
		}
		if s, ok := newTuneSample(p, d.Result, q); ok {
			samples = append(samples, s)
		} else {
			r.Skipped++
		}
	}
	if len(samples) == 0 {
		return r, fmt.Errorf("no usable training positions (%d skipped as not quiet)", r.Skipped)
	}
	r.Positions = len(samples)

	var w, start [2][]float64
	for ph := 0; ph < 2; ph++ {
		w[ph] = make([]float64, numTerms)
		start[ph] = make([]float64, numTerms)
		for t := range numTerms {
			w[ph][t] = float64(params[ph][t])
			start[ph][t] = w[ph][t]
		}
	}
	// Fit the sigmoid's scale first (golden-section search), so that the
	// weights keep their centipawn meaning.
	lo, hi := 0.1, 3.0
	for range 40 {
		m1, m2 := hi-(hi-lo)/1.618, lo+(hi-lo)/1.618
		if tuneError(samples, &w, m1) < tuneError(samples, &w, m2) {
			hi = m2
		} else {
			lo = m1
		}
	}
	k := (lo + hi) / 2
	r.K, r.Before = k, tuneError(samples, &w, k)

	// Adam state.
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	var m, v [2][]float64
	for ph := 0; ph < 2; ph++ {
		m[ph] = make([]float64, numTerms)
		v[ph] = make([]float64, numTerms)
	}
	workers := runtime.GOMAXPROCS(0)
	grads := make([][2][]float64, workers)
	for i := range grads {
		grads[i] = [2][]float64{make([]float64, numTerms), make([]float64, numTerms)}
	}
	dsig := k * math.Ln10 / 400
	for epoch := 1; epoch <= o.Epochs && ctx.Err() == nil; epoch++ {
		var wg sync.WaitGroup
		n := len(samples)
		for wi := 0; wi < workers; wi++ {
			wg.Add(1)
			go func(wi int) {
				defer wg.Done()
				g := grads[wi]
				clear(g[0])
				clear(g[1])
				for i := n * wi / workers; i < n*(wi+1)/workers; i++ {
					s := &samples[i]
					sg := sigmoid(k, s.score(&w))
					// d(error)/d(score) for this sample.
					d := -2 * (s.result - sg) * sg * (1 - sg) * dsig
					dm, de := d*s.mgFactor, d*s.egFactor
					for j, t := range s.terms {
						c := float64(s.coefs[j])
						g[0][t] += c * dm
						g[1][t] += c * de
					}
				}
			}(wi)
		}
		wg.Wait()
		for ph := 0; ph < 2; ph++ {
			for t := range numTerms {
				g := 0.0
				for wi := range grads {
					g += grads[wi][ph][t]
				}
				g = g/float64(n) + 2*o.Reg*(w[ph][t]-start[ph][t])
				if g == 0 {
					continue
				}
				m[ph][t] = beta1*m[ph][t] + (1-beta1)*g
				v[ph][t] = beta2*v[ph][t] + (1-beta2)*g*g
				mh := m[ph][t] / (1 - math.Pow(beta1, float64(epoch)))
				vh := v[ph][t] / (1 - math.Pow(beta2, float64(epoch)))
				w[ph][t] -= o.LearningRate * mh / (math.Sqrt(vh) + eps)
			}
		}
		r.Epochs = epoch
		if progress != nil && (epoch%50 == 0 || epoch == o.Epochs) {
			progress(epoch, tuneError(samples, &w, k))
		}
	}
	for ph := 0; ph < 2; ph++ {
		for t := range numTerms {
			r.weights[ph][t] = int(math.Round(w[ph][t]))
			if r.weights[ph][t] != params[ph][t] {
				r.Changed++
			}
		}
	}
	var rounded [2][]float64
	for ph := 0; ph < 2; ph++ {
		rounded[ph] = make([]float64, numTerms)
		for t := range numTerms {
			rounded[ph][t] = float64(r.weights[ph][t])
		}
	}
	r.After = tuneError(samples, &rounded, k)
	return r, nil
}

// termGroups names the runs of weights in tuned.go, for a readable file.
var termGroups = func() []struct {
	name      string
	start, n  evalTerm
	rowLength int
} {
	type g = struct {
		name      string
		start, n  evalTerm
		rowLength int
	}
	out := []g{{"material (none, P, N, B, R, Q, K)", tValue, 7, 7}}
	names := [7]string{"", "pawn", "knight", "bishop", "rook", "queen", "king"}
	for pt := game.Pawn; pt <= game.King; pt++ {
		out = append(out, g{"piece-square table: " + names[pt] + " (a1..h1, a2..h2, ...)", pstTerm(pt, 0), 64, 8})
	}
	for pt := game.Knight; pt <= game.Queen; pt++ {
		out = append(out, g{"mobility: " + names[pt] + " (by reachable squares)", mobilityTerm(pt, 0), evalTerm(mobilityCount[pt]), 8})
	}
	out = append(out,
		g{"passed pawn by relative rank", tPassed, 8, 8},
		g{"passed pawn with a free path, by relative rank", tPassedFree, 8, 8},
		g{"isolated, doubled, bishop pair, rook on open file, rook on half-open file, pawn shield, tempo, " +
			"passer's distance to the enemy king, to our king, pawn threat, minor threat, rook threat, " +
			"outpost, rook on 7th, king on open file", tIsolated, tConnected - tIsolated, 6},
		g{"connected pawn by relative rank", tConnected, 8, 8},
		g{"king exposure, hanging piece", tKingExposure, 2, 2},
		g{"king danger by attack units (with the queen)", tKingDanger, kingDangerUnits, 10},
		g{"king danger by attack units (without the queen)", tKingDangerNoQueen, kingDangerUnits, 10},
		g{"safe checks (none, P, N, B, R, Q, K)", tSafeCheck, 7, 7},
		g{"passed pawn with a safe stop square, by relative rank", tPassedSafe, 8, 8},
		g{"backward pawn", tBackward, 1, 1},
		g{"pawn storm by relative rank, unblocked", tStorm, 8, 8},
		g{"pawn storm blocked, safe pawn-push threat, king's distance to its pawns, bad bishop, minor behind a pawn, space",
			tStormBlocked, numTerms - tStormBlocked, 6},
	)
	return out
}()

// WriteTunedGo writes tuned.go: the tuned weights as a Go table.
func WriteTunedGo(w io.Writer, r TuneResult) error {
	var b strings.Builder
	b.WriteString("// Code generated by `knightwatch tune texel`; DO NOT EDIT.\n\npackage engine\n\n")
	fmt.Fprintf(&b, "// applyTuned loads the weights the Texel tuner fitted to %d training\n", r.Positions)
	fmt.Fprintf(&b, "// positions (K %.3f, error %.6f -> %.6f after %d epochs).\n", r.K, r.Before, r.After, r.Epochs)
	b.WriteString("func applyTuned(w *evalWeights) {\n\t*w = tunedWeights\n}\n\n")
	b.WriteString("// tunedWeights is [middlegame, endgame][term]; see the term layout in eval.go.\n")
	b.WriteString("var tunedWeights = evalWeights{\n")
	for ph, phase := range []string{"middlegame", "endgame"} {
		fmt.Fprintf(&b, "\t{ // %s\n", phase)
		for _, g := range termGroups {
			fmt.Fprintf(&b, "\t\t// %s\n", g.name)
			for i := evalTerm(0); i < g.n; i++ {
				if int(i)%g.rowLength == 0 {
					b.WriteString("\t\t")
				}
				fmt.Fprintf(&b, "%d,", r.weights[ph][g.start+i])
				if int(i)%g.rowLength == g.rowLength-1 || i == g.n-1 {
					b.WriteString("\n")
				} else {
					b.WriteString(" ")
				}
			}
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return err
	}
	_, err = w.Write(src)
	return err
}
