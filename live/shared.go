package live

import (
	"errors"
	"time"
)

// ErrConflict: another server committed the game first. The change was
// not made; the host has read the game again and sent every subscriber
// its state, so the player sees what happened and may act on it.
var ErrConflict = errors.New("live: the game changed on another server")

// Shared is a Game that other servers commit too: a site of several
// servers on one database, where any of them may hold a host of the same
// game. Each commit makes a new revision of the record, and only from the
// revision the game was built from: a Commit made from an older one fails
// with an error wrapping ErrConflict and changes nothing, so of two
// servers racing on one game exactly one wins.
type Shared interface {
	Game
	// Revision is the revision of the committed record the game is built
	// from (read or committed last).
	Revision() int64
	// Reload rebuilds the game from its record as committed now, the
	// clock included.
	Reload() error
	// Latest reads the revision the record is committed at now.
	Latest() (int64, error)
}

// staleLocked reports, for a shared game whose change the rules refused,
// whether the refusal came from a copy another server had moved on: then
// the host reads the game again (and tells everyone), and the change is
// the caller's to make again on the game as it stands.
func (h *Host) staleLocked(now time.Time) bool { return h.catchUpLocked(now) }

// catchUpLocked reads a shared game again when its record has moved on
// (another server committed a change the feed has not brought here yet),
// and reports whether it did. It costs one read of the revision; it is
// for whoever is about to be told the game as it stands (a socket
// joining, a client's read), so that nobody is shown a game older than
// what was committed before they asked: a client that acted through one
// server and reads through another a moment later sees its action.
func (h *Host) catchUpLocked(now time.Time) bool {
	s, ok := h.g.(Shared)
	if !ok {
		return false
	}
	latest, err := s.Latest()
	if err != nil || latest <= s.Revision() {
		return false
	}
	h.reloadLocked(now)
	return true
}

// ReadLatest is Read of the game as committed now: a shared game whose
// record moved on is read again first (catchUpLocked).
func (h *Host) ReadLatest(f func(g Game, m Moment)) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	now := time.Now()
	h.catchUpLocked(now)
	if h.closed {
		return false
	}
	h.flagIfDueLocked(now)
	f(h.g, h.momentLocked(now))
	return true
}

// Changed tells the host that its game was committed at revision on
// another server (the site's change feed): when that is newer than its
// own, the host reads the game again and tells every subscriber. Its own
// commits, heard back, change nothing.
func (h *Host) Changed(revision int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.g.(Shared)
	if !ok || h.closed || revision <= s.Revision() {
		return
	}
	h.reloadLocked(time.Now())
}

// Resync has the host read its game again, whatever its revision: the
// change feed was cut, and what changed meanwhile was not heard.
func (h *Host) Resync() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.g.(Shared); !ok || h.closed {
		return
	}
	h.reloadLocked(time.Now())
}

// reloadLocked reads the game again and follows it up as any committed
// change: an automaton's turn it overtook is withdrawn, a step waiting to
// be saved is dropped (it was made from an older revision), the clock and
// the automata go on and every subscriber is told. When the read fails the
// game stays as it was; the next change heard, or the next commit's
// conflict, reads again.
func (h *Host) reloadLocked(now time.Time) {
	s, ok := h.g.(Shared)
	if !ok {
		return // a game no other server commits: a conflict cannot be
	}
	before := s.Revision()
	if err := s.Reload(); err != nil {
		h.logf("reading the game again: %v", err)
		return
	}
	if s.Revision() == before {
		return
	}
	h.dropPendingLocked()
	_, was := h.g.Clock().Running()
	h.syncClockLocked(now)
	if _, running := h.g.Clock().Running(); running && !was && h.presence() != nil {
		// The record has the clock stopped while a player is here (another
		// server stopped it as this one's player came): its start is
		// committed, so that every server runs it from the same moment. A
		// conflict is left to the change feed, which brings the newer
		// revision here.
		_ = h.commitLocked(now) // logged
	}
	h.afterLocked(now, nil)
}

// Changed hands a change heard on the site's change feed to the host of
// game id, if this server holds one (Host.Changed).
func (r *Registry) Changed(id string, revision int64) {
	if h := r.Get(id); h != nil {
		h.Changed(revision)
	}
}

// Resync has every host read its game again (Host.Resync): the change
// feed was cut. The hosts read one after another, none under the
// registry's lock.
func (r *Registry) Resync() {
	for _, h := range r.all() {
		h.Resync()
	}
}
