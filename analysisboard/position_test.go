package analysisboard

import (
	"fmt"
	"testing"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// TestDescribe: a path's position with its legal moves as the board
// offers them, the last move, check and mate, the opening; a bad path is
// an error.
func TestDescribe(t *testing.T) {
	cases := []struct {
		name     string
		path     Path
		legal    int
		san      string
		check    string
		over     string
		opening  string
		wantErrs bool
	}{
		{"start", Path{}, 20, "", "", "", "", false},
		{"Sicilian", Path{Moves: []string{"e4", "c7c5"}}, 30, "c5", "", "", "B20", false},
		{"fool's mate", Path{Moves: []string{"f3", "e5", "g4", "Qh4"}}, 0, "Qh4#", "e1", "checkmate", "", false},
		// Chess960: castling is offered as king takes rook and as the
		// king's own castled square (g1 and c1 here).
		{"Chess960 castling", Path{FEN: "4k3/8/8/8/8/8/8/1R2K2R w HB - 0 1", Chess960: true}, 0, "", "", "", "", false},
		{"illegal", Path{Moves: []string{"e5"}}, 0, "", "", "", "", true},
		{"null move", Path{Moves: []string{"0000"}}, 0, "", "", "", "", true},
		{"bad FEN", Path{FEN: "8/8 w - - 0 1"}, 0, "", "", "", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Describe(c.path, Tables{})
			if c.wantErrs {
				if err == nil {
					t.Fatalf("no error: %+v", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.legal > 0 && len(p.Legal) != c.legal {
				t.Errorf("%d legal moves, want %d", len(p.Legal), c.legal)
			}
			if p.SAN != c.san || p.Check != c.check || p.Over != c.over {
				t.Errorf("san %q check %q over %q", p.SAN, p.Check, p.Over)
			}
			if c.opening != "" && (p.Opening == nil || p.Opening.ECO != c.opening) {
				t.Errorf("opening %+v, want %s", p.Opening, c.opening)
			}
			if c.path.Chess960 {
				gestures := map[string]bool{}
				for _, l := range p.Legal {
					if l.UCI == "e1h1" || l.UCI == "e1b1" {
						gestures[l.From+l.To] = true
					}
				}
				for _, want := range []string{"e1h1", "e1g1", "e1b1", "e1c1"} {
					if !gestures[want] {
						t.Errorf("castling gesture %s missing: %v", want, gestures)
					}
				}
			}
		})
	}
}

// TestDescribeTablebase: a position the tables cover gets their verdict
// and each move's value, the best first; one they do not, none.
func TestDescribeTablebase(t *testing.T) {
	tb, err := syzygy.Open("../syzygy/testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	p, err := Describe(Path{FEN: "8/8/8/8/8/8/6k1/4K2R w - - 0 1"}, Tables{Syzygy: tb})
	if err != nil {
		t.Fatal(err)
	}
	v := p.Tablebase
	if v == nil || v.WDL != 2 || v.DTZ <= 0 || len(v.Moves) != len(p.Legal) {
		t.Fatalf("verdict %+v for %d legal moves", v, len(p.Legal))
	}
	if v.Moves[0].WDL != 2 {
		t.Errorf("best move %+v is not a win", v.Moves[0])
	}
	last := v.Moves[len(v.Moves)-1]
	for i := 1; i < len(v.Moves); i++ {
		a, b := v.Moves[i-1], v.Moves[i]
		if a.WDL < b.WDL || (a.WDL == b.WDL && a.DTZ > b.DTZ) {
			t.Errorf("moves out of order: %+v before %+v", a, b)
		}
	}
	// The king on g2 attacks the rook: a move that leaves it there (Kd1)
	// throws the win away, and comes after every win.
	if last.WDL != 0 {
		t.Errorf("no move draws: %+v", v.Moves)
	}
	if p2, err := Describe(Path{}, Tables{Syzygy: tb}); err != nil || p2.Tablebase != nil {
		t.Errorf("the start position: %+v %v", p2.Tablebase, err)
	}
}

// TestDescribeGaviota (issue 48): with Gaviota's tables the position
// carries their distance to mate in plies and in words, beside Syzygy's
// verdict or alone; a position they do not hold carries none.
func TestDescribeGaviota(t *testing.T) {
	gtb, err := gaviota.Open("/usr/share/gaviotatb/gtb4")
	if err != nil {
		t.Fatalf("Debian's gaviotatb (make test installs it): %v", err)
	}
	defer gtb.Close()
	syz, err := syzygy.Open("../syzygy/testdata")
	if err != nil {
		t.Fatal(err)
	}
	defer syz.Close()
	const krk = "8/8/8/8/8/8/6k1/4K2R w - - 0 1"
	pos, err := game.ParseFEN(krk)
	if err != nil {
		t.Fatal(err)
	}
	wdl, dtm, err := gtb.Probe(pos)
	if err != nil || wdl != 1 || dtm <= 0 {
		t.Fatalf("the tables on %s: wdl %d dtm %d %v", krk, wdl, dtm, err)
	}
	want := fmt.Sprintf("White mates in %d", (dtm+1)/2)
	for _, c := range []struct {
		name   string
		tables Tables
		syzygy bool
	}{
		{"both", Tables{Syzygy: syz, Gaviota: gtb}, true},
		{"gaviota alone", Tables{Gaviota: gtb}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Describe(Path{FEN: krk}, c.tables)
			if err != nil {
				t.Fatal(err)
			}
			if p.Mate == nil || p.Mate.DTM != dtm || p.Mate.WDL != 1 || p.Mate.Words != want {
				t.Errorf("mate %+v, want dtm %d and %q", p.Mate, dtm, want)
			}
			if (p.Tablebase != nil) != c.syzygy {
				t.Errorf("Syzygy verdict %+v with Syzygy tables %v", p.Tablebase, c.syzygy)
			}
			start, err := Describe(Path{}, c.tables)
			if err != nil || start.Mate != nil {
				t.Errorf("the start position: %+v %v", start.Mate, err)
			}
		})
	}
}
