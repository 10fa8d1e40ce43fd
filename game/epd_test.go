package game

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseEPD(t *testing.T) {
	kiwi := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -"
	tests := []struct {
		name, epd string
		fen       string // the position read
		ops       []EPDOp
		out       string // EPDWithOps(ops); "" when the same as epd
	}{
		{"bare", "4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", nil, ""},
		{"bare with counters", "4k3/8/8/8/8/8/8/4K3 b - - 13 17", "4k3/8/8/8/8/8/8/4K3 b - - 13 17", nil, "4k3/8/8/8/8/8/8/4K3 b - -"},
		// python-chess's documentation example.
		{"fmvn and hmvc", "4k3/8/8/8/8/8/8/4K3 b - - fmvn 17; hmvc 13", "4k3/8/8/8/8/8/8/4K3 b - - 13 17",
			[]EPDOp{{Opcode: "fmvn", Kind: EPDInt, Int: 17}, {Opcode: "hmvc", Kind: EPDInt, Int: 13}}, "4k3/8/8/8/8/8/8/4K3 b - - fmvn 17; hmvc 13;"},
		{"Bratko-Kopec 1", `1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";`, "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
			[]EPDOp{{Opcode: "bm", Kind: EPDMoves, Moves: []Move{NewMove(D6, D1)}}, {Opcode: "id", Kind: EPDString, Str: "BK.01"}}, ""},
		{"several best moves sorted", kiwi + " bm dxe6 Qxf6 O-O a3; am Nxf7;", kiwi + " 0 1",
			[]EPDOp{{Opcode: "bm", Kind: EPDMoves, Moves: []Move{NewMove(D5, E6), NewMove(F3, F6), NewCastling(E1, H1), NewMove(A2, A3)}}, {Opcode: "am", Kind: EPDMoves, Moves: []Move{NewMove(E5, F7)}}},
			kiwi + " bm O-O Qxf6 a3 dxe6; am Nxf7;"},
		{"UCI and castling with zeros", kiwi + " bm e1g1 0-0-0 g2g3", kiwi + " 0 1",
			[]EPDOp{{Opcode: "bm", Kind: EPDMoves, Moves: []Move{NewCastling(E1, H1), NewCastling(E1, A1), NewMove(G2, G3)}}},
			kiwi + " bm O-O O-O-O g3;"},
		{"pv is a variation", StartFEN[:len(StartFEN)-4] + " pv e4 e5 Nf3; ce 0.25; acd 12; c0 \"a \\\"quoted\\\" \\\\ word\\n\";", StartFEN,
			[]EPDOp{{Opcode: "pv", Kind: EPDMoves, Moves: []Move{NewMove(E2, E4), NewMove(E7, E5), NewMove(G1, F3)}}, {Opcode: "ce", Kind: EPDFloat, Float: 0.25}, {Opcode: "acd", Kind: EPDInt, Int: 12}, {Opcode: "c0", Kind: EPDString, Str: "a \"quoted\" \\ word\n"}}, ""},
		{"strings keep spaces and semicolons", StartFEN[:len(StartFEN)-4] + ` c0 "a;  b"; c9 "";`, StartFEN,
			[]EPDOp{{Opcode: "c0", Kind: EPDString, Str: "a;  b"}, {Opcode: "c9", Kind: EPDString, Str: ""}}, ""},
		{"no operand, no final semicolon, dash ignored", StartFEN[:len(StartFEN)-4] + " noop; - ; draw_accept", StartFEN,
			[]EPDOp{{Opcode: "noop"}, {Opcode: "draw_accept"}}, StartFEN[:len(StartFEN)-4] + " noop; draw_accept;"},
		{"empty move set", StartFEN[:len(StartFEN)-4] + " bm;", StartFEN, []EPDOp{{Opcode: "bm", Kind: EPDMoves}}, ""},
		{"numbers", StartFEN[:len(StartFEN)-4] + " a 3.0; b -5; c 1e20; d .5; e +7;", StartFEN,
			[]EPDOp{{Opcode: "a", Kind: EPDFloat, Float: 3}, {Opcode: "b", Kind: EPDInt, Int: -5}, {Opcode: "c", Kind: EPDFloat, Float: 1e20}, {Opcode: "d", Kind: EPDFloat, Float: 0.5}, {Opcode: "e", Kind: EPDInt, Int: 7}},
			StartFEN[:len(StartFEN)-4] + " a 3.0; b -5; c 1e+20; d 0.5; e 7;"},
		{"repeated opcode keeps its place", StartFEN[:len(StartFEN)-4] + ` id "a"; acd 1; id "b";`, StartFEN,
			[]EPDOp{{Opcode: "id", Kind: EPDString, Str: "b"}, {Opcode: "acd", Kind: EPDInt, Int: 1}}, StartFEN[:len(StartFEN)-4] + ` id "b"; acd 1;`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ops, err := ParseEPD(tt.epd)
			if err != nil {
				t.Fatal(err)
			}
			if p.FEN() != tt.fen {
				t.Errorf("position %q, want %q", p.FEN(), tt.fen)
			}
			if len(ops) != len(tt.ops) || len(ops) > 0 && !reflect.DeepEqual(ops, tt.ops) {
				t.Errorf("ops\n%+v\nwant\n%+v", ops, tt.ops)
			}
			out, err := p.EPDWithOps(ops)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.out
			if want == "" {
				want = tt.epd
			}
			if out != want {
				t.Errorf("written %q, want %q", out, want)
			}
			// Round trip: what is written reads back the same.
			q, ops2, err := ParseEPD(out)
			if err != nil {
				t.Fatalf("%q does not read back: %v", out, err)
			}
			if q.EPD() != p.EPD() || len(ops2) != len(ops) || len(ops) > 0 && !reflect.DeepEqual(sortedMoves(ops2), sortedMoves(ops)) {
				t.Errorf("%q read back as %q %+v", out, q.EPD(), ops2)
			}
		})
	}
}

