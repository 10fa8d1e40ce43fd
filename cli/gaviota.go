package cli

import (
	"errors"
	"fmt"
	"io"

	"knightwatch/game"
	"knightwatch/gaviota"
)

func init() {
	register(command{
		name:    "gaviota",
		summary: "probe Gaviota endgame tablebases: WDL and distance to mate of a position",
		run:     runGaviota,
	})
}

// runGaviota probes one position and prints a description, then
// "wdl W dtm D" on the last line (python-chess's values: W -1, 0 or 1 and
// D in plies, both from the side to move's point of view).
func runGaviota(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("gaviota", "--path DIR[:DIR...] --fen FEN", stderr)
	path := fs.String("path", "", "directories holding .gtb.cp4 files, separated by ':' (Debian's gaviotatb: "+gaviota.DebianPath+")")
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
	tb, err := gaviota.Open(*path)
	if err != nil {
		return err
	}
	defer tb.Close()
	if len(tb.Tables()) == 0 {
		return fmt.Errorf("no Gaviota tables (*%s) in %s", gaviota.Suffix, *path)
	}
	wdl, dtm, err := tb.Probe(p)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s to move: %s\n", p.Side(), gaviota.MateWords(p.Side(), wdl, dtm))
	fmt.Fprintf(stdout, "wdl %d dtm %d\n", wdl, dtm)
	return nil
}
