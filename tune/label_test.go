package tune

import (
	"context"
	"math"
	"testing"

	"knightwatch/match"
)

func TestFitLabelScaleRecoversTheScale(t *testing.T) {
	for _, want := range []float64{60, 150, 400} {
		var data []TrainingPosition
		var scores []EngineScore
		for cp := -600; cp <= 600; cp += 25 {
			data = append(data, TrainingPosition{Result: Sigmoid(float64(cp), want)})
			scores = append(scores, EngineScore{CP: cp, OK: true})
		}
		// A mate score says nothing about the scale; a wild label on it
		// must not pull the fit.
		data = append(data, TrainingPosition{Result: 0})
		scores = append(scores, EngineScore{CP: 5000, OK: false})
		if got := FitLabelScale(data, scores); math.Abs(got-want) > 1 {
			t.Errorf("FitLabelScale for labels made with %v = %v", want, got)
		}
	}
}

func TestBlendLabels(t *testing.T) {
	data := []TrainingPosition{{FEN: "a", Result: 1}, {FEN: "b", Result: 0}, {FEN: "c", Result: 0.5}, {FEN: "d", Result: 1}}
	scores := []EngineScore{{CP: 0, OK: true}, {CP: 100, OK: true}, {CP: -100, OK: true}, {CP: 0, OK: false}}
	s := 1 / (1 + math.Exp(-1.0)) // sigmoid(100/100)
	tests := []struct {
		lambda float64
		want   []float64
	}{
		{1, []float64{1, 0, 0.5}},
		{0, []float64{0.5, s, 1 - s}},
		{0.25, []float64{0.25 + 0.75*0.5, 0.75 * s, 0.125 + 0.75*(1-s)}},
	}
	for _, tc := range tests {
		got := BlendLabels(data, scores, 100, tc.lambda)
		if len(got) != 3 {
			t.Fatalf("lambda %v: %d positions, want 3 (the mate score left out)", tc.lambda, len(got))
		}
		for i, p := range got {
			if p.FEN != data[i].FEN || math.Abs(p.Result-tc.want[i]) > 1e-12 {
				t.Errorf("lambda %v: position %d = %+v, want %s;%v", tc.lambda, i, p, data[i].FEN, tc.want[i])
			}
		}
	}
}

// ScorePositions refuses bad options and reports an engine that cannot
// start; the command's test (cli/tune_label_test.go) scores through a fake
// engine.
func TestScorePositionsErrors(t *testing.T) {
	data := []TrainingPosition{{FEN: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", Result: 1}}
	cases := []struct {
		name string
		spec match.EngineSpec
		o    LabelOptions
	}{
		{"no nodes", match.EngineSpec{Command: []string{"true"}}, LabelOptions{Concurrency: 1}},
		{"no engines", match.EngineSpec{Command: []string{"true"}}, LabelOptions{Nodes: 1}},
		{"missing engine", match.EngineSpec{Command: []string{"/nonexistent/engine"}}, LabelOptions{Nodes: 1, Concurrency: 1}},
	}
	for _, c := range cases {
		if _, err := ScorePositions(context.Background(), c.spec, data, c.o, nil); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
