// Package changefeed tells every server of a site on PostgreSQL that a
// live game changed, so that each can show the change to the sockets it
// holds for that game: the server that commits a change sends a
// notification on Channel in the committing transaction (Payload; the
// database delivers it at the commit, and never for a transaction rolled
// back), and every server keeps one Listener, which hands each change to
// its Handler.
//
// A notification says only which game and which revision of it: the
// servers read the committed state from the database, so a notification
// lost or merged with another costs a read, never a wrong state. While a
// listener is cut off from the database it hears nothing; when it is back
// it calls Handler.Resync, and the server reads again every game it holds.
//
// With SQLite there is one server and nothing to tell: the feed is for
// PostgreSQL only.
package changefeed

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Channel is the notification channel of game changes.
const Channel = "knightwatch_games"

// NotifySQL sends a change on Channel from inside a transaction: its
// arguments are Channel and the change's Payload.
const NotifySQL = "SELECT pg_notify($1, $2)"

// maxPayload bounds a payload: PostgreSQL's own limit is 8,000 bytes, and
// a game ID is at most 40 characters (store.Game's column).
const maxPayload = 200

// Change is one committed change of a game: its ID and the revision its
// record has from that commit on.
type Change struct {
	Game     string
	Revision int64
}

// Payload encodes c as a notification's payload: the game ID, a space
// and the revision in decimal.
func (c Change) Payload() string { return c.Game + " " + strconv.FormatInt(c.Revision, 10) }

// ErrPayload is wrapped by Parse's errors.
var ErrPayload = errors.New("changefeed: malformed payload")

// Parse decodes a payload that Payload made. Anything else is an error
// wrapping ErrPayload: the channel is the site's own, but a payload is
// outside input all the same (anyone with a connection can notify).
func Parse(s string) (Change, error) {
	if len(s) > maxPayload {
		return Change{}, fmt.Errorf("%w: %d bytes", ErrPayload, len(s))
	}
	id, v, ok := strings.Cut(s, " ")
	if !ok || id == "" || strings.ContainsAny(id, " \t\r\n") {
		return Change{}, fmt.Errorf("%w: %q", ErrPayload, s)
	}
	revision, err := strconv.ParseInt(v, 10, 64)
	if err != nil || revision < 0 || strconv.FormatInt(revision, 10) != v {
		return Change{}, fmt.Errorf("%w: revision in %q", ErrPayload, s)
	}
	return Change{Game: id, Revision: revision}, nil
}
