package live

import (
	"time"

	"knightwatch/game"
)

// Viewer is whom a message is for: a player (its colour) or a spectator.
type Viewer int8

// The viewers.
const (
	WhiteViewer = Viewer(game.White)
	BlackViewer = Viewer(game.Black)
	Spectator   = Viewer(-1)
)

// PlayerOf returns the viewer of colour c's player.
func PlayerOf(c game.Color) Viewer { return Viewer(c) }

// Color returns the player's colour, and false for a spectator.
func (v Viewer) Color() (game.Color, bool) {
	if v < 0 {
		return 0, false
	}
	return game.Color(v), true
}

// Moment is what a View may show of the host at one moment, besides the
// game: the time and whether a step of the server's waits to be saved.
type Moment struct {
	Now time.Time
	// Saving is set while a step nobody can repeat (an automaton's, a flag
	// fall) waits to be saved; SavingEnd when that step is the game's end on
	// time.
	Saving, SavingEnd bool
	// Thinking is set while an automaton is to act: its turn is in progress
	// or its step waits to be saved.
	Thinking bool
}

// Notice names what the host tells every subscriber in words.
type Notice int

// The notices.
const (
	// StepUnsaved: an automaton's step could not be saved and will be.
	StepUnsaved Notice = iota
	// EndUnsaved: the game's end on time could not be saved and will be.
	EndUnsaved
	// SavedAgain: what waited to be saved is saved; the game goes on.
	SavedAgain
)

// Game is one kind of game as a Host drives it: the game rebuilt from its
// committed record, and what the host needs to commit it, time it and
// show it. The host calls it under its lock only, so it need not be safe
// for concurrent use; the changes the players and automata make are
// functions of theirs that call the Game's own methods under that lock.
type Game interface {
	// Turn returns the colour to act, and false while the game is not on
	// (not started, or over).
	Turn() (game.Color, bool)
	// Over reports whether the game has ended (or was called off).
	Over() bool
	// Ply counts the actions taken so far (moves; in Reconnaissance Chess
	// senses too): a change that alters it under an automaton's turn
	// withdraws that turn.
	Ply() int
	// Clock returns the game's clock. The game's own actions press it; the
	// host starts and stops it.
	Clock() *game.Clock
	// ClockDue reports whether the rules want the mover's clock running now
	// (chess: once each side has moved), whoever watches.
	ClockDue() bool
	// Mark returns a function that puts the game (its clock and committed
	// record included) back as it is now: the host calls it when a change
	// is refused or its commit fails.
	Mark() (restore func())
	// Commit saves the game as it is now; on success it is the committed
	// record.
	Commit(now time.Time) error
	// Flag ends the game on time when the mover's clock has run out at
	// now, and reports whether it did.
	Flag(now time.Time) bool
	// View encodes what v may see now.
	View(v Viewer, m Moment) []byte
	// Notice encodes a notice to every subscriber, or returns nil for none.
	Notice(n Notice) []byte
}

// Automaton is a seat the server plays: the engine, a bot.
type Automaton interface {
	// Play plays one turn of the automaton's colour, in a goroutine of its
	// own, thinking without the host's lock and applying each step through
	// t. It returns once the turn is over for it: its last step applied, or
	// the turn withdrawn (t's context ends).
	Play(t *Turn)
	// Close releases the automaton; the host calls it once, after its last
	// turn returned.
	Close()
}

// Sub is a subscriber: a socket of a player or a spectator.
type Sub interface {
	// Viewer is whom the subscriber's messages are for.
	Viewer() Viewer
	// Send queues b without blocking (a subscriber that cannot keep up is
	// dropped by its own transport).
	Send(b []byte)
}
