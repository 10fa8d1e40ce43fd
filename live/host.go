package live

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync"
	"time"
)

// Errors of a host.
var (
	// ErrClosed: the host has closed (its last player left, or the server
	// is stopping); a registry looks the game up again.
	ErrClosed = errors.New("live: the game is not open here")
	// ErrUnsaved: the change was not saved (the database refused); the
	// game is as before and the player may try again.
	ErrUnsaved = errors.New("live: the change could not be saved")
	// ErrEndUnsaved: the game ended on time and its end waits to be saved.
	ErrEndUnsaved = errors.New("live: the game ended on time; the end waits to be saved")
	// ErrTimeUp: the mover's time had run out; the game ended on time
	// instead of the change.
	ErrTimeUp = errors.New("live: time is up")
	// ErrNothing is what a change returns when there is nothing to change
	// (an end of turn after the move that ended the game, say): Act then
	// succeeds without committing or telling anyone.
	ErrNothing = errors.New("live: nothing to change")
)

// Defaults of Config.
const (
	DefaultSaveRetryFirst = 100 * time.Millisecond
	DefaultSaveRetryMax   = 5 * time.Second
)

// flagSlack is how long after the clock runs out the flag timer fires, so
// that the clock, asked then, agrees that it has.
const flagSlack = 5 * time.Millisecond

// Config configures a Host.
type Config struct {
	// ID names the game in logs and in a registry.
	ID string
	// Always puts the game on the server's clock (the API's games, played
	// by programs): the clock runs whether or not anybody has the game
	// open and while a step waits to be saved, automata play without
	// subscribers, and a registry keeps the host until the game ends.
	Always bool
	// SaveRetryFirst and SaveRetryMax pace the saves of steps nobody can
	// repeat (defaults DefaultSaveRetryFirst, DefaultSaveRetryMax).
	SaveRetryFirst, SaveRetryMax time.Duration
	// Context ends when the server stops: automata's turns end with it and
	// pending saves are dropped. Default: never.
	Context context.Context
	// Logf logs the host's failures (default: the standard logger).
	Logf func(format string, args ...any)
	// Ended, when set, runs (under the host's lock) after the commit that
	// ended the game.
	Ended func()
	// Presence, when set, has a shared game played in person count the
	// players of every server of the site for its clock, not only this
	// one's (presence.go). Nil, as on SQLite where one server is the whole
	// site: the clock runs only while this host has players.
	Presence Presence
}

// Host is one live game: see the package comment. Its methods are safe
// for concurrent use.
type Host struct {
	cfg Config

	mu      sync.Mutex
	g       Game
	autos   [2]Automaton
	subs    map[Sub][]byte // each subscriber and the last state it was sent
	players int            // subscribers that are players
	// here is whether this server's presence in the game, as last
	// recorded in Config.Presence, says it has players.
	here    bool
	flag    *time.Timer
	pending *pending
	turn    *Turn // the automaton's turn in progress, or nil
	closed  bool
	// autosClosed is set once the automata are closed.
	autosClosed bool
	// ended is set by the commit that ended the game, until the change
	// that made it is followed up (afterLocked).
	ended bool
	// quiet are closed once no automaton's turn runs and no step waits to
	// be saved (Settled).
	quiet []chan struct{}
	// registry holds the host, or nil (registry.go).
	registry *Registry
}

// NewHost returns the host of g, whose colours autos plays (nil: a person
// or a remote client). It does nothing until it is joined, or Started.
func NewHost(cfg Config, g Game, autos [2]Automaton) *Host {
	if cfg.SaveRetryFirst <= 0 {
		cfg.SaveRetryFirst = DefaultSaveRetryFirst
	}
	if cfg.SaveRetryMax <= 0 {
		cfg.SaveRetryMax = DefaultSaveRetryMax
	}
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if cfg.Logf == nil {
		cfg.Logf = log.Printf
	}
	return &Host{cfg: cfg, g: g, autos: autos, subs: map[Sub][]byte{}}
}

// ID returns the game's ID.
func (h *Host) ID() string { return h.cfg.ID }

func (h *Host) logf(format string, args ...any) {
	h.cfg.Logf("live: game "+h.cfg.ID+": "+format, args...)
}

// Start sets the host going without a subscriber: its clock and its
// automata, as a game on the server's clock needs.
func (h *Host) Start() {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := time.Now()
	if !h.flagIfDueLocked(now) {
		h.syncClockStartedLocked(now)
		h.maybeStartTurnLocked(now)
	}
}

// Read runs f under the host's lock, with the game, for a look that
// changes nothing (the clock's flag is checked first). It reports false,
// f not run, when the host has closed.
func (h *Host) Read(f func(g Game, m Moment)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	now := time.Now()
	h.flagIfDueLocked(now)
	f(h.g, h.momentLocked(now))
	return true
}

// Locked runs f under the host's lock with the host as a Locked: for
// something of a kind's own that is more than one change or none (a draw
// offer considered, answered, accepted). ErrClosed, f not run, when the
// host has closed.
func (h *Host) Locked(f func(l Locked) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	return f(Locked{h})
}

// Act applies a player's change f (a person's, from a socket; a remote
// client's, from the API) and commits it. The mover's clock is checked
// first: when it has run out the game ends on time and Act returns
// ErrTimeUp. A change the rules refuse returns f's error, one the database
// refuses ErrUnsaved; either way the game is as before. Nobody is retried.
// On success every subscriber is sent its state, the clock and the
// automata go on from the new position.
func (h *Host) Act(f func(now time.Time) error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.actLocked(time.Now(), f)
}

func (h *Host) actLocked(now time.Time, f func(now time.Time) error) error {
	return h.actToldLocked(now, f, nil)
}

