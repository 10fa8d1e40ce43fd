package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/sessions"

	"knightwatch/game"
	"knightwatch/store"
)

// A person with an account of the API can sign in on /bots, invite a
// connected bot or accept a bot's invitation, and play that game on the
// Reconnaissance Chess board: the page's WebSocket (/ws/api/ID) is one
// more way to act for the person's seat of the API game, beside the HTTP
// calls a bot makes. The game is an API game like any other: on the
// server's clock, which runs whether or not the tab is open.

const userKey = "user"

// signedInUser returns the account the session is signed in to, or nil.
func (s *Server) signedInUser(r *http.Request) *store.User {
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew {
		return nil
	}
	id, ok := sess.Values[userKey].(int64)
	if !ok || id <= 0 {
		return nil
	}
	u, err := s.store.UserByID(id)
	if err != nil || u.Builtin != "" {
		return nil
	}
	return u
}

// setSignedIn signs the session in to u (nil: out), keeping its owner key
// (a session without a valid one gets a fresh one, never the decoded,
// possibly forged, values).
func (s *Server) setSignedIn(w http.ResponseWriter, r *http.Request, u *store.User) error {
	owner := s.currentOwner(r)
	sess, err := s.cookies.Get(r, SessionCookie)
	if err != nil || sess.IsNew || owner == "" {
		sess = sessions.NewSession(s.cookies, SessionCookie)
		opts := *s.cookies.Options
		opts.Secure = s.isHTTPS(r)
		sess.Options = &opts
		sess.IsNew = true
		owner = newOwnerKey()
	}
	sess.Values[ownerKey] = owner
	if u == nil {
		delete(sess.Values, userKey)
	} else {
		sess.Values[userKey] = u.ID
	}
	return s.cookies.Save(r, w, sess)
}

// handleBotsLogin signs a person in with the account's name and password,
// under the same limits on failures as the API.
func (s *Server) handleBotsLogin(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	req := r.Clone(r.Context())
	req.Header = r.Header.Clone()
	req.SetBasicAuth(r.PostFormValue("username"), r.PostFormValue("password"))
	u, e := s.authenticate(req, time.Now())
	if e != nil {
		s.renderBots(w, r, e.status, "Could not sign in: "+e.msg)
		return
	}
	if err := s.setSignedIn(w, r, u); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, "/bots#play-card", http.StatusSeeOther)
}

func (s *Server) handleBotsLogout(w http.ResponseWriter, r *http.Request) {
	if !s.parseFormPost(w, r) {
		return
	}
	if err := s.setSignedIn(w, r, nil); err != nil {
		s.serverError(w, err)
		return
	}
	http.Redirect(w, r, "/bots", http.StatusSeeOther)
}

// renderBots shows /bots with an error line.
func (s *Server) renderBots(w http.ResponseWriter, r *http.Request, status int, msg string) {
	d, err := s.botsData(r)
	if err != nil {
		s.serverError(w, err)
		return
	}
	d.Error = msg
	s.render(w, status, pageBots, d)
}

// signedInPost checks a form post of a signed-in person.
func (s *Server) signedInPost(w http.ResponseWriter, r *http.Request) (*store.User, bool) {
	if !s.parseFormPost(w, r) {
		return nil, false
	}
	u := s.signedInUser(r)
	if u == nil {
		s.renderBots(w, r, http.StatusUnauthorized, "Sign in first.")
		return nil, false
	}
	return u, true
}

