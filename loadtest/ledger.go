package loadtest

import (
	"slices"
	"sort"
	"sync"
)

// chessSeen is what a player last saw of one chess game: the moves of the
// latest state it read (every one of them acknowledged, since the server
// commits before it tells), and the move it sent after that state and has
// not yet seen played.
type chessSeen struct {
	ID          string
	Human       string   // "white" or "black"; "" until the first state
	Moves       []string // UCI, as in the state's moves
	HumanToMove bool     // at Moves
	Over        bool
	// PendingKind is "move" or "takeback" for an action sent at ply
	// PendingPly and not yet seen in a state ("" when none); Pending is
	// the move.
	PendingKind, Pending string
	PendingPly           int
	// Takebacks counts the takebacks the player sent in this game: each
	// keeps on the clocks the increments of the moves it takes back
	// (web/room.go takebackLocked), so the clocks may hold that many more
	// increments per side than the moves stored.
	Takebacks int
}

// reconSeen is what a player last saw of one Reconnaissance Chess game:
// its own senses and requested moves in the latest recon_state, that
// state's action count, and the action sent after it, not yet seen.
type reconSeen struct {
	ID     string
	Human  string // "" until the first state
	Seq    int
	Senses []string // "" for a skipped sense
	Moves  []string // recon.UCI: "pass" for a pass
	Over   bool
	// PendingKind is "sense" or "move" for an action sent at PendingSeq
	// and not yet seen; "" when none.
	PendingKind, Pending string
	PendingSeq           int
}

// ledger holds what every player saw acknowledged, game by game: the
// crash test's record of what must survive. Each game has one player, so
// entries are written by one goroutine and read by the checker.
type ledger struct {
	mu    sync.Mutex
	chess map[string]*chessSeen
	recon map[string]*reconSeen
}

func newLedger() *ledger {
	return &ledger{chess: map[string]*chessSeen{}, recon: map[string]*reconSeen{}}
}

// sawChess records a state of game id (replacing the game's last one);
// the pending move stays only while the state has not moved past it.
func (l *ledger) sawChess(id, human string, moves []string, humanToMove, over bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.chess[id]
	if e == nil {
		e = &chessSeen{ID: id}
		l.chess[id] = e
	}
	e.Human, e.Moves, e.HumanToMove, e.Over = human, moves, humanToMove, over
	if e.PendingKind != "" && len(moves) != e.PendingPly {
		e.PendingKind, e.Pending = "", ""
	}
}

// sentChess records an action ("move" with its move, or "takeback")
// about to be sent at ply.
func (l *ledger) sentChess(id string, ply int, kind, move string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.chess[id]; e != nil {
		e.PendingKind, e.Pending, e.PendingPly = kind, move, ply
		if kind == "takeback" {
			e.Takebacks++
		}
	}
}

// sawRecon records a recon_state of game id.
func (l *ledger) sawRecon(id, human string, seq int, senses, moves []string, over bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recon[id]
	if e == nil {
		e = &reconSeen{ID: id}
		l.recon[id] = e
	}
	e.Human, e.Seq, e.Senses, e.Moves, e.Over = human, seq, senses, moves, over
	if e.PendingKind != "" && seq != e.PendingSeq {
		e.PendingKind, e.Pending = "", ""
	}
}

// sentRecon records an action ("sense" or "move") about to be sent at seq.
func (l *ledger) sentRecon(id string, seq int, kind, value string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.recon[id]; e != nil {
		e.PendingKind, e.Pending, e.PendingSeq = kind, value, seq
	}
}

// lastChess and lastRecon return a copy of a game's entry (ok false when
// the game has none yet).
func (l *ledger) lastChess(id string) (chessSeen, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.chess[id]
	if e == nil {
		return chessSeen{}, false
	}
	c := *e
	c.Moves = slices.Clone(e.Moves)
	return c, true
}

func (l *ledger) lastRecon(id string) (reconSeen, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.recon[id]
	if e == nil {
		return reconSeen{}, false
	}
	c := *e
	c.Senses, c.Moves = slices.Clone(e.Senses), slices.Clone(e.Moves)
	return c, true
}

// snapshot copies every entry, sorted by game ID.
func (l *ledger) snapshot() ([]chessSeen, []reconSeen) {
	l.mu.Lock()
	ids := make([]string, 0, len(l.chess))
	for id := range l.chess {
		ids = append(ids, id)
	}
	rids := make([]string, 0, len(l.recon))
	for id := range l.recon {
		rids = append(rids, id)
	}
	l.mu.Unlock()
	sort.Strings(ids)
	sort.Strings(rids)
	cs := make([]chessSeen, 0, len(ids))
	for _, id := range ids {
		c, _ := l.lastChess(id)
		cs = append(cs, c)
	}
	rs := make([]reconSeen, 0, len(rids))
	for _, id := range rids {
		r, _ := l.lastRecon(id)
		rs = append(rs, r)
	}
	return cs, rs
}
