package play

import (
	"errors"
	"sort"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// reconConfig returns the arbiter configuration of a stored game: its
// clock and the reference's 100-half-move draw.
func reconConfig(rec *store.ReconGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}

// CloseBot closes bot player p, when it has anything to close.
func CloseBot(p recon.Player) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// FinishedFields returns the record fields of a game that ended with o at
// now: status, PGN result, the reference's reason and the finishing time.
func FinishedFields(o recon.Outcome, now time.Time) (status store.Status, result string, reason store.WinReason, at *time.Time) {
	return store.StatusOver, reconResult(o), store.WinReasonOf(o.Reason), &now
}

// reconResult writes an outcome as a PGN result.
func reconResult(o recon.Outcome) string {
	switch {
	case !o.Over():
		return "*"
	case !o.Decisive:
		return "1/2-1/2"
	case o.Winner == game.White:
		return "1-0"
	}
	return "0-1"
}

// arbiterRefusal turns an arbiter's refusal into a protocol error.
func arbiterRefusal(err error) *ProtoError {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return Errorf(CodeGameOver, "the game is over")
	case errors.Is(err, recon.ErrWrongPhase):
		return Errorf(CodeWrongPhase, "%v", err)
	case errors.Is(err, recon.ErrNotMoveAction):
		return Errorf(CodeIllegalMove, "%v", err)
	case errors.Is(err, recon.ErrBadSquare):
		return Errorf(CodeBadSquare, "%v", err)
	}
	return Errorf(CodeServer, "%v", err)
}

// ReconSeat is a person's seat at a game, with what the page needs that
// the arbiter does not hold (ReconState's fields of the same names).
type ReconSeat struct {
	ID                     string
	Human                  game.Color
	Opponent, OpponentName string
	Markers                map[string]string
	Status, Result, Reason string
	// Timed: the game has a clock, of ClockMS each and IncrementMS a turn.
	Timed                bool
	ClockMS, IncrementMS int64
	// HistoryURL and ReplayURL are the finished game's files.
	HistoryURL, ReplayURL string
	NotStarted            bool // the opponent has not said it is ready
	Saving                bool // a step waits to be saved; the clock stands still
}

// SeqFor counts the actions taken in g as c knows them: every sense and
// every move of both sides, but the opponent's in the turn it has not yet
// ended (c learns of those only when its own turn begins). On c's own turn,
// the only time its sense or move is taken, it counts every action.
func SeqFor(g *recon.Game, c game.Color) int {
	h := g.History()
	n := 0
	for side := game.White; side <= game.Black; side++ {
		n += len(h.Senses[side]) + len(h.RequestedMoves[side])
	}
	if !g.IsOver() && g.Turn() == c.Other() {
		switch g.Phase() {
		case recon.PhaseMove:
			n--
		case recon.PhaseEndTurn:
			n -= 2
		}
	}
	return n
}

// BuildReconState builds what the person in seat may see of g, from the
// person's view alone (recon.Game.ViewOf): their own pieces as they know
// them, their own turns' observations, their move actions in their move
// phase only, their markers and clock; the true board only once the game is
// over. Nothing of the opponent's turn in progress is in it, whatever the
// phase of either side.
func BuildReconState(g *recon.Game, seat ReconSeat) *ReconState {
	h := g.History()
	v := g.ViewOf(seat.Human)
	st := &ReconState{
		Type: ReconMsgState, ID: seat.ID, Human: seat.Human.String(),
		Opponent: seat.Opponent, OpponentName: seat.OpponentName,
		Seq: SeqFor(g, seat.Human), Pieces: map[string]string{}, Turns: []ReconTurnView{}, MoveActions: []LegalView{},
		Markers: seat.Markers, Status: seat.Status, Result: seat.Result, Reason: seat.Reason, Saving: seat.Saving,
	}
	for s, p := range v.Pieces {
		if p != game.NoPiece {
			st.Pieces[game.Square(s).String()] = PieceCode(p)
		}
	}
	st.Turns = TurnsOf(h, seat.Human)
	switch {
	case v.Phase == recon.PhaseOver:
		st.Phase = "over"
		// Everything is told at the end: the pieces as they stand.
		board := g.Board()
		clear(st.Pieces)
		for s := game.A1; s <= game.H8; s++ {
			if p := board.PieceAt(s); p != game.NoPiece && p.Color() == seat.Human {
				st.Pieces[s.String()] = PieceCode(p)
			}
		}
		st.TrueFEN = board.FEN()
		st.HistoryURL = seat.HistoryURL
		st.ReplayURL = seat.ReplayURL
		if t, san, ok := h.KingCaptureMove(); ok {
			st.KingCapture, st.KingCaptureSAN = recon.UCI(h.TakenMoves[t.Color][t.Number]), san
		}
	case seat.NotStarted || !v.ToAct:
		st.Phase = "waiting"
	case v.Phase == recon.PhaseSense:
		st.Phase = "sense"
		if n := len(st.Turns); n == 0 || st.Turns[n-1].Sensed {
			// The turn has begun: its opening news is the opponent's capture.
			st.Turns = append(st.Turns, ReconTurnView{OpponentCapture: squareOrEmpty(v.OpponentCapture), Lost: lostPiece(h, seat.Human, v.OpponentCapture)})
		}
	case v.Phase == recon.PhaseMove:
		st.Phase = "move"
		st.MoveActions = moveActionViews(v.MoveActions, &v.Pieces)
	default:
		// Moved, the turn not yet ended (an API client ends it by a call
		// of its own): nothing more to do on this page.
		st.Phase = "waiting"
	}
	if seat.Timed {
		cv := &ReconClockView{Initial: seat.ClockMS, Increment: seat.IncrementMS}
		cv.Mine = max(g.SecondsLeft(seat.Human).Milliseconds(), 0)
		// Running says whether the person's clock runs now, not whether it
		// is their turn: a host stops the clock while nobody plays the game
		// anywhere, and a tab open then must be told (its page stops
		// counting), which it is only when its state changes.
		side, running := g.Clock().Running()
		cv.Running = running && side == seat.Human && !g.IsOver() && !seat.NotStarted && !seat.Saving && g.Turn() == seat.Human
		st.Clock = cv
	}
	return st
}

