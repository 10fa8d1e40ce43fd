package play

import "testing"

// TestDecideDraw: the engine's answer to a draw offer (issue 34, item 3).
func TestDecideDraw(t *testing.T) {
	late := func(level, cp int) drawInput {
		return drawInput{MoveNumber: 40, Level: level, Levels: 8, HaveEval: true, CP: cp}
	}
	tests := []struct {
		name string
		in   drawInput
		want bool
	}{
		{"move 2, equal", drawInput{MoveNumber: 2, Level: 8, Levels: 8, HaveEval: true}, false},
		{"move 2, lost", drawInput{MoveNumber: 2, Level: 8, Levels: 8, HaveEval: true, CP: -900}, false},
		{"move 2, weakest level, lost", drawInput{MoveNumber: 2, Level: 1, Levels: 8, HaveEval: true, CP: -900}, false},
		{"move 29, lost", drawInput{MoveNumber: 29, Level: 8, Levels: 8, HaveEval: true, CP: -900}, false},
		{"move 2, no mating material", drawInput{MoveNumber: 2, Level: 8, Levels: 8, CannotWin: true}, true},
		{"move 40, no mating material, no eval", drawInput{MoveNumber: 40, Level: 8, Levels: 8, CannotWin: true}, true},
		{"move 30, worse by a lot", late(8, -300), true},
		{"move 40, worse by a lot", late(8, -200), true},
		{"move 40, level 8, -150 is not enough", late(8, -150), false},
		{"move 40, level 8, a little worse", late(8, -100), false},
		{"move 40, level 1, a little worse", late(1, -100), true},
		{"move 40, level 1, -50 is not enough", late(1, -50), false},
		{"move 40, level 4, -60", late(4, -60), false},
		{"move 40, level 4, -120", late(4, -120), true},
		{"move 40, equal", late(8, 0), false},
		{"move 40, level 1, equal", late(1, 0), false},
		{"move 40, better", late(1, 300), false},
		{"move 40, no evaluation", drawInput{MoveNumber: 40, Level: 1, Levels: 8}, false},
		{"being mated", drawInput{MoveNumber: 40, Level: 8, Levels: 8, HaveEval: true, Mate: -3}, true},
		{"mating", drawInput{MoveNumber: 40, Level: 1, Levels: 8, HaveEval: true, Mate: 3, CP: -500}, false},
		{"dead endgame, long quiet", drawInput{MoveNumber: 60, Level: 8, Levels: 8, HaveEval: true, CP: 5, Simplified: true, QuietStretch: 10}, true},
		{"dead endgame, short quiet at level 8", drawInput{MoveNumber: 60, Level: 8, Levels: 8, HaveEval: true, CP: 5, Simplified: true, QuietStretch: 6}, false},
		{"dead endgame, short quiet at level 1", drawInput{MoveNumber: 60, Level: 1, Levels: 8, HaveEval: true, CP: 5, Simplified: true, QuietStretch: 6}, true},
		{"quiet but not simplified", drawInput{MoveNumber: 60, Level: 1, Levels: 8, HaveEval: true, Simplified: false, QuietStretch: 30}, false},
		{"simplified, quiet, but not near zero now", drawInput{MoveNumber: 60, Level: 8, Levels: 8, HaveEval: true, CP: 60, Simplified: true, QuietStretch: 12}, false},
		{"simplified and quiet in the opening", drawInput{MoveNumber: 12, Level: 1, Levels: 8, HaveEval: true, Simplified: true, QuietStretch: 12}, false},
	}
	for _, tc := range tests {
		if got := decideDraw(tc.in); got.Accept != tc.want || got.Why == "" {
			t.Errorf("%s: %+v → %+v, want accept=%v", tc.name, tc.in, got, tc.want)
		}
	}
}
