package engine

import "testing"

// ProbCut must cut on a capture that clears the raised bound, and must
// neither try a capture whose exchange loses nor invent a cut without one.
func TestProbCut(t *testing.T) {
	cases := []struct {
		name, fen string
		want      string // the cutting capture, "" for no cut
	}{
		{"a pawn takes a loose queen", "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", "e4d5"},
		{"the only capture loses the queen to a pawn", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", ""},
		{"no capture at all", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", ""},
	}
	for _, c := range cases {
		th := newQuietThread()
		p := mustFEN(t, c.fen)
		th.keys = []uint64{p.Hash()}
		eval := th.evaluate(p, 0)
		probBeta := eval + 200
		s, m, ok := th.probCut(p, probBeta, eval, 6, 1, true)
		got := ""
		if ok {
			got = p.UCI(m)
			if s < probBeta {
				t.Errorf("%s: cut with %d below the bound %d", c.name, s, probBeta)
			}
		}
		if got != c.want {
			t.Errorf("%s: cut %q (score %d), want %q", c.name, got, s, c.want)
		}
		if c.want == "" && th.nodes != 0 {
			t.Errorf("%s: searched %d nodes; no capture passes the exchange filter", c.name, th.nodes)
		}
		if p.Hash() != th.keys[0] || len(th.keys) != 1 {
			t.Errorf("%s: position or key stack not restored", c.name)
		}
	}
}
