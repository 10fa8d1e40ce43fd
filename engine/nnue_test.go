package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/engine/nnue"
	"knightwatch/engine/nnue/nnuetest"
	"knightwatch/game"
)

// TestNetworkAccumulatorsInSearch searches with a network and checks every
// accumulator the search builds incrementally (from an ancestor's, across
// moves, null moves, captures, castling, promotions) against one computed
// from scratch for the same position.
func TestNetworkAccumulatorsInSearch(t *testing.T) {
	net := nnuetest.Random(3)
	checked, wrong := 0, 0
	nnVerify = func(p *game.Position, acc *nnue.Accumulator) {
		var fresh nnue.Accumulator
		ps := nnue.PiecesOf(p)
		net.Refresh(&fresh, &ps)
		checked++
		if fresh != *acc {
			wrong++
		}
	}
	defer func() { nnVerify = nil }()
	e := New(Options{Net: net})
	for _, fen := range []string{
		game.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	} {
		p := mustFEN(t, fen)
		res := e.Search(context.Background(), p, nil, Limits{Depth: 7}, nil)
		if !p.IsLegal(res.Move) {
			t.Errorf("%s: illegal best move %v", fen, res.Move)
		}
	}
	if checked < 10000 || wrong > 0 {
		t.Fatalf("%d accumulators checked, %d wrong", checked, wrong)
	}
}

// TestEvaluationChoice: an engine evaluates with the built-in network by
// default; SetHandWrittenEval and SetNet switch evaluations, and a switch
// clears the hash table (no NewGame here), so scores from one evaluation
// never answer a search with another.
func TestEvaluationChoice(t *testing.T) {
	p := mustFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	score := func(e *Engine) int {
		return e.Search(context.Background(), p, nil, Limits{Depth: 4}, nil).Score.CP
	}
	builtin := score(New(Options{HashMB: 1, Net: BuiltinNetwork()}))
	hand := score(New(Options{HashMB: 1, HandWrittenEval: true}))
	random := score(New(Options{HashMB: 1, Net: nnuetest.Random(3)}))
	if builtin == hand || random == hand || random == builtin {
		t.Fatalf("depth 4 scores do not tell the evaluations apart: built-in %d, hand-written %d, random network %d", builtin, hand, random)
	}
	e := New(Options{HashMB: 1})
	for i, step := range []struct {
		do   func()
		want int
		name string
	}{
		{func() {}, builtin, "default"},
		{func() { e.SetHandWrittenEval(true) }, hand, "hand-written on"},
		{func() { e.SetNet(nnuetest.Random(3)) }, hand, "a network chosen while hand-written is on"},
		{func() { e.SetHandWrittenEval(false) }, random, "hand-written off"},
		{func() { e.SetNet(nil) }, builtin, "SetNet(nil)"},
	} {
		step.do()
		if got := score(e); got != step.want {
			t.Errorf("step %d (%s): score %d, want %d", i, step.name, got, step.want)
		}
	}
}

