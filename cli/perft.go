package cli

import (
	"fmt"
	"io"
	"time"

	"knightwatch/game"
)

func init() {
	register(command{
		name:    "perft",
		summary: "count the leaf nodes of the legal move tree (move generator test)",
		run:     runPerft,
	})
}

func runPerft(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("perft", "[--fen FEN] --depth N [--divide]", stderr)
	fen := fs.String("fen", game.StartFEN, "position to count from (FEN, X-FEN or Shredder-FEN)")
	depth := fs.Int("depth", 5, "depth in plies (1 or more)")
	divide := fs.Bool("divide", false, "print 'move: count' for each root move first, sorted, in UCI")
	chess960 := fs.Bool("chess960", false, "write castling as king takes rook (set automatically for 960 castling fields)")
	timing := fs.Bool("time", false, "print elapsed time and nodes per second to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *depth < 1 {
		return fmt.Errorf("--depth must be at least 1, got %d", *depth)
	}
	p, err := game.ParseFEN(*fen)
	if err != nil {
		return err
	}
	if *chess960 {
		p.SetChess960(true)
	}
	start := time.Now()
	var total uint64
	if *divide {
		for _, e := range game.Divide(p, *depth) {
			fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
			total += e.Nodes
		}
		fmt.Fprintln(stdout)
	} else {
		total = game.Perft(p, *depth)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "Nodes searched: %d\n", total)
	if *timing {
		fmt.Fprintf(stderr, "time %.3fs, %.0f nodes/s\n", elapsed.Seconds(), float64(total)/elapsed.Seconds())
	}
	return nil
}
