package bots

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// passer passes every turn and senses nothing.
type passer struct{}

func (passer) Start(game.Color, recon.Board, string) {}
func (passer) OpponentMoveResult(game.Square)        {}
func (passer) ChooseSense(context.Context, []game.Square, []game.Move, time.Duration) game.Square {
	return game.NoSquare
}
func (passer) SenseResult(recon.SenseResult) {}
func (passer) ChooseMove(context.Context, []game.Move, time.Duration) game.Move {
	return game.NoMove
}
func (passer) MoveResult(recon.MoveResult)       {}
func (passer) End(recon.Outcome, *recon.History) {}

func play(t *testing.T, cfg recon.Config, white, black recon.Player) (*recon.Game, recon.Outcome) {
	t.Helper()
	g := recon.NewGame(cfg, "white", "black")
	o, err := recon.Play(context.Background(), g, white, black)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := recon.Playback(g.History(), recon.PlaybackOptions{TurnLimit: cfg.TurnLimit, MoveLimit: cfg.MoveLimit}); err != nil {
		t.Fatalf("the game does not re-play: %v", err)
	}
	return g, o
}

// TestAttackerSequences checks each of the four attacks, from either side,
// against a player who never moves: the king falls on the attack's last move.
func TestAttackerSequences(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		for _, color := range []game.Color{game.White, game.Black} {
			a := NewAttacker(seed)
			first := recon.UCI(a.sequence[0]) + "..." + recon.UCI(a.sequence[len(a.sequence)-1])
			length := len(a.sequence)
			white, black := recon.Player(a), recon.Player(passer{})
			if color == game.Black {
				white, black = black, white
			}
			g, o := play(t, recon.Config{MoveLimit: 100}, white, black)
			if o != recon.Win(color, recon.KingCapture) {
				t.Fatalf("attack %s as %s: %s", first, color, o)
			}
			if n := len(g.History().RequestedMoves[color]); n > length {
				t.Errorf("attack %s as %s took %d moves", first, color, n)
			}
			seen[first] = true
		}
	}
	if len(seen) != len(quickAttacks) {
		t.Errorf("saw %d of the %d attacks in 40 seeds", len(seen), len(quickAttacks))
	}
}

// TestBotsPlayOnlyMoveActions plays each bot against random and itself:
// Play fails the game if a bot ever senses or moves outside its actions,
// and every game must re-play.
func TestBotsPlayOnlyMoveActions(t *testing.T) {
	specs := []string{"random", "attacker", "trout:engine=knightwatch,nodes=300",
		"knightwatch:level=1", "knightwatch:sample=16,turntime=20ms,workers=2"}
	if sf := stockfishPath(); sf != "" {
		specs = append(specs, "trout:engine=stockfish,nodes=300")
	} else {
		// Stockfish is optional on a developer's machine; CI has it
		// (scripts/deps.sh installs it), so there its absence fails.
		t.Run("trout:engine=stockfish", func(t *testing.T) {
			if os.Getenv("CI") != "" {
				t.Fatalf("no Stockfish (set %s or install Debian's stockfish, as scripts/deps.sh does)", StockfishEnv)
			}
			t.Skipf("no Stockfish: set %s or install Debian's stockfish to play the trout bot with it", StockfishEnv)
		})
	}
	seeds := uint64(3)
	if testing.Short() {
		seeds = 1
	}
	for _, a := range specs {
		for _, b := range []string{"random", a} {
			for seed := uint64(1); seed <= seeds; seed++ {
				w, err := New(a, seed)
				if err != nil {
					t.Fatal(err)
				}
				bl, err := New(b, seed+100)
				if err != nil {
					t.Fatal(err)
				}
				play(t, recon.Config{MoveLimit: 100, TurnLimit: 60}, w, bl)
			}
		}
	}
}

