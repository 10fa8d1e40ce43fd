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
	// host is the client's game, which it subscribes to as viewer;
	// chessGame or reconGame is that game when it is played against the
	// engine or a bot in the browser.
	host      *live.Host
	viewer    live.Viewer
	reconGame *reconGame
	chessGame *chessGame
	// apiTable is the client's game when it is a game of the HTTP API
	// played in the browser by the signed-in user (in host); seat is the
	// user's colour.
	apiTable *apiTable
	seat     game.Color
	user     *store.User
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
	} else if rec, err = s.store.GetOwnedGame(id, owner); err == nil {
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
	s.chessMessage(c, c.chessGame, msg)
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

// hub holds what the server's tabs share outside their games (each game
// is in its live.Host, in Server.games): whether the server is closing,
// and the tabs playing API games in person, which signing out and Close
// hang up. hub.mu guards only these and is never held across a game's
// lock or database I/O; a host's lock may be taken before it, never after.
type hub struct {
	mu sync.Mutex
	// api are the tabs playing API games in person.
	api map[*client]struct{}
}

// testHookLoad, when set (by tests), runs before a game's record is read
// to build its host, with no lock held.
var testHookLoad func(id string)

// join subscribes c to its game's host (joinHost). On success the caller
// must run readPump, which ends with conns.Done.
func (s *Server) join(id string, c *client) error { return s.joinHost(id, c) }

// loadHost builds the live.Host of game id from its record (the
// registry's loader; no lock held).
func (s *Server) loadHost(id string) (*live.Host, error) {
	if testHookLoad != nil {
		testHookLoad(id)
	}
	if n, ok := strings.CutPrefix(id, apiIDPrefix); ok {
		apiID, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return nil, store.ErrNotFound
		}
		return s.loadAPIHost(apiID)
	}
	if strings.HasPrefix(id, store.ReconIDPrefix) {
		return s.loadReconHost(id)
	}
	return s.loadChessHost(id)
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
		switch g := g.(type) {
		case *reconGame:
			c.reconGame = g
		case *chessGame:
			c.chessGame = g
		}
	})
	return nil
}

// leave takes c out of its game: the last player out of a game played in
// person closes its host (live.Registry's Leave), which commits its clock.
func (s *Server) leave(c *client) {
	c.stop()
	s.unwatchReview(c)
	if c.host == nil {
		return
	}
	s.games.Leave(c.host, c)
	if c.apiTable != nil {
		s.hub.mu.Lock()
		delete(s.hub.api, c)
		s.hub.mu.Unlock()
	}
}
