package web

import (
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"
)

// Defaults of the per-socket message limit (Config.MessageRate and
// MessageBurst). A person clicking, or a page resyncing after a reconnect,
// sends a few messages a second; 20 a second with a burst of 40 leaves
// ample room for that and none for a flood.
const (
	DefaultMessageRate  = 20
	DefaultMessageBurst = 40
	// CodeRateLimited answers the first message over the limit; the text
	// is rateLimitedText.
	CodeRateLimited = "rate_limited"
	rateLimitedText = "too many messages; slow down"
	// rateCloseReason goes with close code 1008 when the flood goes on.
	rateCloseReason = "too many messages"
)

// msgLimiter is one socket's message limit: game, Reconnaissance Chess and
// API-game sockets all use it (readPump). Messages over the limit are
// dropped unread; the first of a run gets an error, and a socket that
// keeps going (more dropped messages than the burst, net of those let
// through since) is closed with 1008.
type msgLimiter struct {
	lim     *rate.Limiter
	strikes int
	max     int
}

// limitVerdict is what to do with one message.
type limitVerdict int

const (
	limitPass  limitVerdict = iota // handle it
	limitWarn                      // drop it and say so
	limitDrop                      // drop it silently (already warned)
	limitClose                     // close the socket, 1008
)

// messageLimits returns the per-socket message rate and burst: Config's,
// or the defaults.
func (s *sockets) messageLimits() (float64, int) {
	r, b := s.cfg.MessageRate, s.cfg.MessageBurst
	if r <= 0 {
		r = DefaultMessageRate
	}
	if b <= 0 {
		b = DefaultMessageBurst
	}
	return r, b
}

func (s *sockets) newMsgLimiter() *msgLimiter {
	r, b := s.messageLimits()
	return &msgLimiter{lim: rate.NewLimiter(rate.Limit(r), b), max: b}
}

// sendQueueLen is the length of a socket's send queue: at least sendQueue,
// and room for the answers to a whole burst of messages, the rate_limited
// error and a few broadcasts besides (at most maxSendQueue). A socket
// whose queue overflows is dropped without a word (trySend), so a queue
// shorter than the burst dropped a flood before it could be told why.
func (s *sockets) sendQueueLen() int {
	_, b := s.messageLimits()
	return min(max(sendQueue, b+sendQueue/2), maxSendQueue)
}

// maxSendQueue bounds sendQueueLen whatever the configured burst.
const maxSendQueue = 1024

// check rates one incoming message.
func (m *msgLimiter) check(now time.Time) limitVerdict {
	if m.lim.AllowN(now, 1) {
		if m.strikes > 0 {
			m.strikes--
		}
		return limitPass
	}
	m.strikes++
	switch {
	case m.strikes > m.max:
		return limitClose
	case m.strikes == 1:
		return limitWarn
	}
	return limitDrop
}

// closeWith closes the socket from the server's side with code and
// reason: writePump sends what is queued (say the error that explains it),
// then the close frame; meanwhile this, called from readPump, discards what
// the peer still sends until its close reply (or writeWait), so the close
// handshake completes. readPump returns right after.
func (c *client) closeWith(code int, reason string) {
	frame := websocket.FormatCloseMessage(code, reason)
	c.closeFrame.Store(&frame)
	c.stop()
	c.conn.SetReadDeadline(time.Now().Add(writeWait))
	for {
		if _, _, err := c.conn.NextReader(); err != nil {
			return
		}
	}
}
