package recon

import (
	"context"
	"fmt"
	"time"

	"knightwatch/game"
)

// Mismatch is the first point where a replayed game disagrees with its
// record.
type Mismatch struct {
	Turn     Turn
	Field    string // "sense result", "taken move", "capture square", "FEN before", "FEN after", "requested move", "outcome"
	Expected string // what the record says
	Got      string // what the arbiter did
}

// Error writes "turn white 3: taken move: expected e2e4, got e2e3".
func (m *Mismatch) Error() string {
	return fmt.Sprintf("turn %s: %s: expected %s, got %s", m.Turn, m.Field, m.Expected, m.Got)
}

// PlaybackOptions tune Playback.
type PlaybackOptions struct {
	// TurnLimit and MoveLimit are the limits the game was played with.
	// Zero means unknown: a record that ended by that limit is checked
	// against the limit its last FEN implies, and no other record is
	// checked against any.
	TurnLimit, MoveLimit int
	// Bot, when set, is fed BotColor's observations as the game is
	// replayed and asked for its choices, which are compared with the
	// record's (see Warn); the record's choices are played either way.
	Bot      Player
	BotColor game.Color
	// Warn receives each disagreement between the bot and the record.
	Warn func(turn Turn, what, bot, record string)
}

// Playback re-runs the arbiter on the senses and requested moves of h and
// checks every sense result, taken move, capture square, FEN before and
// after each move, and the outcome against the record. It returns the
// number of turns replayed, and a *Mismatch at the first disagreement.
//
// A record ended by a timeout or a resignation (which no board shows) is
// accepted when the game was still running at the end of the record; the
// record's result is then taken as declared.
func Playback(h *History, opts PlaybackOptions) (int, error) {
	if err := h.Validate(); err != nil {
		return 0, err
	}
	cfg := Config{TurnLimit: opts.TurnLimit, MoveLimit: opts.MoveLimit}
	if last, ok := lastFEN(h); ok {
		if cfg.TurnLimit == 0 && h.Outcome.Reason == TurnLimit {
			cfg.TurnLimit = last.FullmoveNumber() - 1
		}
		if cfg.MoveLimit == 0 && h.Outcome.Reason == MoveLimit {
			cfg.MoveLimit = last.HalfmoveClock()
		}
	}
	g := NewGame(cfg, h.Names[game.White], h.Names[game.Black])
	g.Start()
	// The bot is told it has the reference's default time, as the
	// reference's playback tells it.
	turns, err := replay(context.Background(), g, h, feed{bot: opts.Bot, color: opts.BotColor, time: DefaultConfig().Clock, warn: opts.Warn})
	if err != nil {
		return 0, err
	}

	last := Turn{game.White, 0}
	if len(turns) > 0 {
		last = turns[len(turns)-1]
	}
	switch h.Outcome.Reason {
	case Timeout, Resign:
		if g.IsOver() {
			return 0, &Mismatch{Turn: last, Field: "outcome", Expected: h.Outcome.String(), Got: g.Outcome().String()}
		}
		if !h.Outcome.Decisive {
			return 0, &Mismatch{Turn: last, Field: "outcome", Expected: h.Outcome.String(), Got: "a winner, which every " + h.Outcome.Reason.String() + " has"}
		}
		g.finish(h.Outcome)
	}
	if g.Outcome() != h.Outcome {
		return 0, &Mismatch{Turn: last, Field: "outcome", Expected: h.Outcome.String(), Got: g.Outcome().String()}
	}
	if opts.Bot != nil {
		opts.Bot.End(g.Outcome(), g.History())
	}
	return len(turns), nil
}

// feed says which player, if any, a replay tells its side's observations
// and asks for its choices, with how much time it is told it has, and
// where disagreements with the record go.
type feed struct {
	bot   Player
	color game.Color
	time  time.Duration
	warn  func(turn Turn, what, bot, record string)
	// openTurn leaves the last turn open after its move (RestoreOpenTurn).
	openTurn bool
}

