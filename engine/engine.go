// Package engine is Knightwatch's chess engine: an alpha-beta searcher
// (iterative deepening, aspiration windows, PVS with null-move pruning,
// ProbCut, late-move reductions and singular extensions, quiescence with
// SEE, a shared transposition table, Lazy SMP) with time management,
// difficulty levels, a Polyglot opening book reader and a UCI front end.
//
// The default evaluation is the neural network embedded in the binary
// (network.go, BuiltinNetwork; its format is in engine/nnue, its trainer in
// package tune), whose accumulators the search updates incrementally
// (accumulator.go). Options.Net (UCI EvalFile) evaluates with another
// network instead. The alternative is the hand-written tapered evaluation
// (eval.go), whose weights are Texel-tuned on the engine's own games
// (package tune, through weights.go): it is used with
// Options.HandWrittenEval (UCI "Use NNUE" false).
//
// With Syzygy tablebases (Options.Tablebase, UCI SyzygyPath) the search
// probes them (tablebase.go): WDL at interior nodes just after a capture
// or pawn move, DTZ to choose among the root moves, as Stockfish does.
//
// The search is split by concern: root.go (Engine.search, iterative
// deepening, MultiPV), negamax.go, qsearch.go, ordering.go, history.go,
// accumulator.go, thread.go, score.go, tablebase.go and timeman.go.
//
// The API is deliberately small: build an Engine with New, call Search with a
// position, the game's hash history and Limits, and read the Result.
package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"knightwatch/engine/nnue"
	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// Limits says how long or how deep to search. The zero value means "use the
// level's time per move". Several limits may be combined; the first one
// reached stops the search.
type Limits struct {
	Depth     int           // maximum depth in plies (0 = none)
	Nodes     uint64        // maximum nodes (0 = none)
	MoveTime  time.Duration // exact time for this move (0 = none)
	WTime     time.Duration // White's remaining clock time
	BTime     time.Duration // Black's remaining clock time
	WInc      time.Duration // White's increment per move
	BInc      time.Duration // Black's increment per move
	MovesToGo int           // moves until the next time control (0 = sudden death)
	Infinite  bool          // search until ctx is cancelled, even after reaching a depth limit
	// Ponder starts the search in pondering mode: it runs without time
	// limits until Engine.PonderHit, after which the other limits apply
	// counting from that moment.
	Ponder bool
	// SearchMoves, when not empty, restricts the search to these root
	// moves (UCI "go searchmoves"): the result is always one of them.
	// Moves that are not legal in the position are ignored; when none is
	// legal the restriction is dropped and every move is searched.
	SearchMoves []game.Move
	// Experience is what earlier games say about the root's moves
	// (experience.go, docs/experience.md): moves that lost are avoided,
	// moves that won preferred, within each level's character, and book
	// moves that lost are not played. Records of moves that are not
	// legal here are ignored. Result.Experience says what it changed.
	Experience []MoveRecord
}

// hasLimit reports whether lim restricts the search in any way.
func (l Limits) hasLimit() bool {
	return l.Depth > 0 || l.Nodes > 0 || l.MoveTime > 0 || l.WTime > 0 || l.BTime > 0 || l.Infinite || l.Ponder
}

// Score is a search score from the side to move's point of view.
type Score struct {
	CP   int // centipawns (when Mate != 0, a large value of the same sign)
	Mate int // mate in N moves; negative when the side to move gets mated; 0 when no mate is seen
}

// Info is a progress report sent after each completed iteration.
type Info struct {
	Depth, SelDepth int
	// MultiPV is the rank (1 = best) of this line among the Options.MultiPV
	// lines reported for the iteration; one Info is sent per line.
	MultiPV    int
	Score      Score
	Nodes, NPS uint64
	Time       time.Duration
	PV         []game.Move
	HashFull   int // permille of the transposition table in use
	// TBHits counts the tablebase probes of the search so far (0 without
	// Options.Tablebase).
	TBHits uint64
}

// Result is the outcome of a search.
type Result struct {
	Move, Ponder game.Move // best move and expected reply (NoMove when unknown)
	Score        Score
	Depth        int
	Nodes        uint64
	PV           []game.Move
	TBHits       uint64 // tablebase probes, as in Info
	// Experience says how Limits.Experience shaped Move; nil when it
	// changed nothing.
	Experience *ExperienceUse
}

