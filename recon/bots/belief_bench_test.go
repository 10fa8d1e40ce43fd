package bots

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// beliefCase is a real belief of knightwatch in a recorded game, with
// what it was next told: the capture its opponent's move showed (the
// expansion's input) or its sense's result (the filter's).
type beliefCase struct {
	s       *belief
	capture game.Square
	sense   recon.SenseResult
}

// beliefGames is the record BenchmarkBelief* replays: knightwatch against
// trout, 100 games at 60 s + 1 s (bench/results).
const beliefGames = "../../bench/results/rbc/knightwatch-vs-trout-60s-100games.jsonl.gz"

// recordedBeliefs replays the first games of beliefGames through
// knightwatch, fed what its side was told, and returns its beliefs before
// each expansion and before each sense with at least minBoards boards.
func recordedBeliefs(b *testing.B, games, minBoards int) (expand, filter []beliefCase) {
	f, err := os.Open(beliefGames)
	if err != nil {
		b.Skipf("no recorded games: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 0; n < games && sc.Scan(); n++ {
		h, err := recon.UnmarshalHistory(sc.Bytes())
		if err != nil {
			b.Fatal(err)
		}
		color := game.White
		if !strings.HasPrefix(h.Names[game.White], "knightwatch") {
			color = game.Black
		}
		k := NewKnightwatch(KnightwatchConfig{MaxBoards: 400_000, Threat: 4, Workers: 1}, uint64(n))
		k.Start(color, recon.NewBoard(), "")
		for i := range len(h.RequestedMoves[color]) {
			capture := game.NoSquare
			if j := i - int(1-color); j >= 0 && j < len(h.CaptureSquares[color.Other()]) {
				capture = h.CaptureSquares[color.Other()][j]
			}
			if s := k.belief; s.size() >= minBoards && s.boards[0].Side() != color {
				expand = append(expand, beliefCase{s: s, capture: capture})
			}
			k.OpponentMoveResult(capture)
			if s := k.belief; s.size() >= minBoards {
				filter = append(filter, beliefCase{s: s, sense: h.SenseResults[color][i]})
			}
			k.SenseResult(h.SenseResults[color][i])
			k.MoveResult(recon.MoveResult{Requested: h.RequestedMoves[color][i], Taken: h.TakenMoves[color][i], Capture: h.CaptureSquares[color][i]})
		}
	}
	if len(expand) == 0 || len(filter) == 0 {
		b.Fatal("no belief large enough in the recorded games")
	}
	return expand, filter
}

// BenchmarkBeliefExpand: knightwatch's beliefs of real games expanded by
// every opponent request that agrees with the capture it was told, on one
// goroutine: boards expanded (parents) a second, as StrangeFish's
// "Expanding N boards into new set" progress bar counts them.
func BenchmarkBeliefExpand(b *testing.B) {
	expand, _ := recordedBeliefs(b, 6, 100)
	parents, children := 0, 0
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		c := expand[i%len(expand)]
		out := c.s.expanded(c.capture, 4, 1)
		parents += c.s.size()
		children += out.size()
	}
	el := time.Since(start).Seconds()
	b.ReportMetric(float64(parents)/el, "boards-expanded/s")
	b.ReportMetric(float64(children)/el, "children/s")
}

// BenchmarkBeliefFilter: the same beliefs after the expansion filtered by
// the sense's result, on one goroutine: boards filtered a second, as
// StrangeFish's "Filtering N boards by sense results" bar counts them.
func BenchmarkBeliefFilter(b *testing.B) {
	_, filter := recordedBeliefs(b, 6, 100)
	boards := 0
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		c := filter[i%len(filter)]
		c.s.afterSense(c.sense)
		boards += c.s.size()
	}
	b.ReportMetric(float64(boards)/time.Since(start).Seconds(), "boards-filtered/s")
}
