package web

import (
	"errors"
	"net/http"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// The read-only spectator view (issue 34): a game's owner shares
// /watch/{token}, whose token is unguessable (store.NewWatchToken); the
// page shows the board, players, clocks, moves and result live over a
// socket that accepts nothing but sync. A spectator's socket is one of the
// host's subscribers: it gets the state (without the legal moves) and no
// notices, and it neither keeps the clock running nor wakes the engine
// (its viewer is live.Spectator; the host pauses the game while only
// spectators have it open).

// readOnlyCloseReason is the close reason of a spectator's socket that
// sent a command.
const readOnlyCloseReason = "read-only view: spectators cannot play"

// WatchData is watch.html's data.
type WatchData struct {
	WSURL string
}

// GoneData is gone.html's data: a friendly page for a link that leads to
// no game the visitor may see.
type GoneData struct {
	Title, Message string
}

// watchPath is the spectator link of a game with watch token tok.
func watchPath(tok string) string { return "/watch/" + tok }

// watchURL returns game g's spectator link (absolute), making its token
// the first time.
func (s *gamePages) watchURL(r *http.Request, g *store.Game) (string, error) {
	tok := ""
	if g.WatchToken != nil {
		tok = *g.WatchToken
	} else {
		var err error
		if tok, err = s.store.Games().EnsureWatchToken(g.ID); err != nil {
			return "", err
		}
	}
	return s.siteURL(r) + watchPath(tok), nil
}

// notFoundPage answers 404 with a page in words.
func (s *site) notFoundPage(w http.ResponseWriter, r *http.Request, title, msg string) {
	s.render(w, r, http.StatusNotFound, pageGone, &GoneData{Title: title, Message: msg})
}

const (
	noWatchTitle  = "No game at this link"
	noWatchText   = "No game at this link: it may have been mistyped, or the game was deleted. Ask whoever shared it for the link again."
	notYoursTitle = "This game is not yours to play"
	notYoursText  = "This game was started in another browser, or it no longer exists. Only the browser that started a game can play it; to watch it, ask its player for the read-only link (Share a read-only link on the game page)."
)

// watchedGame loads the game of the request's watch token, or nil after
// answering with the friendly 404 page.
func (s *site) watchedGame(w http.ResponseWriter, r *http.Request) *store.Game {
	g, err := s.store.Games().GameByWatchToken(r.PathValue("token"))
	if err == nil && g.Status == store.StatusDeleted {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		s.notFoundPage(w, r, noWatchTitle, noWatchText)
		return nil
	}
	if err != nil {
		s.serverError(w, err)
		return nil
	}
	return g
}

func (s *gamePages) handleWatchPage(w http.ResponseWriter, r *http.Request) {
	if _, err := s.ensureOwner(w, r); err != nil { // the socket limits count by browser
		s.serverError(w, err)
		return
	}
	if s.watchedGame(w, r) == nil {
		return
	}
	s.render(w, r, http.StatusOK, pageWatch, &WatchData{WSURL: s.wsURL(r, "/ws/watch/"+r.PathValue("token"))})
}

func (s *sockets) handleWatchWS(w http.ResponseWriter, r *http.Request) {
	viewer := s.currentOwner(r)
	if viewer == "" {
		http.NotFound(w, r) // the page sets the cookie first
		return
	}
	g := s.watchedGame(w, r)
	if g == nil {
		return
	}
	release := s.acquireSocket(w, viewer, g.ID)
	if release == nil {
		return // 429 with the reason
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	c := &client{sk: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), game: g.ID, release: release, watcher: true, viewer: live.Spectator}
	if err := s.join(c, func() (*live.Host, error) { return s.reg.Join(g.ID, c) }); err != nil {
		release()
		if !errors.Is(err, play.ErrDeleted) {
			s.logf("watch %s: %v", g.ID, err)
		}
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "game unavailable"), time.Now().Add(writeWait))
		conn.Close()
		return
	}
	s.watchReview(c, g)
	go c.writePump()
	go s.readPump(c)
}

// watcherMessage handles a message from a spectator's socket: sync is
// answered with the state, anything else closes the socket (1008), so
// no command of a spectator ever reaches the game.
func (s *sockets) watcherMessage(c *client, data []byte) bool {
	msg, perr := play.DecodeMessage(data)
	if perr == nil && msg.Type == play.MsgSync && c.host != nil {
		c.host.SendState(c)
		return true
	}
	c.closeWith(websocket.ClosePolicyViolation, readOnlyCloseReason)
	return false
}
