package recon_test

import (
	"math/rand/v2"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/recon/recontest"
)

// randomHistory plays a random game under cfg (a skipped sense now and
// then, a pass now and then, requests drawn from the mover's move actions,
// which may fail on the true board) and returns its record. One game in
// four is cut short by a resignation or a clock before its natural end.
func randomHistory(t *testing.T, rng *rand.Rand, cfg recon.Config) *recon.History {
	t.Helper()
	g := recon.NewGame(cfg, "w", "b")
	g.Start()
	stopAt := -1
	if rng.IntN(4) == 0 {
		stopAt = rng.IntN(60)
	}
	for turn := 0; !g.IsOver(); turn++ {
		if turn == stopAt {
			h := *g.History()
			h.Outcome = recon.Win(game.Color(rng.IntN(2)), []recon.WinReason{recon.Timeout, recon.Resign}[rng.IntN(2)])
			return &h
		}
		s := game.NoSquare
		if rng.IntN(8) > 0 {
			s = game.Square(rng.IntN(64))
		}
		if _, err := g.Sense(s); err != nil {
			t.Fatal(err)
		}
		acts := g.ViewOf(g.Turn()).MoveActions
		m := game.NoMove
		if len(acts) > 0 && rng.IntN(10) > 0 {
			m = acts[rng.IntN(len(acts))]
		}
		if _, err := g.Move(m); err != nil {
			t.Fatal(err)
		}
		if !g.IsOver() {
			if err := g.EndTurn(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return g.History()
}

// senseWindow returns the 3x3 squares around s.
func senseWindow(s game.Square) []game.Square {
	var out []game.Square
	for df := -1; df <= 1; df++ {
		for dr := -1; dr <= 1; dr++ {
			f, r := s.File()+df, s.Rank()+dr
			if f >= 0 && f < 8 && r >= 0 && r < 8 {
				out = append(out, game.NewSquare(f, r))
			}
		}
	}
	return out
}

// TestSideStepsShowOnlyWhatWasTold is the property behind a replay's
// "White's view" and "Black's view": over random histories, at every step
// before the final one, a side's step holds exactly its own pieces as it
// knew them (recontest's record of what each player was told, written
// apart from the arbiter), marks only squares it had been told of, and
// carries senses, requests and captures only on its own steps. The first
// moment of each step is taken: a move's capture is told to the opponent
// when its turn begins, on its next step.
func TestSideStepsShowOnlyWhatWasTold(t *testing.T) {
	games := 80
	if testing.Short() {
		games = 20
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		rng := rand.New(rand.NewPCG(seed, 46))
		cfg := recon.Config{MoveLimit: 100, TurnLimit: 30 + rng.IntN(40)}
		h := randomHistory(t, rng, cfg)
		points, err := recontest.Points(cfg, h)
		if err != nil {
			t.Fatal(err)
		}
		// stepColor[i] is the side whose action step i is (the start: -1).
		stepColor := []int{-1}
		for _, tn := range h.Turns() {
			stepColor = append(stepColor, int(tn.Color))
			if h.HasMove(tn) {
				stepColor = append(stepColor, int(tn.Color))
			}
		}
		for c := game.White; c <= game.Black; c++ {
			steps, err := recon.SideSteps(h, c)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if len(steps) != len(stepColor) {
				t.Fatalf("seed %d: %d steps for %d actions", seed, len(steps), len(stepColor)-1)
			}
			for i, s := range steps {
				if s.Final != (h.Outcome.Over() && i == len(steps)-1) {
					t.Fatalf("seed %d step %d of %d: Final %v, outcome %s", seed, i, len(steps), s.Final, h.Outcome)
				}
				if s.Final {
					continue // everything is told at the end
				}
				p := firstAtSeq(points, i)
				if p == nil {
					t.Fatalf("seed %d: no moment after %d actions", seed, i)
				}
				k := &p.Know[c]
				if s.Pieces != k.Own {
					t.Fatalf("seed %d step %d: %s's pieces %v, told %v", seed, i, c, s.Pieces, k.Own)
				}
				told := func(what string, sq game.Square) {
					if sq != game.NoSquare && !k.Told[sq] {
						t.Fatalf("seed %d step %d: %s's view shows %s on %s, never told", seed, i, c, what, sq)
					}
				}
				for sq, pc := range s.Seen {
					if pc != game.NoPiece {
						told("a sensed piece", game.Square(sq))
						if pc.Color() == c {
							t.Fatalf("seed %d step %d: %s's own piece %v shown as sensed on %s", seed, i, c, pc, game.Square(sq))
						}
					}
				}
				own := stepColor[i] == int(c)
				if !own && (s.Sense != game.NoSquare || s.Moved || s.Capture != game.NoSquare || s.OpponentCapture != game.NoSquare) {
					t.Fatalf("seed %d step %d (not %s's action): %s's view marks %+v", seed, i, c, c, s)
				}
				if s.Sense != game.NoSquare {
					for _, sq := range senseWindow(s.Sense) {
						told("its sense window", sq)
					}
				}
				for _, m := range []game.Move{s.Requested, s.Taken} {
					if m != game.NoMove {
						told("its move", m.From())
						told("its move", m.To())
					}
				}
				told("its capture", s.Capture)
				if s.OpponentCapture != game.NoSquare && s.OpponentCapture != k.OpponentCapture {
					t.Fatalf("seed %d step %d: %s's view marks the opponent's capture on %s, told %s", seed, i, c, s.OpponentCapture, k.OpponentCapture)
				}
			}
		}
	}
}

// firstAtSeq returns the first moment after seq actions.
func firstAtSeq(points []recontest.Point, seq int) *recontest.Point {
	for i := range points {
		if points[i].Seq == seq {
			return &points[i]
		}
	}
	return nil
}
