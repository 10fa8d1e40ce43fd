package tune

import (
	"context"
	"fmt"
	"go/format"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"

	"knightwatch/engine"
	"knightwatch/game"
)

// texelSample is one training position reduced to what the Texel tuner
// needs: its traced evaluation and its label.
type texelSample struct {
	engine.Trace
	result float64
}

// score is the sample's White's-view evaluation under the weights w:
//
//	Σ coef·(MG·mg weight + EG·eg weight)
func (s *texelSample) score(w *[2][]float64) float64 {
	var mg, eg float64
	for i, t := range s.Terms {
		c := float64(s.Coefs[i])
		mg += c * w[0][t]
		eg += c * w[1][t]
	}
	return mg*s.MG + eg*s.EG
}

// texelError is the mean squared error of the predicted results.
func texelError(samples []texelSample, w *[2][]float64, scale float64) float64 {
	return parallelSum(len(samples), func(lo, hi int) float64 {
		sum := 0.0
		for i := lo; i < hi; i++ {
			d := samples[i].result - Sigmoid(samples[i].score(w), scale)
			sum += d * d
		}
		return sum
	}) / float64(len(samples))
}

// parallelSum splits [0, n) across the CPUs and adds up f's results, in
// the order of the parts (so a run's sums do not depend on scheduling).
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

// TexelOptions configure Texel.
type TexelOptions struct {
	Epochs       int     // passes over the data (gradient steps); 0 means 500
	LearningRate float64 // Adam step size in centipawns; 0 means 1
	// Reg penalises moving a weight away from its starting value (L2,
	// per centipawn squared); it keeps rarely-seen weights, such as a
	// pawn on a square it seldom reaches, from wandering on noise.
	Reg float64
}

// TexelResult summarises a Texel tuning run.
type TexelResult struct {
	// K is Texel's constant of the sigmoid fitted to the starting
	// weights (see ScaleOfK); Scale the same in centipawns.
	K, Scale          float64
	Before, After     float64 // mean squared error
	Epochs, Positions int
	Skipped           int            // positions dropped as not quiet or in check
	Changed           int            // weights that moved
	Weights           engine.Weights // the tuned weights, rounded
}

// Texel fits every weight of the hand-written evaluation to the labels by
// minimising the squared error between each label and a sigmoid of the
// evaluation (Texel's method), with full-batch gradient descent (Adam).
// The evaluation is linear in its weights (see engine.Trace), so one trace
// per position gives exact gradients. Positions that are not quiet (see
// engine.QuietChecker) are skipped. The sigmoid's scale is fitted to the
// starting weights first (FitScale), so that the weights keep their
// centipawn meaning. The engine's weights are not changed; the tuned ones
// are in the result (see WriteTunedGo). progress, when not nil, gets the
// error every 50 epochs and after the last.
func Texel(ctx context.Context, data []TrainingPosition, o TexelOptions, progress func(epoch int, err float64)) (TexelResult, error) {
	var r TexelResult
	if o.Epochs <= 0 {
		o.Epochs = 500
	}
	if o.LearningRate <= 0 {
		o.LearningRate = 1
	}
	const numTerms = engine.NumTerms
	q := engine.NewQuietChecker()
	samples := make([]texelSample, 0, len(data))
	for _, d := range data {
		p, err := game.ParseFEN(d.FEN)
		if err != nil {
			return r, err
		}
		if !q.Quiet(p) {
			r.Skipped++
			continue
		}
		tr, _ := engine.TraceEval(p)
		samples = append(samples, texelSample{Trace: tr, result: d.Result})
	}
	if len(samples) == 0 {
		return r, fmt.Errorf("no usable training positions (%d skipped as not quiet)", r.Skipped)
	}
	r.Positions = len(samples)

	start := engine.CurrentWeights()
	var w [2][]float64
	for ph := 0; ph < 2; ph++ {
		w[ph] = make([]float64, numTerms)
		for t := range numTerms {
			w[ph][t] = float64(start[ph][t])
		}
	}
	scale := FitScale(func(s float64) float64 { return texelError(samples, &w, s) })
	r.Scale, r.K, r.Before = scale, KOfScale(scale), texelError(samples, &w, scale)

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
					sg := Sigmoid(s.score(&w), scale)
					// d(error)/d(score) for this sample; the sigmoid's
					// derivative is sg·(1-sg)/scale.
					d := -2 * (s.result - sg) * sg * (1 - sg) / scale
					dm, de := d*s.MG, d*s.EG
					for j, t := range s.Terms {
						c := float64(s.Coefs[j])
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
				g = g/float64(n) + 2*o.Reg*(w[ph][t]-float64(start[ph][t]))
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
			progress(epoch, texelError(samples, &w, scale))
		}
	}
	var rounded [2][]float64
	for ph := 0; ph < 2; ph++ {
		rounded[ph] = make([]float64, numTerms)
		for t := range numTerms {
			r.Weights[ph][t] = int(math.Round(w[ph][t]))
			if r.Weights[ph][t] != start[ph][t] {
				r.Changed++
			}
			rounded[ph][t] = float64(r.Weights[ph][t])
		}
	}
	r.After = texelError(samples, &rounded, scale)
	return r, nil
}

// WriteTunedGo writes engine/tuned.go: the tuned weights as a Go table in
// package engine, one commented group of terms at a time (see
// engine.TermGroups), with the run's figures in the comment.
func WriteTunedGo(w io.Writer, r TexelResult) error {
	var b strings.Builder
	b.WriteString("// Code generated by `knightwatch tune texel`; DO NOT EDIT.\n\npackage engine\n\n")
	fmt.Fprintf(&b, "// applyTuned loads the weights the Texel tuner fitted to %d training\n", r.Positions)
	fmt.Fprintf(&b, "// positions (K %.3f, error %.6f -> %.6f after %d epochs).\n", r.K, r.Before, r.After, r.Epochs)
	b.WriteString("func applyTuned(w *evalWeights) {\n\t*w = tunedWeights\n}\n\n")
	b.WriteString("// tunedWeights is [middlegame, endgame][term]; see the term layout in eval.go.\n")
	b.WriteString("var tunedWeights = evalWeights{\n")
	for ph, phase := range []string{"middlegame", "endgame"} {
		fmt.Fprintf(&b, "\t{ // %s\n", phase)
		for _, g := range engine.TermGroups() {
			fmt.Fprintf(&b, "\t\t// %s\n", g.Name)
			for i := 0; i < g.Len; i++ {
				if i%g.RowLength == 0 {
					b.WriteString("\t\t")
				}
				fmt.Fprintf(&b, "%d,", r.Weights[ph][g.Start+i])
				if i%g.RowLength == g.RowLength-1 || i == g.Len-1 {
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
