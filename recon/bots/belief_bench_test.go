package bots

import (
	"encoding/json"
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
	for n, h := range recordedHistories(b, beliefGames, games) {
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
	if path := os.Getenv("KW_BELIEF_DUMP"); path != "" {
		if err := dumpBeliefs(path, expand, filter); err != nil {
			b.Fatal(err)
		}
	}
	return expand, filter
}

// dumpBeliefs writes the cases to path as JSON lines, each belief's boards
// as EPDs, for bench/rbc-belief.sh to time StrangeFish's expansion and
// filtering on the same boards: {"kind": "expand", "color": true (White's
// belief), "epds": [...]} or {"kind": "filter", "sense": [[square,
// "P" or null], ...], "epds": [...]}.
func dumpBeliefs(path string, expand, filter []beliefCase) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	epds := func(s *belief) []string {
		out := make([]string, len(s.boards))
		for i := range s.boards {
			out[i] = s.boards[i].EPD()
		}
		return out
	}
	for _, c := range expand {
		// The belief's side is the one not to move on its boards.
		if err := enc.Encode(map[string]any{"kind": "expand", "color": c.s.boards[0].Side() == game.Black, "epds": epds(c.s)}); err != nil {
			f.Close()
			return err
		}
	}
	for _, c := range filter {
		sense := [][2]any{}
		for _, sp := range c.sense {
			var piece any
			if sp.Piece != game.NoPiece {
				piece = sp.Piece.String()
			}
			sense = append(sense, [2]any{int(sp.Square), piece})
		}
		if err := enc.Encode(map[string]any{"kind": "filter", "sense": sense, "epds": epds(c.s)}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// BenchmarkBeliefExpand: knightwatch's beliefs of real games expanded by
// every opponent request that agrees with the capture it was told, on one
// goroutine: boards expanded (parents) a second, as StrangeFish's
// "Expanding N boards into new set" progress bar counts them. Two ways:
// "traits", the full-strength bot's model, which weighs each outcome by
// its traits (StrangeFish's expansion weighs nothing), and "scores", the
// model with the score factor tried in docs/recon.md (score=6), which also
// scores every outcome by a quiescence search.
func BenchmarkBeliefExpand(b *testing.B) {
	expand, _ := recordedBeliefs(b, 6, 100)
	bot := knightwatchLevels[len(knightwatchLevels)-1].opponentModel()
	scored := bot
	scored.perPawn = 6
	for _, m := range []struct {
		name  string
		model opponentModel
	}{{"traits", bot}, {"scores", scored}} {
		b.Run(m.name, func(b *testing.B) {
			parents, children := 0, 0
			start := time.Now()
			for i := 0; i < b.N; i++ {
				c := expand[i%len(expand)]
				out := c.s.expanded(c.capture, m.model, 1)
				parents += c.s.size()
				children += out.size()
			}
			el := time.Since(start).Seconds()
			b.ReportMetric(float64(parents)/el, "boards-expanded/s")
			b.ReportMetric(float64(children)/el, "children/s")
		})
	}
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
