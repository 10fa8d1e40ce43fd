// Package recon is Reconnaissance Chess (RBC): chess in which each player
// sees only its own pieces, learns where the opponent captured, senses a
// 3x3 window of the true board each turn, and wins by capturing the king.
//
// The package agrees exactly with the reference Python package reconchess
// 1.6.9 (built on python-chess): the same move actions, the same revision
// of a requested move into the taken one, the same counters and FENs, the
// same game history files. Where the reference behaves unlike standard
// chess (a pass advances the halfmove clock, a captured king's castling
// rights vanish from the FEN), this package does what the reference does.
//
// The pieces:
//   - rules.go: move actions, revision of a requested move, capture squares
//     (functions of a game.Position, usable by bots on imagined boards);
//   - board.go: the true board and its FENs as the reference writes them;
//   - game.go: the arbiter, a state machine a driver steps through turn
//     by turn (sense, move, end of turn) with clocks and limits;
//   - history.go, historyjson.go: the reference's GameHistory and its JSON;
//   - player.go, play.go: the bot interface and a driver for local games;
//   - playback.go: re-running a recorded game through the arbiter.
//
// Moves at this package's boundary are "plain" game.Moves, as python-chess
// writes them: origin, target and promotion only (castling is the king's
// two-square move, en passant a plain diagonal move). game.NoMove means a
// pass (or, for a taken move, that nothing happened) and game.NoSquare a
// skipped sense or no capture.
package recon
