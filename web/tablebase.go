package web

import (
	"encoding/json"
	"errors"
	"net/http"

	"knightwatch/store"
	"knightwatch/syzygy"
)

// maxTablebasePlies bounds the positions GET /game/{id}/tablebase probes.
// A finished game rarely has more than a few dozen in the tables (every
// ending there is over within 75 moves of the last capture or pawn move),
// so the bound only caps what one request can cost.
const maxTablebasePlies = 1000

// TablebaseEntry is one position of a finished game that Config.SyzygyPath's
// tables hold: the position after Ply half-moves (0 is the start position),
// its win/draw/loss value and its distance to zeroing in plies, both from
// the side to move's point of view and as syzygy.Tablebase's ProbeWDL and
// ProbeDTZ return them (WDL -2 loss, -1 loss drawn by the fifty-move rule,
// 0 draw, 1 win drawn by the fifty-move rule, 2 win; DTZ signed like WDL).
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
func (s *Server) handleTablebase(w http.ResponseWriter, r *http.Request) {
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
	entries := []TablebaseEntry{}
	if tb := s.tablebase(); tb != nil {
		var err error
		if entries, err = s.tablebaseEntries(tb, g); err != nil {
			s.serverError(w, err)
			return
		}
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

// tablebase returns the tables the engine pool's engines probe, nil
// without.
func (s *Server) tablebase() *syzygy.Tablebase {
	if s.pool == nil {
		return nil
	}
	return s.pool.Tablebase()
}

// tablebaseEntries probes each position of rec that the tables cover, at
// most maxTablebasePlies of them. A position the tables cannot answer
// (castling rights, a missing table, a closed or broken table) is left
// out: the list says only what the tables know.
func (s *Server) tablebaseEntries(tb *syzygy.Tablebase, rec *store.Game) ([]TablebaseEntry, error) {
	g, _, err := buildGame(rec)
	if err != nil {
		return nil, err
	}
	out := []TablebaseEntry{}
	probed, logged := 0, false
	for ply := 0; ply <= g.Len() && probed < maxTablebasePlies; ply++ {
		p := g.PositionAt(ply)
		if p.HasCastlingRights() || p.Occupied().Count() > tb.MaxPieces() {
			continue
		}
		probed++
		wdl, err := tb.ProbeWDL(p)
		var dtz int
		if err == nil {
			dtz, err = tb.ProbeDTZ(p)
		}
		if err != nil {
			// A missing table is the tables' limit; anything else (a
			// corrupt file) is worth a line in the log, once per request.
			if !errors.Is(err, syzygy.ErrMissingTable) && !errors.Is(err, syzygy.ErrClosed) && !logged {
				s.logf("game %s ply %d: tablebase: %v", rec.ID, ply, err)
				logged = true
			}
			continue
		}
		out = append(out, TablebaseEntry{Ply: ply, WDL: int(wdl), DTZ: dtz})
	}
	return out, nil
}
