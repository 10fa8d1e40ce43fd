package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

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
}

// SelfPlayOptions configure GenerateTrainingData.
type SelfPlayOptions struct {
	Games       int
	Nodes       uint64 // node budget per move
	RandomPlies int    // random moves after the book to diversify openings
	MaxPlies    int
	Seed        uint64
}

// GenerateTrainingData plays fast self-play games and returns their quiet
// positions labelled with the results. progress, when not nil, is called
// after each game.
func GenerateTrainingData(ctx context.Context, o SelfPlayOptions, progress func(game int, result string)) []TrainingPosition {
	if o.MaxPlies <= 0 {
		o.MaxPlies = 300
	}
	rng := rand.New(rand.NewPCG(o.Seed, 99))
	e := New(Options{HashMB: 8})
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
		var fens []string
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
			quiet := !p.InCheck() && !p.IsCapture(res.Move) && !res.Move.IsPromotion() && res.Score.Mate == 0
			if quiet {
				fens = append(fens, p.FEN())
			}
			// Resign adjudication saves time in decided games.
			cp := res.Score.CP
			if p.Side() == game.Black {
				cp = -cp
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
			out = append(out, TrainingPosition{f, label})
		}
		if progress != nil {
			progress(gi+1, result)
		}
	}
	return out
}

// WriteTrainingData writes positions as "FEN;result" lines.
func WriteTrainingData(w io.Writer, ps []TrainingPosition) error {
	bw := bufio.NewWriter(w)
	for _, p := range ps {
		fmt.Fprintf(bw, "%s;%g\n", p.FEN, p.Result)
	}
	return bw.Flush()
}

// ReadTrainingData parses "FEN;result" lines (result 1, 0.5 or 0 from
// White's view). Blank lines and lines starting with # are skipped.
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
		i := strings.LastIndexByte(line, ';')
		if i < 0 {
			return nil, fmt.Errorf("line %d: missing ';result'", n)
		}
		res, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64)
		if err != nil || (res != 0 && res != 0.5 && res != 1) {
			return nil, fmt.Errorf("line %d: result must be 0, 0.5 or 1", n)
		}
		fen := strings.TrimSpace(line[:i])
		if _, err := game.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, TrainingPosition{fen, res})
	}
	return out, sc.Err()
}

// tunable is one evaluation weight the tuner may change.
type tunable struct {
	name string
	p    *int
}

// tunables lists the scalar weights (not the piece-square tables, which
// would need far more data than a short self-play run produces).
func tunables() []tunable {
	w := &params
	var out []tunable
	add := func(name string, p *int) { out = append(out, tunable{name, p}) }
	for ph := 0; ph < 2; ph++ {
		for pt := game.Pawn; pt <= game.Queen; pt++ {
			add(fmt.Sprintf("Value[%d][%d]", ph, pt), &w.Value[ph][pt])
		}
		for pt := game.Pawn; pt <= game.King; pt++ {
			add(fmt.Sprintf("PSTScale[%d][%d]", ph, pt), &w.PSTScale[ph][pt])
		}
		for pt := game.Knight; pt <= game.Queen; pt++ {
			add(fmt.Sprintf("Mobility[%d][%d]", ph, pt), &w.Mobility[ph][pt])
		}
		for r := 1; r <= 6; r++ {
			add(fmt.Sprintf("Passed[%d][%d]", ph, r), &w.Passed[ph][r])
			add(fmt.Sprintf("PassedFree[%d][%d]", ph, r), &w.PassedFree[ph][r])
		}
		add("Isolated["+strconv.Itoa(ph)+"]", &w.Isolated[ph])
		add("Doubled["+strconv.Itoa(ph)+"]", &w.Doubled[ph])
		add("BishopPair["+strconv.Itoa(ph)+"]", &w.BishopPair[ph])
		add("RookOpen["+strconv.Itoa(ph)+"]", &w.RookOpen[ph])
		add("RookSemiOpen["+strconv.Itoa(ph)+"]", &w.RookSemiOpen[ph])
		add("Shield["+strconv.Itoa(ph)+"]", &w.Shield[ph])
		add("Tempo["+strconv.Itoa(ph)+"]", &w.Tempo[ph])
	}
	for pt := game.Knight; pt <= game.Queen; pt++ {
		add(fmt.Sprintf("KingAttack[%d]", pt), &w.KingAttack[pt])
	}
	add("PassedKingThem", &w.PassedKingThem)
	add("PassedKingUs", &w.PassedKingUs)
	for ph := 0; ph < 2; ph++ {
		n := strconv.Itoa(ph)
		add("PawnThreat["+n+"]", &w.PawnThreat[ph])
		add("MinorThreat["+n+"]", &w.MinorThreat[ph])
		add("RookThreat["+n+"]", &w.RookThreat[ph])
		add("Outpost["+n+"]", &w.Outpost[ph])
		add("RookSeventh["+n+"]", &w.RookSeventh[ph])
		add("KingOpenFile["+n+"]", &w.KingOpenFile[ph])
		add("Connected["+n+"]", &w.Connected[ph])
		add("KingExposure["+n+"]", &w.KingExposure[ph])
	}
	return out
}

