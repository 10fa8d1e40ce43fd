package web

import (
	"strings"

	"knightwatch/store"
)

// The list of unfinished games acts on both kinds of game in a browser,
// against the engine and in Reconnaissance Chess, in one way
// (unfinished.go): through the game's host (live.Registry's With and
// Remove). listKind is what differs: the record.

// listKind is one kind of game as the list acts on it: its record.
type listKind struct {
	// status reads the owner's game's status (ErrNotFound: none).
	status func(id, owner string) (store.Status, error)
	// delete soft-deletes the owner's unfinished game.
	delete func(id, owner string) error
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
		delete: s.store.DeleteGame,
	}
}