// handleBotsInvite invites a bot for the signed-in person, who is ready at
// once, and opens the game.
func (s *Server) handleBotsInvite(w http.ResponseWriter, r *http.Request) {
	u, ok := s.signedInPost(w, r)
	if !ok {
		return
	}
	white := r.PostFormValue("color") != "black"
	if r.PostFormValue("color") == "random" {
		white = newSeed()%2 == 0
	}
	id, e := s.invite(u, r.PostFormValue("opponent"), white)
	if e == nil {
		e = s.readyInPerson(id, u)
	}
	if e != nil {
		s.renderBots(w, r, e.status, "Could not invite: "+e.msg)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/games/%d/play", id), http.StatusSeeOther)
}

// handleBotsAccept accepts an invitation to the signed-in person and opens
// the game.
func (s *Server) handleBotsAccept(w http.ResponseWriter, r *http.Request) {
	u, ok := s.signedInPost(w, r)
	if !ok {
		return
	}
	inv, e := s.myInvitation(r, u)
	if e == nil && inv.Accepted {
		e = apiErr(http.StatusBadRequest, "that invitation was accepted already")
	}
	if e == nil {
		inv.Accepted = true
		if err := s.store.SetInvitation(inv); err != nil {
			e = apiErr(http.StatusInternalServerError, "could not accept; try again")
		}
	}
	if e == nil {
		e = s.readyInPerson(inv.GameID, u)
	}
	if e != nil {
		s.renderBots(w, r, e.status, "Could not accept: "+e.msg)
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/games/%d/play", inv.GameID), http.StatusSeeOther)
}

// readyInPerson says the person is ready in game id.
func (s *Server) readyInPerson(id int64, u *store.User) *apiError {
	t, err := s.apiTableFor(id)
	if err != nil {
		return apiErr(http.StatusInternalServerError, "could not load the game")
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		return apiErr(http.StatusUnauthorized, "you are not a player in game %d", id)
	}
	return t.ready(c, time.Now())
}

// personalTable loads game id for the signed-in person playing in it.
func (s *Server) personalTable(w http.ResponseWriter, r *http.Request) (*apiTable, *store.User, game.Color, bool) {
	u := s.signedInUser(r)
	id, ok := pathID(r, "id")
	if u == nil || !ok {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	t, err := s.apiTableFor(id)
	if errors.Is(err, store.ErrNotFound) {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	if err != nil {
		s.serverError(w, err)
		return nil, nil, 0, false
	}
	c, ok := t.colorOf(u.ID)
	if !ok {
		s.missing(w, r, notYoursTitle, noBotGameText)
		return nil, nil, 0, false
	}
	return t, u, c, true
}

// handleBotsPlay is the board page of an API game for the person.
func (s *Server) handleBotsPlay(w http.ResponseWriter, r *http.Request) {
	t, _, c, ok := s.personalTable(w, r)
	if !ok {
		return
	}
	s.render(w, http.StatusOK, pageRecon, &ReconGameData{
		ID: fmt.Sprintf("a%d", t.id), WSURL: s.wsURL(r, fmt.Sprintf("/ws/api/%d", t.id)),
		OpponentName: t.names[c.Other()], Human: c.String(), APIGame: true,
	})
}

// handleAPIWS is the WebSocket of an API game played in the browser.
func (s *Server) handleAPIWS(w http.ResponseWriter, r *http.Request) {
	t, u, c, ok := s.personalTable(w, r)
	if !ok {
		return
	}
	release := s.acquireSocket(w, socketOwner(r, s, u), fmt.Sprintf("a%d", t.id))
	if release == nil {
		return
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	cl := &client{conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), table: t, seat: c, user: u, release: release}
	s.hub.mu.Lock()
	if s.closed {
		s.hub.mu.Unlock()
		release()
		conn.Close()
		return
	}
	s.conns.Add(1)
	s.hub.api[cl] = struct{}{}
	s.hub.mu.Unlock()
	t.join(cl)
	go cl.writePump()
	go s.readPump(cl)
}

// join adds a browser tab and sends it the state.
func (t *apiTable) join(c *client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.clients[c] = struct{}{}
	t.srv.api.touch(t.srv, c.user, time.Now())
	c.trySend(t.stateLocked(c.seat))
}

func (t *apiTable) leave(c *client) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.clients, c)
}

// broadcastLocked sends every tab its player's state.
func (t *apiTable) broadcastLocked() {
	for c := range t.clients {
		c.trySend(t.stateLocked(c.seat))
	}
}

// markersOf returns the person's notes in colour c.
func (t *apiTable) markersLocked(c game.Color) map[string]string {
	all := map[string]map[string]string{}
	_ = json.Unmarshal([]byte(t.rec.Markers), &all)
	m := all[c.String()]
	if m == nil {
		m = map[string]string{}
	}
	return m
}

func (t *apiTable) stateLocked(c game.Color) []byte {
	status := t.rec.Status
	switch status {
	case store.StatusWaiting:
		status = store.StatusPlaying
	case store.StatusAborted:
		status = store.StatusOver
	}
	st := buildReconState(t.g, reconSeat{
		id: fmt.Sprintf("a%d", t.id), human: c, opponent: t.names[c.Other()], opponentName: t.names[c.Other()],
		markers: t.markersLocked(c), status: status.String(), result: t.rec.Result, reason: t.rec.Reason.String(),
		timed: true, clockMS: t.rec.ClockInitialMS, incrementMS: t.rec.ClockIncrementMS,
		historyURL: fmt.Sprintf("/bots/games/%d/history.json", t.id), replayURL: fmt.Sprintf("/bots/games/%d/replay", t.id),
		notStarted: !t.started(),
	})
	if t.aborted() {
		st.Phase, st.Reason = "over", "ABORTED"
	}
	return mustJSON(st)
}

// handleBrowser applies one message of the person's tab.
func (t *apiTable) handleBrowser(c *client, m ReconMessage) {
	now := time.Now()
	t.srv.api.touch(t.srv, c.user, now)
	t.mu.Lock()
	stale := reconNeedsSeq[m.Type] && m.Seq != seqOf(t.g)
	if stale || m.Type == ReconMsgSync {
		if stale {
			c.trySend(encodeError(protoErr(CodeStale, "message for action %d, but the game is at action %d", m.Seq, seqOf(t.g))))
		}
		c.trySend(t.stateLocked(c.seat))
		t.mu.Unlock()
		return
	}
	t.mu.Unlock()
	var e *apiError
	switch m.Type {
	case ReconMsgSense:
		_, e = t.sense(c.seat, m.Square, now)
	case ReconMsgMove:
		if _, e = t.move(c.seat, m.Move, now); e == nil {
			e = t.endTurn(c.seat, now)
		}
	case ReconMsgResign:
		e = t.resign(c.seat, now)
	case ReconMsgMarker:
		e = t.setMarker(c.seat, m.Square, m.Piece)
	case ReconMsgRematch:
		e = apiErr(http.StatusBadRequest, "games of the API have no rematch; invite again from the Bots page")
	}
	if e != nil {
		c.trySend(encodeError(browserErr(e)))
		t.mu.Lock()
		c.trySend(t.stateLocked(c.seat))
		t.mu.Unlock()
	}
}

// browserErr turns an API refusal into the page's protocol error.
func browserErr(e *apiError) *ProtoError {
	switch {
	case strings.Contains(e.msg, "not your turn"):
		return protoErr(CodeNotYourTurn, "%s", e.msg)
	case strings.Contains(e.msg, "over"), strings.Contains(e.msg, "called off"):
		return protoErr(CodeGameOver, "%s", e.msg)
	case strings.Contains(e.msg, "move action"):
		return protoErr(CodeIllegalMove, "%s", e.msg)
	case e.status >= 500:
		return protoErr(CodeServer, "%s", e.msg)
	}
	return protoErr(CodeWrongPhase, "%s", e.msg)
}

// setMarker changes the person's note on a square and commits it.
func (t *apiTable) setMarker(c game.Color, sq game.Square, p game.Piece) *apiError {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := map[string]map[string]string{}
	_ = json.Unmarshal([]byte(t.rec.Markers), &all)
	m := all[c.String()]
	if m == nil {
		m = map[string]string{}
	}
	if p == game.NoPiece {
		delete(m, sq.String())
	} else {
		m[sq.String()] = pieceCode(p)
	}
	all[c.String()] = m
	rec := t.rec
	b, _ := json.Marshal(all)
	rec.Markers = string(b)
	if err := t.srv.store.SaveAPIGame(&rec); err != nil {
		return apiErr(http.StatusInternalServerError, "could not save the note")
	}
	t.rec = rec
	t.broadcastLocked()
	return nil
}
