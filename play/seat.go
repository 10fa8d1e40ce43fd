package play

import (
	"errors"

	"knightwatch/live"
)

// Errors of the games.
var (
	// ErrDeleted: a tab asked for a game its owner deleted.
	ErrDeleted = errors.New("play: the game was deleted")
	// ErrNotUnfinished: a resign or delete from the list of a game that is
	// already over.
	ErrNotUnfinished = errors.New("play: the game is not unfinished")
)

// Tab is the socket of a person playing a game in the browser: a
// subscriber of the game's host, and what a rematch asks before it
// creates a game.
type Tab interface {
	live.Sub
	// MayCreate reports whether owner may create one more game now (the
	// limits on creating games are the transport's: its address, its
	// owner); when not, it has sent the tab the refusal.
	MayCreate(owner string) bool
}

// Seat is a person's tab at a game: it takes the tab's messages.
type Seat struct {
	games *Games
	host  *live.Host
	tab   Tab
	// chess or recon is the game, whichever kind it is; read and changed
	// only under the host's lock.
	chess *chessGame
	recon *reconGame
}

// Join subscribes tab, the person's (its Viewer their colour), to game id,
// loading the game when no tab has it open, and sends the tab the state;
// the engine or the bot plays if it is its turn. ErrDeleted when the
// owner deleted the game, live.ErrStopped when the server is stopping,
// store.ErrNotFound when there is no such game. The caller leaves through
// the registry (live.Registry's Leave) with the seat's host.
func (gs *Games) Join(id string, tab Tab) (*Seat, error) {
	h, err := gs.reg.Join(id, tab)
	if err != nil {
		return nil, err
	}
	s := &Seat{games: gs, host: h, tab: tab}
	h.Read(func(lg live.Game, _ live.Moment) {
		switch lg := lg.(type) {
		case *chessGame:
			s.chess = lg
		case *reconGame:
			s.recon = lg
		}
	})
	return s, nil
}

// Host returns the seat's game's host.
func (s *Seat) Host() *live.Host { return s.host }

// Message applies one message of the tab (a text frame, as it came): a
// move, a sense, a resignation, a note, a draw offer, a take-back, a
// rematch or a sync. A message that cannot be read, or that the game
// refuses, is answered with an error (web/PROTOCOL.md); nothing changes then.
func (s *Seat) Message(data []byte) {
	switch {
	case s.chess != nil:
		m, perr := DecodeMessage(data)
		if perr != nil {
			s.tab.Send(EncodeError(perr))
			return
		}
		s.games.chessMessage(s, s.chess, m)
	case s.recon != nil:
		m, perr := DecodeReconMessage(data)
		if perr != nil {
			s.tab.Send(EncodeError(perr))
			return
		}
		s.games.reconMessage(s, s.recon, m)
	}
}
