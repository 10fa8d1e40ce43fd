package game

import "sort"

// Perft counts the leaf nodes of the legal move tree to the given depth, the
// standard correctness and speed test of a move generator. The last ply is
// counted without playing the moves (bulk counting), as Stockfish does.
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	var ml MoveList
	p.GenerateLegal(&ml)
	if depth == 1 {
		return uint64(ml.N)
	}
	var n uint64
	save := *p
	for _, m := range ml.Moves[:ml.N] {
		p.MakeMove(m)
		n += Perft(p, depth-1)
		*p = save
	}
	return n
}

// DivideEntry is one root move's share of a perft count.
type DivideEntry struct {
	Move  string // UCI notation
	Nodes uint64
}

// Divide returns the perft count below each root move, sorted by move text,
// like Stockfish's "go perft".
func Divide(p *Position, depth int) []DivideEntry {
	var ml MoveList
	p.GenerateLegal(&ml)
	out := make([]DivideEntry, 0, ml.N)
	save := *p
	for _, m := range ml.Moves[:ml.N] {
		uci := p.UCI(m)
		p.MakeMove(m)
		out = append(out, DivideEntry{uci, Perft(p, depth-1)})
		*p = save
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move < out[j].Move })
	return out
}