// Options configure an Engine.
type Options struct {
	HashMB  int  // transposition table size; 0 means 16
	Threads int  // search goroutines (Lazy SMP); 0 means 1
	Level   int  // 1..8; 0 means 8 (full strength)
	OwnBook bool // play from a Polyglot book when one is found
	// BookFile is the Polyglot book to use; empty means DefaultBookFile.
	BookFile string
	// MultiPV is the number of best lines to search and report (UCI
	// MultiPV), 1..MaxMultiPV; 0 means 1. With N > 1 the main thread
	// searches the root N times per iteration, each time excluding the
	// moves already found, so a deeper search costs more; the Result is
	// still the best line.
	MultiPV int
	// Net is the neural network that evaluates positions (see
	// engine/nnue); nil means the built-in one (BuiltinNetwork).
	Net *nnue.Network
	// HandWrittenEval evaluates with the hand-written, Texel-tuned
	// evaluation (eval.go) instead of a network; Net is then ignored.
	HandWrittenEval bool
	// Tablebase holds the Syzygy tables the search probes (UCI
	// SyzygyPath); nil means none. The engine never closes it.
	Tablebase *syzygy.Tablebase
	// SyzygyProbeLimit is the largest number of pieces, kings included,
	// of the positions probed in Tablebase (UCI SyzygyProbeLimit): 1..7;
	// 0 means 7, a negative value turns probing off.
	SyzygyProbeLimit int
	// Gaviota holds Gaviota tables (UCI GaviotaTbPath); nil means none.
	// At a root they hold, the search considers only the moves that keep
	// the best distance to mate (gaviota.go), so the engine mates as fast
	// as the tables allow. The engine never closes them.
	Gaviota *gaviota.Tablebase
}

// MaxMultiPV is the largest Options.MultiPV (no position has more legal
// moves than this).
const MaxMultiPV = 256

// DefaultBookFile is where Debian's gnuchess-book package installs its
// Polyglot book; the engine uses it (with OwnBook) when it exists.
const DefaultBookFile = "/usr/share/games/gnuchess/book.bin"

// Engine is a chess engine instance with its own transposition table and
// search state. It is used by one goroutine at a time (PonderHit excepted);
// separate Engines are independent.
type Engine struct {
	opts    Options
	tt      *transTable
	threads []*thread
	rng     *rand.Rand
	level   levelParams

	mu      sync.Mutex   // guards pondCtl (PonderHit comes from another goroutine)
	pondCtl *searchState // the running search, for PonderHit
}

// New returns an engine configured by opts (out-of-range values are clamped).
func New(opts Options) *Engine {
	if opts.HashMB <= 0 {
		opts.HashMB = hashDefaultMB
	}
	if opts.HashMB > hashMaxMB {
		opts.HashMB = hashMaxMB
	}
	if opts.Threads <= 0 {
		opts.Threads = 1
	}
	if opts.Threads > threadsMax {
		opts.Threads = threadsMax
	}
	if opts.Level <= 0 || opts.Level > len(Levels) {
		opts.Level = len(Levels)
	}
	opts.MultiPV = clampMultiPV(opts.MultiPV)
	e := &Engine{
		opts: opts,
		tt:   newTransTable(opts.HashMB),
		rng:  rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0x6b6e6967687477)),
	}
	e.level = levelTable[opts.Level-1]
	return e
}

// Options returns the engine's effective options.
func (e *Engine) Options() Options { return e.opts }

// SetLevel changes the playing level (1..8, 0 = 8) without clearing the hash.
func (e *Engine) SetLevel(level int) {
	if level <= 0 || level > len(Levels) {
		level = len(Levels)
	}
	e.opts.Level = level
	e.level = levelTable[level-1]
}

// SetThreads changes the number of search goroutines.
func (e *Engine) SetThreads(n int) {
	if n <= 0 {
		n = 1
	}
	if n > threadsMax {
		n = threadsMax
	}
	e.opts.Threads = n
}

// SetMultiPV changes the number of lines searched and reported
// (1..MaxMultiPV; out-of-range values are clamped).
func (e *Engine) SetMultiPV(n int) {
	e.opts.MultiPV = clampMultiPV(n)
}