// actToldLocked is actLocked, with notice (when not nil) sent to the
// players once the change is committed, before its state.
func (h *Host) actToldLocked(now time.Time, f func(now time.Time) error, notice []byte) error {
	if h.closed {
		return ErrClosed
	}
	if p := h.pending; p != nil && p.flag {
		return ErrEndUnsaved
	}
	if h.flagIfDueLocked(now) {
		if h.pending != nil {
			return ErrEndUnsaved
		}
		return ErrTimeUp
	}
	switch err := h.changeLocked(now, f); {
	case errors.Is(err, ErrNothing):
		return nil
	case err != nil:
		return err
	}
	if notice != nil {
		h.Notify(notice, false)
	}
	h.afterLocked(now, nil)
	return nil
}

// changeLocked applies f and commits the game. When f fails (the rules
// refuse: its error) or the commit does (ErrUnsaved), the game is put
// back as it was. A change that ended the game marks the host for
// afterLocked and runs Config.Ended.
func (h *Host) changeLocked(now time.Time, f func(now time.Time) error) error {
	wasOver := h.g.Over()
	restore := h.g.Mark()
	if err := f(now); err != nil {
		restore()
		if !errors.Is(err, ErrNothing) && !errors.Is(err, errNotOut) && h.staleLocked(now) {
			return fmt.Errorf("%w (refused on the older copy: %w)", ErrConflict, err)
		}
		return err
	}
	// The clock as it runs after the change is what the record says, so
	// that a crash after the commit charges the mover from now.
	h.syncClockLocked(now)
	if err := h.commitLocked(now); err != nil {
		restore()
		h.syncClockLocked(now)
		if errors.Is(err, ErrConflict) {
			h.reloadLocked(now)
			return ErrConflict
		}
		return ErrUnsaved
	}
	if !wasOver && h.g.Over() {
		h.ended = true
		if h.cfg.Ended != nil {
			h.cfg.Ended()
		}
	}
	return nil
}

// commitLocked commits the game as it is (logged on failure).
func (h *Host) commitLocked(now time.Time) error {
	if err := h.g.Commit(now); err != nil {
		h.logf("commit: %v", err)
		return err
	}
	return nil
}

// afterLocked follows a committed change (a player's, an automaton's
// step, a step saved later, a flag fall; own is the turn whose step it
// was, or nil): when the change ended the game, the automaton's turn stops
// and what waited to be saved is dropped; else a turn the change overtook
// (not the step's own) is withdrawn. The clock and the automata go
// on, every subscriber is told, and a game on the server's clock that
// ended leaves its registry and closes (its game is read from its record
// from then on).
func (h *Host) afterLocked(now time.Time, own *Turn) {
	ended := h.ended
	h.ended = false
	if t := h.turn; t != nil && (ended || t != own && !t.onLocked()) {
		t.withdrawLocked()
	}
	if ended {
		h.dropPendingLocked()
	}
	h.syncClockLocked(now)
	h.maybeStartTurnLocked(now)
	h.broadcastLocked(now)
	if h.cfg.Always && h.g.Over() {
		if h.registry != nil {
			h.registry.retireLocked(h)
		}
		h.closeLocked(now)
	}
}

// momentLocked is the host's side of a view at now.
func (h *Host) momentLocked(now time.Time) Moment {
	m := Moment{Now: now}
	if p := h.pending; p != nil {
		m.Saving, m.SavingEnd = true, p.flag
		m.Thinking = !p.flag
	}
	if t := h.turn; t != nil && !t.withdrawn {
		if mover, on := h.g.Turn(); on && mover == t.color {
			m.Thinking = true
		}
	}
	return m
}

// Close closes the host: the automaton's turn is withdrawn, a step waiting
// to be saved dropped, the clock stopped and committed (logged on failure),
// and nothing changes the game here any more. The subscribers are the
// caller's to let go. Closing twice does nothing.
func (h *Host) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closeLocked(time.Now())
}

func (h *Host) closeLocked(now time.Time) {
	if h.closed {
		return
	}
	if h.turn != nil {
		h.turn.withdrawLocked()
	}
	h.dropPendingLocked()
	h.announceLocked(now, false)
	c := h.g.Clock()
	if _, running := c.Running(); running {
		// A player of the game on another server keeps its clock running
		// there: nothing to stop (a failed look stops it, and their server
		// starts it again).
		if elsewhere, err := h.elsewhereLocked(now); !elsewhere || err != nil {
			c.Stop(now)
			_ = h.commitLocked(now) // logged; at worst the running turn's time is not charged
		}
	}
	h.closed = true
	if h.flag != nil {
		h.flag.Stop()
		h.flag = nil
	}
	h.closeAutomataLocked()
}

// closeAutomataLocked closes the automata of a closed host once no turn
// runs (otherwise the turn's end closes them).
func (h *Host) closeAutomataLocked() {
	if !h.closed || h.turn != nil || h.autosClosed {
		return
	}
	h.autosClosed = true
	for _, a := range h.autos {
		if a != nil {
			a.Close()
		}
	}
}

// Settled returns a channel closed once no automaton's turn runs and no
// step waits to be saved (at once when that is so now): for a caller that
// must see the game at rest.
func (h *Host) Settled() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch := make(chan struct{})
	h.quiet = append(h.quiet, ch)
	h.notifyQuietLocked()
	return ch
}

// notifyQuietLocked closes the Settled channels when the host is at rest.
func (h *Host) notifyQuietLocked() {
	if h.turn != nil || h.pending != nil {
		return
	}
	for _, ch := range h.quiet {
		close(ch)
	}
	h.quiet = nil
}

// Closed reports whether the host has closed.
func (h *Host) Closed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}
