package cli

import (
	"fmt"
	"io"
	"os"

	"knightwatch/engine"
	"knightwatch/engine/nnue"
)

func init() {
	register(command{
		name:    "bench",
		summary: "search a fixed set of positions to a fixed depth; print total nodes and nodes per second",
		run:     runBench,
	})
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", "[--depth N] [--threads N] [--hash MB] [--evalfile FILE | --hand-written] [-v]", stderr)
	depth := fs.Int("depth", engine.BenchDepth, "search depth in plies for every position")
	threadsOpt, hashOpt := engine.UCIOption("Threads"), engine.UCIOption("Hash")
	threads := fs.Int("threads", threadsOpt.DefaultInt(), "search threads (node counts are deterministic only with 1)")
	hash := fs.Int("hash", hashOpt.DefaultInt(), "transposition table size in MB")
	verbose := fs.Bool("v", false, "print each position's best move and node count")
	evalFile := fs.String("evalfile", "", "evaluate with this neural network (tune nnue writes one) instead of the built-in one")
	handWritten := fs.Bool("hand-written", false, "evaluate with the hand-written evaluation instead of a network")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *depth < 1 || *depth > 60 {
		return fmt.Errorf("--depth must be in 1..60, got %d", *depth)
	}
	// The limits of the UCI options Threads and Hash.
	if !threadsOpt.InRange(*threads) {
		return fmt.Errorf("--threads must be in %d..%d, got %d", threadsOpt.Min, threadsOpt.Max, *threads)
	}
	if !hashOpt.InRange(*hash) {
		return fmt.Errorf("--hash must be in %d..%d, got %d", hashOpt.Min, hashOpt.Max, *hash)
	}
	if *handWritten && *evalFile != "" {
		return fmt.Errorf("--evalfile and --hand-written exclude each other")
	}
	opts := engine.Options{HashMB: *hash, Threads: *threads, HandWrittenEval: *handWritten}
	if *evalFile != "" {
		f, err := os.Open(*evalFile)
		if err != nil {
			return err
		}
		opts.Net, err = nnue.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *evalFile, err)
		}
	}
	r, err := engine.BenchWith(opts, *depth, func(i int, fen string, res engine.Result) {
		if *verbose {
			fmt.Fprintf(stdout, "%2d %-8s %10d  %s\n", i+1, res.Move, res.Nodes, fen)
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "positions %d depth %d threads %d\n", len(engine.BenchFENs), *depth, *threads)
	fmt.Fprintf(stdout, "time %d ms\n", r.Time.Milliseconds())
	fmt.Fprintf(stdout, "nodes %d\n", r.Nodes)
	fmt.Fprintf(stdout, "nps %d\n", r.NPS())
	return nil
}
