package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"knightwatch/tune"
)

func init() {
	register(command{
		name:    "tune",
		summary: "Texel-tune the evaluation: 'tune gen' plays self-play games, 'tune pgn' reads games, 'tune label' rescores with a UCI engine, 'tune texel' fits the weights, 'tune nnue' trains the network",
		run:     runTune,
	})
}

// runTune parses the tune modes' flags and runs them with package tune.
func runTune(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	modes := map[string]func(args []string, stdout, stderr io.Writer) error{
		"gen":   runTuneGen,
		"pgn":   runTunePGN,
		"label": runTuneLabel,
		"texel": runTuneTexel,
		"nnue":  runTuneNNUE,
	}
	if len(args) == 0 || modes[args[0]] == nil {
		fs := newFlagSet("tune", "gen|pgn|label|texel|nnue [flags]   (run 'tune MODE -h' for each mode's flags)", stderr)
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		fs.Usage()
		return errFlagParse
	}
	return modes[args[0]](args[1:], stdout, stderr)
}

// runTuneGen plays self-play games and writes their positions.
func runTuneGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", "gen [--games N] [--nodes N] [--network] [--out FILE]", stderr)
	games := fs.Int("games", 100, "self-play games to play")
	nodes := fs.Uint64("nodes", 4000, "nodes per move")
	random := fs.Int("random", 4, "random plies after the book moves, for variety")
	seed := fs.Uint64("seed", 1, "random seed")
	limit := fs.Duration("time", 110*time.Second, "stop after this long")
	out := fs.String("out", "", "output file (FEN;result lines); default stdout")
	network := fs.Bool("network", false, "play and score with the built-in network instead of the hand-written evaluation")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *games < 1 || *nodes < 1 {
		return fmt.Errorf("--games and --nodes must be positive")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	data := tune.GenerateTrainingData(ctx, tune.SelfPlayOptions{Games: *games, Nodes: *nodes, RandomPlies: *random, Seed: *seed, Network: *network},
		func(g int, result string) { fmt.Fprintf(stderr, "game %d: %s\n", g, result) })
	fmt.Fprintf(stderr, "%d positions\n", len(data))
	return writeTraining(*out, stdout, data)
}

// runTuneTexel fits the hand-written evaluation's weights.
func runTuneTexel(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", "texel --in FILE [--epochs N] [--lr X] [--reg X] [--write engine/tuned.go]", stderr)
	in := fs.String("in", "", "training positions (FEN;result lines); repeat the flag's files comma-separated")
	epochs := fs.Int("epochs", 500, "gradient steps (each a pass over all positions)")
	lr := fs.Float64("lr", 1, "Adam step size in centipawns")
	reg := fs.Float64("reg", 0, "L2 penalty per centipawn squared for moving a weight from its starting value")
	limit := fs.Duration("time", 30*time.Minute, "stop after this long")
	write := fs.String("write", "", "write the tuned weights as Go source to this file (engine/tuned.go)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" {
		return fmt.Errorf("--in is required")
	}
	data, err := tune.ReadTrainingFiles(strings.Split(*in, ","))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	start := time.Now()
	res, err := tune.Texel(ctx, data, tune.TexelOptions{Epochs: *epochs, LearningRate: *lr, Reg: *reg}, func(epoch int, e float64) {
		fmt.Fprintf(stderr, "epoch %d: error %.6f (%s)\n", epoch, e, time.Since(start).Round(time.Second))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "positions %d (skipped %d not quiet) K %.3f error %.6f -> %.6f after %d epochs; %d weights changed\n",
		res.Positions, res.Skipped, res.K, res.Before, res.After, res.Epochs, res.Changed)
	if *write == "" {
		return nil
	}
	f, err := os.Create(*write)
	if err != nil {
		return err
	}
	if err := tune.WriteTunedGo(f, res); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// runTunePGN converts PGN files (plain or gzipped, such as the match
// results under bench/results) into training positions.
func runTunePGN(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("tune", "pgn --in FILE[,FILE...] [--skip N] [--lambda X] [--out FILE]", stderr)
	in := fs.String("in", "", "PGN files, comma-separated; names ending in .gz are gunzipped")
	skip := fs.Int("skip", 8, "plies to leave out at the start of each game (the opening)")
	lambda := fs.Float64("lambda", 1, "weight of the game result in each label; the rest is the mover's search score from the move's comment")
	k := fs.Float64("k", 1.3, "sigmoid scale that turns a search score into an expected result (with --lambda below 1)")
	out := fs.String("out", "", "output file (FEN;result lines); default stdout")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" {
		return fmt.Errorf("--in is required")
	}
	if *lambda < 0 || *lambda > 1 || *skip < 0 {
		return fmt.Errorf("--lambda must be from 0 to 1 and --skip not negative")
	}
	var data []tune.TrainingPosition
	games := 0
	for _, name := range strings.Split(*in, ",") {
		pgs, err := tune.ReadPGNFile(name)
		if err != nil {
			return err
		}
		for i, pg := range pgs {
			ps, err := tune.TrainingFromPGN(pg, *skip, *lambda, tune.ScaleOfK(*k))
			if err != nil {
				return fmt.Errorf("%s: game %d: %w", name, i+1, err)
			}
			if ps != nil {
				games++
			}
			data = append(data, ps...)
		}
	}
	fmt.Fprintf(stderr, "%d positions from %d games\n", len(data), games)
	return writeTraining(*out, stdout, data)
}

// writeTraining writes positions to the file out, or to stdout when out is
// empty.
func writeTraining(out string, stdout io.Writer, data []tune.TrainingPosition) error {
	if out == "" {
		return tune.WriteTrainingData(stdout, data)
	}
	return tune.WriteTrainingFile(out, data)
}