func clampMultiPV(n int) int {
	return min(max(n, 1), MaxMultiPV)
}

// SetHash resizes (and clears) the transposition table.
func (e *Engine) SetHash(mb int) {
	if mb <= 0 {
		mb = hashDefaultMB
	}
	if mb > hashMaxMB {
		mb = hashMaxMB
	}
	e.opts.HashMB = mb
	e.tt = newTransTable(mb)
}

// SetBook sets the book options.
func (e *Engine) SetBook(own bool, file string) {
	e.opts.OwnBook = own
	e.opts.BookFile = file
}

// SetNet chooses the network the engine evaluates with when the network
// is on (see SetHandWrittenEval): n, or the built-in one when n is nil.
// It applies from the next search.
func (e *Engine) SetNet(n *nnue.Network) {
	before := e.opts.evalNet()
	e.opts.Net = n
	e.evalChanged(before)
}

// SetHandWrittenEval switches between the hand-written evaluation (on) and
// the network (off: the one SetNet chose, or the built-in one). It applies
// from the next search.
func (e *Engine) SetHandWrittenEval(on bool) {
	before := e.opts.evalNet()
	e.opts.HandWrittenEval = on
	e.evalChanged(before)
}

// evalChanged clears the hash table when the evaluation is no longer the
// one its scores came from: two evaluations' scores do not mix.
func (e *Engine) evalChanged(before *nnue.Network) {
	if e.opts.evalNet() != before {
		e.tt.clear()
	}
}

// SetSeed makes the engine's random choices (book moves, level weakening)
// reproducible; tests use it.
func (e *Engine) SetSeed(seed uint64) {
	e.rng = rand.New(rand.NewPCG(seed, 0x6b6e6967687477))
}

// NewGame clears the hash table and the move-ordering history, so that one
// game does not influence the next.
func (e *Engine) NewGame() {
	e.tt.clear()
	for _, t := range e.threads {
		t.clearHistory()
	}
}

// PonderHit tells a search started with Limits.Ponder that the opponent
// played the expected move: the search continues under its normal limits,
// counted from now. It is safe to call from another goroutine; it does
// nothing when no pondering search is running.
func (e *Engine) PonderHit() {
	e.mu.Lock()
	st := e.pondCtl
	e.mu.Unlock()
	if st != nil {
		st.ponderHit()
	}
}

// Search finds a move for the side to move in pos. history holds the
// Polyglot keys of the earlier positions since the last irreversible move,
// oldest first (game.Game.HashHistory), for repetition detection. onInfo,
// when not nil, receives a report after every completed iteration.
//
// Search always returns a legal move when one exists, even when ctx is
// already cancelled; Result.Move is game.NoMove only when there is none.
func (e *Engine) Search(ctx context.Context, pos *game.Position, history []uint64, lim Limits, onInfo func(Info)) Result {
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	if ml.N == 0 {
		r := Result{}
		if pos.InCheck() {
			r.Score = Score{CP: -mateValue} // already checkmated
		}
		return r
	}
	rootMoves := restrictRoot(ml.Slice(), lim.SearchMoves)
	biases := experienceBiases(lim.Experience, rootMoves)
	if e.opts.OwnBook && !lim.Infinite && !lim.Ponder && lim.Depth == 0 && lim.Nodes == 0 {
		// A book move outside searchmoves is not an answer: search instead.
		if m, avoided, ok := e.bookMoveWithExperience(pos, biases); ok && slices.Contains(rootMoves, m) {
			r := Result{Move: m, PV: []game.Move{m}}
			if len(avoided) > 0 {
				r.Experience = &ExperienceUse{Avoided: avoided}
			}
			return r
		}
	}
	if !lim.hasLimit() {
		lim.MoveTime = e.level.moveTime
	}
	return e.search(ctx, pos, history, lim, onInfo, rootMoves, biases)
}

// restrictRoot returns the legal moves that are in searchMoves, in the
// order of legal and without duplicates, or legal itself when searchMoves
// is empty or names no legal move (a GUI's stale list must not leave the
// engine without a move).
func restrictRoot(legal, searchMoves []game.Move) []game.Move {
	if len(searchMoves) == 0 {
		return legal
	}
	var out []game.Move
	for _, m := range legal {
		if slices.Contains(searchMoves, m) {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		return legal
	}
	return out
}
