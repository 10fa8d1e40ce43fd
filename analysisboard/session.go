package analysisboard

import (
	"context"
	"fmt"
	"sync"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
)

// Session is one analysis socket's side of the server: it answers the
// page's requests and runs the engine's lines for the position the page
// shows, one analysis at a time, as its owner's work in the pool. Message
// is called by the socket's one reader; Close once, as the socket ends.
// Everything it sends goes through Config.Send, which must not block
// (the socket's writer queue).
type Session struct {
	cfg    SessionConfig
	mu     sync.Mutex
	cancel context.CancelFunc // the running analysis's; nil when none
	done   chan struct{}      // closed as the running analysis ends
	closed bool
}

// SessionConfig is what a Session runs on.
type SessionConfig struct {
	// Owner is whose work the analysis is (the browser's owner key).
	Owner string
	// ID names the analysis in the pool (its searchers keep their hash
	// table between chunks of one ID): the socket's own.
	ID string
	// Pool runs the engine; nil: no engine lines ("off").
	Pool *enginepool.Pool
	// Tables give each position's Syzygy and Gaviota verdicts; nil
	// tables: none.
	Tables Tables
	// Limiter holds the per-owner caps, shared by every session of the
	// server.
	Limiter *Limiter
	// Chunk is the pool's chunk (enginepool.AnalysisChunk when zero).
	Chunk time.Duration
	// LinesEvery is the least time between two lines messages
	// (LinesEvery when zero).
	LinesEvery time.Duration
	// Send queues one message for the page.
	Send func([]byte)
}

// NewSession makes a session on cfg.
func NewSession(cfg SessionConfig) *Session { return &Session{cfg: cfg} }

// Message handles one message from the page: a position is answered at
// once (or with an error in words, nothing else changed), the analysis of
// the page's previous position stopped and, when asked for, one of this
// one started; stop stops it.
func (s *Session) Message(data []byte) {
	req, err := ParseRequest(data)
	if err != nil {
		s.cfg.Send(encode(ErrorMsg{Type: MsgError, Text: err.Error()}))
		return
	}
	switch req.Type {
	case MsgStop:
		s.stop()
		return
	case MsgSync:
		return
	}
	g, _, err := req.Path().Play()
	if err != nil {
		s.cfg.Send(encode(ErrorMsg{Type: MsgError, ID: req.ID, Text: err.Error()}))
		return
	}
	info, err := Describe(req.Path(), s.cfg.Tables)
	if err != nil {
		s.cfg.Send(encode(ErrorMsg{Type: MsgError, ID: req.ID, Text: err.Error()}))
		return
	}
	s.stop()
	s.cfg.Send(encode(PositionMsg{Type: MsgPosition, ID: req.ID, Position: info}))
	if !req.Engine {
		return
	}
	if s.cfg.Pool == nil {
		s.cfg.Send(encode(EngineMsg{Type: MsgEngine, ID: req.ID, State: "off", Text: "This server runs no engine."}))
		return
	}
	if info.Over != "" {
		s.cfg.Send(encode(EngineMsg{Type: MsgEngine, ID: req.ID, State: "done", Text: "The game is over in this position."}))
		return
	}
	s.start(req, g.Position(), g.HashHistory())
}

// start runs the analysis of pos for req in its own goroutine.
func (s *Session) start(req *Request, pos *game.Position, history []uint64) {
	budget, charge, refusal := s.cfg.Limiter.Start(s.cfg.Owner)
	if refusal != "" {
		s.cfg.Send(encode(EngineMsg{Type: MsgEngine, ID: req.ID, State: "refused", Text: refusal}))
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		charge(0)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s.cancel, s.done = cancel, done
	s.mu.Unlock()
	s.cfg.Send(encode(EngineMsg{Type: MsgEngine, ID: req.ID, State: "running"}))
	every := s.cfg.LinesEvery
	if every <= 0 {
		every = LinesEvery
	}
	lines := newLineThrottle(s.cfg.Send, every)
	go func() {
		defer close(done)
		white := pos.Side() == game.White
		used := s.cfg.Pool.Analyse(ctx, s.cfg.Owner, s.cfg.ID, pos, history,
			enginepool.AnalysisRequest{MultiPV: req.MultiPV, Chunk: s.cfg.Chunk, Total: budget},
			func(ls []enginepool.AnalysisLine) {
				lines.offer(encode(linesMsg(req.ID, pos, white, ls)))
			})
		// The deepest lines before the final word, unless the page has
		// moved on.
		lines.end(ctx.Err() == nil)
		charge(used)
		state, text := "done", ""
		if ctx.Err() != nil {
			state = "stopped"
		} else if used >= budget {
			text = fmt.Sprintf("Analysed for %.0f s of engine time; move or press Analyse to go on.", used.Seconds())
		}
		s.cfg.Send(encode(EngineMsg{Type: MsgEngine, ID: req.ID, State: state, Text: text}))
	}()
}

// linesMsg converts one depth's lines for the page: scores from White's
// point of view, moves in SAN.
func linesMsg(id int64, pos *game.Position, white bool, ls []enginepool.AnalysisLine) LinesMsg {
	out := LinesMsg{Type: MsgLines, ID: id, Lines: make([]LineView, 0, len(ls))}
	for _, l := range ls {
		out.Depth = l.Depth
		out.Nodes = max(out.Nodes, l.Nodes)
		v := LineView{Rank: l.Rank, CP: l.CP, Mate: l.Mate, SAN: []string{}, UCI: []string{}}
		if !white {
			v.CP, v.Mate = -v.CP, -v.Mate
		}
		q := *pos
		for _, m := range l.PV {
			if !q.IsLegal(m) {
				break
			}
			v.SAN = append(v.SAN, q.SAN(m))
			v.UCI = append(v.UCI, q.UCI(m))
			q.MakeMove(m)
		}
		out.Lines = append(out.Lines, v)
	}
	return out
}

// stop stops the running analysis, if any, and waits for it to end (at
// once: the pool cancels a chunk mid-search).
func (s *Session) stop() {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.cancel, s.done = nil, nil
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// Close stops the running analysis and refuses any later one.
func (s *Session) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.stop()
}
