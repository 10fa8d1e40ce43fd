package analysisboard

import "testing"

// TestImportSeveralGames: a PGN of several games is its first game, and
// the study says how many there were, so the page can say so; one game
// or a FEN says nothing.
func TestImportSeveralGames(t *testing.T) {
	for _, c := range []struct {
		name, text string
		games      int
		first      string
	}{
		{"three", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n", 3, "e4"},
		{"one", "[Event \"a\"]\n\n1. d4 d5 *\n", 0, "d4"},
		{"fen", "8/8/8/8/8/5k2/8/4K2R w K - 0 1", 0, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Import(c.text)
			if err != nil {
				t.Fatal(err)
			}
			first := ""
			if len(s.Moves) > 0 {
				first = s.Moves[0].SAN
			}
			if s.Games != c.games || first != c.first {
				t.Errorf("games %d, first move %q; want %d, %q", s.Games, first, c.games, c.first)
			}
		})
	}
}
