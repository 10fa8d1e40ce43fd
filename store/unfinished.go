package store

import (
	"fmt"

	"gorm.io/gorm"
)

// UnfinishedGames returns up to limit of the owner's games against the
// engine still being played, most recently active first (ties broken by
// ID, so the order is stable), and how many there are in all.
func (gm Games) UnfinishedGames(owner string, limit int) ([]Game, int64, error) {
	var n int64
	q := gm.s.rd.Model(&Game{}).Where("owner = ? AND status = ?", owner, StatusPlaying)
	if err := q.Count(&n).Error; err != nil {
		return nil, 0, fmt.Errorf("store: count unfinished games: %w", err)
	}
	gs := []Game{}
	if n == 0 || limit <= 0 {
		return gs, n, nil
	}
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusPlaying).
		Order("updated_at DESC, id").Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, 0, fmt.Errorf("store: unfinished games: %w", err)
	}
	return gs, n, nil
}

// UnfinishedReconGames is UnfinishedGames for Reconnaissance Chess.
func (gm Games) UnfinishedReconGames(owner string, limit int) ([]ReconGame, int64, error) {
	var n int64
	q := gm.s.rd.Model(&ReconGame{}).Where("owner = ? AND status = ?", owner, StatusPlaying)
	if err := q.Count(&n).Error; err != nil {
		return nil, 0, fmt.Errorf("store: count unfinished recon games: %w", err)
	}
	gs := []ReconGame{}
	if n == 0 || limit <= 0 {
		return gs, n, nil
	}
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusPlaying).
		Order("updated_at DESC, id").Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, 0, fmt.Errorf("store: unfinished recon games: %w", err)
	}
	return gs, n, nil
}

// DeleteGame marks the owner's unfinished game deleted (a soft delete:
// see StatusDeleted). It reports ErrNotFound when the game is missing,
// someone else's, or not unfinished, leaving everything unchanged.
func (gm Games) DeleteGame(id, owner string) error {
	return gm.softDelete(&Game{}, id, owner)
}

// DeleteReconGame is DeleteGame for Reconnaissance Chess.
func (gm Games) DeleteReconGame(id, owner string) error {
	return gm.softDelete(&ReconGame{}, id, owner)
}

func (gm Games) softDelete(model any, id, owner string) error {
	if owner == "" {
		return ErrNotFound
	}
	now := gm.s.now()
	res := gm.s.db.Model(model).Where("id = ? AND owner = ? AND status = ?", id, owner, StatusPlaying).
		Updates(map[string]any{"status": StatusDeleted, "updated_at": now, "finished_at": now,
			"revision": gorm.Expr("revision + 1")}) // a host of it elsewhere may not save over the deletion
	if res.Error != nil {
		return fmt.Errorf("store: delete game %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
