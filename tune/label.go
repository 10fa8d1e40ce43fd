package tune

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"knightwatch/match"
)

// Relabelling: a game result says only who won, hundreds of moves later;
// a strong engine's short search says how good this position is, which is
// what the evaluation is meant to predict. `tune label` scores positions
// with a UCI engine (ScorePositions), fits the sigmoid scale that makes
// the scores best predict the old labels (FitLabelScale) and blends the
// two (BlendLabels).

// EngineScore is an engine's score of a position from White's view.
type EngineScore struct {
	CP int
	OK bool // false for mate scores: no centipawn value to learn from
}

// LabelOptions configure ScorePositions.
type LabelOptions struct {
	Nodes       int // nodes the engine searches per position
	Concurrency int // engine processes scoring at once
	// ProgressEvery is how many positions pass between calls of the
	// progress function; 0 means 50000.
	ProgressEvery int
}

// ScorePositions searches every position for o.Nodes nodes on
// o.Concurrency copies of the engine spec and returns the scores, turned
// to White's view, in data's order. progress, when not nil, gets the
// number of positions scored every o.ProgressEvery positions. The first
// engine error stops the scoring and is returned.
func ScorePositions(ctx context.Context, spec match.EngineSpec, data []TrainingPosition, o LabelOptions,
	progress func(done int)) ([]EngineScore, error) {
	if o.Nodes < 1 || o.Concurrency < 1 {
		return nil, errors.New("tune: nodes and concurrency must be positive")
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 50000
	}
	scores := make([]EngineScore, len(data))
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
	engines := make([]*match.Engine, 0, o.Concurrency)
	for range o.Concurrency {
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
			goCmd := fmt.Sprintf("go nodes %d", o.Nodes)
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
				scores[i] = EngineScore{CP: cp, OK: !r.Info.Mate}
				mu.Lock()
				done++
				if done%o.ProgressEvery == 0 && progress != nil {
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

// FitLabelScale finds the sigmoid scale under which the engine's scores
// best predict the old labels (least squares, with FitScale), so that the
// blend does not mix two different ideas of how much a centipawn is
// worth. Positions without a centipawn score do not count.
func FitLabelScale(data []TrainingPosition, scores []EngineScore) float64 {
	return FitScale(func(s float64) float64 {
		sum, n := 0.0, 0
		for i, d := range data {
			if scores[i].OK {
				e := d.Result - Sigmoid(float64(scores[i].CP), s)
				sum += e * e
				n++
			}
		}
		if n == 0 {
			return 0
		}
		return sum / float64(n)
	})
}

// BlendLabels returns the positions with a centipawn score, labelled
// lambda × old label + (1 − lambda) × Sigmoid(score, scale) and without a
// score of their own.
func BlendLabels(data []TrainingPosition, scores []EngineScore, scale, lambda float64) []TrainingPosition {
	out := make([]TrainingPosition, 0, len(data))
	for i, d := range data {
		if !scores[i].OK {
			continue
		}
		out = append(out, TrainingPosition{FEN: d.FEN, Result: lambda*d.Result + (1-lambda)*Sigmoid(float64(scores[i].CP), scale)})
	}
	return out
}
