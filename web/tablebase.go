package web

import (
	"encoding/json"
	"net/http"

	"knightwatch/review"
	"knightwatch/store"
)

// TablebaseEntry is one position of a finished game that the engine
// pool's Syzygy tables (enginepool.Config.SyzygyPath) hold, as the route
// answers it: review.Verdict's position after Ply half-moves (0 is the
// start position), its win/draw/loss value and its distance to zeroing in
// plies, both from the side to move's point of view and as
// syzygy.Tablebase's ProbeWDL and ProbeDTZ return them (WDL -2 loss, -1
// loss drawn by the fifty-move rule, 0 draw, 1 win drawn by the
// fifty-move rule, 2 win; DTZ signed like WDL).
type TablebaseEntry struct {
	Ply int `json:"ply"`
	WDL int `json:"wdl"`
	DTZ int `json:"dtz"`
}

// handleTablebase serves GET /game/{id}/tablebase: the tablebase values of
// every position of the owner's finished game that the server's Syzygy
// tables cover (at most their piece count, no castling rights), as a JSON
// list of TablebaseEntry, in ply order; [] when none is covered, and
// also when the server has no tables (so that the page, which asks for
// every finished game, meets no error where there is nothing to say). 404
// when the game is missing, deleted or someone else's; 409 while the game
// is on (the values would help the player).
func (s *gamePages) handleTablebase(w http.ResponseWriter, r *http.Request) {
	g, ok := s.ownedGame(w, r)
	if !ok {
		return
	}
	if g.Status == store.StatusDeleted {
		http.NotFound(w, r)
		return
	}
	if g.Status != store.StatusOver {
		http.Error(w, "the game is not over", http.StatusConflict)
		return
	}
	entries, err := s.tablebaseEntries(g)
	if err != nil {
		s.serverError(w, err)
		return
	}
	b, err := json.Marshal(entries)
	if err != nil {
		s.serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b)
}

// tablebaseEntries is the tables' verdict on each position of rec they
// cover (review.TablebaseVerdicts); none without tables.
func (s *gamePages) tablebaseEntries(rec *store.Game) ([]TablebaseEntry, error) {
	out := []TablebaseEntry{}
	if s.pool == nil || s.pool.Tablebase() == nil {
		return out, nil
	}
	vs, odd, err := review.TablebaseVerdicts(s.pool.Tablebase(), rec)
	if err != nil {
		return nil, err
	}
	if odd != nil {
		// A corrupt file, say: worth a line in the log, once per request.
		s.logf("game %s %v", rec.ID, odd)
	}
	for _, v := range vs {
		out = append(out, TablebaseEntry{Ply: v.Ply, WDL: v.WDL, DTZ: v.DTZ})
	}
	return out, nil
}
