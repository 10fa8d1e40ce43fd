package chenserver

import (
	"sort"

	"knightwatch/game"
)

// ChenServer's `legal` lists moves in the order Chenard's move generator
// produces them (the documented start-position listing begins "b1c3 b1a3
// g1h3 g1f3 a2a3 a2a4"), so clients that show or index that list see the
// same thing here. Chenard scans the board from its own back rank forwards,
// files a to h, emits each piece's pseudo-legal moves in fixed direction
// orders, then deletes illegal moves by overwriting each with the last
// entry. chenardOrder replays that procedure over game's move encoding;
// legality itself always comes from game.

// Direction tables in Chenard's order, as (file, rank) steps.
var (
	knightSteps = [8][2]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}}
	bishopSteps = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	rookSteps   = [4][2]int{{0, 1}, {-1, 0}, {1, 0}, {0, -1}}
	queenSteps  = [8][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {0, 1}, {-1, 0}, {1, 0}, {0, -1}}
	kingSteps   = [8][2]int{{0, 1}, {1, 1}, {-1, 1}, {1, 0}, {-1, 0}, {1, -1}, {-1, -1}, {0, -1}}
	promoOrder  = [4]game.PieceType{game.Queen, game.Rook, game.Bishop, game.Knight}
)

// chenardOrder returns the legal moves of p in Chenard's generation order.
func chenardOrder(p *game.Position) []game.Move {
	var ml game.MoveList
	p.GenerateLegal(&ml)
	legal := make(map[game.Move]bool, ml.N)
	for _, m := range ml.Slice() {
		legal[m] = true
	}

	list := chenardPseudo(p)
	n := len(list)
	for i := 0; i < n; {
		if legal[list[i]] {
			delete(legal, list[i]) // also guards against duplicates
			i++
			continue
		}
		n--
		if i < n {
			list[i] = list[n]
		}
	}
	list = list[:n]

	// Should the emulation ever miss a legal move, still list it (sorted,
	// at the end): a complete list matters more than the order.
	if len(legal) > 0 {
		rest := make([]game.Move, 0, len(legal))
		for m := range legal {
			rest = append(rest, m)
		}
		sort.Slice(rest, func(i, j int) bool { return rest[i] < rest[j] })
		list = append(list, rest...)
	}
	return list
}

// chenardPseudo lists the side to move's pseudo-legal moves the way
// Chenard's GenWhiteMoves/GenBlackMoves do, before illegal ones are removed.
func chenardPseudo(p *game.Position) []game.Move {
	us := p.Side()
	them := us.Other()
	list := make([]game.Move, 0, 64)

	at := func(f, r int) (game.Piece, bool) {
		if f < 0 || f > 7 || r < 0 || r > 7 {
			return game.NoPiece, false
		}
		return p.PieceAt(game.NewSquare(f, r)), true
	}
	enemy := func(pc game.Piece) bool { return pc != game.NoPiece && pc.Color() == them }
	// step adds the move to (f+df, r+dr) when it is on the board and not
	// occupied by our own piece (knight and king moves).
	step := func(from game.Square, df, dr int) {
		f, r := from.File()+df, from.Rank()+dr
		if pc, ok := at(f, r); ok && (pc == game.NoPiece || pc.Color() == them) {
			list = append(list, game.NewMove(from, game.NewSquare(f, r)))
		}
	}
	slide := func(from game.Square, df, dr int) {
		f, r := from.File()+df, from.Rank()+dr
		for {
			pc, ok := at(f, r)
			if !ok {
				return
			}
			if pc == game.NoPiece {
				list = append(list, game.NewMove(from, game.NewSquare(f, r)))
			} else {
				if pc.Color() == them {
					list = append(list, game.NewMove(from, game.NewSquare(f, r)))
				}
				return
			}
			f, r = f+df, r+dr
		}
	}

	dir, home, epRank, lastRank := 1, 1, 4, 6
	rank0, rankStep := 0, 1
	if us == game.Black {
		dir, home, epRank, lastRank = -1, 6, 3, 1
		rank0, rankStep = 7, -1
	}
	ep := p.EnPassant()

	pawn := func(from game.Square) {
		f, r := from.File(), from.Rank()
		ahead := r + dir
		fwd, _ := at(f, ahead)
		// capture adds a diagonal capture towards file f+df, or on the en
		// passant rank an en passant capture when the target is the ep square.
		capture := func(df int, promote bool) {
			pc, ok := at(f+df, ahead)
			if !ok {
				return
			}
			to := game.NewSquare(f+df, ahead)
			switch {
			case enemy(pc) && promote:
				for _, pt := range promoOrder {
					list = append(list, game.NewPromotion(from, to, pt))
				}
			case enemy(pc):
				list = append(list, game.NewMove(from, to))
			case r == epRank && ep == to:
				list = append(list, game.NewEnPassant(from, to))
			}
		}
		switch r {
		case lastRank:
			if fwd == game.NoPiece {
				for _, pt := range promoOrder {
					list = append(list, game.NewPromotion(from, game.NewSquare(f, ahead), pt))
				}
			}
			capture(1, true)
			capture(-1, true)
		default:
			if fwd == game.NoPiece {
				list = append(list, game.NewMove(from, game.NewSquare(f, ahead)))
				if r == home {
					if pc2, _ := at(f, ahead+dir); pc2 == game.NoPiece {
						list = append(list, game.NewMove(from, game.NewSquare(f, ahead+dir)))
					}
				}
			}
			capture(1, false)
			capture(-1, false)
		}
	}

	king := func(from game.Square) {
		for _, s := range kingSteps {
			step(from, s[0], s[1])
		}
		if p.InCheck() {
			return
		}
		r := from.Rank()
		empty := func(files ...int) bool {
			for _, f := range files {
				if pc, _ := at(f, r); pc != game.NoPiece {
					return false
				}
			}
			return true
		}
		if rook := p.CastlingRook(us, game.KingSide); rook != game.NoSquare &&
			empty(5, 6) && !p.IsAttacked(game.NewSquare(5, r), them) {
			list = append(list, game.NewCastling(from, rook))
		}
		if rook := p.CastlingRook(us, game.QueenSide); rook != game.NoSquare &&
			empty(1, 2, 3) && !p.IsAttacked(game.NewSquare(3, r), them) {
			list = append(list, game.NewCastling(from, rook))
		}
	}

	for i, r := 0, rank0; i < 8; i, r = i+1, r+rankStep {
		for f := 0; f < 8; f++ {
			from := game.NewSquare(f, r)
			pc := p.PieceAt(from)
			if pc == game.NoPiece || pc.Color() != us {
				continue
			}
			switch pc.Type() {
			case game.Pawn:
				pawn(from)
			case game.Knight:
				for _, s := range knightSteps {
					step(from, s[0], s[1])
				}
			case game.Bishop:
				for _, s := range bishopSteps {
					slide(from, s[0], s[1])
				}
			case game.Rook:
				for _, s := range rookSteps {
					slide(from, s[0], s[1])
				}
			case game.Queen:
				for _, s := range queenSteps {
					slide(from, s[0], s[1])
				}
			case game.King:
				king(from)
			}
		}
	}
	return list
}
