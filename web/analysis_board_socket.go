package web

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/analysisboard"
)

// boardSession is what an analysis socket's messages go to
// (analysisboard.Session).
type boardSession interface {
	Message(data []byte)
	Close()
}

// boardSockets numbers the analysis sockets: each is its own analysis in
// the engine pool (its searchers keep their hash table between the chunks
// of one).
var boardSockets atomic.Uint64

// boardGame is the ID an analysis socket counts under in the per-owner
// limits on sockets, as a game's sockets count under the game's ID.
const boardGame = "analysis"

// handleAnalysisWS serves GET /ws/analysis: the analysis board's socket,
// one reader and one writer like a game's, whose messages go to an
// analysisboard.Session (web/PROTOCOL.md, "The analysis socket"). The
// page sets the cookie first: without one, 404.
func (s *sockets) handleAnalysisWS(w http.ResponseWriter, r *http.Request, limiter *analysisboard.Limiter) {
	who := s.identify(r)
	if who.owner == "" {
		http.NotFound(w, r)
		return
	}
	release := s.acquireSocket(w, who.owner, boardGame)
	if release == nil {
		return // 429 with the reason
	}
	conn, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		release()
		return
	}
	c := &client{sk: s, conn: conn, send: make(chan []byte, s.sendQueueLen()), done: make(chan struct{}), game: boardGame, release: release, addr: s.clientAddr(r)}
	cfg := analysisboard.SessionConfig{
		Owner:   who.owner,
		ID:      "analysis-" + time.Now().Format("150405") + "-" + strconv.FormatUint(boardSockets.Add(1), 10),
		Limiter: limiter,
		Send:    c.trySend,
	}
	if s.pool != nil {
		cfg.Pool = s.pool
		cfg.Tables = analysisboard.Tables{Syzygy: s.pool.Tablebase(), Gaviota: s.pool.Gaviota()}
	}
	c.board = analysisboard.NewSession(cfg)
	s.hub.mu.Lock()
	if s.hub.closed {
		s.hub.mu.Unlock()
		release()
		conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server stopping"), time.Now().Add(writeWait))
		conn.Close()
		return
	}
	s.conns.Add(1)
	s.hub.boards[c] = struct{}{}
	s.hub.mu.Unlock()
	s.hook(s.cfg.Hooks.Joining, c)
	go c.writePump()
	go s.readPump(c)
}

// leaveBoard stops c's analysis and forgets the socket.
func (s *sockets) leaveBoard(c *client) {
	c.board.Close()
	s.hub.mu.Lock()
	delete(s.hub.boards, c)
	s.hub.mu.Unlock()
}
