package store

import (
	"errors"
	"fmt"
	"sort"
)

// A player's page (web's /players/{name}) and its PGN export read an
// account's finished games by the account's owner key (User.OwnerKey):
// the queries here. None of them takes an owner of "" to mean anything
// but "no games": an account that never signed in to the site has no
// owner key, and no game has an empty owner (CreateGame refuses one).

// finishedOrder is the order of a player's finished games, newest first:
// NULLS LAST, as SQLite orders them by itself (PostgreSQL puts them
// first), for an old row without its finishing time; then the ID, so
// that games finished in the same instant keep one order from page to
// page.
const finishedOrder = "finished_at DESC NULLS LAST, id DESC"

// ErrBadPage is returned for a page of a list that cannot be asked for:
// a negative offset or a limit under 1.
var ErrBadPage = errors.New("store: a page starts at offset 0 or later and holds at least one row")

// FinishedGamesPage returns the owner's finished chess games from offset
// on, at most limit of them, newest first, and how many there are in
// all. A page past the end is empty, its count still whole.
func (gm Games) FinishedGamesPage(owner string, offset, limit int) ([]Game, int64, error) {
	if offset < 0 || limit < 1 {
		return nil, 0, ErrBadPage
	}
	gs := []Game{}
	if owner == "" {
		return gs, 0, nil
	}
	var n int64
	q := gm.s.rd.Model(&Game{}).Where("owner = ? AND status = ?", owner, StatusOver)
	if err := q.Count(&n).Error; err != nil {
		return nil, 0, fmt.Errorf("store: count finished games: %w", err)
	}
	if int64(offset) >= n {
		return gs, n, nil
	}
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusOver).
		Order(finishedOrder).Offset(offset).Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, 0, fmt.Errorf("store: finished games: %w", err)
	}
	return gs, n, nil
}

// FinishedGameIDs returns the IDs of every finished chess game of the
// owner, newest first. The PGN export reads them at once and the games
// after, a batch at a time (OwnedGames): a game that finishes meanwhile
// then neither shifts the batches nor comes twice, and the memory held is
// the IDs', not the games'.
func (gm Games) FinishedGameIDs(owner string) ([]string, error) {
	ids := []string{}
	if owner == "" {
		return ids, nil
	}
	err := gm.s.rd.Model(&Game{}).Where("owner = ? AND status = ?", owner, StatusOver).
		Order(finishedOrder).Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: finished game IDs: %w", err)
	}
	return ids, nil
}

// OwnedGames loads the chess games of ids that belong to owner, in the
// order of ids; an ID of no game of the owner's is left out.
func (gm Games) OwnedGames(owner string, ids []string) ([]Game, error) {
	out := []Game{}
	if owner == "" || len(ids) == 0 {
		return out, nil
	}
	var gs []Game
	if err := gm.s.rd.Where("owner = ? AND id IN ?", owner, ids).Find(&gs).Error; err != nil {
		return nil, fmt.Errorf("store: games by ID: %w", err)
	}
	byID := make(map[string]*Game, len(gs))
	for i := range gs {
		byID[gs[i].ID] = &gs[i]
	}
	for _, id := range ids {
		if g, ok := byID[id]; ok {
			out = append(out, *g)
		}
	}
	return out, nil
}

// LevelRecord is a player's score against one engine level: the finished
// games won, drawn and lost, from the player's side.
type LevelRecord struct {
	Level               int
	Wins, Draws, Losses int
}

// Games is how many finished games the record counts.
func (r LevelRecord) Games() int { return r.Wins + r.Draws + r.Losses }

// RecordByLevel returns the owner's record against each engine level it
// has finished a chess game against, by level. A finished game whose
// result is none of the three (no stored row has one) counts nowhere.
func (gm Games) RecordByLevel(owner string) ([]LevelRecord, error) {
	recs := []LevelRecord{}
	if owner == "" {
		return recs, nil
	}
	// Counted by the database per level, colour and result, and added up
	// here: which result is a win depends on the colour, and saying so in
	// Go keeps the SQL the same on both databases.
	var rows []struct {
		Level  int
		Human  Color
		Result string
		N      int
	}
	err := gm.s.rd.Model(&Game{}).Select("level, human, result, COUNT(*) AS n").
		Where("owner = ? AND status = ?", owner, StatusOver).
		Group("level, human, result").Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("store: record by level: %w", err)
	}
	byLevel := map[int]*LevelRecord{}
	for _, r := range rows {
		rec := byLevel[r.Level]
		if rec == nil {
			rec = &LevelRecord{Level: r.Level}
			byLevel[r.Level] = rec
		}
		won, lost := "1-0", "0-1"
		if r.Human == Black {
			won, lost = lost, won
		}
		switch r.Result {
		case won:
			rec.Wins += r.N
		case lost:
			rec.Losses += r.N
		case "1/2-1/2":
			rec.Draws += r.N
		}
	}
	for _, rec := range byLevel {
		if rec.Games() > 0 {
			recs = append(recs, *rec)
		}
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Level < recs[j].Level })
	return recs, nil
}

// FinishedReconGames returns up to limit of the owner's finished
// Reconnaissance Chess games, newest first, and how many there are in all.
func (gm Games) FinishedReconGames(owner string, limit int) ([]ReconGame, int64, error) {
	if limit < 1 {
		return nil, 0, ErrBadPage
	}
	gs := []ReconGame{}
	if owner == "" {
		return gs, 0, nil
	}
	var n int64
	q := gm.s.rd.Model(&ReconGame{}).Where("owner = ? AND status = ?", owner, StatusOver)
	if err := q.Count(&n).Error; err != nil {
		return nil, 0, fmt.Errorf("store: count finished recon games: %w", err)
	}
	if n == 0 {
		return gs, 0, nil
	}
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusOver).
		Order(finishedOrder).Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, 0, fmt.Errorf("store: finished recon games: %w", err)
	}
	return gs, n, nil
}

// CompleteAnalyses returns the complete reviews of the games of ids, by
// game ID (their rows only, not their plies); a game without a complete
// review is absent.
func (rv Reviews) CompleteAnalyses(ids []string) (map[string]Analysis, error) {
	out := map[string]Analysis{}
	if len(ids) == 0 {
		return out, nil
	}
	var as []Analysis
	if err := rv.s.rd.Where("game_id IN ? AND complete = ?", ids, true).Find(&as).Error; err != nil {
		return nil, fmt.Errorf("store: reviews of %d games: %w", len(ids), err)
	}
	for _, a := range as {
		out[a.GameID] = a
	}
	return out, nil
}