// TestUCIEvalFile: the built-in network is the default; a network file
// loads through EvalFile and <built-in> restores the default; a missing or
// malformed file is an error that keeps the evaluation; Use NNUE false
// switches to the hand-written evaluation.
func TestUCIEvalFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.nnue")
	f, err := os.Create(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := nnuetest.Random(3).Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	bad := filepath.Join(dir, "bad.nnue")
	if err := os.WriteFile(bad, []byte("not a network"), 0o644); err != nil {
		t.Fatal(err)
	}
	score := func(lines []string) string {
		t.Helper()
		infos := linesWith(lines, "info depth 1 ")
		if len(infos) == 0 {
			t.Fatalf("no info line: %q", lines)
		}
		return strings.Fields(infos[len(infos)-1][strings.Index(infos[len(infos)-1], "score "):])[2]
	}
	const search = "setoption name OwnBook value false\nposition startpos moves e2e4\ngo depth 1\nisready\n"
	opts := runTranscript(t, "uci\n")
	for _, want := range []string{"option name Use NNUE type check default true", "option name EvalFile type string default <built-in>"} {
		if len(linesWith(opts, want)) != 1 {
			t.Errorf("uci does not announce %q: %q", want, opts)
		}
	}
	builtin := score(runTranscript(t, search))
	hand := score(runTranscript(t, "setoption name Use NNUE value false\n"+search))
	if hand == builtin {
		t.Fatalf("Use NNUE false did not change the score (%s)", hand)
	}
	if got := score(runTranscript(t, "setoption name Use NNUE value false\nsetoption name Use NNUE value true\n"+search)); got != builtin {
		t.Errorf("Use NNUE true: score %s, want the built-in network's %s", got, builtin)
	}
	lines := runTranscript(t, "setoption name EvalFile value "+good+"\n"+search)
	if len(linesWith(lines, "info string error")) != 0 || score(lines) == builtin || score(lines) == hand {
		t.Errorf("good file: %q (built-in %s, hand-written %s)", lines, builtin, hand)
	}
	for _, name := range []string{bad, filepath.Join(dir, "missing.nnue")} {
		lines := runTranscript(t, "setoption name EvalFile value "+name+"\n"+search)
		if len(linesWith(lines, "info string error")) != 1 || score(lines) != builtin {
			t.Errorf("%s: %q", name, lines)
		}
	}
	for _, back := range []string{"<built-in>", "<empty>"} {
		lines = runTranscript(t, "setoption name EvalFile value "+good+"\nsetoption name EvalFile value "+back+"\n"+search)
		if score(lines) != builtin {
			t.Errorf("%s did not restore the built-in network: %q", back, lines)
		}
	}
	lines = runTranscript(t, "setoption name Use NNUE value maybe\n"+search)
	if len(linesWith(lines, "info string error")) != 1 || score(lines) != builtin {
		t.Errorf("Use NNUE maybe: %q", lines)
	}
}

// TestNetworkScoresScaledWhenDrawish: the network's score goes through the
// same scaling as the hand-written one where the side ahead cannot win
// (no pawns, too little material), from either side's view, and is left
// alone otherwise.
func TestNetworkScoresScaledWhenDrawish(t *testing.T) {
	for _, c := range []struct {
		fen     string
		in, out int
	}{
		{"8/8/4k3/8/8/4K3/4N3/8 w - - 0 1", 400, 50},    // KN v K, White to move
		{"8/8/4k3/8/8/4K3/4N3/8 b - - 0 1", -400, -50},  // the same, Black to move
		{"8/8/4k3/8/8/4K3/4n3/8 w - - 0 1", -240, -30},  // Black's knight
		{"8/8/4k3/8/8/4K3/4P3/8 w - - 0 1", 400, 400},   // a pawn can win
		{"8/8/4k3/8/8/4K3/4R3/8 b - - 0 1", -700, -700}, // KR v K is a win
		{"8/8/4k3/3b4/8/4K3/4R3/8 w - - 0 1", 200, 25},  // KR v KB
	} {
		if got := scaleDrawishToMove(mustFEN(t, c.fen), c.in); got != c.out {
			t.Errorf("%s: %d scaled to %d, want %d", c.fen, c.in, got, c.out)
		}
	}
}

// TestBuiltinNetwork: the embedded network is the file committed as
// engine/nets/nn-5bda84f71d01.nnue (docs/evaluation.md), it loads, and
// it knows material, from either side.
func TestBuiltinNetwork(t *testing.T) {
	onDisk, err := os.ReadFile(filepath.Join("nets", BuiltinNetworkName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, builtinNetFile) {
		t.Fatalf("the embedded network differs from nets/%s", BuiltinNetworkName)
	}
	net := BuiltinNetwork()
	if net != BuiltinNetwork() {
		t.Error("BuiltinNetwork parses the file more than once")
	}
	for _, c := range []struct {
		fen      string
		min, max int
	}{
		{game.StartFEN, -50, 50},
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 600, 2000},   // a queen up
		{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -2000, -600}, // a queen down
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1", -500, -150},  // a knight down
	} {
		if s := net.EvaluatePosition(mustFEN(t, c.fen)); s < c.min || s > c.max {
			t.Errorf("%s: %d, want %d..%d", c.fen, s, c.min, c.max)
		}
	}
}
