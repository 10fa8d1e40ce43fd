package web

import (
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"knightwatch/live"
	"knightwatch/play"
	"knightwatch/store"
)

// Connection timing, as in gorilla/websocket's chat example.
const (
	writeWait  = 10 * time.Second    // time allowed to write one message
	pongWait   = 60 * time.Second    // time allowed between pongs
	pingPeriod = (pongWait * 9) / 10 // must be shorter than pongWait
	// hardReadLimit is where the connection itself is closed (1009). Below
	// it, messages over play.MaxMessageBytes are read, discarded and answered
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
	done chan struct{} // closed when the client leaves its game
	once sync.Once
	// game is the ID of the socket's game, as Hooks name it.
	game string
	// sk is the transport the client is one of. host is the client's
	// game, which it subscribes to as viewer; seat takes its messages when
	// it plays (play's for a game against the engine or a bot, rbcapi's
	// for a game of the HTTP API, whose user is then the signed-in
	// account).
	sk     *sockets
	host   *live.Host
	viewer live.Viewer
	seat   seat
	user   *store.User
	// session and account are the browser's session and account when it
	// is signed in ("" and 0 otherwise): signing out hangs up the sockets
	// of the sessions it ends.
	session string
	account int64
	// watcher marks a spectator's read-only socket (watch.go): its viewer
	// is live.Spectator, and it may send nothing but sync.
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
	// board is the analysis board's session of an analysis socket
	// (analysis_board_socket.go), which takes its messages; nil for a
	// game's socket.
	board boardSession
	// closeFrame, when set before done closes, is the close frame
	// writePump sends instead of 1001 going away (closeWith).
	closeFrame atomic.Pointer[[]byte]
}

// trySend queues b without blocking the host. A tab too slow to keep up
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

// MayCreate checks a rematch against the limits on creating games, which
// count c's owner and c's address (play.Tab).
func (c *client) MayCreate(owner string) bool { return c.sk.rematchAllowed(c, owner) }

