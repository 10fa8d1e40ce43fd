package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// recorder gathers what every player measured and saw. Latencies are
// recorded only while on is set (after the warm-up).
type recorder struct {
	on atomic.Bool

	ack      Latencies // the player's chess move: sent → its state
	reconAck Latencies // the player's sense or move: sent → its recon_state
	reconBot Latencies // the bot's turn: the player's move acknowledged → the player's next turn
	engineMu sync.Mutex
	engine   map[int]*Latencies // the engine's reply by level: the player's move acknowledged → the engine's move

	playerMoves, engineMoves, reconActions atomic.Int64 // acknowledged while on
	takebacks                              atomic.Int64 // acknowledged, on or not

	errors Tally
	// violations are states received on reconnecting that contradict what
	// the player had seen acknowledged before the connection dropped.
	violMu     sync.Mutex
	violations []string
}

func newRecorder() *recorder { return &recorder{engine: map[int]*Latencies{}} }

func (r *recorder) engineLevel(level int) *Latencies {
	r.engineMu.Lock()
	defer r.engineMu.Unlock()
	l := r.engine[level]
	if l == nil {
		l = &Latencies{}
		r.engine[level] = l
	}
	return l
}

func (r *recorder) violation(format string, args ...any) {
	r.violMu.Lock()
	r.violations = append(r.violations, fmt.Sprintf(format, args...))
	r.violMu.Unlock()
}

func (r *recorder) violationList() []string {
	r.violMu.Lock()
	defer r.violMu.Unlock()
	return append([]string(nil), r.violations...)
}

// gameKind is the kind of game a player plays.
type gameKind int

const (
	kindChess gameKind = iota
	kindRecon
)

// playerConfig is what a player plays and how fast.
type playerConfig struct {
	kind     gameKind
	level    int    // chess: the engine's level
	clock    string // the new-game form's clock, such as "5+3"
	reconBot string // recon: the opponent's spec
	// think is the longest random pause before each of the player's
	// actions, so that the load is a crowd rather than a lock-step loop.
	think time.Duration
	// takebacks: now and then take back instead of moving, and now and
	// then right after a move, racing the engine's reply. The crash
	// test's players do; the load's only move, so that every action it
	// times is a move.
	takebacks bool
}

// player is one visitor playing one game after another (a rematch when a
// game ends) against the engine or a recon bot, with random legal moves
// and, in Reconnaissance Chess, random senses. After a dropped connection
// it reconnects to the same game and carries on.
type player struct {
	v   *visitor
	cfg playerConfig
	rec *recorder
	led *ledger
	rng *rand.Rand

	id string // the game being played; "" before the first

	// Per connection: the action sent and not yet acknowledged (-1: none)
	// and the acknowledgement the opponent's reply is timed from.
	sentAt, ackAt   time.Time
	sentPly, ackPly int
	sentTakeback    bool // the action at sentPly is a takeback
	sentSeq         int
	sentReconMove   bool
	rematchSent     bool

	// ownAcks counts the player's own actions acknowledged.
	ownAcks atomic.Int64
}

// retryPause is the pause between attempts while the server cannot be
// reached.
const retryPause = 100 * time.Millisecond

// readWait bounds the wait for any message: far above a level-8 reply
// queued behind many others, so that only a dead server ends a read.
const readWait = 120 * time.Second

func (p *player) form() url.Values {
	if p.cfg.kind == kindRecon {
		return url.Values{"variant": {"recon"}, "opponent": {p.cfg.reconBot}, "color": {"random"}, "clock": {p.cfg.clock}}
	}
	return url.Values{"variant": {"standard"}, "color": {"random"}, "level": {strconv.Itoa(p.cfg.level)}, "clock": {p.cfg.clock}}
}

// run plays until ctx ends.
func (p *player) run(ctx context.Context) {
	for ctx.Err() == nil {
		if p.id == "" {
			id, err := p.v.create(p.form())
			if err != nil {
				p.rec.errors.Add(kindOf(err))
				sleep(ctx, time.Second)
				continue
			}
			p.id = id
		}
		conn, err := p.v.dial(p.id)
		if err != nil {
			p.rec.errors.Add(kindOf(err))
			sleep(ctx, retryPause)
			continue
		}
		next, err := p.play(ctx, conn)
		conn.Close()
		switch {
		case next != "":
			p.id = next
		case errors.Is(err, errRematchRefused):
			p.id = ""
			sleep(ctx, time.Second)
		case err != nil && ctx.Err() == nil:
			p.rec.errors.Add(kindOf(err))
			sleep(ctx, retryPause)
		}
	}
}

