package cli

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/recon/arena"
	"knightwatch/recon/bots"
)

func init() {
	register(command{
		name:    "rbc-match",
		summary: "play Reconnaissance Chess bots against each other and report each result and the totals",
		run:     runRBCMatch,
	})
}

func runRBCMatch(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("rbc-match", "WHITE BLACK [flags]", stderr)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprintln(stderr, "\nbots (NAME or NAME:key=value,...):")
		bots.Describe(stderr)
	}
	games := fs.Int("games", 2, "number of games; the bots swap colours after each")
	seconds := fs.Float64("seconds", 900, "each player's clock in seconds (0: no clock)")
	increment := fs.Float64("increment", 5, "seconds added to a player's clock after each of its turns")
	turnLimit := fs.Int("turn-limit", 0, "draw after this many full turns (0: none)")
	moveLimit := fs.Int("move-limit", 100, "draw after this many half-moves without a capture or pawn move (0: none)")
	seed := fs.Uint64("seed", 1, "seed for the bots' random choices")
	firstGame := fs.Int("first", 1, "number of the first game, to go on with a stopped match: game n's colours and seeds depend on n alone")
	out := fs.String("out", "", "directory to save every game's history (JSON, the reference's format)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	quiet := fs.Bool("quiet", false, "print only the totals")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 2 {
		fs.Usage()
		return fmt.Errorf("want two bots, WHITE and BLACK; got %d arguments", len(positional))
	}
	switch {
	case *games < 1:
		return fmt.Errorf("--games must be at least 1, got %d", *games)
	case *firstGame < 1:
		return fmt.Errorf("--first must be at least 1, got %d", *firstGame)
	case *concurrency < 1:
		return fmt.Errorf("--concurrency must be at least 1, got %d", *concurrency)
	case *seconds < 0 || *increment < 0 || math.IsNaN(*seconds) || math.IsNaN(*increment) || *seconds > 1e6 || *increment > 1e6:
		return fmt.Errorf("--seconds and --increment must be between 0 and 1000000")
	case *turnLimit < 0 || *moveLimit < 0:
		return fmt.Errorf("--turn-limit and --move-limit must not be negative")
	}
	cfg := arena.Config{
		First: positional[0], Second: positional[1], Games: *games, FirstGame: *firstGame, Seed: *seed, OutDir: *out, Concurrency: *concurrency,
		Game: recon.Config{
			Clock:     time.Duration(*seconds * float64(time.Second)),
			Increment: time.Duration(*increment * float64(time.Second)),
			TurnLimit: *turnLimit, MoveLimit: *moveLimit,
		},
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	sum, err := arena.Run(ctx, cfg, func(r arena.GameResult) {
		if *quiet {
			return
		}
		fmt.Fprintln(stdout, formatGameResult(r))
	})
	if err != nil && sum.Tally.Games()+sum.Errors == 0 {
		return err
	}
	first := cfg.First
	fmt.Fprintf(stdout, "\n%s vs %s: %d games in %s (clock %gs+%gs)\n", cfg.First, cfg.Second,
		sum.Tally.Games()+sum.Errors, time.Since(start).Round(time.Second), *seconds, *increment)
	fmt.Fprintf(stdout, "%s: %s\n", first, sum.Tally)
	fmt.Fprintf(stdout, "score %.1f%% ± %.1f%% (95%%)\n", 100*sum.Tally.Score(), 100*sum.ScoreMargin())
	fmt.Fprintf(stdout, "%s wins by: %s\n", first, arena.FormatReasons(sum.Wins))
	fmt.Fprintf(stdout, "%s losses by: %s\n", first, arena.FormatReasons(sum.Losses))
	fmt.Fprintf(stdout, "draws by: %s\n", arena.FormatReasons(sum.Draws))
	if sum.Errors > 0 {
		fmt.Fprintf(stdout, "games without a result (a bot failed): %d\n", sum.Errors)
	}
	if n := sum.Tally.Games(); n > 0 {
		fmt.Fprintf(stdout, "turns: %d (%.1f a game)\n", sum.Turns, float64(sum.Turns)/float64(n))
	}
	return err
}

// formatGameResult writes one line: "game 3: trout (white) - random (black):
// 1-0, white wins by KING_CAPTURE, 41 turns, 2.1s [file]".
func formatGameResult(r arena.GameResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "game %d: %s (white) - %s (black): ", r.Number, r.White, r.Black)
	switch {
	case r.Err != nil:
		fmt.Fprintf(&b, "no result, %v", firstLine(r.Err.Error()))
	case !r.Outcome.Decisive:
		fmt.Fprintf(&b, "1/2-1/2, %s", r.Outcome)
	case r.Outcome.Winner == game.White:
		fmt.Fprintf(&b, "1-0, %s", r.Outcome)
	default:
		fmt.Fprintf(&b, "0-1, %s", r.Outcome)
	}
	fmt.Fprintf(&b, ", %d turns, %s", r.Turns, r.Duration.Round(time.Millisecond))
	if r.File != "" {
		fmt.Fprintf(&b, " %s", r.File)
	}
	for c, rep := range r.Reports {
		if rep != "" {
			name := r.White
			if c == 1 {
				name = r.Black
			}
			fmt.Fprintf(&b, "\n    %s: %s", name, rep)
		}
	}
	return b.String()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
