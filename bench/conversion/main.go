// Command conversion reads the PGN that `knightwatch match` writes (plain
// or gzipped) and reports how often a player turned an advantage into a
// win: for each margin, the games in which both engines' own scores agreed
// that the player stood at least that much better at some point (after one
// of its moves and the opponent's reply), and how those games ended; the
// same for standing worse; how the draws ended; and the material left at
// the end of the games the player stood a pawn better in and did not win.
// It is how the conversion figures in docs/strength.md were measured:
//
//	go run ./bench/conversion knightwatch-L8 bench/results/level8-vs-sf2400-10s-200games.pgn.gz
//
// Both engines must report scores: the match runner writes them in each
// engine move's comment ("{+0.55/15 1.524s}", "{-M3/20 0.1s}", side to
// move's view). Requiring the two to agree keeps one engine's optimism out.
package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"knightwatch/game"
	"knightwatch/tune"
)

// scoreRe finds the score that starts a move comment; mates count as 100
// pawns.
var scoreRe = regexp.MustCompile(`^([+-]?)(M?)([\d.]+)/`)

// margins are the advantages, in pawns, the report is broken down by.
var margins = [...]float64{0.5, 1, 1.5, 2, 3}

// tally counts a player's results.
type tally struct{ win, draw, loss int }

func (t *tally) add(r int) {
	switch {
	case r > 0:
		t.win++
	case r < 0:
		t.loss++
	default:
		t.draw++
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: conversion PLAYER FILE.pgn[.gz]...")
		os.Exit(2)
	}
	player := os.Args[1]
	var ahead, behind [len(margins)]tally
	draws := map[string]int{}
	var order []string
	unconverted := map[string]int{} // final material of games a pawn up, not won
	n := 0
	for _, path := range os.Args[2:] {
		games, err := tune.ReadPGNFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "conversion:", err)
			os.Exit(1)
		}
		for _, g := range games {
			sum, err := analyse(g, player)
			if err != nil {
				fmt.Fprintln(os.Stderr, "conversion:", err)
				os.Exit(1)
			}
			n++
			for i, m := range margins {
				if sum.best >= m {
					ahead[i].add(sum.result)
				}
				if sum.worst <= -m {
					behind[i].add(sum.result)
				}
			}
			if sum.result == 0 {
				if draws[sum.reason] == 0 {
					order = append(order, sum.reason)
				}
				draws[sum.reason]++
			}
			if sum.best >= 1 && sum.result <= 0 {
				unconverted[sum.final]++
			}
		}
	}
	fmt.Printf("%s, %d games\n", player, n)
	for i, m := range margins {
		a, b := ahead[i], behind[i]
		fmt.Printf("both scores agree %s stood >= +%.1f: +%d =%d -%d;   <= -%.1f: +%d =%d -%d\n",
			player, m, a.win, a.draw, a.loss, m, b.win, b.draw, b.loss)
	}
	fmt.Print("draws:")
	for _, r := range order {
		fmt.Printf(" %s %d;", r, draws[r])
	}
	fmt.Println()
	fmt.Printf("final material (%s first) of the games it stood >= +1.0 in and did not win:", player)
	keys := byCount(unconverted)
	const shown = 12
	for _, k := range keys[:min(shown, len(keys))] {
		fmt.Printf(" %s %d;", k, unconverted[k])
	}
	if len(keys) > shown {
		rest := 0
		for _, k := range keys[shown:] {
			rest += unconverted[k]
		}
		fmt.Printf(" %d others %d;", len(keys)-shown, rest)
	}
	fmt.Println()
}

// byCount returns m's keys, most frequent first, ties in name order.
func byCount(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// material names the men of side c and then of the other side, as in
// "KRP v KR".
func material(p *game.Position, c game.Color) string {
	var b strings.Builder
	for i, side := range []game.Color{c, c.Other()} {
		if i > 0 {
			b.WriteString(" v ")
		}
		b.WriteString("K")
		for _, pt := range []game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight, game.Pawn} {
			b.WriteString(strings.Repeat(strings.ToUpper(pt.String()), p.Pieces(side, pt).Count()))
		}
	}
	return b.String()
}

// summary is what analyse finds in one game.
type summary struct {
	// best and worst are the best and worst scores, from the player's
	// view, that both engines agreed on.
	best, worst float64
	result      int    // the player's result: +1, 0, -1
	reason      string // for a draw, how it ended
	final       string // the material left at the end, the player's first
}

// analyse replays one game and summarises it for player.
func analyse(g *game.PGNGame, player string) (summary, error) {
	white, black := g.Tag("White"), g.Tag("Black")
	if white != player && black != player {
		return summary{}, fmt.Errorf("game %s: %q did not play (%s - %s)", g.Tag("Round"), player, white, black)
	}
	var best, worst float64
	var result int
	var reason string
	switch g.Tag("Result") {
	case "1-0":
		result = 1
	case "0-1":
		result = -1
	}
	us := game.White
	if black == player {
		us = game.Black
		result = -result
	}
	board := game.NewGameFrom(g.StartPosition())
	best, worst = -1000, 1000
	var ours float64
	haveOurs := false
	for n := &g.Root; len(n.Variations) > 0; {
		n = n.Variations[0]
		mover := white
		if board.Position().Side() == game.Black {
			mover = black
		}
		if err := board.Play(n.Move); err != nil {
			return summary{}, fmt.Errorf("game %s: %w", g.Tag("Round"), err)
		}
		s, ok := parseScore(n.Comment)
		switch {
		case !ok:
		case mover == player:
			ours, haveOurs = s, true
		case haveOurs:
			// The opponent's reply, from the player's view, next to the
			// player's last score: the agreed advantage is the smaller.
			best = max(best, min(ours, -s))
			worst = min(worst, max(ours, -s))
		}
	}
	if result == 0 {
		reason = "not over: agreed, adjudicated or unknown"
		if term := board.OutcomeWithClaims().Termination; term != game.NotOver {
			reason = term.String()
		}
	}
	return summary{best, worst, result, reason, material(board.Position(), us)}, nil
}

// parseScore reads the score at the start of a match comment, in pawns
// from the mover's view.
func parseScore(comment string) (float64, bool) {
	m := scoreRe.FindStringSubmatch(comment)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[3], 64)
	if err != nil {
		return 0, false
	}
	if m[2] == "M" {
		v = 100
	}
	if m[1] == "-" {
		v = -v
	}
	return v, true
}
