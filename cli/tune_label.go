package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"knightwatch/match"
	"knightwatch/tune"
)

// runTuneLabel relabels training positions with another UCI engine's
// search score (see package tune's label.go): the new label is
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
	data, err := tune.ReadTrainingFiles(strings.Split(*in, ","))
	if err != nil {
		return err
	}
	start := time.Now()
	scores, err := tune.ScorePositions(context.Background(), match.EngineSpec{Command: command, Options: options}, data,
		tune.LabelOptions{Nodes: *nodes, Concurrency: *concurrency},
		func(done int) {
			el := time.Since(start)
			fmt.Fprintf(stderr, "%d/%d positions scored (%s, %.0f per second)\n", done, len(data), el.Round(time.Second), float64(done)/el.Seconds())
		})
	if err != nil {
		return err
	}
	s := *scale
	if s == 0 {
		s = tune.FitLabelScale(data, scores)
		fmt.Fprintf(stderr, "fitted scale %.1f cp\n", s)
	}
	labelled := tune.BlendLabels(data, scores, s, *lambda)
	fmt.Fprintf(stderr, "%d positions labelled, %d left out (mate scores)\n", len(labelled), len(data)-len(labelled))
	return writeTraining(*out, stdout, labelled)
}
