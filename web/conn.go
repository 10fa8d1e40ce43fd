package web

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/store"
)

// Connection timing, as in gorilla/websocket's chat example.
const (
	writeWait  = 10 * time.Second    // time allowed to write one message
	pongWait   = 60 * time.Second    // time allowed between pongs
	pingPeriod = (pongWait * 9) / 10 // must be shorter than pongWait
	// hardReadLimit is where the connection itself is closed (1009). Below
	// it, messages over MaxMessageBytes are read, discarded and answered
	// with too_large, so one oversize frame does not cost the tab its game.
	hardReadLimit = 64 << 10
	// sendQueue is the least length of a socket's send queue
	// (sendQueueLen).
	sendQueue = 32
)

// client is one open tab's WebSocket. Only readPump reads the connection
// and only writePump writes it.
type client struct {
	conn *websocket.Conn
	send chan []byte
	done chan struct{} // closed when the client leaves its room
	once sync.Once
	room *room
	// host is the client's game when it is hosted by a live.Host (room is
	// then nil), whom it subscribes to as viewer; reconGame is that game
	// when it is Reconnaissance Chess in the browser against a bot.
	host      *live.Host
	viewer    live.Viewer
	reconGame *reconGame
	// apiTable is the client's game when it is a game of the HTTP API
	// played in the browser by the signed-in user (in host); seat is the
	// user's colour.
	apiTable *apiTable
	seat     game.Color
	user     *store.User
	// watcher marks a spectator's read-only socket (watch.go): it is in
	// its room's watchers, not clients, and may send nothing but sync.
	watcher bool
	// release frees the socket's place under the per-owner limits
	// (acquireSocket); readPump calls it on the way out.
	release func()
	// review is the game whose review the socket follows (watchReview),
	// set before its pumps start.
	review string
	// addr is the client's address (clientAddr), which a rematch counts
	// against as the new-game form does.
	addr string
	// closeFrame, when set before done closes, is the close frame
	// writePump sends instead of 1001 going away (closeWith).
	closeFrame atomic.Pointer[[]byte]
}

// trySend queues b without blocking the room. A tab too slow to keep up
// with its queue is disconnected; it will resync on reconnect.
func (c *client) trySend(b []byte) {
	select {
	case <-c.done:
	case c.send <- b:
	default:
		c.conn.Close()
	}
}

func (c *client) stop() { c.once.Do(func() { close(c.done) }) }

// Viewer is whom the tab's messages are for (live.Sub).
func (c *client) Viewer() live.Viewer { return c.viewer }

// Send queues b for the tab (live.Sub).
func (c *client) Send(b []byte) { c.trySend(b) }

func (s *Server) handleWS(w http.ResponseWriter, r *http.Request) {
	owner := s.currentOwner(r)
	id := r.PathValue("id")
	if owner == "" {
		http.NotFound(w, r)
		return
	}
	var err error
	var rec *store.Game
	viewer := live.WhiteViewer
	if strings.HasPrefix(id, store.ReconIDPrefix) {
		var rr *store.ReconGame
		if rr, err = s.store.GetOwnedReconGame(id, owner); err == nil {
			viewer = live.PlayerOf(rr.Human.Color)
		}
	} else {
		rec, err = s.store.GetOwnedGame(id, owner)
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			http.NotFound(w, r)
		} else {
			s.serverError(w, err)
		}
		return
	}
	release := s.acquireSocket(w, owner, id)
	if release == nil {
		return // 429 with the reason
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return // Upgrade has already replied (403 for a foreign origin)
	}
	c := &client{conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), release: release, addr: s.clientAddr(r), viewer: viewer}
	if err := s.join(id, c); err != nil {
		release()
		if errors.Is(err, errGameDeleted) {
			// Deleted from the list of games: send the tab home, once,
			// instead of leaving it to reconnect to nothing.
			conn.SetWriteDeadline(time.Now().Add(writeWait))
			conn.WriteMessage(websocket.TextMessage, encodeNotice("This game was deleted from your list of games."))
			conn.WriteMessage(websocket.TextMessage, encodeRedirect(deletedURL))
			conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "game deleted"), time.Now().Add(writeWait))
			conn.Close()
			return
		}
		s.logf("game %s: %v", id, err)
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseInternalServerErr, "game unavailable"), time.Now().Add(writeWait))
		conn.Close()
		return
	}
	if rec != nil {
		s.watchReview(c, rec)
	}
	go c.writePump()
	go s.readPump(c)
}

