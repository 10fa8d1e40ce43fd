package syzygy

import (
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
)

// randomPosition returns a random legal position (side not to move not in
// check) with the material of a table name such as "KRvKP" and a random
// side to move; no castling, no en passant.
func randomPosition(t testing.TB, rng *rand.Rand, material string) *game.Position {
	t.Helper()
	sides := strings.Split(material, "v")
	for try := 0; try < 10000; try++ {
		var board [64]byte
		for c, s := range sides {
			for i := 0; i < len(s); i++ {
				letter := s[i]
				if c == 1 {
					letter += 'a' - 'A'
				}
				for {
					sq := rng.IntN(64)
					if board[sq] != 0 {
						continue
					}
					if (s[i] == 'P') && (sq < 8 || sq >= 56) {
						continue
					}
					board[sq] = letter
					break
				}
			}
		}
		fen := boardFEN(&board)
		if rng.IntN(2) == 0 {
			fen += " w - - 0 1"
		} else {
			fen += " b - - 0 1"
		}
		p, err := game.ParseFEN(fen)
		if err != nil {
			continue // side not to move in check, adjacent kings
		}
		return p
	}
	t.Fatalf("no legal position for %s", material)
	return nil
}

// boardFEN writes the placement field of a mailbox (a1 = 0, 0 = empty).
func boardFEN(board *[64]byte) string {
	var b strings.Builder
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			c := board[8*rank+file]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(c)
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}