// TestTroutTakesTheKing checks that trout takes the king whenever its board
// shows it attacked, and otherwise asks its engine.
func TestTroutTakesTheKing(t *testing.T) {
	tr, err := NewTrout(TroutConfig{Nodes: 200}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b := recon.NewBoard()
	tr.Start(game.White, b, "x")
	// The four-move attack's position, as trout would have it after
	// sensing: bishop on c4 facing f7, black king on e8.
	board, err := recon.ParseBoard("rnbqkbnr/pppp1Bpp/8/4p3/4P3/8/PPPP1PPP/RNBQK1NR w KQkq - 0 3")
	if err != nil {
		t.Fatal(err)
	}
	for s := game.A1; s <= game.H8; s++ {
		tr.board[s] = board.PieceAt(s)
	}
	pos := board.Position()
	m := tr.ChooseMove(context.Background(), recon.MoveActions(&pos), time.Minute)
	if recon.UCI(m) != "f7e8" {
		t.Errorf("trout played %s, want f7e8 taking the king", recon.UCI(m))
	}
}

// TestTroutSenses checks trout's sense choices: where it was captured
// first, never on its own pieces otherwise.
func TestTroutSenses(t *testing.T) {
	tr, err := NewTrout(TroutConfig{Nodes: 200}, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	b := recon.NewBoard()
	tr.Start(game.White, b, "x")
	squares := make([]game.Square, 64)
	for i := range squares {
		squares[i] = game.Square(i)
	}
	pos := b.Position()
	actions := recon.MoveActions(&pos)
	tr.OpponentMoveResult(game.F2)
	if s := tr.ChooseSense(context.Background(), squares, actions, time.Minute); s != game.F2 {
		t.Errorf("sensed %s after a capture on f2", recon.SquareName(s))
	}
	if tr.board[game.F2] != game.NoPiece {
		t.Errorf("the captured pawn is still on trout's board")
	}
	for i := 0; i < 30; i++ {
		tr.OpponentMoveResult(game.NoSquare)
		s := tr.ChooseSense(context.Background(), squares, actions, time.Minute)
		if pc := tr.board[s]; pc != game.NoPiece && pc.Color() == game.White {
			t.Fatalf("sensed its own piece on %s", s)
		}
	}
}

// TestTroutOddBoards checks that trout answers with a move action or a
// pass on boards standard chess does not allow: no opponent king, two of
// them, its own king without a move.
func TestTroutOddBoards(t *testing.T) {
	for _, fen := range []string{
		"8/8/8/8/8/8/8/R3K3 w - - 0 1",              // no black king
		"k6k/8/8/8/8/8/8/R3K3 w - - 0 1",            // two black kings
		"q3k3/8/8/8/8/8/1q6/K7 w - - 0 1",           // white king with no legal move
		"rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w - - 0 1", // a lone king
	} {
		tr, err := NewTrout(TroutConfig{Nodes: 300}, 1)
		if err != nil {
			t.Fatal(err)
		}
		board, err := recon.ParseBoard(fen)
		if err != nil {
			t.Fatal(err)
		}
		tr.Start(game.White, recon.NewBoard(), "x")
		for s := game.A1; s <= game.H8; s++ {
			tr.board[s] = board.PieceAt(s)
		}
		pos := board.Position()
		actions := recon.MoveActions(&pos)
		if m := tr.ChooseMove(context.Background(), actions, time.Minute); m != game.NoMove && !slices.Contains(actions, m) {
			t.Errorf("%s: trout chose %s, not a move action", fen, recon.UCI(m))
		}
		tr.Close()
	}
}

// TestNewSpecs checks bot specs: names, options and their errors.
func TestNewSpecs(t *testing.T) {
	for _, spec := range []string{"random", "attacker", "trout:engine=knightwatch", "trout:engine=knightwatch,movetime=50ms", "trout:engine=knightwatch,nodes=1000",
		"knightwatch", "knightwatch:level=1", "knightwatch:level=2,risk=0.5,caution=2,threat=8,score=3,boards=1000,sample=10,deep=2,depth=3,noise=0.1,turntime=1s,workers=1", "knightwatch:mate=30"} {
		p, err := New(spec, 1)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if c, ok := p.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	for spec, want := range map[string]string{
		"nobody":                                 "unknown bot",
		"random:x=1":                             "unknown option",
		"trout:movetime":                         "want key=value",
		"trout:engine=knightwatch,movetime=fast": "movetime",
		"trout:engine=knightwatch,nodes=-3":      "nodes",
		"trout:engine=gnuchess":                  "want knightwatch or stockfish",
		"knightwatch:mate=-1":                    "mate",
		"knightwatch:mate=many":                  "mate",
		"knightwatch:caution=101":                "caution",
	} {
		if _, err := New(spec, 1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one mentioning %q", spec, err, want)
		}
	}
	t.Setenv(StockfishEnv, "")
	if _, err := New("trout:engine=stockfish", 1); err == nil {
		t.Errorf("engine=stockfish without %s accepted", StockfishEnv)
	}
	t.Setenv(StockfishEnv, "/nonexistent/stockfish")
	if _, err := New("trout", 1); err == nil {
		t.Errorf("a missing Stockfish executable accepted")
	}
}

// TestLevelsWithinOptionBounds checks that every level's own settings can
// be given as options: a bound narrower than a level's value would refuse
// the spec that spells that level out (caution was capped at 10 while
// level 4 used 30).
func TestLevelsWithinOptionBounds(t *testing.T) {
	for i, cfg := range knightwatchLevels {
		spec := fmt.Sprintf("knightwatch:level=%d,boards=%d,sample=%d,deep=%d,depth=%d,risk=%g,caution=%g,mate=%g,threat=%g,noise=%g",
			i+1, cfg.MaxBoards, cfg.Sample, cfg.DeepBoards, cfg.Depth, cfg.Risk, cfg.Caution, cfg.MateCaution, cfg.Threat, cfg.Noise)
		p, err := New(spec, 1)
		if err != nil {
			t.Errorf("level %d spelled out: %v", i+1, err)
			continue
		}
		got := p.(*Knightwatch).cfg
		got.Workers = cfg.Workers // New fills in the machine's default
		if got != cfg {
			t.Errorf("level %d spelled out gives %+v, want %+v", i+1, got, cfg)
		}
	}
}

// stockfishPath returns the Stockfish to test with: STOCKFISH_EXECUTABLE,
// else Debian's, else "".
func stockfishPath() string {
	for _, p := range []string{os.Getenv(StockfishEnv), "/usr/games/stockfish"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			os.Setenv(StockfishEnv, p)
			return p
		}
	}
	return ""
}
