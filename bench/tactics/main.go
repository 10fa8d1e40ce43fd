// Command tactics runs the engine over an EPD test suite (positions with
// "bm" best-move operations, such as the public Win at Chess set) and
// prints how many it solves within a fixed time per position:
//
//	go run ./bench/tactics -time 500ms suite.epd
//
// It is a quick, timing-dependent check of tactical sharpness while
// developing the search; the pass/fail tests never depend on it.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"knightwatch/engine"
	"knightwatch/game"
)

func main() {
	perMove := flag.Duration("time", 500*time.Millisecond, "search time per position")
	verbose := flag.Bool("v", false, "print every position's result")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: tactics [-time D] [-v] suite.epd")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	e := engine.New(engine.Options{HashMB: 64})
	solved, total := 0, 0
	var nodes uint64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 6 || fields[4] != "bm" {
			continue
		}
		p, err := game.ParseFEN(strings.Join(fields[:4], " ") + " 0 1")
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", line, err)
			continue
		}
		// "bm" lists the best moves in SAN up to the first ';'.
		var best []game.Move
		for _, tok := range fields[5:] {
			m, err := p.ParseMove(strings.TrimSuffix(tok, ";"))
			if err == nil {
				best = append(best, m)
			}
			if strings.HasSuffix(tok, ";") {
				break
			}
		}
		id := fmt.Sprint(total + 1)
		if i := strings.Index(line, "id \""); i >= 0 {
			id = strings.SplitN(line[i+4:], "\"", 2)[0]
		}
		e.NewGame()
		res := e.Search(context.Background(), p, nil, engine.Limits{MoveTime: *perMove}, nil)
		nodes += res.Nodes
		total++
		ok := false
		for _, m := range best {
			ok = ok || m == res.Move
		}
		if ok {
			solved++
		}
		if *verbose || !ok {
			fmt.Printf("%-10s %-6v played %-7s depth %2d\n", id, ok, p.SAN(res.Move), res.Depth)
		}
	}
	fmt.Printf("solved %d/%d at %v per position (%d nodes)\n", solved, total, *perMove, nodes)
}
