package store

import (
	"fmt"
	"time"
)

// Untouched games: games against the engine and in Reconnaissance Chess
// still being played in which their player has never acted. A visitor
// that starts games and never comes back leaves only these, so they are
// the ones a server drops (web/untouched.go). "Never acted" is decided in
// SQL, so that listing and dropping them reads no game into Go:
//
//   - a game against the engine with no move, or with one move that the
//     engine made because it moves first (the person plays Black from the
//     start position, or White from one with Black to move);
//   - a Reconnaissance Chess game whose record has no sense of the
//     person's colour (an empty record, or the bot's first turn only).
//
// The two databases spell it differently: SQLite's instr and JSON
// functions are PostgreSQL's strpos and knightwatch_json_array_length
// (postgres.go), which, as SQLite's json_valid guard does, leaves out a
// record that is not JSON instead of failing the statement.
const (
	untouchedChessSQL = `status = 'playing' AND created_at < ? AND (moves = '' OR (instr(moves, ' ') = 0 AND ` +
		`human <> CASE substr(start_fen, instr(start_fen, ' ') + 1, 1) WHEN 'b' THEN 'black' ELSE 'white' END))`
	untouchedReconSQL = `status = 'playing' AND created_at < ? AND (history = '' OR (json_valid(history) AND ` +
		`json_array_length(history, CASE human WHEN 'white' THEN '$.senses."true"' ELSE '$.senses."false"' END) = 0))`
	untouchedChessPG = `status = 'playing' AND created_at < ? AND (moves = '' OR (strpos(moves, ' ') = 0 AND ` +
		`human <> CASE substr(start_fen, strpos(start_fen, ' ') + 1, 1) WHEN 'b' THEN 'black' ELSE 'white' END))`
	untouchedReconPG = `status = 'playing' AND created_at < ? AND (history = '' OR ` +
		`knightwatch_json_array_length(history, 'senses', CASE human WHEN 'white' THEN 'true' ELSE 'false' END) = 0)`
)

// untouchedSQL returns the conditions of untouched games of each kind on
// s's database.
func (gm Games) untouchedSQL() (chess, recon string) {
	if gm.s.pg {
		return untouchedChessPG, untouchedReconPG
	}
	return untouchedChessSQL, untouchedReconSQL
}

// UntouchedGames returns up to limit IDs of untouched games created before
// before, in ID order after the ID after ("" for the first page): those
// against the engine first, then those in Reconnaissance Chess (their IDs
// start with "r_", after "g_").
func (gm Games) UntouchedGames(before time.Time, after string, limit int) ([]string, error) {
	chess, recon := gm.untouchedSQL()
	ids := []string{}
	if err := gm.s.rd.Model(&Game{}).Where(chess, before).Where("id > ?", after).
		Order("id").Limit(limit).Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("store: untouched games: %w", err)
	}
	if len(ids) == limit {
		return ids, nil
	}
	var reconIDs []string
	if err := gm.s.rd.Model(&ReconGame{}).Where(recon, before).Where("id > ?", after).
		Order("id").Limit(limit-len(ids)).Pluck("id", &reconIDs).Error; err != nil {
		return nil, fmt.Errorf("store: untouched recon games: %w", err)
	}
	return append(ids, reconIDs...), nil
}

// DropUntouchedGames deletes the rows of the games ids (of either kind)
// that are still untouched and were created before before, and returns
// how many it deleted. Nothing else refers to an unfinished game's row.
func (gm Games) DropUntouchedGames(ids []string, before time.Time) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	chess, recon := gm.untouchedSQL()
	var n int64
	for _, t := range []struct {
		model any
		where string
	}{{&Game{}, chess}, {&ReconGame{}, recon}} {
		res := gm.s.db.Where(t.where, before).Where("id IN ?", ids).Delete(t.model)
		if res.Error != nil {
			return n, fmt.Errorf("store: drop untouched games: %w", res.Error)
		}
		n += res.RowsAffected
	}
	return n, nil
}
