package recon_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/recon/recontest"
)

// TestViewOfAgreesWithWhatWasTold plays random games and holds each
// player's View, at every moment of either side's turn (the window between
// a move and the end of its turn included), against the record of what that
// player had been told (recontest): its own pieces as it knows them, the
// capture told at its turn's start, and move actions that stay the same
// wherever the opponent's pieces stand.
func TestViewOfAgreesWithWhatWasTold(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 15
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		rng := rand.New(rand.NewPCG(seed, 41))
		cfg := recon.Config{MoveLimit: 100}
		g := recon.NewGame(cfg, "w", "b")
		g.Start()
		var views [][2]recon.View
		look := func() { views = append(views, [2]recon.View{g.ViewOf(game.White), g.ViewOf(game.Black)}) }
		look()
		for !g.IsOver() {
			s := game.NoSquare
			if rng.IntN(8) > 0 {
				s = game.Square(rng.IntN(64))
			}
			if _, err := g.Sense(s); err != nil {
				t.Fatal(err)
			}
			look()
			acts := g.ViewOf(g.Turn()).MoveActions
			m := game.NoMove
			if len(acts) > 0 && rng.IntN(10) > 0 {
				m = acts[rng.IntN(len(acts))]
			}
			if _, err := g.Move(m); err != nil {
				t.Fatal(err)
			}
			look()
			if g.IsOver() {
				break
			}
			if err := g.EndTurn(); err != nil {
				t.Fatal(err)
			}
			look()
		}
		points, err := recontest.Points(cfg, g.History())
		if err != nil {
			t.Fatal(err)
		}
		if len(points) != len(views) {
			t.Fatalf("seed %d: %d moments played, %d replayed", seed, len(views), len(points))
		}
		for i := range points {
			p := &points[i]
			for c := game.White; c <= game.Black; c++ {
				v, k := views[i][c], &p.Know[c]
				if p.Over() {
					// Everything is told at the end.
					if v.MoveActions != nil || v.Phase != recon.PhaseOver || v.ToAct {
						t.Fatalf("seed %d: over, but %s's view %+v", seed, c, v)
					}
					continue
				}
				if v.Pieces != k.Own {
					t.Fatalf("seed %d moment %d (%s to %s): %s's pieces %v, told %v", seed, i, p.Turn, p.Phase, c, v.Pieces, k.Own)
				}
				if v.OpponentCapture != k.OpponentCapture {
					t.Fatalf("seed %d moment %d (%s to %s): %s's opponent capture %s, told %s", seed, i, p.Turn, p.Phase, c,
						recon.SquareName(v.OpponentCapture), recon.SquareName(k.OpponentCapture))
				}
				want, err := recontest.MoveActions(p, c, rng)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, m := range v.MoveActions {
					got = append(got, recon.UCI(m))
				}
				slices.Sort(got)
				if !slices.Equal(slices.Compact(got), want) {
					t.Fatalf("seed %d moment %d (%s to %s): %s's move actions\n%v\nwant\n%v", seed, i, p.Turn, p.Phase, c, got, want)
				}
				if v.ToAct != (p.Turn == c) || (v.ToAct && v.Phase != p.Phase) {
					t.Fatalf("seed %d moment %d: %s's view to act %v in %s; the game is %s to %s", seed, i, c, v.ToAct, v.Phase, p.Turn, p.Phase)
				}
			}
		}
	}
}

// TestViewOfMidTurn: after White's exd5 and before White ends its turn,
// Black still has its pawn on d5 and has been told of no capture; once the
// turn ends it has lost the pawn and is told d5.
func TestViewOfMidTurn(t *testing.T) {
	g := recon.NewGame(recon.Config{}, "w", "b")
	g.Start()
	play := func(m string) {
		t.Helper()
		if _, err := g.Sense(game.NoSquare); err != nil {
			t.Fatal(err)
		}
		mv, err := recon.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Move(mv); err != nil {
			t.Fatal(err)
		}
	}
	play("e2e4")
	must(t, g.EndTurn())
	play("d7d5")
	must(t, g.EndTurn())
	play("e4d5")
	tests := []struct {
		name    string
		v       recon.View
		d5      game.Piece
		capture game.Square
		toAct   bool
		phase   recon.Phase
	}{
		{"black before white ends its turn", g.ViewOf(game.Black), game.BlackPawn, game.NoSquare, false, recon.PhaseSense},
		{"white before it ends its turn", g.ViewOf(game.White), game.WhitePawn, game.NoSquare, true, recon.PhaseEndTurn},
	}
	must(t, g.EndTurn())
	tests = append(tests, struct {
		name    string
		v       recon.View
		d5      game.Piece
		capture game.Square
		toAct   bool
		phase   recon.Phase
	}{"black at the start of its turn", g.ViewOf(game.Black), game.NoPiece, game.D5, true, recon.PhaseSense})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.v.Pieces[game.D5] != tc.d5 || tc.v.OpponentCapture != tc.capture || tc.v.ToAct != tc.toAct || tc.v.Phase != tc.phase {
				t.Errorf("d5 %v, capture %s, to act %v, phase %s; want %v, %s, %v, %s", tc.v.Pieces[game.D5], recon.SquareName(tc.v.OpponentCapture),
					tc.v.ToAct, tc.v.Phase, tc.d5, recon.SquareName(tc.capture), tc.toAct, tc.phase)
			}
		})
	}
	if !slices.Contains(tests[0].v.MoveActions, game.NewMove(game.D5, game.D4)) {
		t.Errorf("mid-turn, Black's move actions leave out its pawn on d5: %v", tests[0].v.MoveActions)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
