package cli

import (
	"fmt"
	"io"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/recon/bots"
)

func init() {
	register(command{
		name:    "rbc-playback",
		summary: "re-run a Reconnaissance Chess history through the arbiter and check every result; optionally feed one side to a bot",
		run:     runRBCPlayback,
	})
}

func runRBCPlayback(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("rbc-playback", "FILE.json [--turn-limit T] [--move-limit L] [--bot NAME --color white|black [--explain] [--watch c1=r,...]]", stderr)
	turnLimit := fs.Int("turn-limit", 0, "the full-turn limit the game was played with (0: unknown, inferred when the game ended by it)")
	moveLimit := fs.Int("move-limit", 0, "the half-move limit the game was played with (0: unknown, inferred when the game ended by it)")
	botSpec := fs.String("bot", "", "feed this bot (NAME or NAME:key=value,...) one side's observations and report where its choices differ")
	colorName := fs.String("color", "", "the side --bot plays: white or black")
	seed := fs.Uint64("seed", 1, "seed for the bot's random choices")
	explain := fs.Bool("explain", false, "with --bot knightwatch: print its reasons for each sense and move, and the boards it holds before each")
	watch := fs.String("watch", "", "with --bot knightwatch: before each choice, print the share of its belief with each of these pieces on its square, e.g. c1=r,d7=q (implies --explain)")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return fmt.Errorf("want one history file, got %d arguments", len(positional))
	}
	if *turnLimit < 0 || *moveLimit < 0 {
		return fmt.Errorf("--turn-limit and --move-limit must not be negative")
	}
	h, err := recon.LoadHistory(positional[0])
	if err != nil {
		return err
	}
	opts := recon.PlaybackOptions{TurnLimit: *turnLimit, MoveLimit: *moveLimit}
	var watches []bots.Watch
	if *watch != "" {
		if watches, err = bots.ParseWatches(*watch); err != nil {
			return fmt.Errorf("--watch: %w", err)
		}
		*explain = true
	}
	switch {
	case *botSpec == "" && (*colorName != "" || *explain):
		return fmt.Errorf("--color, --explain and --watch need --bot")
	case *botSpec != "":
		switch *colorName {
		case "white":
			opts.BotColor = game.White
		case "black":
			opts.BotColor = game.Black
		default:
			return fmt.Errorf("--bot needs --color white or --color black")
		}
		bot, err := bots.New(*botSpec, *seed)
		if err != nil {
			return err
		}
		if c, ok := bot.(io.Closer); ok {
			defer c.Close()
		}
		if *explain {
			if _, ok := bot.(*bots.Knightwatch); !ok {
				return fmt.Errorf("--explain and --watch need --bot knightwatch, not %s", *botSpec)
			}
			bot = bots.Explain(bot, stdout, watches)
		}
		opts.Bot = bot
		opts.Warn = func(t recon.Turn, what, botChoice, record string) {
			fmt.Fprintf(stdout, "turn %s: the bot's %s %s differs from the record's %s; playing the record's\n", t, what, botChoice, record)
		}
	}
	n, err := recon.Playback(h, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s (white) - %s (black): %s\n", nameOr(h.Names[game.White]), nameOr(h.Names[game.Black]), h.Outcome)
	fmt.Fprintf(stdout, "ok %d turns\n", n)
	return nil
}

func nameOr(s string) string {
	if s == "" {
		return "(no name)"
	}
	return s
}
