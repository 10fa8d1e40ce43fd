package game

import (
	"errors"
	"fmt"
	"strings"
)

// Errors returned (wrapped) by the move parsers; test with errors.Is.
var (
	ErrInvalidMove   = errors.New("invalid move syntax")
	ErrIllegalMove   = errors.New("illegal move")
	ErrAmbiguousMove = errors.New("ambiguous move")
)

// UCI returns m in UCI (long algebraic) notation. Castling is written as the
// king's two-square move ("e1g1") in standard chess and as king takes rook
// ("e1h1") in Chess960 mode, as the UCI protocol prescribes.
func (p *Position) UCI(m Move) string {
	if m.IsCastling() && !p.chess960 {
		side := KingSide
		if m.To() < m.From() {
			side = QueenSide
		}
		kingTo, _ := castlingTargets(p.side, side)
		return m.From().String() + kingTo.String()
	}
	return m.String()
}

// ParseUCI parses a move in UCI notation and checks that it is legal.
// "0000" is the null move. In standard chess castling is accepted both as the
// king's two-square move and as king takes rook; in Chess960 mode only as
// king takes rook.
func (p *Position) ParseUCI(s string) (Move, error) {
	if s == "0000" {
		return NullMove, nil
	}
	if len(s) != 4 && len(s) != 5 {
		return NoMove, fmt.Errorf("%w: %q is not a UCI move", ErrInvalidMove, s)
	}
	from, err1 := ParseSquare(s[0:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return NoMove, fmt.Errorf("%w: %q is not a UCI move", ErrInvalidMove, s)
	}
	promo := NoPieceType
	if len(s) == 5 {
		switch s[4] {
		case 'q', 'Q':
			promo = Queen
		case 'r', 'R':
			promo = Rook
		case 'b', 'B':
			promo = Bishop
		case 'n', 'N':
			promo = Knight
		default:
			return NoMove, fmt.Errorf("%w: %q has a bad promotion letter", ErrInvalidMove, s)
		}
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.From() != from || m.Promotion() != promo {
			continue
		}
		if m.To() == to {
			return m, nil
		}
		if m.IsCastling() && !p.chess960 {
			side := KingSide
			if m.To() < m.From() {
				side = QueenSide
			}
			if kingTo, _ := castlingTargets(p.side, side); kingTo == to {
				return m, nil
			}
		}
	}
	return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegalMove, s, p.FEN())
}

// SAN returns m, a legal move, in Standard Algebraic Notation with a check
// ('+') or mate ('#') suffix. The null move is "--".
func (p *Position) SAN(m Move) string {
	if m == NullMove {
		return "--"
	}
	san := p.sanWithoutSuffix(m)
	q := *p
	q.MakeMove(m)
	if q.InCheck() {
		if q.HasLegalMoves() {
			san += "+"
		} else {
			san += "#"
		}
	}
	return san
}