// errRematchRefused: the server would not start the rematch (limits);
// the player starts a new game from the form instead.
var errRematchRefused = errors.New("rematch refused")

// play reads conn until the game is left: it returns the next game's ID
// after a rematch, or the error that ended the connection.
func (p *player) play(ctx context.Context, conn *websocket.Conn) (string, error) {
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	p.sentPly, p.ackPly, p.sentSeq, p.sentTakeback = -1, -1, -1, false
	p.ackAt = time.Time{}
	p.rematchSent = false
	first := true
	for {
		conn.SetReadDeadline(time.Now().Add(readWait))
		_, data, err := conn.ReadMessage()
		if err != nil {
			return "", &opError{"read: " + netKind(err), err}
		}
		var m wire
		if err := json.Unmarshal(data, &m); err != nil {
			return "", &opError{"bad message", err}
		}
		switch m.Type {
		case "state":
			err = p.onChess(ctx, conn, &m, first)
			first = false
		case "recon_state":
			err = p.onRecon(ctx, conn, &m, first)
			first = false
		case "error":
			p.rec.errors.Add("error: " + m.Code)
			if p.rematchSent && (m.Code == "too_many_games" || m.Code == "create_rate_limited") {
				return "", errRematchRefused
			}
			// The action was refused; ask for the state to carry on from.
			p.sentPly, p.sentSeq, p.sentTakeback = -1, -1, false
			err = p.send(conn, map[string]any{"type": "sync"})
		case "redirect":
			id, ok := strings.CutPrefix(m.URL, "/game/")
			if !ok || id == "" {
				return "", &opError{"bad redirect", fmt.Errorf("redirect to %q", m.URL)}
			}
			return id, nil
		}
		if err != nil {
			return "", err
		}
	}
}

func (p *player) send(conn *websocket.Conn, msg map[string]any) error {
	b, _ := json.Marshal(msg)
	conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if err := conn.WriteMessage(websocket.TextMessage, b); err != nil {
		return &opError{"write: " + netKind(err), err}
	}
	return nil
}

// think pauses for a random part of the player's thinking time; false
// when ctx ended meanwhile.
func (p *player) think(ctx context.Context) bool {
	if p.cfg.think <= 0 {
		return ctx.Err() == nil
	}
	return sleep(ctx, time.Duration(p.rng.Int64N(int64(p.cfg.think)+1)))
}

// sleep waits d or until ctx ends; false when ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (p *player) rematch(conn *websocket.Conn) error {
	if p.rematchSent {
		return nil
	}
	p.rematchSent = true
	return p.send(conn, map[string]any{"type": "rematch"})
}

// onChess handles a chess state: the timing of acknowledgements and
// replies, the ledger, and the player's next action.
func (p *player) onChess(ctx context.Context, conn *websocket.Conn, m *wire, first bool) error {
	now := time.Now()
	moves := ucis(m.Moves)
	over := m.Status == "over"
	humanToMove := m.Turn == m.Human
	if first {
		if last, ok := p.led.lastChess(p.id); ok {
			if err := checkChess(last, chessStored{Moves: moves, Over: over}); err != nil {
				p.rec.violation("game %s on reconnecting: %v", p.id, err)
			}
		}
	}
	justAcked := false
	switch {
	case p.sentTakeback && m.Ply < p.sentPly:
		p.acked()
		p.rec.takebacks.Add(1)
		p.sentPly, p.sentTakeback, p.ackPly = -1, false, -1
	case p.sentTakeback:
		// The engine's move got in first: the takeback will be refused
		// as stale, and the player acts once that is known.
	case p.sentPly >= 0 && m.Ply > p.sentPly:
		p.acked()
		if p.rec.on.Load() {
			p.rec.ack.Add(now.Sub(p.sentAt))
			p.rec.playerMoves.Add(1)
		}
		p.sentPly = -1
		p.ackAt, p.ackPly = now, m.Ply
		justAcked = true
	case p.ackPly >= 0 && m.Ply > p.ackPly:
		if p.rec.on.Load() {
			p.rec.engineLevel(p.cfg.level).Add(now.Sub(p.ackAt))
			p.rec.engineMoves.Add(1)
		}
		p.ackPly = -1
	}
	p.led.sawChess(p.id, m.Human, moves, humanToMove, over)
	if over {
		return p.rematch(conn)
	}
	if p.sentPly >= 0 {
		return nil
	}
	if p.cfg.takebacks && justAcked && !humanToMove && p.rng.IntN(8) == 0 {
		// Take the move back at once, racing the engine's reply.
		return p.takeback(conn, m.Ply)
	}
	if !humanToMove || len(m.Legal) == 0 {
		return nil
	}
	if !p.think(ctx) {
		return ctx.Err()
	}
	if p.cfg.takebacks && m.Ply >= 2 && p.rng.IntN(10) == 0 {
		return p.takeback(conn, m.Ply)
	}
	mv := m.Legal[p.rng.IntN(len(m.Legal))].UCI
	p.led.sentChess(p.id, m.Ply, "move", mv)
	p.sentAt, p.sentPly = time.Now(), m.Ply
	return p.send(conn, map[string]any{"type": "move", "move": mv, "ply": m.Ply})
}

