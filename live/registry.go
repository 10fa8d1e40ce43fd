package live

import (
	"errors"
	"sync"
	"time"
)

// Registry keeps the hosts of the games being played, by ID: one host per
// game, loaded from its record when its first subscriber comes, closed
// (its clock committed) when its last subscriber leaves. Hosts of games on
// the server's clock (Config.Always) are kept until their game ends.
//
// Its lock guards only its maps and is never held across a load or a
// commit: a game being loaded or closed is guarded by its gate, which
// whoever else wants the game waits for, so there is still one host per
// game and none built from a record older than the last commit.
type Registry struct {
	load func(id string) (*Host, error)

	mu     sync.Mutex
	hosts  map[string]*Host
	gates  map[string]chan struct{}
	closed bool
}

// ErrStopped: the registry (the server) is stopping.
var ErrStopped = errors.New("live: the server is stopping")

// NewRegistry returns a registry that builds a game's host with load.
func NewRegistry(load func(id string) (*Host, error)) *Registry {
	return &Registry{load: load, hosts: map[string]*Host{}, gates: map[string]chan struct{}{}}
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
	r.hosts[id] = h
	h.registry = r
	r.mu.Unlock()
	if h.cfg.Always {
		h.Start()
	}
	return h, nil
}

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

// Remove closes the host of game id, live or not, under its gate, with
// f run under the host's lock first (a game resigned or deleted from a
// list); f gets the host of a game nobody had open, loaded for the purpose.
// Its subscribers are returned for the caller to let go.
func (r *Registry) Remove(id string, f func(h *Host) error) ([]Sub, error) {
	r.mu.Lock()
	r.waitGateLocked(id)
	if r.closed {
		r.mu.Unlock()
		return nil, ErrStopped
	}
	h := r.hosts[id]
	delete(r.hosts, id)
	r.takeGateLocked(id)
	r.mu.Unlock()
	defer r.releaseGate(id)
	if h == nil {
		var err error
		if h, err = r.load(id); err != nil {
			return nil, err
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	err := f(h)
	subs := h.takeSubscribersLocked()
	h.closeLocked(time.Now())
	return subs, err
}

// With runs f under the lock of game id's host, the live one or, when
// nobody has the game open, one loaded for the purpose and closed after,
// under the game's gate.
func (r *Registry) With(id string, f func(h *Host) error) error {
	r.mu.Lock()
	r.waitGateLocked(id)
	if r.closed {
		r.mu.Unlock()
		return ErrStopped
	}
	if h := r.hosts[id]; h != nil {
		r.mu.Unlock()
		h.mu.Lock()
		defer h.mu.Unlock()
		if h.closed {
			return r.With(id, f)
		}
		return f(h)
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
	err = f(h)
	h.closeLocked(time.Now())
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
		subs = append(subs, h.Subscribers()...)
		h.Close()
	}
	return subs
}