// replay plays the senses and requested moves of h on g (new and started)
// and checks every result against the record, stopping at the first
// disagreement (a *Mismatch); it returns the turns replayed. A turn
// recorded with its sense but not its move is replayed up to its sense,
// leaving g in its move phase.
func replay(ctx context.Context, g *Game, h *History, f feed) ([]Turn, error) {
	bot := f.bot
	warn := f.warn
	if warn == nil {
		warn = func(Turn, string, string, string) {}
	}
	if bot != nil {
		bot.Start(f.color, g.Board(), h.Names[f.color.Other()])
	}
	turns := h.Turns()
	for i, t := range turns {
		c, n := t.Color, t.Number
		if g.IsOver() {
			return nil, &Mismatch{Turn: t, Field: "outcome", Expected: "the game to go on", Got: g.Outcome().String()}
		}
		ours := bot != nil && c == f.color
		senseActions, moveActions := g.SenseActions(), g.MoveActions()
		if ours {
			bot.OpponentMoveResult(g.OpponentCapture())
			if s := bot.ChooseSense(ctx, senseActions, moveActions, f.time); s != h.Senses[c][n] {
				warn(t, "sense", SquareName(s), SquareName(h.Senses[c][n]))
			}
		}
		result, err := g.Sense(h.Senses[c][n])
		if err != nil {
			return nil, &Mismatch{Turn: t, Field: "sense", Expected: SquareName(h.Senses[c][n]), Got: err.Error()}
		}
		if !result.Equal(h.SenseResults[c][n]) {
			return nil, &Mismatch{Turn: t, Field: "sense result", Expected: h.SenseResults[c][n].String(), Got: result.String()}
		}
		if ours {
			bot.SenseResult(result)
		}
		if !h.HasMove(t) {
			break // the record ends after this sense; Validate made sure this is the last turn
		}
		board := g.Board()
		if fen := board.FEN(); fen != h.FENsBefore[c][n] {
			return nil, &Mismatch{Turn: t, Field: "FEN before", Expected: h.FENsBefore[c][n], Got: fen}
		}
		request := h.RequestedMoves[c][n]
		if ours {
			if m := bot.ChooseMove(ctx, moveActions, f.time); m != request {
				warn(t, "move", UCI(m), UCI(request))
			}
		}
		res, err := g.Move(request)
		if err != nil {
			return nil, &Mismatch{Turn: t, Field: "requested move", Expected: UCI(request) + " to be a move action", Got: err.Error()}
		}
		if res.Taken != h.TakenMoves[c][n] {
			return nil, &Mismatch{Turn: t, Field: "taken move", Expected: takenName(h.TakenMoves[c][n]), Got: takenName(res.Taken)}
		}
		if res.Capture != h.CaptureSquares[c][n] {
			return nil, &Mismatch{Turn: t, Field: "capture square", Expected: SquareName(h.CaptureSquares[c][n]), Got: SquareName(res.Capture)}
		}
		board = g.Board()
		if fen := board.FEN(); fen != h.FENsAfter[c][n] {
			return nil, &Mismatch{Turn: t, Field: "FEN after", Expected: h.FENsAfter[c][n], Got: fen}
		}
		if ours {
			bot.MoveResult(res)
		}
		if !g.IsOver() && !(f.openTurn && i == len(turns)-1) {
			if err := g.EndTurn(); err != nil {
				return nil, err
			}
		}
	}
	return turns, nil
}

// lastFEN returns the board after the last recorded move.
func lastFEN(h *History) (Board, bool) {
	c := game.White
	if len(h.FENsAfter[game.Black]) == len(h.FENsAfter[game.White]) {
		c = game.Black
	}
	n := len(h.FENsAfter[c])
	if n == 0 {
		return Board{}, false
	}
	b, err := ParseBoard(h.FENsAfter[c][n-1])
	return b, err == nil
}

func takenName(m game.Move) string {
	if m == game.NoMove {
		return "none (null)"
	}
	return UCI(m)
}
