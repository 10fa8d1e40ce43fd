package engine

import (
	"context"
	"time"

	"knightwatch/game"
)

// BenchDepth is the default depth of Bench.
const BenchDepth = 13

// BenchFENs are the positions searched by Bench: openings, middlegames
// with tactics, and endgames, so that every part of the search is used.
var BenchFENs = []string{
	game.StartFEN,
	"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 w - - 0 8",
	"rnbq1rk1/pp2ppbp/6p1/2pp4/2PPn3/1P3NP1/P2BPPBP/RN1QK2R w KQ - 0 8",
	"r1bq1rk1/pp3ppp/2nbpn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
	"2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1P2PN2/PB1NBPPP/2RQ1RK1 w - - 4 12",
	"r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPP3PP/R2Q1R1K w - - 2 14",
	"4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
	"r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
	"6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
	"3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
	"8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
	"2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
	"8/8/1p1k4/5ppp/PPK1p3/6P1/5PP1/8 b - - 0 1",
	"5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
}

// BenchResult is the outcome of Bench.
type BenchResult struct {
	Nodes uint64
	Time  time.Duration
}

// NPS returns nodes per second.
func (r BenchResult) NPS() uint64 {
	if r.Time <= 0 {
		return 0
	}
	return uint64(float64(r.Nodes) / r.Time.Seconds())
}

// Bench searches every BenchFENs position to depth with a fresh engine at
// full strength and no book, so that with one thread the node count is the
// same on every run and every machine (a signature of the search).
// each, when not nil, is called after every position.
func Bench(depth, threads, hashMB int, each func(i int, fen string, res Result)) (BenchResult, error) {
	return BenchWith(Options{HashMB: hashMB, Threads: threads}, depth, each)
}

// BenchWith is Bench with more of the engine's options (such as a
// network for the evaluation); the level is always full strength and the
// book is never used.
func BenchWith(o Options, depth int, each func(i int, fen string, res Result)) (BenchResult, error) {
	o.Level, o.OwnBook = len(Levels), false
	e := New(o)
	var r BenchResult
	for i, fen := range BenchFENs {
		p, err := game.ParseFEN(fen)
		if err != nil {
			return r, err
		}
		e.NewGame()
		start := time.Now()
		res := e.Search(context.Background(), p, nil, Limits{Depth: depth}, nil)
		r.Time += time.Since(start)
		r.Nodes += res.Nodes
		if each != nil {
			each(i, fen, res)
		}
	}
	return r, nil
}
