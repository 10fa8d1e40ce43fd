package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"knightwatch/engine"
	"knightwatch/match"
)

// runTuneLabel relabels training positions with another UCI engine's
// search score. A game result says only who won, hundreds of moves later;
// a strong engine's short search says how good this position is, which is
// what the evaluation is meant to predict. The new label blends the two:
// lambda × old label + (1 − lambda) × sigmoid(score / scale).
func runTuneLabel(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", "label --in FILE[,FILE...] --engine CMD [--option NAME=VALUE]... [--nodes N] [--lambda X] [--scale S] [--out FILE]", stderr)
	in := fs.String("in", "", "training positions (FEN;result lines), comma-separated files")
	engineCmd := fs.String("engine", "", "UCI engine command that scores the positions, e.g. /usr/games/stockfish")
	var options optionList
	fs.Var(&options, "option", "UCI option NAME=VALUE for the engine (repeatable)")
	nodes := fs.Int("nodes", 1000, "nodes the engine searches per position")
	concurrency := fs.Int("concurrency", 2, "engine processes scoring at once")
	lambda := fs.Float64("lambda", 0.5, "weight of the old label in the new one")
	scale := fs.Float64("scale", 0, "centipawns per unit of the sigmoid that turns the engine's score into an expected result; 0 fits it to the old labels")
	out := fs.String("out", "", "output file (FEN;result lines); default stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case *in == "" || *engineCmd == "":
		return fmt.Errorf("--in and --engine are required")
	case *nodes < 1 || *concurrency < 1:
		return fmt.Errorf("--nodes and --concurrency must be positive")
	case *lambda < 0 || *lambda > 1:
		return fmt.Errorf("--lambda must be from 0 to 1")
	case *scale < 0:
		return fmt.Errorf("--scale must not be negative")
	}
	command, err := match.SplitCommand(*engineCmd)
	if err != nil {
		return fmt.Errorf("--engine: %w", err)
	}
	data, err := readTrainingFiles(*in)
	if err != nil {
		return err
	}
	start := time.Now()
	scores, err := scorePositions(context.Background(), match.EngineSpec{Command: command, Options: options}, data, *nodes, *concurrency,
		func(done int) {
			el := time.Since(start)
			fmt.Fprintf(stderr, "%d/%d positions scored (%s, %.0f per second)\n", done, len(data), el.Round(time.Second), float64(done)/el.Seconds())
		})
	if err != nil {
		return err
	}
	s := *scale
	if s == 0 {
		s = fitScale(data, scores)
		fmt.Fprintf(stderr, "fitted scale %.1f cp\n", s)
	}
	labelled := blendLabels(data, scores, s, *lambda)
	fmt.Fprintf(stderr, "%d positions labelled, %d left out (mate scores)\n", len(labelled), len(data)-len(labelled))
	return writeTraining(*out, stdout, labelled)
}

// whiteScore is an engine's score of a position from White's view.
type whiteScore struct {
	cp int
	ok bool // false for mate scores: no centipawn value to learn from
}

// labelProgressEvery is how many positions pass between progress reports.
const labelProgressEvery = 50000

// scorePositions searches every position with nodes nodes on concurrency
// copies of the engine and returns the scores, turned to White's view.
func scorePositions(ctx context.Context, spec match.EngineSpec, data []engine.TrainingPosition, nodes, concurrency int,
	progress func(done int)) ([]whiteScore, error) {
	scores := make([]whiteScore, len(data))
	next := make(chan int)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	engines := make([]*match.Engine, 0, concurrency)
	for range concurrency {
		e, err := match.StartEngine(spec, 10*time.Second)
		if err != nil {
			for _, e := range engines {
				e.Close(time.Second)
			}
			return nil, err
		}
		engines = append(engines, e)
	}
	var wg sync.WaitGroup
	for _, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer e.Close(time.Second)
			goCmd := fmt.Sprintf("go nodes %d", nodes)
			for i := range next {
				fen := data[i].FEN
				r, err := e.Go(ctx, "position fen "+fen, goCmd, time.Minute)
				if err == nil && !r.Info.HasScore {
					err = errors.New("no score before bestmove")
				}
				if err != nil {
					fail(fmt.Errorf("position %q: %w", fen, err))
					cancel()
					return
				}
				cp := r.Info.Score
				if strings.Fields(fen)[1] == "b" {
					cp = -cp
				}
				scores[i] = whiteScore{cp: cp, ok: !r.Info.Mate}
				mu.Lock()
				done++
				if done%labelProgressEvery == 0 && progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range data {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return scores, ctx.Err()
}

// scoreSigmoid turns a centipawn score into an expected result.
func scoreSigmoid(cp int, scale float64) float64 {
	return 1 / (1 + math.Exp(-float64(cp)/scale))
}

// fitScale finds the sigmoid scale under which the engine's scores best
// predict the old labels (least squares), so that the blend does not
// mix two different ideas of how much a centipawn is worth. The error is
// unimodal in the scale, so a golden-section search over a wide range
// finds it.
func fitScale(data []engine.TrainingPosition, scores []whiteScore) float64 {
	mse := func(s float64) float64 {
		sum, n := 0.0, 0
		for i, d := range data {
			if scores[i].ok {
				e := d.Result - scoreSigmoid(scores[i].cp, s)
				sum += e * e
				n++
			}
		}
		if n == 0 {
			return 0
		}
		return sum / float64(n)
	}
	lo, hi := 10.0, 5000.0
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := mse(a), mse(b)
	for hi-lo > 0.1 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = mse(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = mse(b)
		}
	}
	return (lo + hi) / 2
}

// blendLabels returns the positions with a centipawn score, labelled
// lambda × old label + (1 − lambda) × sigmoid(score / scale).
func blendLabels(data []engine.TrainingPosition, scores []whiteScore, scale, lambda float64) []engine.TrainingPosition {
	out := make([]engine.TrainingPosition, 0, len(data))
	for i, d := range data {
		if !scores[i].ok {
			continue
		}
		out = append(out, engine.TrainingPosition{FEN: d.FEN, Result: lambda*d.Result + (1-lambda)*scoreSigmoid(scores[i].cp, scale)})
	}
	return out
}
