package web

import (
	"errors"
	"fmt"
	"net/http"

	"knightwatch/live"
	"knightwatch/store"
)

// The socket of an API game played in person on the board page
// (bots_play.go): one more of the transport's sockets, whose messages
// rbcapi's Seat takes, counted among the API tabs (hub.api) that signing
// out hangs up.

// handleAPIWS is the WebSocket of an API game played in the browser: a
// subscriber of the game's host, for the user's seat. It is counted among
// the API tabs (hub.api), which signing out hangs up.
func (s *sockets) handleAPIWS(w http.ResponseWriter, r *http.Request) {
	who := s.identify(r)
	seat, u, ok := s.personalSeatOf(w, r, who.user)
	if !ok {
		return
	}
	id := fmt.Sprintf("a%d", seat.Game())
	release := s.acquireSocket(w, socketOwner(r, s.site, u), id)
	if release == nil {
		return
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	cl := &client{sk: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), game: id, seat: seat, user: u, session: who.session, account: u.ID,
		release: release, viewer: live.PlayerOf(seat.Color())}
	s.hub.mu.Lock()
	if s.hub.closed {
		s.hub.mu.Unlock()
		release()
		conn.Close()
		return
	}
	s.conns.Add(1)
	s.hub.api[cl] = struct{}{}
	s.hub.signedIn[cl] = struct{}{}
	s.hub.mu.Unlock()
	s.hook(s.cfg.Hooks.Joining, cl)
	h, err := seat.Join(cl)
	if err != nil {
		s.hub.mu.Lock()
		delete(s.hub.api, cl)
		delete(s.hub.signedIn, cl)
		s.hub.mu.Unlock()
		s.conns.Done()
		release()
		conn.Close()
		return
	}
	cl.host = h
	s.recheckSession(cl)
	go cl.writePump()
	go s.readPump(cl)
}

// closeSockets hangs up the signed-in browsers' sockets that match (those
// of the sessions a sign-out ends); their readPumps take them out of their
// games.
func (s *sockets) closeSockets(match func(c *client) bool) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	for c := range s.hub.signedIn {
		if match(c) {
			c.conn.Close()
		}
	}
}

// SessionsEnded hangs up this server's sockets of account userID whose
// session has ended: another server of the site signed it out (here or
// everywhere) or changed its password, and told every server
// (store.SessionsChannel). userID 0 checks every signed-in socket (the
// notifications were cut off a while).
func (s *Server) SessionsEnded(userID int64) {
	s.sockets.hub.mu.Lock()
	var mine []*client
	for c := range s.sockets.hub.signedIn {
		if userID == 0 || c.account == userID {
			mine = append(mine, c)
		}
	}
	s.sockets.hub.mu.Unlock()
	for _, c := range mine {
		s.sockets.recheckSession(c) // a read each, off the hub's lock
	}
}

// recheckSession hangs up c, just counted among the signed-in sockets, if
// its session has ended since the request was identified: a sign-out ends
// the session first and then hangs up the sockets it finds, so a socket
// either is found or sees the ended session here.
func (s *sockets) recheckSession(c *client) {
	if _, _, err := s.store.API().ActiveSession(c.session); errors.Is(err, store.ErrNotFound) {
		c.conn.Close()
	}
}