func (s *sockets) handleWS(w http.ResponseWriter, r *http.Request) {
	who := s.identify(r)
	owner := who.owner
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
		if rr, err = s.store.Games().GetOwnedReconGame(id, owner); err == nil {
			viewer = live.PlayerOf(rr.Human.Color)
		}
	} else if rec, err = s.store.Games().GetOwnedGame(id, owner); err == nil {
		viewer = live.PlayerOf(rec.Human.Color)
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
	c := &client{sk: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), game: id, release: release, addr: s.clientAddr(r), viewer: viewer}
	err = s.join(c, func() (*live.Host, error) {
		seat, err := s.games.Join(id, c)
		if err != nil {
			return nil, err
		}
		c.seat = seat
		return seat.Host(), nil
	})
	if err != nil {
		release()
		if errors.Is(err, play.ErrDeleted) {
			// Deleted from the list of games: send the tab home, once,
			// instead of leaving it to reconnect to nothing.
			conn.SetWriteDeadline(time.Now().Add(writeWait))
			for _, b := range play.DeletedMessages() {
				conn.WriteMessage(websocket.TextMessage, b)
			}
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
	if who.user != nil {
		c.session, c.account = who.session, who.user.ID
		s.hub.mu.Lock()
		s.hub.signedIn[c] = struct{}{}
		s.hub.mu.Unlock()
		s.recheckSession(c)
	}
	go c.writePump()
	go s.readPump(c)
}

func (s *sockets) readPump(c *client) {
	defer func() {
		s.hook(s.cfg.Hooks.Leaving, c)
		s.leave(c)
		c.conn.Close()
		if c.release != nil {
			c.release()
		}
		s.hook(s.cfg.Hooks.Left, c)
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
			c.trySend(play.EncodeError(play.Errorf(CodeRateLimited, rateLimitedText)))
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
var readBufs = sync.Pool{New: func() any { b := make([]byte, play.MaxMessageBytes+1); return &b }}

// readOne reads, decodes and handles one message; false ends the connection.
func (s *sockets) readOne(c *client, kind int, rd io.Reader) bool {
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	buf := *bp
	n, err := io.ReadFull(rd, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false
	}
	if n > play.MaxMessageBytes {
		if _, err := io.Copy(io.Discard, rd); err != nil {
			return false // over the hard limit: the connection is closed
		}
		c.trySend(play.EncodeError(play.Errorf(play.CodeTooLarge, "message exceeds %d bytes", play.MaxMessageBytes)))
		return true
	}
	if kind != websocket.TextMessage {
		c.trySend(play.EncodeError(play.Errorf(play.CodeBadJSON, "binary frames are not accepted")))
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
	if c.board != nil {
		c.board.Message(buf[:n])
		return true
	}
	if c.seat != nil {
		c.seat.Message(buf[:n])
	}
	return true
}

// seat is what a player's socket acts through: its game's host, and the
// game's own handling of each text frame (play.Seat, rbcapi.Seat).
type seat interface {
	Host() *live.Host
	Message(data []byte)
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

// sockets is the WebSocket transport: every socket of a tab (a player's
// of a game against the server or of an API game, a spectator's), one
// reader (readPump) and one writer (writePump) each, subscribed to its
// game's live.Host in the registry, and the limits on sockets and on
// their messages.
type sockets struct {
	*site
	upgrader websocket.Upgrader
	// creates are the limits a rematch passes (client.MayCreate).
	creates *createLimits
	counts  socketCounts
	hub     hub
	// conns counts the sockets whose readPump runs; close waits for them.
	conns sync.WaitGroup
}

// hub holds what the server's tabs share outside their games (each game
// is in its live.Host, in site.reg): whether the server is closing, and
// the tabs playing API games in person, which signing out and Close hang
// up. hub.mu guards only these and is never held across a game's lock or
// database I/O; a host's lock may be taken before it, never after.
type hub struct {
	mu     sync.Mutex
	closed bool
	// api are the tabs playing API games in person.
	api map[*client]struct{}
	// signedIn are the sockets opened by signed-in browsers (API tabs and
	// games' alike), which signing out hangs up (closeSockets).
	signedIn map[*client]struct{}
	// boards are the analysis board's sockets (analysis_board_socket.go).
	boards map[*client]struct{}
}

func newSockets(site *site, creates *createLimits) *sockets {
	s := &sockets{site: site, creates: creates, hub: hub{api: map[*client]struct{}{}, signedIn: map[*client]struct{}{}, boards: map[*client]struct{}{}}}
	// Write buffers come from a pool: an idle tab then holds none.
	s.upgrader = websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 4096, WriteBufferPool: &sync.Pool{}, CheckOrigin: site.checkOrigin}
	return s
}

// close closes the registry (every host: clocks stopped and committed)
// and every socket, and waits for their readPumps to end.
func (s *sockets) close() {
	defer s.conns.Wait()
	// hub.closed is set first, under hub.mu, where every socket is
	// counted (join, handleAPIWS): one counted before is in a host's
	// subscribers, or among the API tabs, by the time they are collected.
	s.hub.mu.Lock()
	s.hub.closed = true
	conns := slices.Collect(maps.Keys(s.hub.api))
	conns = slices.AppendSeq(conns, maps.Keys(s.hub.boards))
	s.hub.mu.Unlock()
	for _, sub := range s.reg.Close() {
		conns = append(conns, sub.(*client))
	}
	for _, c := range conns {
		c.conn.Close()
	}
}

// join counts c's connection and runs join, which subscribes c to its
// game's host and returns it. The connection is counted first, under
// hub.mu, where close sets hub.closed before it closes the registry and
// collects the hosts' tabs: a tab counted here is either refused or
// collected, so Close never waits for a connection it cannot close. On
// success the caller must run readPump, which ends with conns.Done.
func (s *sockets) join(c *client, join func() (*live.Host, error)) error {
	s.hub.mu.Lock()
	if s.hub.closed {
		s.hub.mu.Unlock()
		return errRoomGone
	}
	s.conns.Add(1)
	s.hub.mu.Unlock()
	s.hook(s.cfg.Hooks.Joining, c)
	h, err := join()
	if err != nil {
		s.conns.Done()
		if errors.Is(err, live.ErrStopped) {
			return errRoomGone
		}
		return err
	}
	c.host = h
	return nil
}

// hook runs one of Hooks for c's game, if set.
func (s *sockets) hook(f func(id string), c *client) {
	if f != nil {
		f(c.game)
	}
}

// errRoomGone is returned when a game cannot be opened: the server is
// stopping.
var errRoomGone = errors.New("web: game not available")

// leave takes c out of its game: the last player out of a game played in
// person closes its host (live.Registry's Leave), which commits its clock.
func (s *sockets) leave(c *client) {
	c.stop()
	s.unwatchReview(c)
	if c.board != nil {
		s.leaveBoard(c)
	}
	if c.host == nil {
		return
	}
	s.reg.Leave(c.host, c)
	if c.user != nil || c.session != "" {
		s.hub.mu.Lock()
		delete(s.hub.api, c)
		delete(s.hub.signedIn, c)
		s.hub.mu.Unlock()
	}
}
