package live

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Registry keeps the hosts of the games being played, by ID: one host per
// game, loaded from its record when its first subscriber comes, closed
// (its clock committed) when its last subscriber leaves. Hosts of games on
// the server's clock (Config.Always) are kept until their game ends. Each
// kind of game (chess against the engine, Reconnaissance Chess in the
// browser, the HTTP API's games) brings its own loader, for the IDs that
// start with its prefix (Kind): the packages that host games never import
// each other for it.
//
// Its lock guards only its maps and is never held across a load or a
// commit: a game being loaded or closed is guarded by its gate, which
// whoever else wants the game waits for, so there is still one host per
// game and none built from a record older than the last commit.
type Registry struct {
	mu     sync.Mutex
	kinds  []kind
	hosts  map[string]*Host
	gates  map[string]chan struct{}
	closed bool
}

// kind is one kind of game: the prefix of its IDs and its loader.
type kind struct {
	prefix string
	load   func(id string) (*Host, error)
}

// Errors of a registry.
var (
	// ErrStopped: the registry (the server) is stopping.
	ErrStopped = errors.New("live: the server is stopping")
	// ErrNoKind: no kind of game has IDs like this one (Kind).
	ErrNoKind = errors.New("live: no kind of game has this ID")
)

// NewRegistry returns a registry that knows no kind of game yet: Kind
// adds each.
func NewRegistry() *Registry {
	return &Registry{hosts: map[string]*Host{}, gates: map[string]chan struct{}{}}
}

// Kind makes load build the host of every game whose ID starts with
// prefix (from its record; no lock is held while it runs). The longest
// prefix that fits an ID wins; a second loader for the same prefix
// replaces the first.
func (r *Registry) Kind(prefix string, load func(id string) (*Host, error)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, k := range r.kinds {
		if k.prefix == prefix {
			r.kinds[i].load = load
			return
		}
	}
	r.kinds = append(r.kinds, kind{prefix: prefix, load: load})
}

// load builds game id's host with the loader of its kind (no lock held).
func (r *Registry) load(id string) (*Host, error) {
	r.mu.Lock()
	var load func(string) (*Host, error)
	best := -1
	for _, k := range r.kinds {
		if strings.HasPrefix(id, k.prefix) && len(k.prefix) > best {
			load, best = k.load, len(k.prefix)
		}
	}
	r.mu.Unlock()
	if load == nil {
		return nil, fmt.Errorf("%w: %q", ErrNoKind, id)
	}
	return load(id)
}

// waitGateLocked returns, with r.mu held as on entry, once nobody holds
// id's gate; it releases r.mu while it waits.
func (r *Registry) waitGateLocked(id string) {
	for {
		ch := r.gates[id]
		if ch == nil {
			return
		}
		r.mu.Unlock()
		<-ch
		r.mu.Lock()
	}
}

// takeGateLocked waits for id's gate and takes it (r.mu held).
func (r *Registry) takeGateLocked(id string) {
	r.waitGateLocked(id)
	r.gates[id] = make(chan struct{})
}

// releaseGate releases id's gate.
func (r *Registry) releaseGate(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	close(r.gates[id])
	delete(r.gates, id)
}

// Join subscribes s to game id, loading the game when no host has it, and
// returns its host. The load's own error (the game does not exist, say)
// is returned as it is; ErrStopped when the server is stopping.
func (r *Registry) Join(id string, s Sub) (*Host, error) {
	for {
		h, err := r.host(id)
		if err != nil {
			return nil, err
		}
		if err := h.Join(s); !errors.Is(err, ErrClosed) {
			return h, err
		}
		// The host closed as s came in (its last subscriber left): look again.
	}
}

// host returns the host of game id, loading it under the game's gate when
// there is none.
func (r *Registry) host(id string) (*Host, error) {
	r.mu.Lock()
	r.waitGateLocked(id)
	if r.closed {
		r.mu.Unlock()
		return nil, ErrStopped
	}
	if h := r.hosts[id]; h != nil {
		r.mu.Unlock()
		return h, nil
	}
	r.takeGateLocked(id)
	r.mu.Unlock()
	h, err := r.load(id)
	r.mu.Lock()
	close(r.gates[id])
	delete(r.gates, id)
	if err == nil && r.closed {
		err = ErrStopped
	}
	if err != nil {
		r.mu.Unlock()
		if h != nil {
			h.Close()
		}
		return nil, err
	}
	if h.cfg.Always && h.g.Over() {
		// A finished game on the server's clock is not kept: the host,
		// never started, serves the one caller's look at it.
		r.mu.Unlock()
		return h, nil
	}
	r.hosts[id] = h
	h.registry = r
	r.mu.Unlock()
	if h.cfg.Always {
		h.Start()
	}
	return h, nil
}

// Open returns the host of game id, loading the game when no host has it:
// a game on the server's clock is kept and started (unless it is over: its
// host then serves the caller alone, unstarted).
func (r *Registry) Open(id string) (*Host, error) { return r.host(id) }

// Keep puts h, a host of a game on the server's clock, in the registry and
// starts it; it stays until its game ends (or the server stops).
func (r *Registry) Keep(h *Host) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrStopped
	}
	r.hosts[h.cfg.ID] = h
	h.registry = r
	r.mu.Unlock()
	h.Start()
	return nil
}

// Get returns the host of game id when one is live, or nil.
func (r *Registry) Get(id string) *Host {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hosts[id]
}

// Leave unsubscribes s from h. The last subscriber out of a game played in
// person closes its host: it leaves the registry at once, and commits its
// clock under the game's gate, outside the registry's lock.
func (r *Registry) Leave(h *Host, s Sub) {
	h.mu.Lock()
	now := time.Now()
	if !h.leaveLocked(s, now) || h.cfg.Always || h.closed {
		h.mu.Unlock()
		return
	}
	gated := r.unhubLocked(h)
	h.closeLocked(now)
	h.mu.Unlock()
	if gated {
		r.releaseGate(h.cfg.ID)
	}
}