// takeback asks to take back the player's last move (and the engine's
// reply, if it has come) at ply.
func (p *player) takeback(conn *websocket.Conn, ply int) error {
	p.led.sentChess(p.id, ply, "takeback", "")
	p.sentPly, p.sentTakeback, p.ackPly = ply, true, -1
	return p.send(conn, map[string]any{"type": "takeback", "ply": ply})
}

// acked counts an acknowledgement of the player's own action.
func (p *player) acked() { p.ownAcks.Add(1) }

// onRecon handles a recon_state: the timing of acknowledgements and of
// the bot's turns, the ledger, and the player's next sense or move.
func (p *player) onRecon(ctx context.Context, conn *websocket.Conn, m *wire, first bool) error {
	now := time.Now()
	senses, moves := senseTexts(m.Turns), moveTexts(m.Turns)
	over := m.Phase == "over" || m.Status == "over"
	if first {
		if last, ok := p.led.lastRecon(p.id); ok {
			if err := checkRecon(last, reconStored{Seq: m.Seq, Senses: senses, Moves: moves, Over: over}); err != nil {
				p.rec.violation("game %s on reconnecting: %v", p.id, err)
			}
		}
	}
	switch {
	case p.sentSeq >= 0 && m.Seq > p.sentSeq:
		p.acked()
		if p.rec.on.Load() {
			p.rec.reconAck.Add(now.Sub(p.sentAt))
			p.rec.reconActions.Add(1)
		}
		if p.sentReconMove {
			p.ackAt = now
		}
		p.sentSeq = -1
	case !p.ackAt.IsZero() && (m.Phase == "sense" || m.Phase == "over"):
		if p.rec.on.Load() && m.Phase == "sense" {
			p.rec.reconBot.Add(now.Sub(p.ackAt))
		}
		p.ackAt = time.Time{}
	}
	p.led.sawRecon(p.id, m.Human, m.Seq, senses, moves, over)
	if over {
		return p.rematch(conn)
	}
	if p.sentSeq >= 0 || (m.Phase != "sense" && m.Phase != "move") {
		return nil
	}
	if !p.think(ctx) {
		return ctx.Err()
	}
	var msg map[string]any
	if m.Phase == "sense" {
		sq := ""
		if p.rng.IntN(10) != 0 { // one sense in ten is skipped
			sq = string(rune('a'+p.rng.IntN(8))) + string(rune('1'+p.rng.IntN(8)))
		}
		p.led.sentRecon(p.id, m.Seq, "sense", sq)
		msg = map[string]any{"type": "sense", "square": sq, "seq": m.Seq}
	} else {
		mv := "pass"
		if len(m.MoveActions) > 0 && p.rng.IntN(20) != 0 { // one move in twenty is a pass
			mv = m.MoveActions[p.rng.IntN(len(m.MoveActions))].UCI
		}
		p.led.sentRecon(p.id, m.Seq, "move", mv)
		msg = map[string]any{"type": "move", "move": mv, "seq": m.Seq}
	}
	p.sentAt, p.sentSeq, p.sentReconMove = time.Now(), m.Seq, m.Phase == "move"
	return p.send(conn, msg)
}
