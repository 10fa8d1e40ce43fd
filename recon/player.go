package recon

import (
	"context"
	"time"

	"knightwatch/game"
)

// Player is a Reconnaissance Chess player, the reference's Player in Go.
// The arbiter's driver calls it in this order: Start once; then on each of
// its turns OpponentMoveResult, ChooseSense, SenseResult, ChooseMove,
// MoveResult; End once. The calls come one at a time, never concurrently.
//
// A Player does no I/O of its own: the same interface serves bots in local
// games, a person whose choices arrive over a WebSocket, and a remote bot
// behind the HTTP API. The choosing methods get a context that is cancelled
// when the player's time runs out; a player should return promptly then.
type Player interface {
	// Start begins a game: the player's colour, the starting board and the
	// opponent's name.
	Start(color game.Color, board Board, opponent string)
	// OpponentMoveResult says where the opponent's last move captured one
	// of the player's pieces, or game.NoSquare.
	OpponentMoveResult(capture game.Square)
	// ChooseSense returns the square at the centre of the 3x3 window to
	// sense, or game.NoSquare to sense nothing. moveActions are given so
	// that the sense can serve the move to come.
	ChooseSense(ctx context.Context, senseActions []game.Square, moveActions []game.Move, timeLeft time.Duration) game.Square
	// SenseResult gives what the sense showed.
	SenseResult(result SenseResult)
	// ChooseMove returns one of moveActions, or game.NoMove to pass.
	ChooseMove(ctx context.Context, moveActions []game.Move, timeLeft time.Duration) game.Move
	// MoveResult gives the move as requested and as taken, and where it
	// captured.
	MoveResult(result MoveResult)
	// End gives the outcome and the whole history (which the player must
	// not change).
	End(outcome Outcome, history *History)
}
