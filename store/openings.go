package store

import (
	"fmt"

	"gorm.io/gorm"
)

// SaveOpenings stores the opening names of games that have none yet
// (Game.Opening is NULL: rows written before the column), by game ID, in
// one transaction. A name already stored stays, and an ID with no game is
// passed over: the web package fills in the games a list shows, once.
func (gm Games) SaveOpenings(names map[string]string) error {
	if len(names) == 0 {
		return nil
	}
	err := gm.s.transaction(func(tx *gorm.DB) error {
		for id, name := range names {
			if err := tx.Model(&Game{}).Where("id = ? AND opening IS NULL", id).Update("opening", name).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: save openings: %w", err)
	}
	return nil
}
