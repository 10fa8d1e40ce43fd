package store

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// SavedAnalysis is an analysis board's tree that a signed-in player saved
// (issue 47): its name, its start position and the tree as PGN, with
// every variation and comment. The PGN is what the board imports again.
type SavedAnalysis struct {
	ID        int64     `gorm:"primaryKey;autoIncrement"`
	UserID    int64     `gorm:"not null;index"`
	Name      string    `gorm:"size:100;not null"`
	StartFEN  string    `gorm:"size:100;not null"`
	PGN       string    `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null;index"`
}

// MaxSavedAnalyses is how many analyses one account keeps: saving one
// more is refused with ErrTooMany.
const MaxSavedAnalyses = 200

// ErrTooMany is the error of a save beyond MaxSavedAnalyses.
var ErrTooMany = fmt.Errorf("store: at most %d saved analyses per account", MaxSavedAnalyses)

// Studies is the store's facet for the analysis board's saved trees. Get
// it from Store.Studies; it shares the Store's connections.
type Studies struct{ s *Store }

// Studies returns the facet of saved analyses.
func (s *Store) Studies() Studies { return Studies{s} }

// Save stores a: a new row when a.ID is 0 (its ID set), else an update
// of the user's own row a.ID (ErrNotFound when it is not theirs).
func (st Studies) Save(a *SavedAnalysis) error {
	now := st.s.now()
	a.UpdatedAt = now
	if a.ID == 0 {
		var n int64
		if err := st.s.db.Model(&SavedAnalysis{}).Where("user_id = ?", a.UserID).Count(&n).Error; err != nil {
			return fmt.Errorf("store: count saved analyses: %w", err)
		}
		if n >= MaxSavedAnalyses {
			return ErrTooMany
		}
		a.CreatedAt = now
		if err := st.s.db.Create(a).Error; err != nil {
			return fmt.Errorf("store: save analysis: %w", err)
		}
		return nil
	}
	res := st.s.db.Model(&SavedAnalysis{}).Where("id = ? AND user_id = ?", a.ID, a.UserID).
		Updates(map[string]any{"name": a.Name, "start_fen": a.StartFEN, "pgn": a.PGN, "updated_at": now})
	if res.Error != nil {
		return fmt.Errorf("store: save analysis %d: %w", a.ID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// Get loads the user's saved analysis id; ErrNotFound when there is none
// of theirs.
func (st Studies) Get(userID, id int64) (*SavedAnalysis, error) {
	var a SavedAnalysis
	err := st.s.rd.Where("id = ? AND user_id = ?", id, userID).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: saved analysis %d: %w", id, err)
	}
	return &a, nil
}

// List returns the user's saved analyses, the latest saved first,
// without their PGN.
func (st Studies) List(userID int64) ([]SavedAnalysis, error) {
	var out []SavedAnalysis
	err := st.s.rd.Select("id", "user_id", "name", "start_fen", "created_at", "updated_at").
		Where("user_id = ?", userID).Order("updated_at DESC, id DESC").Limit(MaxSavedAnalyses).Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("store: saved analyses: %w", err)
	}
	return out, nil
}

// Delete removes the user's saved analysis id; ErrNotFound when there is
// none of theirs.
func (st Studies) Delete(userID, id int64) error {
	res := st.s.db.Where("id = ? AND user_id = ?", id, userID).Delete(&SavedAnalysis{})
	if res.Error != nil {
		return fmt.Errorf("store: delete analysis %d: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
