package store

import (
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// MoveOwnerGames gives every game of owner from (chess and Reconnaissance
// Chess, unfinished, finished and deleted alike) to owner to, in one
// transaction, and returns how many it moved: signing in to an account
// brings the browser's games to the account's owner key, so that every
// device signed in to it lists and resumes them. The games keep their
// revisions: the owner is no column a live game's save writes, so a host
// that holds one of them carries on undisturbed.
func (gm Games) MoveOwnerGames(from, to string) (int64, error) {
	if from == "" || to == "" {
		return 0, errors.New("store: move games: empty owner key")
	}
	if from == to {
		return 0, nil
	}
	var n int64
	err := gm.s.transaction(func(tx *gorm.DB) error {
		n = 0
		for _, m := range []any{&Game{}, &ReconGame{}} {
			res := tx.Model(m).Where("owner = ?", from).UpdateColumn("owner", to) // UpdateColumn: moving is no activity, updated_at stays
			if res.Error != nil {
				return res.Error
			}
			n += res.RowsAffected
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store: move games from one owner to another: %w", err)
	}
	return n, nil
}
