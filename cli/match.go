package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"knightwatch/engine"
	"knightwatch/match"
)

func init() {
	register(command{
		name:    "match",
		summary: "play two UCI engines against each other and report W/D/L, score and Elo difference",
		run:     runMatch,
	})
}

// optionList is a repeatable --optionN flag.
type optionList []match.Option

func (l *optionList) String() string {
	parts := make([]string, len(*l))
	for i, o := range *l {
		parts[i] = o.Name + "=" + o.Value
	}
	return strings.Join(parts, " ")
}

func (l *optionList) Set(s string) error {
	o, err := match.ParseOption(s)
	if err != nil {
		return err
	}
	*l = append(*l, o)
	return nil
}

// Levels accepted by --levelN: the range of the engine's UCI option Level
// (1..len(engine.Levels)), which the engine itself checks again.
var minLevel, maxLevel = engine.UCIOption("Level").Min, engine.UCIOption("Level").Max

func runMatch(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "(--engine1 CMD | --level1 N) (--engine2 CMD | --level2 N) [flags]", stderr)
	var engine, name [2]*string
	var level [2]*int
	var options [2]optionList
	for i := range 2 {
		n := i + 1
		engine[i] = fs.String(fmt.Sprintf("engine%d", n), "", fmt.Sprintf("command line of engine %d, e.g. \"/usr/games/stockfish\"", n))
		level[i] = fs.Int(fmt.Sprintf("level%d", n), 0, fmt.Sprintf("engine %d is this binary's own engine ('uci' subcommand) at this level (%d-%d)", n, minLevel, maxLevel))
		name[i] = fs.String(fmt.Sprintf("name%d", n), "", fmt.Sprintf("name of engine %d in output and PGN (default: its UCI id name)", n))
		fs.Var(&options[i], fmt.Sprintf("option%d", n), fmt.Sprintf("UCI option Name=Value for engine %d (repeatable), e.g. UCI_Elo=2000", n))
	}
	games := fs.Int("games", 10, "number of games (colours alternate; each opening is played with both colours)")
	tcText := fs.String("tc", "10+0.1", "time control: BASE+INC in seconds per side, or movetime=SECONDS")
	openingsFile := fs.String("openings", "", "opening set, EPD or PGN (default: 42 built-in balanced openings)")
	seed := fs.Int64("seed", 0, "shuffle the openings with this seed (0 keeps their order)")
	pgnFile := fs.String("pgn", "", "append the games to this PGN file")
	concurrency := fs.Int("concurrency", 1, "games played at once (each uses two engine processes)")
	grace := fs.Duration("grace", match.DefaultGrace, "time an engine may overrun its clock before it loses on time")
	event := fs.String("event", "", "PGN Event tag")
	quiet := fs.Bool("quiet", false, "print only the summary, not a line per game")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := match.Config{Games: *games, Concurrency: *concurrency, Grace: *grace, Seed: *seed, Event: *event}
	if *games < 1 {
		return fmt.Errorf("--games must be at least 1, got %d", *games)
	}
	if *concurrency < 1 {
		return fmt.Errorf("--concurrency must be at least 1, got %d", *concurrency)
	}
	if *grace < 0 {
		return fmt.Errorf("--grace must not be negative")
	}
	tc, err := match.ParseTimeControl(*tcText)
	if err != nil {
		return err
	}
	cfg.TC = tc
	for i := range 2 {
		spec, err := engineSpec(i+1, *engine[i], *level[i], options[i])
		if err != nil {
			return err
		}
		if *name[i] != "" {
			spec.Name = *name[i]
		}
		cfg.Engines[i] = spec
	}
	if *openingsFile != "" {
		data, err := os.ReadFile(*openingsFile)
		if err != nil {
			return err
		}
		if cfg.Openings, err = match.ParseOpenings(*openingsFile, string(data)); err != nil {
			return fmt.Errorf("%s: %w", *openingsFile, err)
		}
	}
	if *pgnFile != "" {
		f, err := os.OpenFile(*pgnFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.PGN = f
	}
	width := len(fmt.Sprint(*games))
	if !*quiet {
		cfg.OnGame = func(r *match.GameResult, t match.Tally) {
			fmt.Fprintf(stdout, "game %*d/%d  %s - %s  %s  %s, %d plies  [%s]  score %.1f-%.1f\n",
				width, r.Number, *games, r.Names[0], r.Names[1], r.Outcome.Result, r.Reason, r.Game.Len(), r.Opening,
				float64(t.Wins)+float64(t.Draws)/2, float64(t.Losses)+float64(t.Draws)/2)
		}
	}

	// Ctrl-C ends the match cleanly: engines are killed and the summary of
	// the games so far is still printed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first Ctrl-C, a second one kills the program outright.
		<-ctx.Done()
		stop()
	}()
	start := time.Now()
	sum, err := match.Run(ctx, cfg)
	if sum != nil && sum.Tally.Games() > 0 {
		printSummary(stdout, sum, tc, time.Since(start))
	}
	return err
}

// engineSpec builds engine n's spec from --engineN or --levelN.
func engineSpec(n int, command string, level int, options []match.Option) (match.EngineSpec, error) {
	switch {
	case command != "" && level != 0:
		return match.EngineSpec{}, fmt.Errorf("give --engine%d or --level%d, not both", n, n)
	case command != "":
		words, err := match.SplitCommand(command)
		if err != nil {
			return match.EngineSpec{}, fmt.Errorf("--engine%d: %w", n, err)
		}
		return match.EngineSpec{Command: words, Options: options}, nil
	case level != 0:
		if level < minLevel || level > maxLevel {
			return match.EngineSpec{}, fmt.Errorf("--level%d must be %d to %d, got %d", n, minLevel, maxLevel, level)
		}
		exe, err := os.Executable()
		if err != nil {
			return match.EngineSpec{}, fmt.Errorf("--level%d: cannot find this program: %w", n, err)
		}
		// The level goes first so that an explicit --optionN can still
		// override other settings after it.
		opts := append([]match.Option{{Name: "Level", Value: fmt.Sprint(level)}}, options...)
		return match.EngineSpec{Name: fmt.Sprintf("knightwatch-L%d", level), Command: []string{exe, "uci"}, Options: opts}, nil
	}
	return match.EngineSpec{}, fmt.Errorf("engine %d: give --engine%d CMD or --level%d N", n, n, n)
}

func printSummary(w io.Writer, sum *match.Summary, tc match.TimeControl, elapsed time.Duration) {
	t := sum.Tally
	diff, margin := t.Elo()
	fmt.Fprintf(w, "\nScore of %s vs %s: %d - %d - %d (W-L-D) [%.3f] %d games, %s, %.0fs\n",
		sum.Names[0], sum.Names[1], t.Wins, t.Losses, t.Draws, t.Score(), t.Games(), tc, elapsed.Seconds())
	fmt.Fprintf(w, "%s\n", t)
	fmt.Fprintf(w, "Draw ratio %.1f%%; Elo is %s's rating minus %s's, with a 95%% margin\n",
		100*t.DrawRatio(), sum.Names[0], sum.Names[1])
	// One line in key=value form for scripts (bench/strength.sh reads it).
	fmt.Fprintf(w, "RESULT games=%d wins=%d draws=%d losses=%d score=%.4f elo=%.1f margin=%.1f los=%.4f\n",
		t.Games(), t.Wins, t.Draws, t.Losses, t.Score(), diff, margin, t.LOS())
}