func (s *Server) readPump(c *client) {
	defer func() {
		s.leave(c)
		c.conn.Close()
		if c.release != nil {
			c.release()
		}
		s.conns.Done()
	}()
	c.conn.SetReadLimit(hardReadLimit)
	c.conn.SetReadDeadline(time.Now().Add(pongWait))
	c.conn.SetPongHandler(func(string) error {
		c.conn.SetReadDeadline(time.Now().Add(pongWait))
		return nil
	})
	limit := s.newMsgLimiter()
	for {
		kind, rd, err := c.conn.NextReader()
		if err != nil {
			return
		}
		// A message over the limit is dropped unread (NextReader skips
		// what is left of it).
		switch limit.check(time.Now()) {
		case limitWarn:
			c.trySend(encodeError(protoErr(CodeRateLimited, rateLimitedText)))
			continue
		case limitDrop:
			continue
		case limitClose:
			c.closeWith(websocket.ClosePolicyViolation, rateCloseReason)
			return
		}
		if !s.readOne(c, kind, rd) {
			return
		}
	}
}

// readBufs holds message buffers between messages, so an idle tab (most
// of them, most of the time) holds none.
var readBufs = sync.Pool{New: func() any { b := make([]byte, MaxMessageBytes+1); return &b }}

// readOne reads, decodes and handles one message; false ends the connection.
func (s *Server) readOne(c *client, kind int, rd io.Reader) bool {
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	n, err := io.ReadFull(rd, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false
	}
	if n > MaxMessageBytes {
		if _, err := io.Copy(io.Discard, rd); err != nil {
			return false // over the hard limit: the connection is closed
		}
		c.trySend(encodeError(protoErr(CodeTooLarge, "message exceeds %d bytes", MaxMessageBytes)))
		return true
	}
	if kind != websocket.TextMessage {
		c.trySend(encodeError(protoErr(CodeBadJSON, "binary frames are not accepted")))
		return true
	}
	// RFC 6455 (8.1): a text frame that is not UTF-8 fails the connection
	// with 1007. gorilla/websocket checks only close frames' text.
	if !utf8.Valid(buf[:n]) {
		c.closeWith(websocket.CloseInvalidFramePayloadData, "text frame is not valid UTF-8")
		return false
	}
	if c.watcher {
		return s.watcherMessage(c, buf[:n])
	}
	if c.apiTable != nil {
		msg, perr := DecodeReconMessage(buf[:n])
		if perr != nil {
			c.trySend(encodeError(perr))
			return true
		}
		s.apiBrowserMessage(c, msg)
		return true
	}
	if c.reconGame != nil {
		msg, perr := DecodeReconMessage(buf[:n])
		if perr != nil {
			c.trySend(encodeError(perr))
			return true
		}
		s.reconMessage(c, c.reconGame, msg)
		return true
	}
	msg, perr := DecodeMessage(buf[:n])
	if perr != nil {
		c.trySend(encodeError(perr))
		return true
	}
	c.room.handle(c, msg)
	return true
}

func (c *client) writePump() {
	ticker := time.NewTicker(pingPeriod)
	defer func() {
		ticker.Stop()
		if c.closeFrame.Load() == nil {
			c.conn.Close()
		}
		// else closeWith, in readPump, closes the connection once the peer
		// has answered the close frame: closing it here, with the peer's
		// flood still arriving, resets the connection, and the peer's
		// system may drop what it had not read yet, the words that
		// explain the close among them.
	}()
	for {
		select {
		case msg := <-c.send:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.TextMessage, msg); err != nil {
				return
			}
		case <-ticker.C:
			c.conn.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.conn.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		case <-c.done:
			// Flush what is queued (the last state, say) before closing.
			for {
				select {
				case msg := <-c.send:
					c.conn.SetWriteDeadline(time.Now().Add(writeWait))
					if c.conn.WriteMessage(websocket.TextMessage, msg) != nil {
						return
					}
				default:
					c.conn.SetWriteDeadline(time.Now().Add(writeWait))
					frame := websocket.FormatCloseMessage(websocket.CloseGoingAway, "")
					if f := c.closeFrame.Load(); f != nil {
						frame = *f
					}
					c.conn.WriteMessage(websocket.CloseMessage, frame)
					return
				}
			}
		}
	}
}

// hub maps game IDs to their rooms (rooms exist while a tab is open).
//
// hub.mu guards only these maps and is never held across database I/O:
// reading a game to open its room and committing a room's clock as it
// closes happen under the game's gate (busy) instead, so that a slow read
// of one game does not hold up tabs joining every other game.
type hub struct {
	mu    sync.Mutex
	rooms map[string]*room
	// api are the tabs playing API games in person (their tables live in
	// Server.api), kept here so that Close can close them too.
	api map[*client]struct{}
	// busy holds the gate of each game whose room is being opened (its
	// record read) or closed (its clock committed); the channel closes
	// when that is done. While a game's gate is held its room is absent
	// from rooms/recon, and whoever else wants the game waits for the gate,
	// so there is still one room per game and none built from a record
	// older than the last commit.
	busy map[string]chan struct{}
}