// unhubLocked takes h out of the registry when it is still there and takes
// its game's gate, so that no subscriber loads the game before h has
// committed; it reports whether it did. The caller holds h's lock (a
// host's lock, then the registry's). No gate is held for a game whose host
// is in the registry, so taking it here never waits.
func (r *Registry) unhubLocked(h *Host) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hosts[h.cfg.ID] != h {
		return false
	}
	delete(r.hosts, h.cfg.ID)
	r.takeGateLocked(h.cfg.ID)
	return true
}

// retireLocked takes a kept host whose game ended out of the registry
// (h's lock held).
func (r *Registry) retireLocked(h *Host) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hosts[h.cfg.ID] == h {
		delete(r.hosts, h.cfg.ID)
	}
}

// Locked is a host whose lock the caller holds: what Registry.With and
// Registry.Remove hand their function.
type Locked struct{ h *Host }

// Act applies a player's change as Host.Act does.
func (l Locked) Act(f func(now time.Time) error) error { return l.h.actLocked(time.Now(), f) }

// ActTold is Act, with notice sent to the players once the change is
// committed, before its state.
func (l Locked) ActTold(notice []byte, f func(now time.Time) error) error {
	return l.h.actToldLocked(time.Now(), f, notice)
}

// Notify sends b to the players' subscribers, as Host.Notify does.
func (l Locked) Notify(b []byte) { l.h.Notify(b, false) }

// Game returns the host's game.
func (l Locked) Game() Game { return l.h.g }

// Read runs f with the game, as Host.Read does.
func (l Locked) Read(f func(g Game, m Moment)) { f(l.h.g, l.h.momentLocked(time.Now())) }

// With runs f under the lock of game id's host: the live one or, when
// nobody has the game open, one loaded for the purpose and closed after
// (its changes committed), under the game's gate so that nobody loads the
// game meanwhile.
func (r *Registry) With(id string, f func(l Locked) error) error {
	for {
		r.mu.Lock()
		r.waitGateLocked(id)
		if r.closed {
			r.mu.Unlock()
			return ErrStopped
		}
		if h := r.hosts[id]; h != nil {
			r.mu.Unlock()
			h.mu.Lock()
			if h.closed { // its last subscriber left meanwhile: look again
				h.mu.Unlock()
				continue
			}
			err := f(Locked{h})
			h.mu.Unlock()
			return err
		}
		r.takeGateLocked(id)
		r.mu.Unlock()
		defer r.releaseGate(id)
		h, err := r.load(id)
		if err != nil {
			return err
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		err = f(Locked{h})
		h.closeLocked(time.Now())
		return err
	}
}

// Remove takes game id out of play under its gate. When a host has the
// game open, f runs under its lock and decides: an error leaves the host
// as it was; nil closes it (its clock committed) and takes its
// subscribers. Then, unless f refused, done runs, still under the gate
// (a game deleted in the store before anyone can load it again). Remove
// returns the subscribers taken, for the caller to let go, and the first
// error.
func (r *Registry) Remove(id string, f func(l Locked) error, done func() error) ([]Sub, error) {
	r.mu.Lock()
	r.takeGateLocked(id)
	if r.closed {
		close(r.gates[id])
		delete(r.gates, id)
		r.mu.Unlock()
		return nil, ErrStopped
	}
	h := r.hosts[id]
	delete(r.hosts, id) // a gate held means no host in the registry
	r.mu.Unlock()
	var subs []Sub
	if h != nil {
		h.mu.Lock()
		if !h.closed {
			if err := f(Locked{h}); err != nil {
				// The host stays (a host's lock, then the registry's).
				r.mu.Lock()
				r.hosts[id] = h
				close(r.gates[id])
				delete(r.gates, id)
				r.mu.Unlock()
				h.mu.Unlock()
				return nil, err
			}
			subs = h.takeSubscribersLocked()
			h.closeLocked(time.Now())
		}
		h.mu.Unlock()
	}
	err := done()
	r.releaseGate(id)
	return subs, err
}

// TryGates takes the gates of those of ids that no host has open and
// nobody is loading or closing, runs f with them, and releases them: a
// sweep that drops games nobody plays, without waiting for any.
func (r *Registry) TryGates(ids []string, f func(free []string) error) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrStopped
	}
	var free []string
	for _, id := range ids {
		if r.hosts[id] == nil && r.gates[id] == nil {
			r.gates[id] = make(chan struct{})
			free = append(free, id)
		}
	}
	r.mu.Unlock()
	err := f(free)
	r.mu.Lock()
	for _, id := range free {
		close(r.gates[id])
		delete(r.gates, id)
	}
	r.mu.Unlock()
	return err
}

// Close stops the registry: no game is loaded any more, and every host is
// closed (clocks committed). It returns the hosts' subscribers for the
// server to let go.
func (r *Registry) Close() []Sub {
	r.mu.Lock()
	r.closed = true
	hosts := make([]*Host, 0, len(r.hosts))
	for _, h := range r.hosts {
		hosts = append(hosts, h)
	}
	r.mu.Unlock()
	var subs []Sub
	for _, h := range hosts {
		h.Close() // first: nobody joins a closed host
		subs = append(subs, h.Subscribers()...)
	}
	return subs
}

// Held returns the IDs of the games this registry holds a host of whose
// IDs start with prefix (a kind's): what a server looks after, for the
// leases it renews.
func (r *Registry) Held(prefix string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for id := range r.hosts {
		if strings.HasPrefix(id, prefix) {
			ids = append(ids, id)
		}
	}
	return ids
}
