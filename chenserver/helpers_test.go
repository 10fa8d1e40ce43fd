package chenserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
)

// quickThinker is a stand-in engine for tests that must not spend real
// thinking time (fuzzing, order checks): it mates in one when it can, else
// plays the first of its preferred moves that is legal, else the first
// legal move in ChenServer order. It answers at once.
type quickThinker struct {
	prefer  []string
	newGame int
}

func (q *quickThinker) NewGame() { q.newGame++ }

func (q *quickThinker) Think(_ context.Context, pos *game.Position, _ []uint64, _ time.Duration) game.Move {
	moves := chenardOrder(pos)
	for _, m := range moves {
		next := *pos
		next.MakeMove(m)
		if next.IsCheckmate() {
			return m
		}
	}
	for _, s := range q.prefer {
		if m, err := pos.ParseUCI(s); err == nil {
			return m
		}
	}
	if len(moves) == 0 {
		return game.NoMove
	}
	return moves[0]
}

// lineClient drives ServeLines in-process through pipes, one command and
// one response at a time, as a program using `chenserver -s` would.
type lineClient struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func startLines(t *testing.T, s *Session, maxLine int) *lineClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lineClient{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := ServeLines(s, inR, outW, maxLine)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

// send writes cmd plus a newline and returns the response line.
func (c *lineClient) send(cmd string) string {
	c.t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := io.WriteString(c.in, cmd+"\n")
		errc <- err
	}()
	line, err := c.out.ReadString('\n')
	if err != nil {
		c.t.Fatalf("%q: reading response: %v", cmd, err)
	}
	if err := <-errc; err != nil {
		c.t.Fatalf("%q: writing command: %v", cmd, err)
	}
	return strings.TrimSuffix(line, "\n")
}

// snapshot captures everything a failed command must leave unchanged.
func snapshot(s *Session) string {
	st, _ := s.Execute("status")
	h, _ := s.Execute("history")
	return st + " | " + h
}
