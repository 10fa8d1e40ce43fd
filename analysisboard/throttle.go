package analysisboard

import (
	"sync"
	"time"
)

// LinesEvery is the least time between two lines messages of one
// analysis. The engine finishes the first depths of any position, and
// every depth of a dead one (bare kings and a knight, a mate it has
// found), in microseconds: sent one message a depth, 55 depths of
// K+N v K filled the socket's writer queue at once and the server closed
// the socket (a slow reader, by the rule every socket lives by), losing
// the move the page had just asked for. A person reads lines a few times
// a second at most.
const LinesEvery = 100 * time.Millisecond

// lineThrottle passes an analysis's lines messages on at most once per
// every: a message that comes sooner waits, replaced by any later one,
// and goes out when the interval is up. end sends the last waiting one
// (or drops it, for a stopped analysis) before the analysis's final
// message. Safe for the analysis goroutine and the throttle's timer.
type lineThrottle struct {
	send  func([]byte)
	every time.Duration

	mu      sync.Mutex
	last    time.Time   // when a message last went out; zero: never
	waiting []byte      // the latest message held back; nil: none
	timer   *time.Timer // sends waiting when due; nil when none is set
	ended   bool
}

func newLineThrottle(send func([]byte), every time.Duration) *lineThrottle {
	return &lineThrottle{send: send, every: every}
}

// offer sends msg now if the interval since the last one is up, or holds
// it back in place of any message waiting.
func (t *lineThrottle) offer(msg []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	now := time.Now()
	if t.timer == nil && (t.last.IsZero() || now.Sub(t.last) >= t.every) {
		t.last = now
		t.send(msg)
		return
	}
	t.waiting = msg
	if t.timer == nil {
		t.timer = time.AfterFunc(t.every-now.Sub(t.last), t.due)
	}
}

// due sends the message waiting, if the analysis has not ended meanwhile.
func (t *lineThrottle) due() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timer = nil
	if t.ended || t.waiting == nil {
		return
	}
	t.last = time.Now()
	t.send(t.waiting)
	t.waiting = nil
}

// end stops the throttle: the message waiting goes out when flush is
// true (the analysis finished, its deepest lines are the answer) and is
// dropped otherwise (stopped: the page has moved on). Later offers are
// dropped.
func (t *lineThrottle) end(flush bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	if flush && t.waiting != nil && !t.ended {
		t.send(t.waiting)
	}
	t.waiting = nil
	t.ended = true
}
