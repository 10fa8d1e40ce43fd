package game

import (
	"fmt"
	"strconv"
	"strings"
)

// FENError describes why a FEN string was rejected, naming the field.
type FENError struct {
	FEN   string
	Field string // "piece placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number", or "position"
	Msg   string
}

// Error returns the message with the FEN and the field at fault.
func (e *FENError) Error() string {
	return fmt.Sprintf("invalid FEN %q: %s: %s", e.FEN, e.Field, e.Msg)
}

// ParseFEN parses a FEN (or X-FEN / Shredder-FEN) string. The halfmove and
// fullmove fields may be omitted (as in EPD); they default to 0 and 1.
// Castling fields in X-FEN or Shredder-FEN form, or rights with king and
// rooks off their standard squares, switch the position to Chess960 mode.
// The position must be one that can arise in a game: one king each, no pawn
// on the first or last rank, the side not to move not in check.
func ParseFEN(fen string) (*Position, error) {
	p := &Position{}
	if err := p.setFEN(fen, true); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseBoardFEN parses a FEN without checking the position's plausibility
// beyond its syntax. Reconnaissance Chess uses it for boards a player
// believes in, which may have no king or too many pieces.
func ParseBoardFEN(fen string) (*Position, error) {
	p := &Position{}
	if err := p.setFEN(fen, false); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Position) setFEN(fen string, validate bool) error {
	fail := func(field, format string, args ...any) error {
		return &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return fail("position", "want 6 space-separated fields (4 at least), got %d", len(fields))
	}
	*p = Position{ep: NoSquare, fullmove: 1}
	p.castleRook = [2][2]Square{{NoSquare, NoSquare}, {NoSquare, NoSquare}}

	// Piece placement.
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("piece placement", "want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
			} else if pc, ok := PieceFromLetter(c); ok {
				if file < 8 {
					p.putPiece(pc, NewSquare(file, rank))
				}
				file++
			} else {
				return fail("piece placement", "bad piece letter %q on rank %d", c, rank+1)
			}
			if file > 8 {
				return fail("piece placement", "rank %d has more than 8 squares", rank+1)
			}
		}
		if file != 8 {
			return fail("piece placement", "rank %d has %d squares, want 8", rank+1, file)
		}
	}

	// Side to move.
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fail("side to move", "want 'w' or 'b', got %q", fields[1])
	}

	if validate {
		for c := White; c <= Black; c++ {
			switch n := p.Pieces(c, King).Count(); {
			case n == 0:
				return fail("position", "no %s king", c)
			case n > 1:
				return fail("position", "%d %s kings", n, c)
			}
			if n := p.byColor[c].Count(); n > 16 {
				return fail("position", "%s has %d pieces, at most 16 possible", c, n)
			}
			if n := p.Pieces(c, Pawn).Count(); n > 8 {
				return fail("position", "%s has %d pawns, at most 8 possible", c, n)
			}
		}
		if bad := p.byType[Pawn] & (Rank1 | Rank8); bad != 0 {
			return fail("position", "pawn on the first or last rank (%s)", bad.First())
		}
	}

	// Castling.
	if err := p.parseCastling(fields[2]); err != nil {
		return fail("castling", "%s", err.Error())
	}

	// En passant.
	if fields[3] != "-" {
		s, err := ParseSquare(fields[3])
		if err != nil {
			return fail("en passant", "%q is not a square or '-'", fields[3])
		}
		wantRank, them := 5, Black
		if p.side == Black {
			wantRank, them = 2, White
		}
		if s.Rank() != wantRank {
			return fail("en passant", "%s is impossible with %s to move (want rank %d)", s, p.side, wantRank+1)
		}
		pushed := s ^ 8                          // the pawn that just moved two squares
		origin := Square(int(s)*2 - int(pushed)) // where it came from
		if p.board[pushed] != MakePiece(them, Pawn) || p.board[s] != NoPiece || p.board[origin] != NoPiece {
			return fail("en passant", "%s is impossible: no %s pawn can have just moved two squares past it", s, them)
		}
		p.setEnPassant(s, p.side)
	}

	// Counters.
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 {
			return fail("halfmove clock", "want a non-negative integer, got %q", fields[4])
		}
		p.halfmove = n
	}
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 1 {
			return fail("fullmove number", "want a positive integer, got %q", fields[5])
		}
		p.fullmove = n
	}

	if validate {
		them := p.side.Other()
		if p.IsAttacked(p.KingSquare(them), p.side) {
			return fail("position", "the %s king is in check with %s to move", them, p.side)
		}
		if p.Checkers().Count() > 2 {
			return fail("position", "the %s king is attacked %d times", p.side, p.Checkers().Count())
		}
	}
	p.hash = p.computeHash()
	return nil
}