// TurnsOf lists the turns of human in h with what they learnt in each, as
// the state tells them.
func TurnsOf(h *recon.History, human game.Color) []ReconTurnView {
	out := []ReconTurnView{}
	for n := range h.Senses[human] {
		t := ReconTurnView{Sensed: true, Sense: squareOrEmpty(h.Senses[human][n]), SenseResult: []ReconSquareView{}}
		// The opponent's capture announced at this turn's start: the one
		// made by the opponent's turn just before.
		prev := recon.Turn{Color: human, Number: n}
		if human == game.White {
			prev = recon.Turn{Color: game.Black, Number: n - 1}
		} else {
			prev = recon.Turn{Color: game.White, Number: n}
		}
		if prev.Number >= 0 && prev.Number < len(h.CaptureSquares[prev.Color]) {
			cs := h.CaptureSquares[prev.Color][prev.Number]
			t.OpponentCapture = squareOrEmpty(cs)
			if cs != game.NoSquare {
				if b, err := recon.ParseBoard(h.FENsBefore[prev.Color][prev.Number]); err == nil {
					t.Lost = PieceCode(b.PieceAt(cs))
				}
			}
		}
		for _, sp := range h.SenseResults[human][n] {
			t.SenseResult = append(t.SenseResult, ReconSquareView{Square: sp.Square.String(), Piece: PieceCode(sp.Piece)})
		}
		if n < len(h.RequestedMoves[human]) {
			t.Moved = true
			t.Requested = recon.UCI(h.RequestedMoves[human][n])
			if tk := h.TakenMoves[human][n]; tk != game.NoMove {
				t.Taken = recon.UCI(tk)
			}
			t.Capture = squareOrEmpty(h.CaptureSquares[human][n])
		}
		out = append(out, t)
	}
	return out
}

// lostPiece returns the code of the person's piece the opponent's last
// move took on capture, read from the record (the person's own piece,
// which they know).
func lostPiece(h *recon.History, human game.Color, capture game.Square) string {
	opp := human.Other()
	n := len(h.FENsBefore[opp])
	if capture == game.NoSquare || n == 0 {
		return ""
	}
	b, err := recon.ParseBoard(h.FENsBefore[opp][n-1])
	if err != nil {
		return ""
	}
	return PieceCode(b.PieceAt(capture))
}

func squareOrEmpty(s game.Square) string {
	if s == game.NoSquare {
		return ""
	}
	return s.String()
}

// moveActionViews lists the move actions as the board offers them,
// sorted; a bare pawn move to the last rank is offered as its promotions.
func moveActionViews(actions []game.Move, own *[64]game.Piece) []LegalView {
	out := make([]LegalView, 0, len(actions))
	seen := map[string]bool{}
	for _, m := range actions {
		uci := recon.UCI(m)
		if seen[uci] {
			continue
		}
		seen[uci] = true
		lv := LegalView{From: m.From().String(), To: m.To().String(), UCI: uci}
		if m.IsPromotion() {
			lv.Promotion = m.Promotion().String()
		} else if own[m.From()].Type() == game.Pawn && (m.To().Rank() == 0 || m.To().Rank() == 7) {
			// A bare pawn capture onto the last rank: the promotions are
			// listed as well and the board asks which.
			continue
		}
		out = append(out, lv)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UCI < out[j].UCI })
	return out
}
