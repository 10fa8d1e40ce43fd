// Command timeuse reads the PGN that `knightwatch match` writes (plain or
// gzipped) and reports, per player, how it spent its clock: the median time
// of its first 20 timed moves and the median and lowest time left at the end
// of a game. It is how the time-use figures in docs/strength.md were measured:
//
//	go run ./bench/timeuse bench/results/level8-vs-sf2400-10s-200games.pgn.gz
//
// The match runner writes each engine move's search time as the last field
// of its comment ("{+0.55/15 1.524s}"); opening-book moves carry no comment
// and count as free, so "time left" is base + increment × timed moves − time
// used, a little below the true clock.
package main

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"knightwatch/game"
	"knightwatch/tune"
)

// timeRe finds the search time that ends a move comment ("+0.55/15 1.524s").
var timeRe = regexp.MustCompile(`([\d.]+)s$`)

type stats struct {
	first20 []float64 // time of the first 20 timed moves, games with that many
	left    []float64 // clock left at the end, one per game
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: timeuse FILE.pgn[.gz]")
		os.Exit(2)
	}
	games, err := tune.ReadPGNFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "timeuse:", err)
		os.Exit(1)
	}
	players := map[string]*stats{}
	var order []string
	for _, g := range games {
		if err := addGame(g, players, &order); err != nil {
			fmt.Fprintln(os.Stderr, "timeuse:", err)
			os.Exit(1)
		}
	}
	for _, name := range order {
		s := players[name]
		fmt.Printf("%s: %d games; first 20 timed moves: median %.2f s (%d games); clock left at the end: median %.2f s, lowest %.2f s\n",
			name, len(s.left), median(s.first20), len(s.first20), median(s.left), slices.Min(s.left))
	}
}

func addGame(g *game.PGNGame, players map[string]*stats, order *[]string) error {
	baseText, incText, ok := strings.Cut(g.Tag("TimeControl"), "+")
	base, err1 := strconv.ParseFloat(baseText, 64)
	inc, err2 := strconv.ParseFloat(incText, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("game %s: time control %q is not BASE+INC", g.Tag("Round"), g.Tag("TimeControl"))
	}
	white, black := g.Tag("White"), g.Tag("Black")
	used := map[string][]float64{}
	side := white
	if g.StartPosition().Side() == game.Black {
		side = black
	}
	for n := &g.Root; len(n.Variations) > 0; {
		n = n.Variations[0]
		// Book moves have no timed comment and cost nothing.
		if m := timeRe.FindStringSubmatch(n.Comment); m != nil {
			t, err := strconv.ParseFloat(m[1], 64)
			if err != nil {
				return err
			}
			used[side] = append(used[side], t)
		}
		if side == white {
			side = black
		} else {
			side = white
		}
	}
	for _, name := range []string{white, black} {
		s := players[name]
		if s == nil {
			s = &stats{}
			players[name] = s
			*order = append(*order, name)
		}
		u := used[name]
		total := 0.0
		for i, t := range u {
			total += t
			if i == 19 {
				s.first20 = append(s.first20, total)
			}
		}
		s.left = append(s.left, base+inc*float64(len(u))-total)
	}
	return nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
