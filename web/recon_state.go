package web

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

func closeBot(p recon.Player) {
	if c, ok := p.(interface{ Close() error }); ok {
		_ = c.Close()
	}
}

// finishedFields returns the record fields of a game that ended with o at now:
// status, PGN result, the reference's reason and the finishing time.
func finishedFields(o recon.Outcome, now time.Time) (status store.Status, result string, reason store.WinReason, at *time.Time) {
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

// arbiterErr turns an arbiter refusal into a protocol error.
func arbiterErr(err error) *ProtoError {
	switch {
	case errors.Is(err, recon.ErrGameOver):
		return protoErr(CodeGameOver, "the game is over")
	case errors.Is(err, recon.ErrWrongPhase):
		return protoErr(CodeWrongPhase, "%v", err)
	case errors.Is(err, recon.ErrNotMoveAction):
		return protoErr(CodeIllegalMove, "%v", err)
	case errors.Is(err, recon.ErrBadSquare):
		return protoErr(CodeBadSquare, "%v", err)
	}
	return protoErr(CodeServer, "%v", err)
}

// reconSeat is a person's seat at a game, with what the page needs that
// the arbiter does not hold.
type reconSeat struct {
	id                     string
	human                  game.Color
	opponent, opponentName string
	markers                map[string]string
	status, result, reason string
	timed                  bool
	clockMS, incrementMS   int64
	historyURL, replayURL  string
	notStarted             bool // the opponent has not said it is ready
	saving                 bool // a step waits to be saved; the clock stands still
}

// seqFor counts the actions taken in g as c knows them: every sense and
// every move of both sides, but the opponent's in the turn it has not yet
// ended (c learns of those only when its own turn begins). On c's own turn,
// the only time its sense or move is taken, it counts every action.
func seqFor(g *recon.Game, c game.Color) int {
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

// buildReconState builds what the person in seat may see of g, from the
// person's view alone (recon.Game.ViewOf): their own pieces as they know
// them, their own turns' observations, their move actions in their move
// phase only, their markers and clock; the true board only once the game is
// over. Nothing of the opponent's turn in progress is in it, whatever the
// phase of either side.
func buildReconState(g *recon.Game, seat reconSeat) *ReconState {
	h := g.History()
	v := g.ViewOf(seat.human)
	st := &ReconState{
		Type: ReconMsgState, ID: seat.id, Human: seat.human.String(),
		Opponent: seat.opponent, OpponentName: seat.opponentName,
		Seq: seqFor(g, seat.human), Pieces: map[string]string{}, Turns: []ReconTurnView{}, MoveActions: []LegalView{},
		Markers: seat.markers, Status: seat.status, Result: seat.result, Reason: seat.reason, Saving: seat.saving,
	}
	for s, p := range v.Pieces {
		if p != game.NoPiece {
			st.Pieces[game.Square(s).String()] = pieceCode(p)
		}
	}
	st.Turns = humanTurns(h, seat.human)
	switch {
	case v.Phase == recon.PhaseOver:
		st.Phase = "over"
		// Everything is told at the end: the pieces as they stand.
		board := g.Board()
		clear(st.Pieces)
		for s := game.A1; s <= game.H8; s++ {
			if p := board.PieceAt(s); p != game.NoPiece && p.Color() == seat.human {
				st.Pieces[s.String()] = pieceCode(p)
			}
		}
		st.TrueFEN = board.FEN()
		st.HistoryURL = seat.historyURL
		st.ReplayURL = seat.replayURL
	case seat.notStarted || !v.ToAct:
		st.Phase = "waiting"
	case v.Phase == recon.PhaseSense:
		st.Phase = "sense"
		if n := len(st.Turns); n == 0 || st.Turns[n-1].Sensed {
			// The turn has begun: its opening news is the opponent's capture.
			st.Turns = append(st.Turns, ReconTurnView{OpponentCapture: squareOrEmpty(v.OpponentCapture), Lost: lostPiece(h, seat.human, v.OpponentCapture)})
		}
	case v.Phase == recon.PhaseMove:
		st.Phase = "move"
		st.MoveActions = moveActionViews(v.MoveActions, &v.Pieces)
	default:
		// Moved, the turn not yet ended (an API client ends it by a call
		// of its own): nothing more to do on this page.
		st.Phase = "waiting"
	}
	if seat.timed {
		cv := &ReconClockView{Initial: seat.clockMS, Increment: seat.incrementMS}
		cv.Mine = max(g.SecondsLeft(seat.human).Milliseconds(), 0)
		cv.Running = !g.IsOver() && !seat.notStarted && !seat.saving && g.Turn() == seat.human
		st.Clock = cv
	}
	return st
}

// humanTurns lists the person's turns in h with what they learnt in each.
func humanTurns(h *recon.History, human game.Color) []ReconTurnView {
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
					t.Lost = pieceCode(b.PieceAt(cs))
				}
			}
		}
		for _, sp := range h.SenseResults[human][n] {
			t.SenseResult = append(t.SenseResult, ReconSquareView{Square: sp.Square.String(), Piece: pieceCode(sp.Piece)})
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
	return pieceCode(b.PieceAt(capture))
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
