package web

import (
	"strings"
	"time"

	"knightwatch/store"
)

// The list of unfinished games acts on both kinds of game, against the
// engine (room) and in Reconnaissance Chess (a live.Host), in one way
// (unfinished.go); listRoom and listKind are what differs.

// listRoom is what Resign and Delete from the list need of a game's room.
type listRoom interface {
	lock()
	unlock()
	closedLocked() bool // its last tab has left (or it was shut)
	overLocked() bool   // the game's end is committed
	resignLocked(now time.Time) *ProtoError
	broadcastLocked(b []byte)
	broadcastStateLocked(now time.Time)
	shutdownLocked(now time.Time)
	// takeTabsLocked empties a room just shut: it returns the players'
	// tabs and lets spectators go.
	takeTabsLocked() map[*client]struct{}
}

func (r *room) lock()              { r.mu.Lock() }
func (r *room) unlock()            { r.mu.Unlock() }
func (r *room) closedLocked() bool { return r.closed }
func (r *room) overLocked() bool   { return r.over() }

func (r *room) takeTabsLocked() map[*client]struct{} {
	clients := r.clients
	r.clients = map[*client]struct{}{}
	for c := range r.watchers {
		c.stop() // a spectator is simply let go: the game is gone
	}
	r.watchers = map[*client]struct{}{}
	return clients
}

// listKind is one kind of game as the list acts on it: its record, its
// rooms in the hub, and how to build one.
type listKind struct {
	// status reads the owner's game's status (ErrNotFound: none).
	status func(id, owner string) (store.Status, error)
	// live, remove and put look up, take out and put back the game's
	// open room in the hub (hub.mu held); live returns nil without one.
	live   func(id string) listRoom
	remove func(id string)
	put    func(id string, r listRoom)
	// load builds a room for a game no tab has open, from its record.
	load func(id string) (listRoom, error)
	// delete soft-deletes the owner's unfinished game.
	delete func(id, owner string) error
	// hosted: the game is played in a live.Host (the registry has its
	// live one); live, remove, put and load are then unused.
	hosted bool
}

// check refuses a game that is not the owner's unfinished one.
func (k *listKind) check(id, owner string) error {
	st, err := k.status(id, owner)
	if err != nil {
		return err
	}
	if st != store.StatusPlaying {
		return notUnfinished(st)
	}
	return nil
}

// listKindOf returns the kind of game id, by its prefix.
func (s *Server) listKindOf(id string) *listKind {
	if strings.HasPrefix(id, store.ReconIDPrefix) {
		return &listKind{
			status: func(id, owner string) (store.Status, error) {
				rec, err := s.store.GetOwnedReconGame(id, owner)
				if err != nil {
					return 0, err
				}
				return rec.Status, nil
			},
			delete: s.store.DeleteReconGame,
			hosted: true,
		}
	}
	return &listKind{
		status: func(id, owner string) (store.Status, error) {
			rec, err := s.store.GetOwnedGame(id, owner)
			if err != nil {
				return 0, err
			}
			return rec.Status, nil
		},
		live: func(id string) listRoom {
			if r := s.hub.rooms[id]; r != nil {
				return r
			}
			return nil
		},
		remove: func(id string) { delete(s.hub.rooms, id) },
		put:    func(id string, r listRoom) { s.hub.rooms[id] = r.(*room) },
		load: func(id string) (listRoom, error) {
			r, err := s.loadRoom(id)
			if err != nil {
				return nil, err
			}
			return r, nil
		},
		delete: s.store.DeleteGame,
	}
}
