package play

import (
	"errors"
	"strings"
	"time"

	"knightwatch/live"
	"knightwatch/store"
)

// The list of unfinished games (the home page's, issue 34) acts on both
// kinds of game in one way: through the game's host (live.Registry's With
// and Remove), so that the record, the clock charge and any open tab see
// exactly what the game page's own Resign does. listKind is what differs:
// the record.
//
// Deleting is a soft delete (store.StatusDeleted): the row stays, listed
// nowhere, so that a tab still open on the game, one that reconnects
// later, or a bookmark is told "this game was deleted" and sent home
// rather than finding nothing and retrying (ErrDeleted). Only unfinished
// games can be deleted; finished ones are the person's record.

// deletedURL is where a page or tab of a deleted game is sent (the home
// page, saying so).
const deletedURL = "/?done=deleted"

// deletedNotice is what a tab of a game deleted from the list is told
// before it is sent to the home page.
const deletedNotice = "This game was deleted from your list of games."

// resignedNotice is what the tabs of a game resigned from the list are
// told.
const resignedNotice = "You resigned this game from your list of games."

// DeletedMessages are what a tab of a deleted game is sent, in order: the
// notice, then the redirect to the home page.
func DeletedMessages() [][]byte {
	return [][]byte{encodeNotice(deletedNotice), encodeRedirect(deletedURL)}
}

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

func notUnfinished(st store.Status) error {
	if st == store.StatusDeleted {
		return store.ErrNotFound
	}
	return ErrNotUnfinished
}

// listKindOf returns the kind of game id, by its prefix.
func (gs *Games) listKindOf(id string) *listKind {
	st := gs.cfg.Store
	if strings.HasPrefix(id, store.ReconIDPrefix) {
		return &listKind{
			status: func(id, owner string) (store.Status, error) {
				rec, err := st.Games().GetOwnedReconGame(id, owner)
				if err != nil {
					return 0, err
				}
				return rec.Status, nil
			},
			delete: st.Games().DeleteReconGame,
		}
	}
	return &listKind{
		status: func(id, owner string) (store.Status, error) {
			rec, err := st.Games().GetOwnedGame(id, owner)
			if err != nil {
				return 0, err
			}
			return rec.Status, nil
		},
		delete: st.Games().DeleteGame,
	}
}

// personResigner is a hosted game in which the person can resign.
type personResigner interface {
	// resignPerson resigns for the person (under the host's lock);
	// ErrNotUnfinished when the game is over.
	resignPerson() error
}

// Resign resigns the owner's unfinished game id as the game page would, in
// its host: the live one, whose tabs are told, or one loaded for the
// moment under the game's gate (live.Registry's With: no tab opens it
// meanwhile) and closed again. store.ErrNotFound when the game is not the
// owner's, ErrNotUnfinished when it is over, live.ErrStopped when the
// server is stopping.
func (gs *Games) Resign(id, owner string) error {
	if err := gs.listKindOf(id).check(id, owner); err != nil {
		return err
	}
	err := gs.reg.With(id, func(l live.Locked) error {
		g := l.Game().(personResigner)
		return l.ActTold(encodeNotice(resignedNotice), func(time.Time) error { return g.resignPerson() })
	})
	if errors.Is(err, live.ErrTimeUp) {
		return ErrNotUnfinished
	}
	return err
}

// Delete soft-deletes the owner's unfinished game id: a host open on it is
// closed (its clock charged and committed, the engine or bot stopped) and
// its tabs are sent home with a notice (DeletedMessages), all under the game's
// gate (live.Registry's Remove), which keeps tabs from opening the game
// meanwhile. A game that ended meanwhile stays. It returns the tabs the
// host had, for the caller to hang up, and the errors of Resign.
func (gs *Games) Delete(id, owner string) ([]live.Sub, error) {
	k := gs.listKindOf(id)
	if err := k.check(id, owner); err != nil {
		return nil, err
	}
	subs, err := gs.reg.Remove(id, func(l live.Locked) error {
		if _, on := l.Game().Turn(); !on && l.Game().(interface{ over() bool }).over() {
			return ErrNotUnfinished
		}
		return nil
	}, func() error {
		err := k.delete(id, owner)
		if errors.Is(err, store.ErrNotFound) {
			// Ended or deleted since the check, by a host now closed.
			if cerr := k.check(id, owner); cerr != nil {
				err = cerr
			}
		}
		return err
	})
	if err == nil {
		for _, s := range subs {
			for _, b := range DeletedMessages() {
				s.Send(b)
			}
		}
	}
	return subs, err
}