func (p *Position) sanWithoutSuffix(m Move) string {
	if m.IsCastling() {
		if m.To() > m.From() {
			return "O-O"
		}
		return "O-O-O"
	}
	from, to := m.From(), m.To()
	pt := p.board[from].Type()
	capture := p.IsCapture(m)
	var sb strings.Builder
	if pt == Pawn {
		if capture {
			sb.WriteByte(byte('a' + from.File()))
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
		if m.IsPromotion() {
			sb.WriteByte('=')
			sb.WriteByte(m.Promotion().Letter() - ('a' - 'A'))
		}
		return sb.String()
	}
	sb.WriteByte(pt.Letter() - ('a' - 'A'))
	if pt != King {
		// Disambiguate among other legal moves of the same piece type to the same square.
		var ml MoveList
		p.GenerateLegal(&ml)
		var others Bitboard
		for _, o := range ml.Slice() {
			if o != m && o.To() == to && !o.IsCastling() && p.board[o.From()].Type() == pt {
				others |= o.From().Bitboard()
			}
		}
		if others != 0 {
			switch {
			case others&FileMask(from.File()) == 0:
				sb.WriteByte(byte('a' + from.File()))
			case others&RankMask(from.Rank()) == 0:
				sb.WriteByte(byte('1' + from.Rank()))
			default:
				sb.WriteString(from.String())
			}
		}
	}
	if capture {
		sb.WriteByte('x')
	}
	sb.WriteString(to.String())
	return sb.String()
}

// ParseSAN parses a move in Standard Algebraic Notation and checks that it
// is legal. It is tolerant of common variants: "0-0" for "O-O", "e8Q" and
// "e8q" for "e8=Q", "exd6e.p.", over-disambiguation ("Ng1f3"), a hyphen
// between squares ("Nb1-c3"), missing or wrong "+"/"#" and trailing "!"/"?"
// annotations. "--" is the null move.
func (p *Position) ParseSAN(san string) (Move, error) {
	s := strings.TrimSpace(san)
	s = strings.TrimRight(s, "+#!?")
	s = strings.TrimSuffix(s, "e.p.")
	s = strings.TrimSuffix(s, "ep")
	s = strings.TrimRight(s, " +#")
	bad := func() (Move, error) {
		return NoMove, fmt.Errorf("%w: %q is not SAN", ErrInvalidMove, san)
	}
	if s == "" {
		return bad()
	}
	if s == "--" || s == "Z0" {
		return NullMove, nil
	}
	switch s {
	case "O-O", "0-0", "o-o", "O-O-O", "0-0-0", "o-o-o":
		side := KingSide
		if len(s) == 5 {
			side = QueenSide
		}
		var ml MoveList
		p.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			if m.IsCastling() && (m.To() > m.From()) == (side == KingSide) {
				return m, nil
			}
		}
		return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegalMove, san, p.FEN())
	}

	// Piece letter (upper case only: a lower-case 'b' is a file).
	pt := Pawn
	if k := strings.IndexByte("NBRQK", s[0]); k >= 0 {
		pt = PieceType(k) + Knight
		s = s[1:]
	}
	// Promotion suffix: "=Q", "Q", "q" (only for pawns).
	promo := NoPieceType
	if pt == Pawn && len(s) >= 3 {
		last := s[len(s)-1]
		if k := strings.IndexByte("nbrqNBRQ", last); k >= 0 && s[len(s)-2] != 'x' {
			promo = PieceType(k%4) + Knight
			s = strings.TrimSuffix(s[:len(s)-1], "=")
		}
	}
	if len(s) < 2 {
		return bad()
	}
	to, err := ParseSquare(s[len(s)-2:])
	if err != nil {
		return bad()
	}
	s = s[:len(s)-2]
	s = strings.TrimSuffix(s, "-")
	capture := strings.HasSuffix(s, "x") || strings.HasSuffix(s, ":")
	if capture {
		s = s[:len(s)-1]
	}
	fromFile, fromRank := -1, -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'h' && fromFile < 0 && fromRank < 0:
			fromFile = int(c - 'a')
		case c >= '1' && c <= '8' && fromRank < 0:
			fromRank = int(c - '1')
		default:
			return bad()
		}
	}

	var ml MoveList
	p.GenerateLegal(&ml)
	found := NoMove
	count := 0
	for _, m := range ml.Slice() {
		if m.IsCastling() || m.To() != to || p.board[m.From()].Type() != pt {
			continue
		}
		if fromFile >= 0 && m.From().File() != fromFile || fromRank >= 0 && m.From().Rank() != fromRank {
			continue
		}
		if m.Promotion() != promo {
			if promo == NoPieceType && m.IsPromotion() {
				return NoMove, fmt.Errorf("%w: %q needs a promotion piece (=Q, =R, =B or =N)", ErrInvalidMove, san)
			}
			continue
		}
		if capture && !p.IsCapture(m) {
			continue
		}
		found = m
		count++
	}
	switch count {
	case 0:
		return NoMove, fmt.Errorf("%w: %s in %s", ErrIllegalMove, san, p.FEN())
	case 1:
		return found, nil
	}
	return NoMove, fmt.Errorf("%w: %s in %s", ErrAmbiguousMove, san, p.FEN())
}

// ParseMove accepts a move in SAN or UCI notation, trying SAN first. It is
// the parser for input typed by people or sent by other programs.
func (p *Position) ParseMove(s string) (Move, error) {
	m, err := p.ParseSAN(s)
	if err == nil {
		return m, nil
	}
	if m2, err2 := p.ParseUCI(strings.TrimRight(strings.TrimSpace(s), "+#!?")); err2 == nil {
		return m2, nil
	} else if errors.Is(err, ErrInvalidMove) && !errors.Is(err2, ErrInvalidMove) {
		return NoMove, err2
	}
	return NoMove, err
}
