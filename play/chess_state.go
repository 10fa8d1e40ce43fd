package play

import (
	"encoding/json"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/store"
)

// The state message of a game against the engine (web/PROTOCOL.md), as a
// player or a spectator sees it.

// pieceValue is the material count shown beside the board, in pawns.
var pieceValue = [...]int{game.Pawn: 1, game.Knight: 3, game.Bishop: 3, game.Rook: 5, game.Queen: 9, game.King: 0}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("play: marshal: " + err.Error()) // only our own plain structs get here
	}
	return b
}

// buildState builds the state message at moment m.
func (g *chessGame) buildState(m live.Moment) *StateMessage {
	now := m.Now
	pos := g.pos()
	st := &StateMessage{
		Type:      MsgState,
		ID:        g.rec.ID,
		Variant:   g.rec.Variant,
		StartFEN:  g.rec.StartFEN,
		FEN:       pos.FEN(),
		Ply:       g.g.Len(),
		Turn:      pos.Side().String(),
		Human:     g.human.String(),
		Level:     g.rec.Level,
		LevelName: g.games.Level(g.rec.Level).Name,
		Moves:     make([]MoveView, 0, g.g.Len()),
		Legal:     []LegalView{},
		Status:    g.rec.Status.String(),
		Result:    g.rec.Result,
		Reason:    g.rec.Reason.String(),
		Captured:  CapturedView{White: []string{}, Black: []string{}},
		Thinking:  m.Thinking,
		Saving:    m.Saving,
		Openings:  openingViews(g.g),
	}
	moves := g.g.Moves()
	notes := g.notesByPly()
	for i, mv := range moves {
		before := g.g.PositionAt(i)
		uci := before.UCI(mv)
		st.Moves = append(st.Moves, MoveView{SAN: before.SAN(mv), UCI: uci, FEN: g.g.PositionAt(i + 1).FEN(),
			Experience: experienceText(before, notes[i])})
		if before.IsCapture(mv) {
			letter := before.CapturedPiece(mv).String()
			if before.Side() == game.White {
				st.Captured.White = append(st.Captured.White, letter)
			} else {
				st.Captured.Black = append(st.Captured.Black, letter)
			}
		}
		if i == len(moves)-1 {
			st.LastMove = &LastMoveView{From: uci[0:2], To: uci[2:4]}
		}
	}
	if pos.InCheck() {
		st.Check = pos.KingSquare(pos.Side()).String()
	}
	for pt := game.Pawn; pt <= game.Queen; pt++ {
		st.Material += pieceValue[pt] * (pos.Pieces(game.White, pt).Count() - pos.Pieces(game.Black, pt).Count())
	}
	if !g.over() && pos.Side() == g.human {
		st.Legal = legalViews(pos)
	}
	if g.rec.Timed() {
		cv := &ClockView{
			White:     max(g.clock.Remaining(game.White, now).Milliseconds(), 0),
			Black:     max(g.clock.Remaining(game.Black, now).Milliseconds(), 0),
			Initial:   g.rec.ClockInitialMS,
			Increment: g.rec.ClockIncrementMS,
		}
		if side, running := g.clock.Running(); running {
			cv.Running = side.String()
		}
		st.Clock = cv
	}
	return st
}

// notesByPly returns the game's experience notes by ply (an
// unreadable column is logged and shows none).
func (g *chessGame) notesByPly() map[int][]store.ExperienceNote {
	notes, err := g.rec.Notes()
	if err != nil {
		g.games.logf("game %s: %v", g.rec.ID, err)
	}
	if len(notes) == 0 {
		return nil
	}
	out := map[int][]store.ExperienceNote{}
	for _, n := range notes {
		out[n.Ply] = append(out[n.Ply], n)
	}
	return out
}

// legalViews lists the legal moves as the board offers them. A castling
// move is offered on the king's destination; in Chess960, where the move is
// written king-takes-rook, on the rook's square as well.
func legalViews(pos *game.Position) []LegalView {
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	out := make([]LegalView, 0, ml.N+2)
	for _, m := range ml.Slice() {
		uci := pos.UCI(m)
		lv := LegalView{From: m.From().String(), To: uci[2:4], UCI: uci}
		if m.IsPromotion() {
			lv.Promotion = m.Promotion().String()
		}
		if m.IsCastling() && pos.Chess960() {
			kingFile := 6
			if m.To() < m.From() {
				kingFile = 2
			}
			dest := game.NewSquare(kingFile, m.From().Rank())
			lv.To = m.To().String()
			out = append(out, lv)
			if dest != m.To() && dest != m.From() {
				lv.To = dest.String()
				out = append(out, lv)
			}
			continue
		}
		out = append(out, lv)
	}
	return out
}