// parseCastling reads standard ("KQkq"), X-FEN and Shredder-FEN fields.
func (p *Position) parseCastling(field string) error {
	if field == "-" {
		return nil
	}
	for i := 0; i < len(field); i++ {
		c := field[i]
		color := White
		if c >= 'a' && c <= 'z' {
			color = Black
			c -= 'a' - 'A'
		}
		backRank := RankMask(0)
		if color == Black {
			backRank = RankMask(7)
		}
		king := p.Pieces(color, King) & backRank
		if king == 0 {
			return fmt.Errorf("%q: the %s king is not on its back rank", field[i], color)
		}
		ks := king.First()
		rooks := p.Pieces(color, Rook) & backRank
		var rook Square = NoSquare
		switch {
		case c == 'K': // outermost rook on the king's side
			for b := rooks; b != 0; {
				if s := b.PopFirst(); s > ks {
					rook = s
				}
			}
		case c == 'Q': // outermost rook on the queen's side
			for b := rooks; b != 0; {
				if s := b.PopFirst(); s < ks && rook == NoSquare {
					rook = s
				}
			}
		case c >= 'A' && c <= 'H':
			s := NewSquare(int(c-'A'), 0)
			if color == Black {
				s += 56
			}
			if rooks.Has(s) {
				rook = s
			}
			p.chess960 = true
		default:
			return fmt.Errorf("bad castling letter %q", field[i])
		}
		if rook == NoSquare {
			return fmt.Errorf("%q: no %s rook to castle with", field[i], color)
		}
		side := KingSide
		if rook < ks {
			side = QueenSide
		}
		if p.castleRook[color][side] != NoSquare {
			return fmt.Errorf("%q: %s castling right on that side given twice", field[i], color)
		}
		p.castleRook[color][side] = rook
		if ks.File() != 4 || (rook.File() != 0 && rook.File() != 7) {
			p.chess960 = true
		}
	}
	return nil
}

// FEN returns the position in FEN. The en passant square is written only
// when a pawn of the side to move stands ready to capture there, the rule
// the Polyglot key follows, so that ParseFEN(p.FEN()) has p's Hash. (Whether
// that capture is also legal matters only for repetition; see
// RepetitionKey.) In Chess960 mode castling rights are written in X-FEN
// (K/Q for the outermost rook, a file letter otherwise).
func (p *Position) FEN() string {
	var sb strings.Builder
	sb.WriteString(p.BoardFEN())
	if p.side == White {
		sb.WriteString(" w ")
	} else {
		sb.WriteString(" b ")
	}
	sb.WriteString(p.castlingField())
	sb.WriteByte(' ')
	sb.WriteString(p.ep.String()) // "-" for NoSquare
	fmt.Fprintf(&sb, " %d %d", p.halfmove, p.fullmove)
	return sb.String()
}

// EPD returns the first four FEN fields.
func (p *Position) EPD() string {
	f := strings.Fields(p.FEN())
	return strings.Join(f[:4], " ")
}

// BoardFEN returns only the piece placement field.
func (p *Position) BoardFEN() string { return PlacementFEN(&p.board) }

// AppendBoardFEN appends BoardFEN's field to dst.
func (p *Position) AppendBoardFEN(dst []byte) []byte { return AppendPlacementFEN(dst, &p.board) }

// PlacementFEN writes a board, square by square (A1 first), as a FEN's
// piece placement field: for callers that edit boards as 64 squares and
// parse the result back.
func PlacementFEN(board *[64]Piece) string {
	var buf [71]byte // 64 squares and 7 slashes at most: no allocation but the string's
	return string(AppendPlacementFEN(buf[:0], board))
}

// AppendPlacementFEN appends PlacementFEN(board) to dst, for writers of
// whole FENs that build them in one buffer (the Reconnaissance Chess
// arbiter writes two a move).
func AppendPlacementFEN(dst []byte, board *[64]Piece) []byte {
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := 0; f < 8; f++ {
			pc := board[NewSquare(f, r)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				dst = append(dst, byte('0'+empty))
				empty = 0
			}
			dst = append(dst, pc.Letter())
		}
		if empty > 0 {
			dst = append(dst, byte('0'+empty))
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	return dst
}

func (p *Position) castlingField() string {
	var sb strings.Builder
	for c := White; c <= Black; c++ {
		for _, side := range []int{KingSide, QueenSide} {
			rook := p.castleRook[c][side]
			if rook == NoSquare {
				continue
			}
			letter := byte('K')
			if side == QueenSide {
				letter = 'Q'
			}
			if p.chess960 && !p.isOutermostRook(c, side, rook) {
				letter = byte('A' + rook.File())
			}
			if c == Black {
				letter += 'a' - 'A'
			}
			sb.WriteByte(letter)
		}
	}
	if sb.Len() == 0 {
		return "-"
	}
	return sb.String()
}

func (p *Position) isOutermostRook(c Color, side int, rook Square) bool {
	for b := p.Pieces(c, Rook) & RankMask(rook.Rank()); b != 0; {
		s := b.PopFirst()
		if side == KingSide && s > rook || side == QueenSide && s < rook {
			return false
		}
	}
	return true
}

// hasLegalEnPassant reports whether an en passant capture is legal now.
func (p *Position) hasLegalEnPassant() bool {
	if p.ep == NoSquare {
		return false
	}
	k := p.KingSquare(p.side)
	if k == NoSquare {
		return true
	}
	var ml MoveList
	p.genEnPassant(&ml, p.side, k)
	return ml.N > 0
}

// RepetitionKey is the key under which positions are compared for
// repetition: the Polyglot key, except that an en passant square counts only
// when the capture is really legal (FIDE's rule), not merely pseudo-legal.
func (p *Position) RepetitionKey() uint64 {
	if p.ep != NoSquare && !p.hasLegalEnPassant() {
		return p.hash ^ polyglotRandom[keyEP+p.ep.File()]
	}
	return p.hash
}