// sortedMoves returns ops with the moves of sets in a fixed order.
func sortedMoves(ops []EPDOp) []EPDOp {
	out := append([]EPDOp(nil), ops...)
	for i := range out {
		if out[i].Opcode != "pv" && len(out[i].Moves) > 1 {
			ms := append([]Move(nil), out[i].Moves...)
			for a := 1; a < len(ms); a++ {
				for b := a; b > 0 && ms[b] < ms[b-1]; b-- {
					ms[b], ms[b-1] = ms[b-1], ms[b]
				}
			}
			out[i].Moves = ms
		}
	}
	return out
}

func TestParseEPDErrors(t *testing.T) {
	start := StartFEN[:len(StartFEN)-4]
	tests := []struct{ name, epd, msg string }{
		{"too few fields", "4k3/8/8/8/8/8/8/4K3 w -", "4 position fields"},
		{"bad board", "4k3/8/8/8/8/8/8/4K2 w - - id \"x\";", "piece placement"},
		{"unclosed string", start + ` id "x;`, "never closed"},
		{"bad number", start + " acd 1x2;", "not an integer"},
		{"bad float", start + " ce 1.2.3;", "not a finite number"},
		{"infinite float", start + " ce 1e999;", "not a finite number"},
		{"illegal best move", start + " bm e5;", "illegal"},
		{"not a move", start + " bm Zz9;", "invalid move"},
		{"illegal move in pv", start + " pv e4 e4;", "illegal"},
		{"unquoted string", start + " id hello world;", "one move expected"},
		{"bad opcode", start + ` 1abc "x";`, "opcode"},
		{"hmvc not an integer", start + " hmvc 1.5;", "hmvc"},
		{"negative hmvc", start + " hmvc -1;", "hmvc"},
		{"zero fmvn", start + " fmvn 0;", "fmvn"},
		{"hmvc a string", start + ` hmvc "3";`, "hmvc"},
		{"Chess960 castling blocked", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - bm O-O;", "illegal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ops, err := ParseEPD(tt.epd)
			var ee *EPDError
			if !errors.As(err, &ee) || p != nil || ops != nil {
				t.Fatalf("ParseEPD(%q) = %v, %v, %v; want an *EPDError", tt.epd, p, ops, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

func TestEPDWithOpsErrors(t *testing.T) {
	p := NewPosition()
	for _, ops := range [][]EPDOp{
		{{Opcode: "bad op", Kind: EPDNone}},
		{{Opcode: "", Kind: EPDNone}},
		{{Opcode: "bm", Kind: EPDMoves, Moves: []Move{NewMove(E2, E5)}}},
		{{Opcode: "pv", Kind: EPDMoves, Moves: []Move{NewMove(E2, E4), NewMove(E2, E4)}}},
		{{Opcode: "ce", Kind: EPDFloat, Float: posInf()}},
		{{Opcode: "x", Kind: EPDKind(99)}},
	} {
		if s, err := p.EPDWithOps(ops); err == nil {
			t.Errorf("%+v written as %q", ops, s)
		}
	}
	if s, err := p.EPDWithOps(nil); err != nil || s != p.EPD() {
		t.Errorf("no ops: %q, %v", s, err)
	}
}

func posInf() float64 {
	f := 1e308
	return f * 10
}

func FuzzParseEPD(f *testing.F) {
	for _, s := range []string{`1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id "BK.01";`, StartFEN[:len(StartFEN)-4] + ` pv e4 e5; c0 "a\\"b"; ce -1.5e-7; acd 3; noop`, "4k3/8/8/8/8/8/8/4K3 b - - fmvn 17; hmvc 13"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ops, err := ParseEPD(s)
		if err != nil {
			return
		}
		out, err := p.EPDWithOps(ops)
		if err != nil {
			t.Fatalf("%q read as %+v does not write: %v", s, ops, err)
		}
		q, ops2, err := ParseEPD(out)
		if err != nil {
			t.Fatalf("%q written as %q does not read back: %v", s, out, err)
		}
		if q.EPD() != p.EPD() || len(ops) != len(ops2) || len(ops) > 0 && !reflect.DeepEqual(sortedMoves(ops), sortedMoves(ops2)) {
			t.Fatalf("%q -> %q -> %q %+v", s, out, q.EPD(), ops2)
		}
	})
}
