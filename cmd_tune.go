package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"knightwatch/engine"
)

func init() {
	register(command{
		name:    "tune",
		summary: "Texel-tune the evaluation: 'tune gen' plays self-play games, 'tune texel' fits the weights",
		run:     runTune,
	})
}

func runTune(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "gen" && args[0] != "texel") {
		fs := newFlagSet("tune", "gen|texel [flags]   (run 'tune gen -h' or 'tune texel -h' for each mode's flags)", stderr)
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		fs.Usage()
		return errFlagParse
	}
	mode, args := args[0], args[1:]
	if mode == "gen" {
		fs := newFlagSet("tune", "gen [--games N] [--nodes N] [--out FILE]", stderr)
		games := fs.Int("games", 100, "self-play games to play")
		nodes := fs.Uint64("nodes", 4000, "nodes per move")
		random := fs.Int("random", 4, "random plies after the book moves, for variety")
		seed := fs.Uint64("seed", 1, "random seed")
		limit := fs.Duration("time", 110*time.Second, "stop after this long")
		out := fs.String("out", "", "output file (FEN;result lines); default stdout")
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		if *games < 1 || *nodes < 1 {
			return fmt.Errorf("--games and --nodes must be positive")
		}
		ctx, cancel := context.WithTimeout(context.Background(), *limit)
		defer cancel()
		data := engine.GenerateTrainingData(ctx, engine.SelfPlayOptions{Games: *games, Nodes: *nodes, RandomPlies: *random, Seed: *seed},
			func(g int, result string) { fmt.Fprintf(stderr, "game %d: %s\n", g, result) })
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		fmt.Fprintf(stderr, "%d positions\n", len(data))
		return engine.WriteTrainingData(w, data)
	}
	fs := newFlagSet("tune", "texel --in FILE [--passes N] [--write engine/tuned.go]", stderr)
	in := fs.String("in", "", "training positions (FEN;result lines)")
	passes := fs.Int("passes", 20, "maximum passes over the weights")
	limit := fs.Duration("time", 110*time.Second, "stop after this long")
	reg := fs.Float64("reg", 0.002, "penalty for moving weights away from their current values (0 = none)")
	write := fs.String("write", "", "write the tuned weights as Go source to this file (engine/tuned.go)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" {
		return fmt.Errorf("--in is required")
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	data, err := engine.ReadTrainingData(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	res, err := engine.Tune(ctx, data, *passes, *reg, func(pass int, e float64) {
		fmt.Fprintf(stderr, "pass %d: error %.6f\n", pass, e)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "positions %d K %.2f error %.6f -> %.6f after %d passes\n", res.Positions, res.K, res.Before, res.After, res.Passes)
	names := make([]string, 0, len(res.Changed))
	for n := range res.Changed {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(stdout, "  %-20s %5d -> %5d\n", n, res.Changed[n][0], res.Changed[n][1])
	}
	if *write != "" {
		out, err := os.Create(*write)
		if err != nil {
			return err
		}
		defer out.Close()
		return engine.WriteTunedGo(out, res)
	}
	return nil
}
