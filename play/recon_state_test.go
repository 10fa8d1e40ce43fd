package play

import (
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
)

// TestReconStateKingCapture holds the end state's capturing move, which the
// end screen shows, against games that end by a king's capture or not.
func TestReconStateKingCapture(t *testing.T) {
	tests := []struct {
		name     string
		moves    []string
		uci, san string
	}{
		{name: "queen takes king", moves: []string{"e2e3", "f7f6", "d1h5", "-", "h5e8"}, uci: "h5e8", san: "Qxe8"},
		{name: "still playing", moves: []string{"e2e3", "f7f6"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := recon.NewGame(recon.Config{}, "w", "b")
			g.Start()
			for _, s := range tt.moves {
				m := game.NoMove
				if s != "-" {
					var err error
					if m, err = recon.ParseMove(s); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := g.Sense(game.NoSquare); err != nil {
					t.Fatal(err)
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
			for _, c := range []game.Color{game.White, game.Black} {
				st := BuildReconState(g, ReconSeat{Human: c})
				if st.KingCapture != tt.uci || st.KingCaptureSAN != tt.san {
					t.Errorf("%s: kingCapture %q %q, want %q %q", c, st.KingCapture, st.KingCaptureSAN, tt.uci, tt.san)
				}
			}
		})
	}
}
