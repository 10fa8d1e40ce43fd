package chenserver

import (
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
)

// TestChenardOrderIsLegalSet walks random games and checks at every
// position that the ChenServer-ordered list holds exactly the legal moves,
// each once, and that the emulated generator needed no fallback.
func TestChenardOrderIsLegalSet(t *testing.T) {
	starts := []string{
		game.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", // perft "kiwipete"
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	positions := 0
	for _, fen := range starts {
		for game := 0; game < 30; game++ {
			p := mustFEN(t, fen)
			for ply := 0; ply < 80; ply++ {
				checkOrderedSet(t, p)
				positions++
				moves := p.LegalMoves()
				if len(moves) == 0 {
					break
				}
				p.MakeMove(moves[rng.IntN(len(moves))])
			}
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions checked", positions)
	}
}

func checkOrderedSet(t *testing.T, p *game.Position) {
	t.Helper()
	got := chenardOrder(p)
	legal := p.LegalMoves()
	if len(got) != len(legal) {
		t.Fatalf("%s: %d ordered moves, %d legal", p.FEN(), len(got), len(legal))
	}
	seen := map[game.Move]bool{}
	for _, m := range got {
		if seen[m] || !p.IsLegal(m) {
			t.Fatalf("%s: %s duplicated or illegal", p.FEN(), m)
		}
		seen[m] = true
	}
	// The pseudo-legal list must cover every legal move, otherwise the
	// order would come from the fallback rather than Chenard's procedure.
	pseudo := map[game.Move]bool{}
	for _, m := range chenardPseudo(p) {
		pseudo[m] = true
	}
	for _, m := range legal {
		if !pseudo[m] {
			t.Fatalf("%s: legal %s missing from the emulated generator", p.FEN(), m)
		}
	}
}

// TestChenardOrderDetails pins the order rules taken from Chenard's
// generator: back rank first, files a..h, pawn push before double push and
// captures (east before west), promotions Q R B N, king steps then O-O then
// O-O-O, and illegal moves replaced by the last one.
func TestChenardOrderDetails(t *testing.T) {
	tests := []struct {
		name, fen, moves, want string
	}{
		{"black from its back rank", game.StartFEN, "e2e4",
			"b8c6 b8a6 g8h6 g8f6 a7a6 a7a5 b7b6 b7b5 c7c6 c7c5 d7d6 d7d5 e7e6 e7e5 f7f6 f7f5 g7g6 g7g5 h7h6 h7h5"},
		{"promotions and captures", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "",
			"e1e2 e1f2 e1d2 e1f1 e1d1 a7a8q a7a8r a7a8b a7a8n a7b8q a7b8r a7b8b a7b8n"},
		{"castling after king steps", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "",
			"a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1a8 a1b1 a1c1 a1d1 e1e2 e1f2 e1d2 e1f1 e1d1 e1g1 e1c1 " +
				"h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 h1g1 h1f1"},
		// Reached by a move rather than a FEN: game.ParseFEN drops a
		// capturable en passant square (reported to the lead).
		{"en passant in the capture order", "4k3/3p1p2/8/4P3/8/8/8/4K3 b - - 0 1", "d7d5",
			"e1e2 e1f2 e1d2 e1f1 e1d1 e5e6 e5d6"},
		{"east capture before west en passant", "4k3/3p4/5n2/4P3/8/8/8/4K3 b - - 0 1", "d7d5",
			"e1e2 e1f2 e1d2 e1f1 e1d1 e5e6 e5f6 e5d6"},
		{"illegal moves swapped with the last", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "",
			"e1e2 e1d1 e1f1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustFEN(t, tt.fen)
			for _, u := range strings.Fields(tt.moves) {
				m, err := p.ParseUCI(u)
				if err != nil {
					t.Fatal(err)
				}
				p.MakeMove(m)
			}
			var got []string
			for _, m := range chenardOrder(p) {
				got = append(got, p.UCI(m))
			}
			if g := strings.Join(got, " "); g != tt.want {
				t.Fatalf("got  %s\nwant %s", g, tt.want)
			}
		})
	}
}
