package live

import (
	"errors"
	"time"
)

// Presence is where the servers of a site on one database say which games
// they have players of, so that a game played in person keeps its clock
// running while its player has it open on any server, not only on the one
// asked. A server's presence in a game lasts a while unless renewed (the
// store renews every server's own in one statement), so that a killed
// server's players are known gone soon after. Its methods are called under
// a host's lock and must return soon.
type Presence interface {
	// Here records at now that this server has players of game id
	// (present) or no longer has any.
	Here(id string, present bool, now time.Time) error
	// Elsewhere reports whether another server has players of game id at
	// now.
	Elsewhere(id string, now time.Time) (bool, error)
}

// The clock of a shared game played in person, with a Presence
// (Config.Presence): its committed record says whether the mover's clock
// runs and since when, and every server's host computes the clock from
// that. A host with players here runs it, and commits its start when the
// record has it stopped (a player came, or another server stopped it as
// this one's player came). A host without players follows the record
// (another server's player may be at the board), and stops the clock, as
// a commit, only where it must decide for itself: its last player
// leaves, it closes, or the presence sweep (Registry.SweepPresence) finds
// that nobody anywhere has the game open (their server was killed). The
// other servers follow such commits through the change feed. Without a
// Presence (one server: SQLite), the clock runs only while this host has
// players, as it always did.

// presence returns the host's Presence when its clock depends on players
// on other servers: a shared game played in person; nil otherwise.
func (h *Host) presence() Presence {
	if h.cfg.Presence == nil || h.cfg.Always {
		return nil
	}
	if _, ok := h.g.(Shared); !ok {
		return nil
	}
	return h.cfg.Presence
}

// playedLocked reports whether the clock's policy counts the game as
// played now: players here, or (with a Presence) a clock the record runs,
// which a host without players follows.
func (h *Host) playedLocked() bool {
	if h.players > 0 {
		return true
	}
	if h.presence() == nil {
		return false
	}
	_, running := h.g.Clock().Running()
	return running
}

// announceLocked records this server's presence in the game as present
// says, when that is not what it last recorded. A failed write is logged
// and made again by the next sweep.
func (h *Host) announceLocked(now time.Time, present bool) {
	p := h.presence()
	if p == nil || present == h.here {
		return
	}
	if err := p.Here(h.cfg.ID, present, now); err != nil {
		h.logf("presence: %v", err)
		return
	}
	h.here = present
}

// elsewhereLocked reports whether another server has players of the game
// at now (false without a Presence).
func (h *Host) elsewhereLocked(now time.Time) (bool, error) {
	p := h.presence()
	if p == nil {
		return false, nil
	}
	ok, err := p.Elsewhere(h.cfg.ID, now)
	if err != nil {
		h.logf("presence: %v", err)
	}
	return ok, err
}

// stopClockLocked stops the running clock at now (nobody plays the game
// anywhere) and commits it (logged on failure: at worst the time since
// the last commit is not charged), and broadcasts the stop. On a conflict
// the game is read again instead, which tells everyone.
func (h *Host) stopClockLocked(now time.Time) {
	h.g.Clock().Stop(now)
	h.armFlagLocked()
	if err := h.commitLocked(now); errors.Is(err, ErrConflict) {
		h.reloadLocked(now) // another server moved the game on
		return
	}
	h.broadcastLocked(now) // spectators see the clock stopped
}

// sweepPresenceLocked is the sweep's look at one host (Registry.SweepPresence).
func (h *Host) sweepPresenceLocked(now time.Time) {
	if h.closed || h.presence() == nil {
		return
	}
	h.announceLocked(now, h.players > 0)
	if h.players > 0 || h.pending != nil {
		return
	}
	if _, running := h.g.Clock().Running(); !running {
		return
	}
	if elsewhere, err := h.elsewhereLocked(now); err != nil || elsewhere {
		return // unknown (logged): the record's clock stands as it is
	}
	h.stopClockLocked(now)
}

// SweepPresence looks at every host of a shared game played in person
// (Config.Presence): this server's presence is written again where its
// write failed, and a clock that runs though nobody has the game open on
// any server (their server was killed and its presence expired) is
// stopped and committed. The server calls it every second or so, with
// the renewal of its presence. The hosts are looked at one after another,
// none under the registry's lock.
func (r *Registry) SweepPresence() {
	for _, h := range r.all() {
		h.mu.Lock()
		h.sweepPresenceLocked(time.Now())
		h.mu.Unlock()
	}
}

// all returns the registry's hosts (taken under its lock, returned
// without it).
func (r *Registry) all() []*Host {
	r.mu.Lock()
	defer r.mu.Unlock()
	hosts := make([]*Host, 0, len(r.hosts))
	for _, h := range r.hosts {
		hosts = append(hosts, h)
	}
	return hosts
}
