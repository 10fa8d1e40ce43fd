package loadtest

import (
	"fmt"
	"slices"
	"strings"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// chessStored is a stored chess game as the checks compare it.
type chessStored struct {
	Moves []string
	Over  bool
}

// reconStored is a stored Reconnaissance Chess game as the checks compare
// it: the person's own senses and requested moves, and the action count.
type reconStored struct {
	Seq    int
	Senses []string
	Moves  []string
	Over   bool
}

// checkChess says what is wrong with stored, if anything, given what the
// player saw acknowledged (seen) and the action it had sent since. Every
// acknowledged move must be there, in order (nothing lost); beyond them
// there may be only what could have been committed without the player
// hearing of it: its own pending move and then the engine's reply, or,
// when the engine was to move, the engine's reply (nothing duplicated,
// nothing invented). A pending takeback may have removed exactly the moves
// it takes back. A game seen over must be stored over, unchanged.
func checkChess(seen chessSeen, stored chessStored) error {
	if seen.Human == "" {
		return nil // no state seen: nothing was acknowledged
	}
	n := len(seen.Moves)
	if seen.PendingKind == "takeback" && seen.PendingPly == n && !seen.Over {
		k := 1 // the player's move, the engine still thinking
		if seen.HumanToMove {
			k = 2 // and the engine's reply
		}
		if k <= n && len(stored.Moves) == n-k && slices.Equal(stored.Moves, seen.Moves[:n-k]) && !stored.Over {
			return nil // the takeback was committed
		}
	}
	if len(stored.Moves) < n {
		return fmt.Errorf("lost: %d acknowledged moves, %d stored (%s; stored %s)", n, len(stored.Moves), tail(seen.Moves), tail(stored.Moves))
	}
	for i, m := range seen.Moves {
		if stored.Moves[i] != m {
			return fmt.Errorf("lost: acknowledged move %d is %s, stored %s", i+1, m, stored.Moves[i])
		}
	}
	extra := stored.Moves[n:]
	switch {
	case seen.Over:
		if len(extra) > 0 || !stored.Over {
			return fmt.Errorf("changed after it was over: %d more moves (%s), over %v", len(extra), strings.Join(extra, " "), stored.Over)
		}
	case !seen.HumanToMove:
		if len(extra) > 1 {
			return fmt.Errorf("duplicated: %d moves after ply %d with the engine to move (%s)", len(extra), n, strings.Join(extra, " "))
		}
	case len(extra) > 0:
		if seen.PendingKind != "move" || seen.PendingPly != n || extra[0] != seen.Pending {
			return fmt.Errorf("duplicated: move %d is %s, which the player did not send (sent %s %q at ply %d)", n+1, extra[0], seen.PendingKind, seen.Pending, seen.PendingPly)
		}
		if len(extra) > 2 {
			return fmt.Errorf("duplicated: %d moves after ply %d (%s)", len(extra), n, strings.Join(extra, " "))
		}
	}
	return nil
}

// checkRecon is checkChess for a Reconnaissance Chess game: the person's
// acknowledged senses and moves must all be there in order; beyond them
// only the action sent and not yet acknowledged may be, and at most three
// actions in all (the person's move, then the bot's sense and move).
func checkRecon(seen reconSeen, stored reconStored) error {
	if seen.Human == "" {
		return nil
	}
	for _, part := range []struct {
		what          string
		seen, stored  []string
		pendingAction string
	}{{"sense", seen.Senses, stored.Senses, "sense"}, {"move", seen.Moves, stored.Moves, "move"}} {
		if len(part.stored) < len(part.seen) {
			return fmt.Errorf("lost: %d acknowledged %ss, %d stored", len(part.seen), part.what, len(part.stored))
		}
		for i, v := range part.seen {
			if part.stored[i] != v {
				return fmt.Errorf("lost: acknowledged %s %d is %q, stored %q", part.what, i+1, v, part.stored[i])
			}
		}
		if extra := part.stored[len(part.seen):]; len(extra) > 0 {
			if len(extra) > 1 || seen.PendingKind != part.pendingAction || seen.PendingSeq != seen.Seq || extra[0] != seen.Pending {
				return fmt.Errorf("duplicated: %ss %q after the %d acknowledged, which the player did not send (sent %s %q at action %d)",
					part.what, extra, len(part.seen), seen.PendingKind, seen.Pending, seen.PendingSeq)
			}
		}
	}
	if extraS, extraM := len(stored.Senses)-len(seen.Senses), len(stored.Moves)-len(seen.Moves); extraS+extraM > 1 {
		return fmt.Errorf("duplicated: %d senses and %d moves of the person's after the acknowledged ones", extraS, extraM)
	}
	if d := stored.Seq - seen.Seq; d < 0 || d > 3 {
		return fmt.Errorf("action count %d stored, %d acknowledged", stored.Seq, seen.Seq)
	}
	if seen.Over && (!stored.Over || stored.Seq != seen.Seq) {
		return fmt.Errorf("changed after it was over: over %v, action count %d (acknowledged %d)", stored.Over, stored.Seq, seen.Seq)
	}
	return nil
}

func tail(moves []string) string {
	if len(moves) > 4 {
		return "… " + strings.Join(moves[len(moves)-4:], " ")
	}
	return strings.Join(moves, " ")
}

// readChess checks that a stored chess game is readable: its start
// position parses, its moves replay legally, a position that is over on
// the board is stored over (and a game stored over has a result and a
// reason), and its clocks are within what the clock could have given:
// the initial time plus an increment per move of that side, and per
// takeback (takebacks keep the increments of the moves they take back).
func readChess(g *store.Game, takebacks int) (chessStored, error) {
	p, err := game.ParseFEN(g.StartFEN)
	if err != nil {
		return chessStored{}, fmt.Errorf("start position %q: %v", g.StartFEN, err)
	}
	if g.Variant == "chess960" {
		p.SetChess960(true)
	}
	gm := game.NewGameFrom(p)
	moves := g.MoveList()
	for i, u := range moves {
		m, err := gm.PositionAt(gm.Len()).ParseUCI(u)
		if err == nil {
			err = gm.Play(m)
		}
		if err != nil {
			return chessStored{}, fmt.Errorf("move %d %q does not replay: %v", i+1, u, err)
		}
	}
	over := g.Status == store.StatusOver
	switch {
	case g.Status != store.StatusPlaying && !over:
		return chessStored{}, fmt.Errorf("status %q", g.Status)
	case !over && gm.OutcomeWithClaims().Over():
		return chessStored{}, fmt.Errorf("stored as playing, but the board says %v", gm.OutcomeWithClaims())
	case over && (g.Result == "*" || g.Result == "" || g.Reason.String() == ""):
		return chessStored{}, fmt.Errorf("over without a result and reason (%q, %q)", g.Result, g.Reason.String())
	}
	if g.Timed() {
		for _, side := range []struct {
			name  string
			ms    int64
			moves int
		}{{"white", g.WhiteMS, (len(moves) + 1) / 2}, {"black", g.BlackMS, len(moves) / 2}} {
			if limit := g.ClockInitialMS + int64(side.moves+takebacks)*g.ClockIncrementMS; side.ms < 0 || side.ms > limit {
				return chessStored{}, fmt.Errorf("%s's clock %d ms, outside 0..%d", side.name, side.ms, limit)
			}
		}
	}
	return chessStored{Moves: moves, Over: over}, nil
}

// readRecon checks that a stored Reconnaissance Chess game is readable: its
// history parses and replays through the arbiter (recon.Playback) without
// a disagreement, its status agrees with the history's outcome, and its
// clocks are within what the clock could have given.
func readRecon(g *store.ReconGame) (reconStored, error) {
	h := &recon.History{}
	if g.History != "" {
		var err error
		if h, err = recon.UnmarshalHistory([]byte(g.History)); err != nil {
			return reconStored{}, fmt.Errorf("history: %v", err)
		}
		if _, err := recon.Playback(h, recon.PlaybackOptions{MoveLimit: 100}); err != nil {
			return reconStored{}, fmt.Errorf("playback: %v", err)
		}
	}
	over := g.Status == store.StatusOver
	if g.Status != store.StatusPlaying && !over {
		return reconStored{}, fmt.Errorf("status %q", g.Status)
	}
	if over != h.Outcome.Over() {
		return reconStored{}, fmt.Errorf("stored status %q, history outcome %v", g.Status, h.Outcome)
	}
	human := g.Human.Color
	var st reconStored
	st.Over = over
	for c := game.White; c <= game.Black; c++ {
		st.Seq += len(h.Senses[c]) + len(h.RequestedMoves[c])
	}
	for _, s := range h.Senses[human] {
		st.Senses = append(st.Senses, squareText(s))
	}
	for _, m := range h.RequestedMoves[human] {
		st.Moves = append(st.Moves, recon.UCI(m))
	}
	if g.Timed() {
		for c, ms := range []int64{g.WhiteMS, g.BlackMS} {
			turns := len(h.RequestedMoves[c])
			if limit := g.ClockInitialMS + int64(turns)*g.ClockIncrementMS; ms < 0 || ms > limit {
				return reconStored{}, fmt.Errorf("%v's clock %d ms, outside 0..%d", game.Color(c), ms, limit)
			}
		}
	}
	return st, nil
}

// squareText writes a sensed square as the recon_state does: "" for none.
func squareText(s game.Square) string {
	if s == game.NoSquare {
		return ""
	}
	return s.String()
}

// senseTexts and moveTexts read the person's turns of a recon_state.
func senseTexts(turns []reconTurn) []string {
	out := []string{}
	for _, t := range turns {
		if t.Sensed {
			out = append(out, t.Sense)
		}
	}
	return out
}

func moveTexts(turns []reconTurn) []string {
	out := []string{}
	for _, t := range turns {
		if t.Moved {
			out = append(out, t.Requested)
		}
	}
	return slices.Clip(out)
}
