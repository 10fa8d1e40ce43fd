package play

import (
	"testing"

	"knightwatch/game"
	"knightwatch/store"
)

func TestExperienceText(t *testing.T) {
	black, _ := game.ParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3")
	start := game.NewPosition()
	cases := []struct {
		pos   *game.Position
		notes []store.ExperienceNote
		want  string
	}{
		{black, []store.ExperienceNote{{Move: "g8f6", Avoided: true, Losses: 2}}, "Chosen from experience: 3...Nf6 lost 2 of 2 earlier games here"},
		{black, []store.ExperienceNote{{Move: "g8f6", Avoided: true, Losses: 1}}, "Chosen from experience: 3...Nf6 lost 1 of 1 earlier game here"},
		{start, []store.ExperienceNote{{Move: "e2e4", Wins: 2, Draws: 1}}, "Chosen from experience: 1.e4 won 2 of 3 earlier games here"},
		{black, []store.ExperienceNote{{Move: "g8f6", Avoided: true, AnalysisCP: -300, AnalysisDepth: 14}}, "Chosen from experience: 3...Nf6 was a mistake in the analysis of an earlier game"},
		{black, []store.ExperienceNote{{Move: "g8f6", Avoided: true, Losses: 1, Draws: 1}, {Move: "d7d6", Avoided: true, Losses: 1}},
			"Chosen from experience: 3...Nf6 lost 1 of 2 earlier games here; 3...d6 lost 1 of 1 earlier game here"},
		{black, []store.ExperienceNote{{Move: "e2e4", Avoided: true, Losses: 1}}, ""}, // not a move here
		{black, nil, ""},
	}
	for _, c := range cases {
		if got := experienceText(c.pos, c.notes); got != c.want {
			t.Errorf("%+v: got %q, want %q", c.notes, got, c.want)
		}
	}
}
