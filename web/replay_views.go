package web

import (
	"encoding/json"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/recon"
)

// replayStepView is one step of a side's view in a replay, as replay.js
// draws it: built on the server from recon.SideSteps, what that side had
// been told, so that the page never holds what the side could not know.
type replayStepView struct {
	Final           bool              `json:"final,omitempty"`
	Pieces          map[string]string `json:"pieces"`
	Seen            map[string]string `json:"seen,omitempty"`
	Sense           string            `json:"sense,omitempty"`
	Moved           bool              `json:"moved,omitempty"`
	Requested       string            `json:"requested,omitempty"` // "pass" for a pass
	Taken           string            `json:"taken,omitempty"`
	Capture         string            `json:"capture,omitempty"`
	OpponentCapture string            `json:"opponentCapture,omitempty"`
}

// replayViews returns White's and Black's views of h as JSON
// ({"white": [...], "black": [...]}, a step each), or "" when the record
// does not replay through the arbiter: then no side's view can be known.
func replayViews(h *recon.History) string {
	views := map[string][]replayStepView{}
	for _, c := range []game.Color{game.White, game.Black} {
		steps, err := recon.SideSteps(h, c)
		if err != nil {
			return ""
		}
		out := make([]replayStepView, len(steps))
		for i, s := range steps {
			v := replayStepView{Final: s.Final, Pieces: map[string]string{}, Seen: map[string]string{}, Moved: s.Moved}
			for sq := game.A1; sq <= game.H8; sq++ {
				if p := s.Pieces[sq]; p != game.NoPiece {
					v.Pieces[sq.String()] = play.PieceCode(p)
				}
				if p := s.Seen[sq]; p != game.NoPiece {
					v.Seen[sq.String()] = play.PieceCode(p)
				}
			}
			if s.Sense != game.NoSquare {
				v.Sense = s.Sense.String()
			}
			if s.Moved {
				v.Requested = "pass"
				if s.Requested != game.NoMove {
					v.Requested = recon.UCI(s.Requested)
				}
				if s.Taken != game.NoMove {
					v.Taken = recon.UCI(s.Taken)
				}
			}
			if s.Capture != game.NoSquare {
				v.Capture = s.Capture.String()
			}
			if s.OpponentCapture != game.NoSquare {
				v.OpponentCapture = s.OpponentCapture.String()
			}
			out[i] = v
		}
		views[c.String()] = out
	}
	data, err := json.Marshal(views)
	if err != nil {
		return ""
	}
	return string(data)
}
