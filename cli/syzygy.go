package cli

import (
	"errors"
	"fmt"
	"io"

	"knightwatch/game"
	"knightwatch/syzygy"
)

func init() {
	register(command{
		name:    "syzygy",
		summary: "probe Syzygy endgame tablebases: WDL and DTZ of a position",
		run:     runSyzygy,
	})
}

// runSyzygy probes one position and prints a description, then
// "wdl W dtz D" on the last line (values as in syzygy's expected.epd: W from
// -2 to 2 and D in plies, both from the side to move's point of view).
func runSyzygy(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("syzygy", "--path DIR[:DIR...] --fen FEN", stderr)
	path := fs.String("path", "", "directories holding .rtbw/.rtbz files, separated by ':' (like UCI's SyzygyPath)")
	fen := fs.String("fen", "", "position to probe (no castling rights)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *path == "" || *fen == "" {
		return errors.New("--path and --fen are both required")
	}
	p, err := game.ParseFEN(*fen)
	if err != nil {
		return err
	}
	tb, err := syzygy.Open(*path)
	if err != nil {
		return err
	}
	defer tb.Close()
	if wdl, _ := tb.NumTables(); wdl == 0 {
		return fmt.Errorf("no Syzygy tables (*.rtbw) in %s", *path)
	}
	wdl, err := tb.ProbeWDL(p)
	if err != nil {
		return err
	}
	dtz, err := tb.ProbeDTZ(p)
	if err != nil {
		return err
	}
	if wdl == syzygy.Draw {
		fmt.Fprintf(stdout, "%s to move: draw\n", p.Side())
	} else {
		plies := max(dtz, -dtz)
		fmt.Fprintf(stdout, "%s to move: %s, capture or pawn move in %d plies with best play\n", p.Side(), wdl, plies)
	}
	fmt.Fprintf(stdout, "wdl %d dtz %d\n", wdl, dtz)
	return nil
}