// tuningError is the mean squared error of the evaluation's predicted
// score against the game results.
func tuningError(ps []*game.Position, results []float64, k float64) float64 {
	sum := 0.0
	for i, p := range ps {
		v := evaluate(p)
		if p.Side() == game.Black {
			v = -v
		}
		pred := 1 / (1 + math.Pow(10, -k*float64(v)/400))
		d := results[i] - pred
		sum += d * d
	}
	return sum / float64(len(ps))
}

// TuneResult summarises a Texel tuning run.
type TuneResult struct {
	K                 float64
	Before, After     float64
	Passes, Positions int
	Changed           map[string][2]int // weight name -> [old, new]
	weights           evalWeights       // the tuned weights, for WriteTunedGo
}

// Tune runs Texel's local search: every weight is nudged up and down and
// the change kept when the error falls, for up to passes rounds or until
// ctx ends. The engine's weights are restored afterwards; the tuned ones
// are in the result (see WriteTunedGo).
//
// reg > 0 adds a penalty reg*((v-v0)/max(|v0|,20))^2 per weight for moving
// away from its starting value v0: with the few thousand positions a short
// self-play run yields, unregularised tuning overfits wildly.
func Tune(ctx context.Context, data []TrainingPosition, passes int, reg float64, progress func(pass int, err float64)) (TuneResult, error) {
	var r TuneResult
	ps := make([]*game.Position, 0, len(data))
	results := make([]float64, 0, len(data))
	for _, d := range data {
		p, err := game.ParseFEN(d.FEN)
		if err != nil {
			return r, err
		}
		ps = append(ps, p)
		results = append(results, d.Result)
	}
	if len(ps) == 0 {
		return r, fmt.Errorf("no training positions")
	}
	saved := params
	defer func() { params = saved }()
	r.Positions = len(ps)
	// Fit the sigmoid's scale first, so the weights keep their centipawn meaning.
	bestK, bestErr := 1.0, math.Inf(1)
	for k := 0.2; k <= 2.0; k += 0.05 {
		if e := tuningError(ps, results, k); e < bestErr {
			bestK, bestErr = k, e
		}
	}
	r.K, r.Before = bestK, bestErr
	ts := tunables()
	orig := make([]int, len(ts))
	for i, t := range ts {
		orig[i] = *t.p
	}
	penalty := func() float64 {
		sum := 0.0
		for i, t := range ts {
			d := float64(*t.p - orig[i])
			sum += d * d / math.Max(math.Abs(float64(orig[i])), 20) / math.Max(math.Abs(float64(orig[i])), 20)
		}
		return reg * sum
	}
	cur := bestErr
	for pass := 0; pass < passes && ctx.Err() == nil; pass++ {
		improved := false
		for _, t := range ts {
			if ctx.Err() != nil {
				break
			}
			for _, step := range []int{4, -4, 1, -1} {
				*t.p += step
				if e := tuningError(ps, results, bestK) + penalty(); e < cur {
					cur = e
					improved = true
					break
				}
				*t.p -= step
			}
		}
		r.Passes = pass + 1
		if progress != nil {
			progress(pass+1, cur)
		}
		if !improved {
			break
		}
	}
	r.After = tuningError(ps, results, bestK)
	r.weights = params
	r.Changed = map[string][2]int{}
	for i, t := range ts {
		if *t.p != orig[i] {
			r.Changed[t.name] = [2]int{orig[i], *t.p}
		}
	}
	return r, nil
}

// WriteTunedGo writes a tuned.go source file that applies the tuned value
// of every weight that differs from the hand-written defaults.
func WriteTunedGo(w io.Writer, r TuneResult) error {
	saved := params
	params = r.weights
	ts := tunables()
	cur := make([]int, len(ts))
	for i, t := range ts {
		cur[i] = *t.p
	}
	// Compare against the hand-written defaults, without the old tuning.
	setHandDefaults()
	defaults := make([]int, len(ts))
	for i, t := range ts {
		defaults[i] = *t.p
	}
	params = saved
	var b strings.Builder
	b.WriteString("// Code generated by `knightwatch tune texel`; DO NOT EDIT.\n\npackage engine\n\n")
	b.WriteString("// applyTuned overwrites the hand-written default weights with the values\n")
	b.WriteString("// found by the Texel tuner on self-play positions.\nfunc applyTuned() {\n\tw := &params\n")
	n := 0
	for i, t := range ts {
		if cur[i] != defaults[i] {
			fmt.Fprintf(&b, "\tw.%s = %d\n", t.name, cur[i])
			n++
		}
	}
	if n == 0 {
		b.WriteString("\t_ = w\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}
