package web

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"knightwatch/game"
)

// chess960BackRank returns White's back rank (files a..h, upper-case
// letters) of Chess960 start position n (0..959) in the standard
// Scharnagl numbering, where 518 is the ordinary RNBQKBNR.
func chess960BackRank(n int) (string, error) {
	if n < 0 || n > 959 {
		return "", fmt.Errorf("chess960 position %d out of range 0..959", n)
	}
	var rank [8]byte
	// Bishops: the light-squared one on b, d, f or h, the dark one on a, c, e or g.
	rank[2*(n%4)+1] = 'B'
	n /= 4
	rank[2*(n%4)] = 'B'
	n /= 4
	place := func(k int, piece byte) {
		for f := 0; f < 8; f++ {
			if rank[f] == 0 {
				if k == 0 {
					rank[f] = piece
					return
				}
				k--
			}
		}
	}
	place(n%6, 'Q')
	n /= 6
	// The ten ways to put two knights on the five squares left.
	knights := [10][2]int{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}}
	kn := knights[n]
	// Place the later knight first so the earlier index is unaffected.
	place(kn[1], 'N')
	place(kn[0], 'N')
	// Rook, king, rook on what remains, in that order: the king always
	// stands between its rooks.
	place(0, 'R')
	place(0, 'K')
	place(0, 'R')
	return string(rank[:]), nil
}

// chess960FEN returns the FEN of start position n with full castling rights.
func chess960FEN(n int) (string, error) {
	white, err := chess960BackRank(n)
	if err != nil {
		return "", err
	}
	black := make([]byte, 8)
	for i := range white {
		black[i] = white[i] + ('a' - 'A')
	}
	return string(black) + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1", nil
}

// randomChess960 picks one of the 960 start positions at random.
func randomChess960() (*game.Position, error) {
	fen, err := chess960FEN(rand.IntN(960))
	if err != nil {
		return nil, err
	}
	p, err := game.ParseFEN(fen)
	if err != nil {
		return nil, err
	}
	p.SetChess960(true)
	return p, nil
}

// chess960Numbers maps each Chess960 back rank to its Scharnagl number.
var chess960Numbers = func() map[string]int {
	m := make(map[string]int, 960)
	for n := 0; n < 960; n++ {
		rank, _ := chess960BackRank(n)
		m[rank] = n
	}
	return m
}()

// chess960Number returns the Scharnagl number (0..959) of the Chess960
// start position fen, or false when fen is none of the 960 (wrong pawns,
// pieces elsewhere, Black not mirroring White, or White's rank none of
// them). Side to move, castling rights and counters are not looked at.
func chess960Number(fen string) (int, bool) {
	placement, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	ranks := strings.Split(placement, "/")
	if len(ranks) != 8 || ranks[1] != "pppppppp" || ranks[6] != "PPPPPPPP" {
		return 0, false
	}
	for _, r := range ranks[2:6] {
		if r != "8" {
			return 0, false
		}
	}
	if strings.ToUpper(ranks[0]) != ranks[7] || strings.ToLower(ranks[7]) != ranks[0] {
		return 0, false
	}
	n, ok := chess960Numbers[ranks[7]]
	return n, ok
}
