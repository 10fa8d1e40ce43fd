// Package fakeuci is a tiny UCI engine for tests of programs that drive
// engines as child processes (the match runner, the uci command's users).
// A test binary re-executes itself and calls Run in the child, so tests need
// no external engine. Its behaviour is chosen by a mode, including ways of
// misbehaving that a real engine might (crashing, hanging, illegal moves).
package fakeuci

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"knightwatch/game"
)

// Modes understood by Run.
const (
	// First plays the first legal move in UCI order.
	First = "first"
	// Varied plays a legal move chosen by the position's hash: deterministic,
	// but different from position to position.
	Varied = "varied"
	// Greedy mates when it can, else takes the most valuable piece it can,
	// else plays like Varied: it beats Varied most of the time.
	Greedy = "greedy"
	// Crash exits at the first "go".
	Crash = "crash"
	// Hang never answers "go" and ignores "stop".
	Hang = "hang"
	// Slow thinks for a second per move whatever the clock, but obeys "stop".
	Slow = "slow"
	// Illegal answers every "go" with a move that is not legal.
	Illegal = "illegal"
	// Material plays like Greedy and reports a score a test can predict:
	// "mate 1" when it mates, else 100 centipawns per pawn of material
	// ahead, from the side to move's view.
	Material = "material"
)

// Run speaks UCI on in and out until "quit" or the end of input.
func Run(in io.Reader, out io.Writer, mode string) error {
	bw := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(bw, format+"\n", args...)
		bw.Flush()
	}
	pos := game.NewPosition()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			say("id name fake-%s", mode)
			say("id author knightwatch tests")
			say("option name Hash type spin default 16 min 1 max 1024")
			say("option name Skill Level type spin default 20 min 0 max 20")
			say("uciok")
		case "isready":
			say("readyok")
		case "position":
			p, err := parsePosition(f[1:])
			if err != nil {
				say("info string bad position: %v", err)
				continue
			}
			pos = p
		case "go":
			switch mode {
			case Crash:
				os.Exit(3)
			case Hang:
				continue
			case Illegal:
				say("bestmove a1a1")
				continue
			case Slow:
				select {
				case <-time.After(time.Second):
				case l, ok := <-lines:
					if !ok || strings.TrimSpace(l) == "quit" {
						return nil
					}
					// "stop" (or anything else) ends the thinking.
				}
			}
			m := choose(pos, mode)
			if m == game.NoMove {
				say("bestmove 0000")
				continue
			}
			score := "cp 0"
			if mode == Material {
				score = materialScore(pos, m)
			}
			say("info depth 1 seldepth 1 score %s nodes 1 time 0 pv %s", score, pos.UCI(m))
			say("bestmove %s", pos.UCI(m))
		case "quit":
			return nil
		}
	}
	return nil
}

func parsePosition(f []string) (*game.Position, error) {
	var p *game.Position
	rest := f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		p, rest = game.NewPosition(), f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		var err error
		if p, err = game.ParseFEN(strings.Join(f[1:i], " ")); err != nil {
			return nil, err
		}
		rest = f[i:]
	default:
		return nil, fmt.Errorf("want startpos or fen")
	}
	if len(rest) > 0 && rest[0] == "moves" {
		for _, s := range rest[1:] {
			m, err := p.ParseUCI(s)
			if err != nil {
				return nil, err
			}
			p.MakeMove(m)
		}
	}
	return p, nil
}

var values = [...]int{game.Pawn: 1, game.Knight: 3, game.Bishop: 3, game.Rook: 5, game.Queen: 9}

func choose(p *game.Position, mode string) game.Move {
	moves := p.LegalMoves()
	if len(moves) == 0 {
		return game.NoMove
	}
	sort.Slice(moves, func(i, j int) bool { return p.UCI(moves[i]) < p.UCI(moves[j]) })
	if mode == First {
		return moves[0]
	}
	if mode == Greedy || mode == Material {
		best, bestValue := game.NoMove, 0
		for _, m := range moves {
			q := *p
			q.MakeMove(m)
			if q.IsCheckmate() {
				return m
			}
			if pc := p.CapturedPiece(m); pc != game.NoPiece && int(pc.Type()) < len(values) && values[pc.Type()] > bestValue {
				best, bestValue = m, values[pc.Type()]
			}
		}
		if best != game.NoMove {
			return best
		}
	}
	return moves[p.Hash()%uint64(len(moves))]
}

// materialScore is Material mode's score for playing m in p.
func materialScore(p *game.Position, m game.Move) string {
	q := *p
	q.MakeMove(m)
	if q.IsCheckmate() {
		return "mate 1"
	}
	balance := 0
	for sq := game.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		if pc == game.NoPiece || int(pc.Type()) >= len(values) {
			continue
		}
		if pc.Color() == p.Side() {
			balance += values[pc.Type()]
		} else {
			balance -= values[pc.Type()]
		}
	}
	return fmt.Sprintf("cp %d", 100*balance)
}
