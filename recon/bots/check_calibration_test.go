package bots

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
)

// BenchmarkCheckCalibration asks of knightwatch's losses to StrangeFish
// whether the bot did not know it was in check or knew and could not get
// out. It replays every recorded match against StrangeFish (bench/results)
// through the full-strength bot's belief, fed what its side was told, and
// reports, over all of its turns:
//
//   - true-nats/turn: -ln of the weight the belief gave the true board
//     before the sense (a board missing from a sampled belief counts as
//     1e-6), how sharp and how right the belief is;
//   - check-rate and check-believed: the share of turns that began in
//     check and the belief's mean weight on the boards in check, which
//     agree when the opponent model weighs checks as StrangeFish gives them;
//   - in-check-believed-before/-after: on the turns that began in check, the
//     belief's weight on check before and after the sense;
//   - mate-allowed: the turns whose move left the opponent a mate in one on
//     the true board, and mate-allowed-unlikely, those of them on which the
//     belief, after the move, held such a mate under 20% of its weight
//     (counted by weight, the table's way; the option mate=N counts boards);
//   - unanswered-known and unanswered-unseen: the checks the recorded move
//     left in place (the opponent could take the king), split by whether
//     the belief after the sense held check likelier than not, and
//     unanswered-mated, those of them on a true board with no legal move
//     (checkmate in chess terms: no answer on any board would have helped).
//
// Each unanswered check is logged (run with -v to see every line) with its
// game, "(lost)" when the opponent won it. The work timed is the whole
// replay.
func BenchmarkCheckCalibration(b *testing.B) {
	files, err := filepath.Glob("../../bench/results/rbc/strangefish-*.jsonl.gz")
	if err != nil || len(files) == 0 {
		b.Fatalf("no recorded StrangeFish match: %v", err)
	}
	var c checkCalibration
	for range b.N {
		c = checkCalibration{}
		for _, f := range files {
			for n, h := range recordedHistories(b, f, -1) {
				c.replay(b, fmt.Sprintf("%s game %d", filepath.Base(f), n+1), h)
			}
		}
	}
	b.StopTimer()
	turns := float64(c.turns)
	b.ReportMetric(c.trueNats/turns, "true-nats/turn")
	b.ReportMetric(float64(c.absent), "true-absent")
	b.ReportMetric(float64(c.inCheck)/turns, "check-rate")
	b.ReportMetric(c.believed/turns, "check-believed")
	b.ReportMetric(c.inCheckBefore/float64(c.inCheck), "in-check-believed-before")
	b.ReportMetric(c.inCheckAfter/float64(c.inCheck), "in-check-believed-after")
	b.ReportMetric(float64(c.known), "unanswered-known")
	b.ReportMetric(float64(c.unseen), "unanswered-unseen")
	b.ReportMetric(float64(c.mated), "unanswered-mated")
	b.ReportMetric(float64(c.mateAllowed), "mate-allowed")
	b.ReportMetric(float64(c.mateUnlikely), "mate-allowed-unlikely")
	b.ReportMetric(turns, "turns")
	for _, l := range c.lines {
		b.Log(l)
	}
}

// checkCalibration sums BenchmarkCheckCalibration's figures.
type checkCalibration struct {
	turns, absent, inCheck, known, unseen, mated int
	mateAllowed, mateUnlikely                    int
	trueNats, believed                           float64
	inCheckBefore, inCheckAfter                  float64
	lines                                        []string
}

// weightWhere returns the weight of s's boards on which holds is true:
// checksKing (the player to move in check), mateInOne (the opponent to
// move can mate in one).
func weightWhere(s *belief, holds func(*game.Position) bool) float64 {
	var w float64
	for i := range s.boards {
		if holds(&s.boards[i]) {
			w += s.weights[i]
		}
	}
	return w
}

// replay feeds knightwatch's side of h to a full-strength bot's belief and
// adds up what each of its turns shows.
func (c *checkCalibration) replay(b *testing.B, name string, h *recon.History) {
	color := game.White
	if !strings.HasPrefix(h.Names[game.White], "knightwatch") {
		color = game.Black
	}
	them := color.Other()
	if h.Outcome.Decisive && h.Outcome.Winner == them {
		name += " (lost)"
	}
	k := NewKnightwatch(knightwatchLevels[len(knightwatchLevels)-1], 1)
	k.Start(color, recon.NewBoard(), "")
	for i := range len(h.FENsBefore[color]) {
		capture := game.NoSquare
		if j := i - int(1-color); j >= 0 && j < len(h.CaptureSquares[them]) {
			capture = h.CaptureSquares[them][j]
		}
		k.OpponentMoveResult(capture)
		board, err := recon.ParseBoard(h.FENsBefore[color][i])
		if err != nil {
			b.Fatal(err)
		}
		truth := board.Position()
		w := weightWhere(k.belief, func(p *game.Position) bool { return p.Hash() == truth.Hash() })
		if w == 0 {
			c.absent++
			w = 1e-6
		}
		c.trueNats -= math.Log(w)
		c.turns++
		before := weightWhere(k.belief, checksKing)
		c.believed += before
		k.SenseResult(h.SenseResults[color][i])
		if checksKing(&truth) {
			after := weightWhere(k.belief, checksKing)
			c.inCheck++
			c.inCheckBefore += before
			c.inCheckAfter += after
			if i < len(h.FENsAfter[color]) && leftInCheck(b, h.FENsAfter[color][i], color) {
				kind := "unseen"
				if after > 0.5 {
					kind = "known"
					c.known++
				} else {
					c.unseen++
				}
				if truth.IsCheckmate() {
					kind += ", mate on the true board"
					c.mated++
				}
				c.lines = append(c.lines, fmt.Sprintf("%s, %s turn %d: check %s, held %.3f before the sense (%s), %.3f after, %d boards",
					name, color, i, kind, before, recon.SquareName(h.Senses[color][i]), after, k.belief.size()))
			}
		}
		if i >= len(h.RequestedMoves[color]) {
			break
		}
		k.MoveResult(recon.MoveResult{Requested: h.RequestedMoves[color][i], Taken: h.TakenMoves[color][i], Capture: h.CaptureSquares[color][i]})
		if after := afterMove(b, h.FENsAfter[color][i]); after.KingSquare(them) != game.NoSquare && mateInOne(&after) {
			c.mateAllowed++
			held := weightWhere(k.belief, mateInOne)
			if held < 0.2 {
				c.mateUnlikely++
			}
			c.lines = append(c.lines, fmt.Sprintf("%s, %s turn %d: the move allowed a mate in one, held at %.3f", name, color, i, held))
		}
	}
}

// afterMove returns the board of fen, a board after the player's move.
func afterMove(b *testing.B, fen string) game.Position {
	board, err := recon.ParseBoard(fen)
	if err != nil {
		b.Fatal(err)
	}
	return board.Position()
}

// leftInCheck reports whether color's king stands attacked on the board of
// fen (the board after color's move).
func leftInCheck(b *testing.B, fen string, color game.Color) bool {
	p := afterMove(b, fen)
	k := p.KingSquare(color)
	return k != game.NoSquare && p.AttackersTo(k, p.Occupied())&p.ByColor(color.Other()) != 0
}
