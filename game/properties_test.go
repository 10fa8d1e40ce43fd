package game

import (
	"math/rand/v2"
	"testing"
)

// playoutStarts are the positions random playouts begin from: the perft
// suite's tricky ones (castling, promotions, en passant, pins) and Chess960
// starts where king and rooks stand off their usual files.
var playoutStarts = []string{
	StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
	"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
	"4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1",
}

// checkPosition asserts the invariants every reachable position must keep.
func checkPosition(t *testing.T, p *Position, where string) {
	t.Helper()
	if h := p.computeHash(); h != p.Hash() {
		t.Fatalf("%s: incremental key %016x, from scratch %016x (%s)", where, p.Hash(), h, p.FEN())
	}
	fen := p.FEN()
	q, err := ParseFEN(fen)
	if err != nil {
		t.Fatalf("%s: FEN %q does not parse: %v", where, fen, err)
	}
	if q.Chess960() != p.Chess960() {
		// Chess960 mode is a notation choice the FEN of a position whose
		// rights look standard cannot carry; carry it over to compare.
		q.SetChess960(p.Chess960())
	}
	if q.FEN() != fen || q.Hash() != p.Hash() {
		t.Fatalf("%s: FEN round trip %q -> %q, key %016x -> %016x", where, fen, q.FEN(), p.Hash(), q.Hash())
	}

	var legal, pseudo, caps, quiets MoveList
	p.GenerateLegal(&legal)
	p.GeneratePseudoLegal(&pseudo)
	p.GenerateCaptures(&caps)
	p.GenerateQuiets(&quiets)
	if caps.N+quiets.N != legal.N {
		t.Fatalf("%s: %d captures + %d quiets != %d legal moves (%s)", where, caps.N, quiets.N, legal.N, fen)
	}
	for _, m := range caps.Slice() {
		if !legal.Contains(m) || !(p.IsCapture(m) || m.IsPromotion()) {
			t.Fatalf("%s: capture generator gave %v (%s)", where, m, fen)
		}
	}
	for _, m := range quiets.Slice() {
		if !legal.Contains(m) || p.IsCapture(m) || m.IsPromotion() {
			t.Fatalf("%s: quiet generator gave %v (%s)", where, m, fen)
		}
	}
	us := p.Side()
	for _, m := range legal.Slice() {
		if !pseudo.Contains(m) {
			t.Fatalf("%s: legal %v missing from the pseudo-legal moves (%s)", where, m, fen)
		}
	}
	for _, m := range pseudo.Slice() {
		if m.IsCastling() {
			continue // pseudo-legal castling ignores attacked squares on purpose
		}
		save := *p
		p.MakeMove(m)
		exposed := p.IsAttacked(p.KingSquare(us), us.Other())
		*p = save
		if !exposed != legal.Contains(m) {
			t.Fatalf("%s: pseudo-legal %v leaves king attacked=%v but legal=%v (%s)", where, m, exposed, legal.Contains(m), fen)
		}
	}

	for _, m := range legal.Slice() {
		save := *p
		san := p.SAN(m)
		if got, err := p.ParseSAN(san); err != nil || got != m {
			t.Fatalf("%s: ParseSAN(SAN(%v) = %q) = %v, %v (%s)", where, m, san, got, err, fen)
		}
		uci := p.UCI(m)
		if got, err := p.ParseUCI(uci); err != nil || got != m {
			t.Fatalf("%s: ParseUCI(UCI(%v) = %q) = %v, %v (%s)", where, m, uci, got, err, fen)
		}
		if !p.IsLegal(m) {
			t.Fatalf("%s: IsLegal(%v) false (%s)", where, m, fen)
		}
		gives := p.GivesCheck(m)
		p.MakeMove(m)
		if p.computeHash() != p.Hash() {
			t.Fatalf("%s: after %v incremental key is wrong (%s)", where, m, fen)
		}
		if gives != p.InCheck() {
			t.Fatalf("%s: GivesCheck(%v) = %v, but InCheck after = %v", where, m, gives, p.InCheck())
		}
		if last := san[len(san)-1]; (last == '+' || last == '#') != p.InCheck() {
			t.Fatalf("%s: SAN %q disagrees with check after the move", where, san)
		}
		*p = save
		if *p != save {
			t.Fatalf("%s: copy-make did not restore the position", where)
		}
	}
}

// TestRandomPlayouts plays random games from fixed seeds and checks every
// position on the way: incremental key, copy-make, FEN/SAN/UCI round trips,
// the capture/quiet split and the pseudo-legal generator against the legal one.
func TestRandomPlayouts(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 3
	}
	for i, fen := range playoutStarts {
		for seed := 0; seed < games; seed++ {
			rng := rand.New(rand.NewPCG(uint64(i), uint64(seed)))
			p, err := ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; ply < 120; ply++ {
				checkPosition(t, p, fen)
				var ml MoveList
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				p.MakeMove(ml.Moves[rng.IntN(ml.N)])
			}
		}
	}
}

func TestNullMoveRestores(t *testing.T) {
	for _, fen := range playoutStarts {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		save := *p
		p.MakeNullMove()
		if p.Side() == save.Side() || p.computeHash() != p.Hash() || p.EnPassant() != NoSquare {
			t.Errorf("%s: null move gave side %v, key ok %v", fen, p.Side(), p.computeHash() == p.Hash())
		}
		p.MakeNullMove()
		if p.BoardFEN() != save.BoardFEN() || p.Side() != save.Side() {
			t.Errorf("%s: two null moves changed the board", fen)
		}
		if got, err := save.ParseUCI("0000"); err != nil || got != NullMove {
			t.Errorf("ParseUCI(0000) = %v, %v", got, err)
		}
		if got, err := save.ParseSAN("--"); err != nil || got != NullMove || save.SAN(NullMove) != "--" {
			t.Errorf("ParseSAN(--) = %v, %v", got, err)
		}
	}
}