// testHookLoad, when set (by tests), runs before a game's record is read
// to open its room, with no hub lock held.
var testHookLoad func(id string)

// waitGateLocked returns, with hub.mu held as on entry, once nobody holds
// id's gate; it releases hub.mu while it waits.
func (s *Server) waitGateLocked(id string) {
	for {
		ch := s.hub.busy[id]
		if ch == nil {
			return
		}
		s.hub.mu.Unlock()
		<-ch
		s.hub.mu.Lock()
	}
}

// takeGateLocked waits for id's gate and takes it (hub.mu held).
func (s *Server) takeGateLocked(id string) {
	s.waitGateLocked(id)
	if s.hub.busy == nil {
		s.hub.busy = map[string]chan struct{}{}
	}
	s.hub.busy[id] = make(chan struct{})
}

// releaseGateLocked releases id's gate (hub.mu held).
func (s *Server) releaseGateLocked(id string) {
	close(s.hub.busy[id])
	delete(s.hub.busy, id)
}

// join adds c to its game's room, loading the game from the database when
// no tab had it open, and sends c the state. If the engine is to move (say
// after a restart), it starts thinking.
// On success the caller must run readPump, which ends with conns.Done.
func (s *Server) join(id string, c *client) error {
	if strings.HasPrefix(id, store.ReconIDPrefix) {
		return s.joinHost(id, c)
	}
	for {
		s.hub.mu.Lock()
		s.waitGateLocked(id)
		if s.closed {
			s.hub.mu.Unlock()
			return errRoomGone
		}
		var err error
		if r := s.hub.rooms[id]; r != nil {
			err = s.attach(r, c)
		} else {
			err = s.open(id, c)
		}
		if err != errRoomClosed {
			return err
		}
		// The room closed as c came in (its last tab left): look again.
	}
}

// open reads game id, which has no room, and opens its room with c in it.
// It is called with hub.mu held and releases it; the record is read under
// the game's gate, not under hub.mu.
func (s *Server) open(id string, c *client) error {
	s.takeGateLocked(id)
	s.hub.mu.Unlock()
	if testHookLoad != nil {
		testHookLoad(id)
	}
	r, err := s.loadRoom(id)
	s.hub.mu.Lock()
	s.releaseGateLocked(id)
	if err == nil && s.closed {
		err = errRoomGone
	}
	if err != nil {
		s.hub.mu.Unlock()
		return err
	}
	s.hub.rooms[id] = r
	return s.attach(r, c)
}

// loadRoom reads game id and builds its room (no lock held).
func (s *Server) loadRoom(id string) (*room, error) {
	rec, err := s.store.GetGame(id)
	if err != nil {
		return nil, err
	}
	if rec.Status == store.StatusDeleted {
		return nil, errGameDeleted
	}
	g, human, err := buildGame(rec)
	if err != nil {
		return nil, err
	}
	if rec.ClockSince != nil {
		// The clock was running when the last server stopped (a crash):
		// the mover is charged the time it ran up to then (alive.go), and
		// the record says so before the clock runs again.
		ms := msOf(rec, g.PositionAt(g.Len()).Side())
		*ms = max(*ms-s.crashCharge(rec.ClockSince).Milliseconds(), 0)
		if err := s.store.SetGameClock(id, rec.WhiteMS, rec.BlackMS, nil); err != nil {
			s.logf("game %s: %v", id, err) // the game still opens; its next commit says it
		}
		rec.ClockSince = nil
	}
	return &room{srv: s, id: id, rec: *rec, g: g, human: human, clients: map[*client]struct{}{}, watchers: map[*client]struct{}{}}, nil
}

// errRoomClosed is attach's answer when the room closed before c got in:
// join looks the game up again.
var errRoomClosed = errors.New("web: room closed")

// The lock order is a room's mu, then hub.mu, never the other way: a room
// holds its mu across its commits (and a commit can wait seconds on a busy
// or full disk), so whoever holds hub.mu must never wait for a room's mu,
// or one busy game would hold up every tab opening or closing any game.

