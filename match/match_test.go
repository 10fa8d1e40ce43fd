package match

import (
	"context"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/match/fakeuci"
)

// TestFakeEngineHelper is not a test: other tests run the test binary again
// with "-test.run=^TestFakeEngineHelper$ -- fakeuci MODE" and it becomes a
// tiny UCI engine, so the runner is tested against real child processes
// without needing an engine installed.
func TestFakeEngineHelper(t *testing.T) {
	args := flag.Args()
	if len(args) != 2 || args[0] != "fakeuci" {
		t.Skip("helper process for the match tests")
	}
	_ = fakeuci.Run(os.Stdin, os.Stdout, args[1])
	os.Exit(0)
}

func fake(mode string) EngineSpec {
	return EngineSpec{Command: []string{os.Args[0], "-test.run=^TestFakeEngineHelper$", "--", "fakeuci", mode}}
}

func TestStartEngine(t *testing.T) {
	tests := []struct {
		name    string
		spec    EngineSpec
		wantErr string
	}{
		{"handshake", fake(fakeuci.First), ""},
		{"known options", EngineSpec{Command: fake(fakeuci.First).Command, Options: []Option{{"Hash", "32"}, {"skill level", "3"}}}, ""},
		{"unknown option", EngineSpec{Command: fake(fakeuci.First).Command, Options: []Option{{"UCI_Elo", "1500"}}}, `no option "UCI_Elo"`},
		{"no such program", EngineSpec{Command: []string{"/nonexistent/engine"}}, "start"},
		{"not an engine", EngineSpec{Command: []string{"sh", "-c", "read x; echo hello"}}, "waiting for uciok: engine process exited"},
		{"exits at once", EngineSpec{Command: []string{"true"}}, "engine process exited"},
	}
	for _, tc := range tests {
		e, err := StartEngine(tc.spec, time.Minute)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
			if e != nil {
				e.Kill()
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if e.Name() != "fake-first" || !e.Alive() {
			t.Errorf("%s: name %q alive %v", tc.name, e.Name(), e.Alive())
		}
		e.Close(2 * time.Second)
		if e.Alive() {
			t.Errorf("%s: still alive after Close", tc.name)
		}
	}
}

func TestMatchEndToEnd(t *testing.T) {
	var pgn strings.Builder
	var lines []string
	cfg := Config{
		Engines:     [2]EngineSpec{fake(fakeuci.Greedy), fake(fakeuci.Varied)},
		Games:       6,
		TC:          TimeControl{Base: 5 * time.Second, Inc: 50 * time.Millisecond},
		Concurrency: 2,
		PGN:         &pgn,
		OnGame: func(r *GameResult, t Tally) {
			lines = append(lines, r.Reason)
		},
	}
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Tally.Games() != 6 || len(sum.Results) != 6 || len(lines) != 6 {
		t.Fatalf("tally %v, %d results, %d callbacks; want 6 games", sum.Tally, len(sum.Results), len(lines))
	}
	if sum.Names != [2]string{"fake-greedy", "fake-varied"} {
		t.Errorf("names %v", sum.Names)
	}
	// The greedy engine takes whatever hangs and mates when it can: it
	// should score well against a hash-driven mover.
	if sum.Tally.Score() < 0.5 {
		t.Errorf("greedy scored %v against varied", sum.Tally)
	}
	defaults := DefaultOpenings()
	seen := map[int]bool{}
	for _, r := range sum.Results {
		seen[r.Number] = true
		// Colours alternate and each opening is played by both colours.
		if r.White != (r.Number-1)%2 {
			t.Errorf("game %d: engine %d had White", r.Number, r.White)
		}
		if want := defaults[(r.Number-1)/2].Name; r.Opening != want {
			t.Errorf("game %d: opening %q, want %q", r.Number, r.Opening, want)
		}
		// Every game ends by the rules, and the board agrees with the result.
		if !r.Outcome.Over() || r.Outcome.Termination >= game.Resignation {
			t.Errorf("game %d ended %v (%s)", r.Number, r.Outcome, r.Reason)
		}
		if got := r.Game.OutcomeWithClaims(); got != r.Outcome {
			t.Errorf("game %d: recorded %v, board says %v", r.Number, r.Outcome, got)
		}
	}
	if len(seen) != 6 {
		t.Errorf("game numbers %v", seen)
	}
	// The PGN holds every game and replays to the same moves.
	replayed, err := parsePGN(pgn.String(), true)
	if err != nil {
		t.Fatalf("PGN does not parse: %v\n%s", err, pgn.String())
	}
	if len(replayed) != 6 {
		t.Fatalf("PGN has %d games", len(replayed))
	}
	for i, r := range sum.Results {
		g, err := replayed[i].NewGame()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.Join(g.UCIMoves(), " "), strings.Join(r.Game.UCIMoves(), " "); got != want {
			t.Errorf("PGN game %d replays as %s, want %s", i+1, got, want)
		}
	}
	for _, tag := range []string{`[White "fake-greedy"]`, `[Black "fake-greedy"]`, `[TimeControl "5+0.05"]`, `[Round "6"]`} {
		if !strings.Contains(pgn.String(), tag) {
			t.Errorf("PGN lacks %s", tag)
		}
	}
}

func TestMatchMisbehavingEngines(t *testing.T) {
	tests := []struct {
		mode        string
		termination game.Termination
		reason      string
	}{
		{fakeuci.Crash, game.Adjudication, "fake-crash crashed"},
		{fakeuci.Illegal, game.Adjudication, `fake-illegal sent an illegal move "a1a1"`},
		{fakeuci.Slow, game.TimeForfeit, "fake-slow lost on time"},
		{fakeuci.Hang, game.TimeForfeit, "fake-hang lost on time"},
	}
	for _, tc := range tests {
		cfg := Config{
			Engines: [2]EngineSpec{fake(fakeuci.Varied), fake(tc.mode)},
			Games:   2,
			TC:      TimeControl{Base: 200 * time.Millisecond},
			// A short recovery wait: the hanging engine is killed after it.
			StopWait: 500 * time.Millisecond,
		}
		sum, err := Run(context.Background(), cfg)
		if err != nil {
			t.Errorf("%s: %v", tc.mode, err)
			continue
		}
		// The faulty engine loses both games, with either colour, and is
		// restarted (or recovered) for the second one.
		if sum.Tally != (Tally{Wins: 2}) {
			t.Errorf("%s: tally %v, want two wins for the good engine", tc.mode, sum.Tally)
		}
		for _, r := range sum.Results {
			if r.Outcome.Termination != tc.termination || !strings.HasPrefix(r.Reason, tc.reason) {
				t.Errorf("%s: game %d ended %v, %q; want %v, %q", tc.mode, r.Number, r.Outcome, r.Reason, tc.termination, tc.reason)
			}
		}
	}
}

func TestMatchAdjudication(t *testing.T) {
	tests := []struct {
		name   string
		fen    string
		white  string // mode of the engine playing White (engine 1)
		result game.Result
		term   game.Termination
	}{
		{"checkmate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", fakeuci.Greedy, game.WhiteWins, game.Checkmate},
		{"stalemate", "7k/5K1p/7P/8/8/8/P7/8 w - - 0 1", fakeuci.First, game.Draw, game.Stalemate},
		{"insufficient material", "8/7B/8/4k3/8/8/3nK3/8 w - - 0 1", fakeuci.Greedy, game.Draw, game.InsufficientMaterial},
		{"fifty-move rule", "4k3/8/8/8/8/8/8/R3K3 w - - 99 60", fakeuci.First, game.Draw, game.FiftyMoves},
	}
	for _, tc := range tests {
		ops, err := ParseEPDOpenings(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := Run(context.Background(), Config{
			Engines:  [2]EngineSpec{fake(tc.white), fake(fakeuci.First)},
			Games:    1,
			TC:       TimeControl{Base: 5 * time.Second},
			Openings: ops,
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := sum.Results[0]
		if r.Outcome.Result != tc.result || r.Outcome.Termination != tc.term || r.Game.Len() != 1 {
			t.Errorf("%s: %v after %v, want %s by %v in one move", tc.name, r.Outcome, r.Game.UCIMoves(), tc.result, tc.term)
		}
	}
}

func TestMatchTimeForfeitDrawWhenOpponentCannotMate(t *testing.T) {
	// White (the hanging engine) has a rook, Black only a king: when
	// White's flag falls, Black cannot win, so it is a draw.
	ops, err := ParseEPDOpenings("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Run(context.Background(), Config{
		Engines:  [2]EngineSpec{fake(fakeuci.Hang), fake(fakeuci.First)},
		Games:    1,
		TC:       TimeControl{Base: 100 * time.Millisecond},
		StopWait: 200 * time.Millisecond,
		Openings: ops,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := sum.Results[0]; r.Outcome != (game.Outcome{Result: game.Draw, Termination: game.TimeForfeit}) {
		t.Errorf("got %v (%s), want a draw on time", r.Outcome, r.Reason)
	}
}

func TestMatchConfigErrors(t *testing.T) {
	good := [2]EngineSpec{fake(fakeuci.First), fake(fakeuci.First)}
	tc := TimeControl{Base: time.Second}
	tests := []struct {
		name    string
		cfg     Config
		wantErr string
	}{
		{"no games", Config{Engines: good, TC: tc}, "games must be at least 1"},
		{"no clock", Config{Engines: good, Games: 1}, "no time control"},
		{"no command", Config{Engines: [2]EngineSpec{good[0], {}}, Games: 1, TC: tc}, "engine 2 has no command"},
		{"empty openings", Config{Engines: good, Games: 1, TC: tc, Openings: []Opening{}}, "empty opening set"},
		{"bad engine", Config{Engines: [2]EngineSpec{good[0], {Command: []string{"/nonexistent"}}}, Games: 1, TC: tc}, "/nonexistent"},
	}
	for _, tc := range tests {
		_, err := Run(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestMatchCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	sum, err := Run(ctx, Config{
		Engines: [2]EngineSpec{fake(fakeuci.Varied), fake(fakeuci.Greedy)},
		Games:   50,
		TC:      TimeControl{Base: 5 * time.Second},
		OnGame: func(*GameResult, Tally) {
			if n++; n == 2 {
				cancel()
			}
		},
	})
	if err != context.Canceled || sum == nil || sum.Tally.Games() < 2 || sum.Tally.Games() >= 50 {
		t.Errorf("cancelled match: %v, %+v", err, sum)
	}
}
