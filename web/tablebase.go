package web

import (
	"encoding/json"
	"net/http"

	"knightwatch/review"
	"knightwatch/store"
)

// TablebaseEntry is one position of a finished game that the engine
// pool's tables hold, as the route answers it (review.Verdict): the
// position after Ply half-moves (0 is the start position), then, when
// the Syzygy tables (enginepool.Config.SyzygyPath) hold it, its
// win/draw/loss value and its distance to zeroing in plies as
// syzygy.Tablebase's ProbeWDL and ProbeDTZ return them (WDL -2 loss, -1
// loss drawn by the fifty-move rule, 0 draw, 1 win drawn by the
// fifty-move rule, 2 win; DTZ signed like WDL), and when the Gaviota
// tables (Config.GaviotaPath) hold it, its distance to mate in plies as
// gaviota.Tablebase's ProbeDTM returns it (positive when the side to move
// mates, negative when it is mated, 0 for a draw or a side mated already)
// and Mate, that verdict in words ("White mates in 15"). Values are from
// the side to move's point of view; what a table does not hold is absent
// from the JSON.
type TablebaseEntry struct {
	Ply  int    `json:"ply"`
	WDL  *int   `json:"wdl,omitempty"`
	DTZ  *int   `json:"dtz,omitempty"`
	DTM  *int   `json:"dtm,omitempty"`
	Mate string `json:"mate,omitempty"`
}

// handleTablebase serves GET /game/{id}/tablebase: the tablebase values of
// every position of the owner's finished game that the server's Syzygy
// or Gaviota tables cover (at most their piece count, no castling
// rights), as a JSON list of TablebaseEntry, in ply order; [] when none
// is covered, and also when the server has no tables (so that the page, which asks for
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
	if s.pool == nil || s.pool.Tablebase() == nil && s.pool.Gaviota() == nil {
		return out, nil
	}
	vs, odd, err := review.TablebaseVerdicts(review.Tables{Syzygy: s.pool.Tablebase(), Gaviota: s.pool.Gaviota()}, rec)
	if err != nil {
		return nil, err
	}
	if odd != nil {
		// A corrupt file, say: worth a line in the log, once per request.
		s.logf("game %s %v", rec.ID, odd)
	}
	for _, v := range vs {
		e := TablebaseEntry{Ply: v.Ply}
		if v.Syzygy {
			e.WDL, e.DTZ = &v.WDL, &v.DTZ
		}
		if v.Gaviota {
			e.DTM, e.Mate = &v.DTM, v.Mate
		}
		out = append(out, e)
	}
	return out, nil
}
