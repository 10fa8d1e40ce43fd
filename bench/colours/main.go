// Command colours reads match PGNs (plain or gzipped) and reports one
// player's score by colour, and within each colour by how many of its
// moves came from its opening book. It separates the book's effect from
// the colour's: the match plays every opening once with each colour, but
// a book usually has more to say for one side of an opening than the
// other.
//
//	go run ./bench/colours knightwatch-L8 bench/results/level8-vs-sf2400-10s-200games.pgn.gz
//
// A book move is one whose comment holds only the time ("{0.016s}"): the
// match runner writes "score/depth time" for a searched move and no score
// when the engine gave none, which is what our engine does for book moves.
package main

import (
	"fmt"
	"os"
	"regexp"

	"knightwatch/game"
	"knightwatch/tune"
)

// bookRe matches a comment with a time and nothing else.
var bookRe = regexp.MustCompile(`^\s*[\d.]+s\s*$`)

// maxBook groups games with this many book moves or more.
const maxBook = 6

type tally struct {
	games  int
	points float64
}

func (t tally) String() string {
	if t.games == 0 {
		return "-"
	}
	return fmt.Sprintf("%d games %.1f%%", t.games, 100*t.points/float64(t.games))
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: colours PLAYER FILE.pgn[.gz]...")
		os.Exit(2)
	}
	player := os.Args[1]
	var all []*game.PGNGame
	for _, name := range os.Args[2:] {
		games, err := tune.ReadPGNFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, "colours:", err)
			os.Exit(1)
		}
		all = append(all, games...)
	}
	byColour, byBook := count(all, player)
	for c := game.White; c <= game.Black; c++ {
		fmt.Printf("%s as %s: %s\n", player, c, byColour[c])
		for b := 0; b <= maxBook; b++ {
			more := ""
			if b == maxBook {
				more = "+"
			}
			fmt.Printf("  %d%s book moves: %s\n", b, more, byBook[c][b])
		}
	}
}

// count tallies player's finished games by colour and, within each
// colour, by the number of book moves (capped at maxBook).
func count(games []*game.PGNGame, player string) (byColour [2]tally, byBook [2][maxBook + 1]tally) {
	for _, g := range games {
		var us game.Color
		switch player {
		case g.Tag("White"):
			us = game.White
		case g.Tag("Black"):
			us = game.Black
		default:
			continue
		}
		var points float64
		switch g.Tag("Result") {
		case "1-0":
			points = 1
		case "0-1":
			points = 0
		case "1/2-1/2":
			points = 0.5
		default:
			continue
		}
		if us == game.Black {
			points = 1 - points
		}
		book := 0
		side := g.StartPosition().Side()
		for n := &g.Root; len(n.Variations) > 0; side = side.Other() {
			n = n.Variations[0]
			if side == us && bookRe.MatchString(n.Comment) {
				book++
			}
		}
		book = min(book, maxBook)
		byColour[us].games++
		byColour[us].points += points
		byBook[us][book].games++
		byBook[us][book].points += points
	}
	return byColour, byBook
}
