package live

import (
	"bytes"
	"time"
)

// The host's subscribers: joining and leaving, and what each is sent.

// broadcastLocked sends each subscriber its viewer's state when it
// changed for it.
func (h *Host) broadcastLocked(now time.Time) {
	m := h.momentLocked(now)
	views := map[Viewer][]byte{}
	for s, last := range h.subs {
		v := s.Viewer()
		b, ok := views[v]
		if !ok {
			b = h.g.View(v, m)
			views[v] = b
		}
		if !bytes.Equal(b, last) {
			h.subs[s] = b
			s.Send(b)
		}
	}
}

// sendStateLocked sends s its state, changed or not.
func (h *Host) sendStateLocked(s Sub, now time.Time) {
	b := h.g.View(s.Viewer(), h.momentLocked(now))
	h.subs[s] = b
	s.Send(b)
}

// noticeLocked sends the players notice n, if the game words it.
func (h *Host) noticeLocked(n Notice) {
	if b := h.g.Notice(n); b != nil {
		h.Notify(b, false)
	}
}

// Notify sends b to every subscriber (players only, unless spectators is
// set), as it is: a notice in words. The caller holds the host's lock
// (within Act, Read or a Turn) or calls it from outside any (it then
// takes it).
func (h *Host) Notify(b []byte, spectators bool) {
	for s := range h.subs {
		if _, player := s.Viewer().Color(); player || spectators {
			s.Send(b)
		}
	}
}

// Join adds subscriber s and sends it its state; a player's arrival may
// start the clock and the automaton to move. ErrClosed when the host has
// closed.
func (h *Host) Join(s Sub) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	now := time.Now()
	// A socket that comes here after its player acted on another server
	// is sent the game with that action, not as the feed last left it.
	h.catchUpLocked(now)
	if h.closed {
		return ErrClosed // the game ended meanwhile, and its host with it
	}
	h.subs[s] = nil
	if _, player := s.Viewer().Color(); player {
		h.players++
		h.announceLocked(now, true) // before the clock's start is committed: the others read both
	}
	if !h.flagIfDueLocked(now) {
		h.syncClockStartedLocked(now)
		h.maybeStartTurnLocked(now)
	}
	h.sendStateLocked(s, now)
	return nil
}

// SendState sends s its state as it is now (a sync).
func (h *Host) SendState(s Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		h.sendStateLocked(s, time.Now())
	}
}

// leaveLocked removes s. When the last player leaves a game played in
// person, its clock stops there (committed; at worst, when the database
// refuses, the time since the last commit is not charged) and an
// automaton's turn is withdrawn: nobody is charged for time away. It
// reports whether nobody is left.
func (h *Host) leaveLocked(s Sub, now time.Time) (empty bool) {
	if _, ok := h.subs[s]; !ok {
		return len(h.subs) == 0
	}
	delete(h.subs, s)
	if _, player := s.Viewer().Color(); player {
		h.players--
		if h.players == 0 && !h.cfg.Always && !h.closed {
			h.pauseLocked(now)
		}
	}
	return len(h.subs) == 0
}

// pauseLocked stops the game while nobody plays it: the automaton's turn
// is withdrawn (it plays again when a player comes back), a step waiting
// to be saved is dropped (a flag fall is found again), and the clock stops,
// committed.
func (h *Host) pauseLocked(now time.Time) {
	if h.turn != nil {
		h.turn.withdrawLocked()
	}
	h.dropPendingLocked()
	h.announceLocked(now, false) // before the look elsewhere: of two servers' last players leaving at once, one stops the clock
	_, running := h.g.Clock().Running()
	if !running {
		h.syncClockLocked(now)
		h.broadcastLocked(now)
		return
	}
	if elsewhere, err := h.elsewhereLocked(now); elsewhere && err == nil {
		return // the game's player is on another server: its clock runs on
	}
	h.stopClockLocked(now)
}

// Leave removes subscriber s (a host in a registry leaves through the
// registry, which closes it when it is empty).
func (h *Host) Leave(s Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.leaveLocked(s, time.Now())
}

// Subscribers returns the host's subscribers (for a server closing their
// transports).
func (h *Host) Subscribers() []Sub {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Sub, 0, len(h.subs))
	for s := range h.subs {
		out = append(out, s)
	}
	return out
}

// takeSubscribersLocked empties the host of its subscribers and returns
// them: a game deleted under open tabs.
func (h *Host) takeSubscribersLocked() []Sub {
	out := make([]Sub, 0, len(h.subs))
	for s := range h.subs {
		out = append(out, s)
	}
	h.subs = map[Sub][]byte{}
	h.players = 0
	return out
}
