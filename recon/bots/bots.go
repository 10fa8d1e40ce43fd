// Package bots holds Knightwatch's Reconnaissance Chess bots, each a
// recon.Player: random and attacker (the reference's simple bots), trout
// (the reference's engine-driven baseline), and knightwatch, the bot built
// to win (belief over every possible board). New builds one from a spec
// such as "trout" or "knightwatch:level=2".
package bots

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"knightwatch/recon"
)

// maker builds a bot from its options and a random seed.
type maker struct {
	summary string
	keys    []string // the options it accepts
	make    func(opts map[string]string, seed uint64) (recon.Player, error)
}

var makers = map[string]maker{
	"knightwatch": {
		summary: "Knightwatch's bot: every possible board (a weighted sample past a bound), senses where it helps the move most, " +
			"moves by the engine's judgement over the boards; options level=1..4 (default 4, full strength; 1 is for beginners), " +
			"boards=N, sample=N, deep=N (boards searched depth plies), depth=N, risk=0..1, caution=0..100 (weight of the share of boards on which a move leaves the king capturable), mate=0..100 (weight of the share of boards on which a move allows a mate in one), threat=1..1000 (how likely the opponent attacks the king), score=1..1000 (how much less likely each pawn makes an opponent move that loses it), missedcheck=0..1 (the chance it misses a quiet check), sneak=0..1 (the chance the opponent misses one), noise=0..1, turntime=DURATION, workers=N",
		keys: []string{"level", "boards", "sample", "deep", "depth", "risk", "caution", "mate", "threat", "score", "missedcheck", "sneak", "noise", "turntime", "workers"},
		make: func(opts map[string]string, seed uint64) (recon.Player, error) {
			cfg, err := parseKnightwatchOptions(opts)
			if err != nil {
				return nil, err
			}
			return NewKnightwatch(cfg, seed), nil
		},
	},
	"random": {
		summary: "senses and moves uniformly at random, passing as often as any move (the reference's RandomBot)",
		make: func(_ map[string]string, seed uint64) (recon.Player, error) {
			return NewRandom(seed), nil
		},
	},
	"attacker": {
		summary: "plays one of four quick king attacks and senses at random (the reference's AttackerBot)",
		make: func(_ map[string]string, seed uint64) (recon.Player, error) {
			return NewAttacker(seed), nil
		},
	},
	"trout": {
		summary: "one naive board, a chess engine's move on it, the king taken when it can be (the reference's TroutBot); " +
			"options engine=knightwatch|stockfish (default: stockfish when STOCKFISH_EXECUTABLE is set), movetime=DURATION (default 500ms), nodes=N",
		keys: []string{"engine", "movetime", "nodes"},
		make: func(opts map[string]string, seed uint64) (recon.Player, error) {
			cfg, err := parseTroutOptions(opts)
			if err != nil {
				return nil, err
			}
			return NewTrout(cfg, seed)
		},
	},
}

// Names returns the bot names New knows, sorted.
func Names() []string {
	names := make([]string, 0, len(makers))
	for n := range makers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Describe writes one line per bot: its name and what it does.
func Describe(w io.Writer) {
	for _, n := range Names() {
		fmt.Fprintf(w, "  %-10s %s\n", n, makers[n].summary)
	}
}

// New builds the bot a spec names: "NAME" or "NAME:key=value,key=value".
// seed makes its random choices reproducible.
func New(spec string, seed uint64) (recon.Player, error) {
	return build(spec, seed, false)
}

// build is New, with the bot's work on one goroutine when oneThread
// (NewOneThread).
func build(spec string, seed uint64, oneThread bool) (recon.Player, error) {
	name, rest, _ := strings.Cut(spec, ":")
	m, ok := makers[name]
	if !ok {
		return nil, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	opts := map[string]string{}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("bot %q: option %q: want key=value", spec, kv)
			}
			if !slices.Contains(m.keys, k) {
				return nil, fmt.Errorf("bot %q: unknown option %q (options: %s)", spec, k, strings.Join(m.keys, ", "))
			}
			opts[k] = v
		}
	}
	if oneThread && slices.Contains(m.keys, "workers") {
		opts["workers"] = "1"
	}
	p, err := m.make(opts, seed)
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", spec, err)
	}
	return p, nil
}
