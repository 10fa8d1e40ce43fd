// Command timeuse reads the PGN that `knightwatch match` writes (plain or
// gzipped) and reports, per player, how it spent its clock: the median time
// of its first 20 timed moves and the median and lowest time left at the end
// of a game. It is how the README's time-use figures were measured:
//
//	go run ./bench/timeuse bench/results/level8-vs-sf2400-10s-200games.pgn.gz
//
// The match runner writes each engine move's search time as the last field
// of its comment ("{+0.55/15 1.524s}"); opening-book moves carry no comment
// and count as free, so "time left" is base + increment × timed moves − time
// used, a little below the true clock.
package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

var (
	tagRe = regexp.MustCompile(`\[(\w+) "([^"]*)"\]`)
	// tokenRe matches a move number ("12." or "12...") or a move comment
	// ending in a time ("... 1.524s}").
	tokenRe = regexp.MustCompile(`(\d+\.(?:\.\.)?)|\{[^}]*?([\d.]+)s\}`)
)

type stats struct {
	first20 []float64 // time of the first 20 timed moves, games with that many
	left    []float64 // clock left at the end, one per game
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: timeuse FILE.pgn[.gz]")
		os.Exit(2)
	}
	text, err := readPGN(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "timeuse:", err)
		os.Exit(1)
	}
	players := map[string]*stats{}
	var order []string
	for _, g := range splitGames(text) {
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

func readPGN(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return "", err
		}
		r = gz
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

// splitGames cuts the file before every [Event tag.
func splitGames(text string) []string {
	var games []string
	for _, part := range strings.Split(text, "\n[Event ") {
		if part = strings.TrimSpace(part); part != "" {
			if !strings.HasPrefix(part, "[Event ") {
				part = "[Event " + part
			}
			games = append(games, part)
		}
	}
	return games
}

func addGame(g string, players map[string]*stats, order *[]string) error {
	tags := map[string]string{}
	header, body, ok := strings.Cut(g, "\n\n")
	if !ok {
		return fmt.Errorf("a game without moves: %.60q", g)
	}
	for _, m := range tagRe.FindAllStringSubmatch(header, -1) {
		tags[m[1]] = m[2]
	}
	baseText, incText, ok := strings.Cut(tags["TimeControl"], "+")
	base, err1 := strconv.ParseFloat(baseText, 64)
	inc, err2 := strconv.ParseFloat(incText, 64)
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("game %s: time control %q is not BASE+INC", tags["Round"], tags["TimeControl"])
	}
	white, black := tags["White"], tags["Black"]
	used := map[string][]float64{}
	side := white
	for _, m := range tokenRe.FindAllStringSubmatch(body, -1) {
		if m[1] != "" { // a move number says whose move follows
			side = white
			if strings.HasSuffix(m[1], "...") {
				side = black
			}
			continue
		}
		t, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return err
		}
		used[side] = append(used[side], t)
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
