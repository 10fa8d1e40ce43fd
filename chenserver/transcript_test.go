package chenserver

import (
	"strings"
	"testing"

	"knightwatch/game"
)

// step is one command of a documented transcript and its documented
// response. engineChoice marks a `think` whose move the document shows as
// an example of what Chenard happened to play, not as a rule.
type step struct {
	cmd, want    string
	engineChoice bool
}

// transcripts are every example of the ChenServer document
// (/work/shared/seeds/002_abd008309b2ea918.txt), command for command.
var transcripts = []struct {
	name  string
	steps []step
}{
	{"demo 1: -s", []step{
		{cmd: "new", want: "OK"},
		{cmd: "status", want: "* rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{cmd: "legal", want: "OK 20 b1c3 b1a3 g1h3 g1f3 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4"},
		{cmd: "move e2e4", want: "OK 1"},
		{cmd: "status", want: "* rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{cmd: "think 1000", want: "OK e7e5 e5", engineChoice: true},
		{cmd: "status", want: "* rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"},
		{cmd: "move Nc3", want: "OK 1"}, // "move b1c3 or move Nc3 — both mean the same thing"
		{cmd: "undo 1", want: "OK"},
		{cmd: "move b1c3", want: "OK 1"},
		{cmd: "exit", want: "OK"},
	}},
	{"demo 2: TCP commands", []step{
		{cmd: "status", want: "* rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{cmd: "move e4", want: "OK 1"},
	}},
	{"exit", []step{
		{cmd: "exit", want: "OK"},
	}},
	{"history", []step{
		{cmd: "new", want: "OK"},
		{cmd: "history", want: "OK 0"},
		{cmd: "move e4 e5 Nc3 Nf6", want: "OK 4"},
		{cmd: "history", want: "OK 4 e2e4 e7e5 b1c3 g8f6"},
		{cmd: "history pgn", want: "OK 4 e4 e5 Nc3 Nf6"},
		{cmd: "history alg", want: "OK 4 e2e4 e7e5 b1c3 g8f6"},
		{cmd: "history tuna", want: "BAD_FORMAT"},
	}},
	{"legal", []step{
		{cmd: "new", want: "OK"},
		{cmd: "legal", want: "OK 20 b1c3 b1a3 g1h3 g1f3 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4"},
		{cmd: "legal pgn", want: "OK 20 Nc3 Na3 Nh3 Nf3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4"},
		{cmd: "legal alg", want: "OK 20 b1c3 b1a3 g1h3 g1f3 a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4"},
	}},
	{"move", []step{
		{cmd: "new", want: "OK"},
		{cmd: "move e4", want: "OK 1"},
		{cmd: "status", want: "* rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"},
		{cmd: "move g8f6 Nc3", want: "OK 2"},
		{cmd: "status", want: "* rnbqkb1r/pppppppp/5n2/8/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 2"},
		{cmd: "move Nc6 Bb2", want: "BAD_MOVE Bb2"},
		{cmd: "status", want: "* rnbqkb1r/pppppppp/5n2/8/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 2"},
	}},
	{"new", []step{
		{cmd: "new", want: "OK"},
	}},
	{"status", []step{
		{cmd: "new", want: "OK"},
		{cmd: "move e4 f6 Nc3 g5", want: "OK 4"},
		{cmd: "status", want: "* rnbqkbnr/ppppp2p/5p2/6p1/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq g6 0 3"},
		{cmd: "move Qh5", want: "OK 1"},
		{cmd: "status", want: "1-0 rnbqkbnr/ppppp2p/5p2/6pQ/4P3/2N5/PPPP1PPP/R1B1KBNR b KQkq - 1 3"},
	}},
	{"test", []step{
		{cmd: "new", want: "OK"},
		{cmd: "test Nc3", want: "OK b1c3 Nc3"},
		{cmd: "test b1c3", want: "OK b1c3 Nc3"},
		{cmd: "test a1b1", want: "ILLEGAL"},
	}},
	{"think", []step{
		{cmd: "new", want: "OK"},
		{cmd: "move e4 f6 Nc3 g5", want: "OK 4"},
		{cmd: "think 1000", want: "OK d1h5 Qh5#"},
		{cmd: "think 1000", want: "GAME_OVER"},
	}},
	{"undo", []step{
		{cmd: "new", want: "OK"},
		{cmd: "move d4 d5 c4", want: "OK 3"},
		{cmd: "history", want: "OK 3 d2d4 d7d5 c2c4"},
		{cmd: "undo 1", want: "OK"},
		{cmd: "history", want: "OK 2 d2d4 d7d5"},
		{cmd: "undo 2", want: "OK"},
		{cmd: "history", want: "OK 0"},
		{cmd: "undo 1", want: "BAD_NUM_TURNS"},
	}},
}

// TestTranscripts replays every documented transcript against the -s mode
// (ServeLines over in-process pipes), once with a scripted thinker that
// plays the document's example moves, so every line must match exactly,
// and once with the real engine. When the engine picks a different move
// where the document only shows an example, the test checks that the
// answer names one legal move in both notations, then takes it back and
// plays the documented move so the rest of the transcript still applies.
func TestTranscripts(t *testing.T) {
	for _, th := range testThinkers(t) {
		for _, tr := range transcripts {
			t.Run(th.name+"/"+tr.name, func(t *testing.T) {
				c := startLines(t, NewSession(th.make()), 0)
				for i, st := range tr.steps {
					before := ""
					if st.engineChoice {
						before = c.send("status")
					}
					got := c.send(st.cmd)
					if got == st.want {
						continue
					}
					if !st.engineChoice || th.exact {
						t.Fatalf("step %d %q: got %q, want %q", i, st.cmd, got, st.want)
					}
					checkThinkAnswer(t, before, got)
					t.Logf("engine played %q where the document shows %q; resyncing", got, st.want)
					wantAlg := strings.Fields(st.want)[1]
					if r := c.send("undo 1"); r != "OK" {
						t.Fatalf("undo after engine move: %q", r)
					}
					if r := c.send("move " + wantAlg); r != "OK 1" {
						t.Fatalf("move %s: %q", wantAlg, r)
					}
				}
				if last := tr.steps[len(tr.steps)-1]; last.cmd == "exit" {
					if err := <-c.done; err != nil {
						t.Fatalf("ServeLines after exit: %v", err)
					}
				}
			})
		}
	}
}

// checkThinkAnswer checks that resp is "OK alg pgn" for one legal move of
// the position whose status line was before.
func checkThinkAnswer(t *testing.T, before, resp string) {
	t.Helper()
	f := strings.Fields(resp)
	if len(f) != 3 || f[0] != "OK" {
		t.Fatalf("think answered %q, want OK alg pgn", resp)
	}
	fen := strings.SplitN(before, " ", 2)[1]
	pos := mustFEN(t, fen)
	a, err1 := pos.ParseUCI(f[1])
	p, err2 := pos.ParseSAN(f[2])
	if err1 != nil || err2 != nil || a != p || pos.SAN(a) != f[2] || pos.UCI(a) != f[1] {
		t.Fatalf("think answered %q in %s: not one legal move in both notations (%v, %v)", resp, fen, err1, err2)
	}
}

func mustFEN(t *testing.T, fen string) *game.Position {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}