// attach adds c to r, found in hub.rooms; it is called with hub.mu held
// and releases it before it takes r.mu. r may have closed in between
// (errRoomClosed), or the server (errRoomGone).
func (s *Server) attach(r *room, c *client) error {
	s.hub.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := s.attachable(r.closed); err != nil {
		return err
	}
	c.room = r
	now := time.Now()
	if c.watcher {
		if r.watchers == nil {
			r.watchers = map[*client]struct{}{}
		}
		r.watchers[c] = struct{}{}
		r.sendLocked(c, r.watcherStateLocked(now))
		return nil
	}
	r.clients[c] = struct{}{}
	r.syncClockLocked(now)
	r.maybeStartSearchLocked(now)
	r.sendLocked(c, r.stateLocked(now))
	return nil
}

// loadHost builds the live.Host of game id from its record (the
// registry's loader; no lock held).
func (s *Server) loadHost(id string) (*live.Host, error) {
	if testHookLoad != nil {
		testHookLoad(id)
	}
	if n, ok := strings.CutPrefix(id, "api_"); ok {
		apiID, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return nil, store.ErrNotFound
		}
		return s.loadAPIHost(apiID)
	}
	return s.loadReconHost(id)
}

// joinHost subscribes c to game id's host, loading the game when no tab
// has it open, and sends c the state; the host's automaton plays if it is
// its turn. The connection is counted first, under hub.mu, where Close
// sets s.closed before it closes the hosts and collects their tabs: a tab
// counted here is either refused or collected, so Close never waits for a
// connection it cannot close.
func (s *Server) joinHost(id string, c *client) error {
	s.hub.mu.Lock()
	if s.closed {
		s.hub.mu.Unlock()
		return errRoomGone
	}
	s.conns.Add(1)
	s.hub.mu.Unlock()
	h, err := s.games.Join(id, c)
	if err != nil {
		s.conns.Done()
		if errors.Is(err, live.ErrStopped) {
			return errRoomGone
		}
		return err
	}
	c.host = h
	h.Read(func(g live.Game, _ live.Moment) {
		if rg, ok := g.(*reconGame); ok {
			c.reconGame = rg
		}
	})
	return nil
}

// attachable says whether a tab may join a room (its mu held) whose closed
// flag is roomClosed, and if so counts the tab's connection. It is checked
// and counted under hub.mu, where Close sets s.closed before it collects
// the rooms' tabs (taking each room's mu after): a tab counted here is
// either refused or seen by Close, so Close never waits for a connection
// it cannot close.
func (s *Server) attachable(roomClosed bool) error {
	if roomClosed {
		return errRoomClosed
	}
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.closed {
		return errRoomGone
	}
	s.conns.Add(1)
	return nil
}

// leave removes c from its room; the last one out closes the room, taking
// it out of the hub at once and committing its clock under the game's
// gate, outside hub.mu.
func (s *Server) leave(c *client) {
	c.stop()
	s.unwatchReview(c)
	if c.apiTable != nil {
		s.games.Leave(c.host, c)
		s.hub.mu.Lock()
		delete(s.hub.api, c)
		s.hub.mu.Unlock()
		return
	}
	if c.host != nil {
		s.games.Leave(c.host, c)
		return
	}
	r := c.room
	if r == nil {
		return
	}
	r.mu.Lock()
	set := r.clients
	if c.watcher {
		set = r.watchers
	}
	_, ok := set[c]
	delete(set, c)
	if !ok || len(r.clients)+len(r.watchers) > 0 {
		if ok && !c.watcher && len(r.clients) == 0 {
			// The last player left while spectators watch: the game
			// pauses as if nobody had it open.
			r.pauseLocked(time.Now())
		}
		r.mu.Unlock()
		return
	}
	gated := s.unhub(r.id, func() bool { return s.hub.rooms[r.id] == r }, func() { delete(s.hub.rooms, r.id) })
	r.shutdownLocked(time.Now())
	r.mu.Unlock()
	s.ungate(r.id, gated)
}

// unhub takes the closing room of game id out of the hub (remove) when it
// is still there (inHub; the list of games may have taken it out already)
// and takes the game's gate, so that no tab opens the game before the
// room has committed; it reports whether it did. The caller holds the
// room's mu. No gate is held for a game whose room is in the hub (open and
// deleteFromList take the gate and the room out under one hold of hub.mu),
// so taking it here never waits.
func (s *Server) unhub(id string, inHub func() bool, remove func()) bool {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if !inHub() {
		return false
	}
	remove()
	s.takeGateLocked(id)
	return true
}

// ungate releases the gate unhub took, if it did.
func (s *Server) ungate(id string, gated bool) {
	if !gated {
		return
	}
	s.hub.mu.Lock()
	s.releaseGateLocked(id)
	s.hub.mu.Unlock()
}
