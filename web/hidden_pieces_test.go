package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/recon"
	"knightwatch/recon/recontest"
	"knightwatch/store"
)

// The property of this file (issue 41): no message a server sends to a
// seat of a Reconnaissance Chess game, by any path, ever names a square of
// an opponent's piece that the seat has not been told of at that moment.
// Random games are played through every path that sends state (a browser
// game against a bot, the HTTP API, an API game played in the browser, with
// a second tab open, and strangers and replays during play), with hostile
// messages mixed in; every message is kept, and once the game is over each
// is held against what its seat had been told at the moment it was sent
// (recontest, which replays the record apart from the server's code).

// seatMessage is one message a seat was sent.
type seatMessage struct {
	seat game.Color
	// what sent it: "socket" (a state or error frame) or an API endpoint.
	what   string
	status int
	raw    []byte
	// point is the moment of the game the message was answered at, when
	// the test knows it exactly (the API, driven one call at a time); -1
	// for a socket frame, matched by its seq.
	point int
	// request is the square a sense asked for (for its answer).
	request game.Square
}

// leakCheck holds a finished game's record against the messages its seats
// were sent.
type leakCheck struct {
	t      *testing.T
	rng    *rand.Rand
	h      *recon.History
	points []recontest.Point
	// named are the squares of each seat's own notes; asked, every square
	// each seat named in what it sent (an error may quote a request).
	named, asked [2]map[string]bool
}

// newLeakCheck replays a finished game's record. seat's notes and requests
// are those of the page seat (the other seat's are empty).
func newLeakCheck(t *testing.T, cfg recon.Config, historyJSON string, ps *pageSeat) *leakCheck {
	t.Helper()
	h, err := recon.UnmarshalHistory([]byte(historyJSON))
	if err != nil {
		t.Fatal(err)
	}
	points, err := recontest.Points(cfg, h)
	if err != nil {
		t.Fatal(err)
	}
	if !points[len(points)-1].Over() {
		t.Fatalf("the record does not end the game: %s", h.Outcome)
	}
	k := &leakCheck{t: t, rng: rand.New(rand.NewPCG(41, 1)), h: h, points: points}
	for c := range 2 {
		k.named[c], k.asked[c] = map[string]bool{}, map[string]bool{}
	}
	k.named[ps.seat], k.asked[ps.seat] = ps.named, ps.asked
	return k
}

// check holds every message against the record and fails the test on the
// first that tells its seat more than it knew.
func (k *leakCheck) check(msgs []seatMessage) {
	k.t.Helper()
	states := 0
	for i, m := range msgs {
		var err error
		switch {
		case m.what == "socket":
			var ok bool
			ok, err = k.checkFrame(m.seat, m.raw)
			if ok {
				states++
			}
		default:
			err = k.checkAPI(m)
		}
		if err != nil {
			k.t.Fatalf("message %d of %d to %s (%s, status %d): %v\n%s", i, len(msgs), m.seat, m.what, m.status, err, m.raw)
		}
	}
	if len(msgs) > 0 && states == 0 && msgs[0].what == "socket" {
		k.t.Fatal("no state frame was checked")
	}
}

// checkFrame checks one socket frame; ok is true for a state frame.
func (k *leakCheck) checkFrame(seat game.Color, raw []byte) (ok bool, err error) {
	var head struct{ Type string }
	if err := json.Unmarshal(raw, &head); err != nil {
		return false, err
	}
	if head.Type != play.ReconMsgState {
		// Errors, notices, redirects: no board in them, ever; an error may
		// quote the seat's own request.
		return false, k.scanFree(seat, raw, nil, k.asked[seat])
	}
	var st play.ReconState
	if err := json.Unmarshal(raw, &st); err != nil {
		return true, err
	}
	if st.Phase == "over" {
		if !k.points[len(k.points)-1].Over() || st.TrueFEN == "" {
			return true, errors.New("an end state before the end, or without the true board")
		}
		return true, nil // everything is told at the end
	}
	if st.TrueFEN != "" || st.HistoryURL != "" || st.ReplayURL != "" {
		return true, errors.New("the true board or the record before the end")
	}
	var errs []error
	for _, p := range recontest.AtSeq(k.points, seat, st.Seq) {
		err := k.stateAgrees(seat, &st, raw, &p)
		if err == nil {
			return true, nil
		}
		errs = append(errs, fmt.Errorf("against %s to %s at seq %d: %w", p.Turn, p.Phase, p.Seq, err))
	}
	if errs == nil {
		return true, fmt.Errorf("no moment of the game has seq %d", st.Seq)
	}
	return true, errors.Join(errs...)
}

// stateAgrees checks a state against what seat knew at p.
func (k *leakCheck) stateAgrees(seat game.Color, st *play.ReconState, raw []byte, p *recontest.Point) error {
	know := &p.Know[seat]
	want := "waiting"
	if p.Over() {
		want = "over"
	} else if p.Turn == seat && p.Phase == recon.PhaseSense {
		want = "sense"
	} else if p.Turn == seat && p.Phase == recon.PhaseMove {
		want = "move"
	}
	notStarted := st.Seq == 0 && st.Phase == "waiting" // an API game before both are ready
	if st.Phase != want && !notStarted {
		return fmt.Errorf("phase %s, want %s", st.Phase, want)
	}
	pieces := map[string]string{}
	for s, pc := range know.Own {
		if pc != game.NoPiece {
			pieces[game.Square(s).String()] = play.PieceCode(pc)
		}
	}
	if !mapsEqual(st.Pieces, pieces) {
		return fmt.Errorf("pieces %v, but the seat knows %v", st.Pieces, pieces)
	}
	var got []string
	for _, a := range st.MoveActions {
		got = append(got, a.UCI)
	}
	slices.Sort(got)
	var acts []string
	if st.Phase == "move" {
		all, err := recontest.MoveActions(p, seat, k.rng)
		if err != nil {
			return err
		}
		for _, a := range all {
			m, _ := recon.ParseMove(a)
			// The page offers a pawn's bare move to the last rank as its
			// promotions only.
			if len(a) == 4 && know.Own[m.From()].Type() == game.Pawn && (m.To().Rank() == 0 || m.To().Rank() == 7) {
				continue
			}
			acts = append(acts, a)
		}
	}
	if !slices.Equal(got, acts) {
		return fmt.Errorf("move actions %v, want %v", got, acts)
	}
	if st.Phase == "sense" {
		last := st.Turns[len(st.Turns)-1]
		if last.OpponentCapture != squareOrEmpty(know.OpponentCapture) {
			return fmt.Errorf("told of a capture on %q, want %q", last.OpponentCapture, squareOrEmpty(know.OpponentCapture))
		}
	}
	for sq := range st.Markers {
		if !k.named[seat][sq] {
			return fmt.Errorf("a note on %s the seat never made", sq)
		}
	}
	return k.scanFree(seat, raw, p, nil)
}

// scanFree checks that every square a message names outside its move
// actions and notes is one the seat was told of by p (by the end of the
// game when p is nil: for frames with no board, such as errors), one of its
// notes, or one in also.
func (k *leakCheck) scanFree(seat game.Color, raw []byte, p *recontest.Point, also map[string]bool) error {
	if p == nil {
		p = &k.points[len(k.points)-1]
		if p.Over() && len(k.points) > 1 {
			p = &k.points[len(k.points)-2]
		}
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	var bad []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k2, v2 := range x {
				if k2 == "moveActions" || k2 == "markers" || k2 == "id" {
					continue
				}
				walk(k2, v2)
			}
		case []any:
			for _, v2 := range x {
				walk(key, v2)
			}
		case string:
			// The range in the parser's words for a malformed move names
			// no piece.
			x = strings.ReplaceAll(x, "a1..h8", "")
			for _, s := range squaresIn(x) {
				if !p.Know[seat].Told[s] && !k.named[seat][s.String()] && !also[s.String()] {
					bad = append(bad, key+":"+s.String())
				}
			}
		}
	}
	walk("", v)
	if bad != nil {
		return fmt.Errorf("names squares the seat was never told of: %v", bad)
	}
	return nil
}

// squaresIn returns the squares a string names when it is a square or a
// move in UCI ("e4", "e7e8q"), or a sentence's words of those forms.
func squaresIn(s string) []game.Square {
	var out []game.Square
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'h' || r >= '1' && r <= '8' || r == 'q' || r == 'r' || r == 'n')
	}) {
		if len(w) == 5 {
			w = w[:4]
		}
		if len(w) != 2 && len(w) != 4 {
			continue
		}
		var sqs []game.Square
		for i := 0; i+1 < len(w); i += 2 {
			if w[i] < 'a' || w[i] > 'h' || w[i+1] < '1' || w[i+1] > '8' {
				sqs = nil
				break
			}
			sqs = append(sqs, game.NewSquare(int(w[i]-'a'), int(w[i+1]-'1')))
		}
		out = append(out, sqs...)
	}
	return out
}

// checkAPI checks one answer of the HTTP API against what its seat knew at
// the moment it was answered.
func (k *leakCheck) checkAPI(m seatMessage) error {
	p := &k.points[m.point]
	var body map[string]json.RawMessage
	if err := json.Unmarshal(m.raw, &body); err != nil {
		return err
	}
	if m.status != http.StatusOK {
		if strings.Contains(string(m.raw), "/") {
			return errors.New("an error that looks like it holds a board")
		}
		return nil
	}
	know := &p.Know[m.seat]
	switch m.what {
	case "move_actions":
		var acts []*typedJSON
		if err := json.Unmarshal(body["move_actions"], &acts); err != nil {
			return err
		}
		var got []string
		for _, a := range acts {
			got = append(got, *a.Value)
		}
		slices.Sort(got)
		var want []string
		if !p.Over() {
			var err error
			if want, err = recontest.MoveActions(p, m.seat, k.rng); err != nil {
				return err
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("move actions %v, want %v", got, want)
		}
	case "opponent_move_results":
		var sq *int
		if err := json.Unmarshal(body["opponent_move_results"], &sq); err != nil {
			return err
		}
		if got := squareOrNone(sq); got != know.OpponentCapture {
			return fmt.Errorf("opponent's capture %s, but the seat was told %s", recon.SquareName(got), recon.SquareName(know.OpponentCapture))
		}
	case "sense":
		var pairs [][2]json.RawMessage
		if err := json.Unmarshal(body["sense_result"], &pairs); err != nil {
			return err
		}
		for _, pair := range pairs {
			var sq int
			if err := json.Unmarshal(pair[0], &sq); err != nil {
				return err
			}
			if m.request == game.NoSquare || !inWindow(m.request, game.Square(sq)) {
				return fmt.Errorf("a sense of %s answers for %s", recon.SquareName(m.request), game.Square(sq))
			}
		}
	case "game_history":
		if !p.Over() {
			return errors.New("the record before the end")
		}
	case "is_my_turn", "game_status":
		var mine bool
		if err := json.Unmarshal(body["is_my_turn"], &mine); err != nil {
			return err
		}
		if want := !p.Over() && p.Turn == m.seat; mine != want {
			return fmt.Errorf("is_my_turn %v, want %v", mine, want)
		}
	}
	return nil
}

func inWindow(center, s game.Square) bool {
	df, dr := center.File()-s.File(), center.Rank()-s.Rank()
	return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// frameLog reads every frame of one socket in its own goroutine and keeps
// them, so that the test can wait for one without a read deadline (which
// would break the connection).
type frameLog struct {
	mu     sync.Mutex
	frames [][]byte
	states []*play.ReconState // frames[i] decoded as a state, or nil
	more   chan struct{}      // signalled (non-blocking) on each frame
	done   chan struct{}      // closed when the socket ends
}

func newFrameLog(w *wsConn) *frameLog {
	l := &frameLog{more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		for {
			_, b, err := w.conn.ReadMessage()
			if err != nil {
				return
			}
			st := decodeState(b)
			l.mu.Lock()
			l.frames = append(l.frames, b)
			l.states = append(l.states, st)
			l.mu.Unlock()
			select {
			case l.more <- struct{}{}:
			default:
			}
		}
	}()
	return l
}

// waitFrom waits for a frame at index from or later that ok accepts (given
// the frame decoded as a state, or nil) and returns its index; the deadline
// only bounds a failing test.
func (l *frameLog) waitFrom(t *testing.T, from int, what string, ok func(*play.ReconState) bool) int {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		l.mu.Lock()
		for i := from; i < len(l.frames); i++ {
			if ok(l.states[i]) {
				l.mu.Unlock()
				return i
			}
		}
		from = len(l.frames)
		l.mu.Unlock()
		select {
		case <-l.more:
		case <-l.done:
			t.Fatalf("the socket closed while waiting for %s", what)
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (l *frameLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.frames)
}

// messages returns the frames so far as seat's messages.
func (l *frameLog) messages(seat game.Color) []seatMessage {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]seatMessage, len(l.frames))
	for i, f := range l.frames {
		out[i] = seatMessage{seat: seat, what: "socket", raw: f, point: -1}
	}
	return out
}

// checkNoRepeats fails when a tab that sends nothing was sent the same
// state twice in a row: a change the seat may not know of must not reach it
// at all, or its arrival would tell the seat when the opponent acted.
func (l *frameLog) checkNoRepeats(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var last []byte
	for i, f := range l.frames {
		if l.states[i] == nil {
			continue
		}
		if bytes.Equal(f, last) {
			t.Fatalf("frame %d repeats the state before it: %s", i, f)
		}
		last = f
	}
}

// decodeState returns the frame as a state, or nil.
func decodeState(b []byte) *play.ReconState {
	var st play.ReconState
	if json.Unmarshal(b, &st) != nil || st.Type != play.ReconMsgState {
		return nil
	}
	return &st
}

// pageSeat drives one seat's socket the way a hostile page might: besides
// its sense and move, stale and out-of-phase messages, notes and syncs,
// each answered (an error, a state) before the next is sent.
type pageSeat struct {
	t    *testing.T
	w    *wsConn
	log  *frameLog
	seat game.Color
	rng  *rand.Rand
	// named are the squares of the seat's notes, asked every square named
	// in what it sent.
	named, asked map[string]bool
	read         int // frames already looked at
}

func newPageSeat(t *testing.T, w *wsConn, seat game.Color, rng *rand.Rand) *pageSeat {
	return &pageSeat{t: t, w: w, log: newFrameLog(w), seat: seat, rng: rng, named: map[string]bool{}, asked: map[string]bool{}}
}

// stateAt waits for the first state not yet looked at with seq at least
// seq that ok accepts, or the end, and returns it.
func (s *pageSeat) stateAt(seq int, ok func(*play.ReconState) bool) *play.ReconState {
	s.t.Helper()
	i := s.log.waitFrom(s.t, s.read, fmt.Sprintf("a state at seq %d", seq), func(st *play.ReconState) bool {
		return st != nil && (st.Phase == "over" || st.Seq >= seq && ok(st))
	})
	s.read = i + 1
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	return s.log.states[i]
}

// send sends one message and waits for the server's answer to reach the
// log: a state or an error, whichever the message brings.
func (s *pageSeat) send(msg string) {
	s.t.Helper()
	for _, sq := range squaresIn(msg) {
		s.asked[sq.String()] = true
	}
	n := s.log.len()
	s.w.send(msg)
	s.log.waitFrom(s.t, n, "an answer to "+msg, func(*play.ReconState) bool { return true })
}

// noise sends a few hostile or harmless messages for st's moment: a stale
// seq, the other phase's action, a note, a sync, garbage.
func (s *pageSeat) noise(st *play.ReconState) {
	for n := s.rng.IntN(3); n > 0; n-- {
		switch s.rng.IntN(6) {
		case 0:
			s.send(fmt.Sprintf(`{"type":"sense","square":"e4","seq":%d}`, st.Seq+1+s.rng.IntN(3)))
		case 1:
			s.send(fmt.Sprintf(`{"type":"move","move":"e2e4","seq":%d}`, st.Seq-1))
		case 2:
			if st.Phase == "move" {
				s.send(fmt.Sprintf(`{"type":"sense","square":"d5","seq":%d}`, st.Seq))
			} else {
				s.send(fmt.Sprintf(`{"type":"move","move":"a2a3","seq":%d}`, st.Seq))
			}
		case 3:
			sq := game.Square(s.rng.IntN(64)).String()
			s.named[sq] = true
			piece := "bN"
			if s.seat == game.Black {
				piece = "wN"
			}
			s.send(fmt.Sprintf(`{"type":"marker","square":"%s","piece":"%s"}`, sq, piece))
		case 4:
			s.send(`{"type":"sync"}`)
		case 5:
			s.send(`{"type":"move","move":"z9z9","seq":` + fmt.Sprint(st.Seq) + `}`)
		}
	}
}

// act takes the seat's step for st: a sense or a move (sometimes a random
// request that may not be a move action).
func (s *pageSeat) act(st *play.ReconState) {
	switch st.Phase {
	case "sense":
		sq := `""`
		if s.rng.IntN(8) > 0 {
			sq = `"` + game.Square(s.rng.IntN(64)).String() + `"`
		}
		s.asked[strings.Trim(sq, `"`)] = true
		s.w.send(fmt.Sprintf(`{"type":"sense","square":%s,"seq":%d}`, sq, st.Seq))
	case "move":
		mv := "pass"
		if n := len(st.MoveActions); n > 0 && s.rng.IntN(10) > 0 {
			mv = st.MoveActions[s.rng.IntN(n)].UCI
		}
		s.w.send(fmt.Sprintf(`{"type":"move","move":"%s","seq":%d}`, mv, st.Seq))
	}
}

// TestNoHiddenPieceInBrowserGames: a person plays the random bot in the
// browser, as White and as Black, with a second tab open; every frame of
// both tabs tells the person only what they were told.
func TestNoHiddenPieceInBrowserGames(t *testing.T) {
	e := newEnv(t, envOpts{messageRate: 1e6, messageBurst: 1e6})
	games := 4
	if testing.Short() {
		games = 2
	}
	for i := range games {
		color := []string{"white", "black"}[i%2]
		seat := game.White
		if color == "black" {
			seat = game.Black
		}
		c := e.browser()
		id := e.newRecon(c, color, "random", "")
		ps := newPageSeat(t, e.mustDial(c, id), seat, rand.New(rand.NewPCG(uint64(i), 41)))
		second := newFrameLog(e.mustDial(c, id))
		stranger := e.browser()
		next := 0
		for {
			st := ps.stateAt(next, func(st *play.ReconState) bool { return st.Phase == "sense" || st.Phase == "move" })
			if st.Phase == "over" {
				break
			}
			if st.Seq == 10 {
				refusedDuringPlay(t, e, c, stranger, "/game/"+id, "/game/"+id+"/history.json", "/game/"+id+"/replay")
				if _, _, err := e.dial(stranger, id); err == nil {
					t.Fatal("a stranger opened the game's socket")
				}
			}
			ps.noise(st)
			ps.act(st)
			next = st.Seq + 1
		}
		rec, err := e.store.Games().GetReconGame(id)
		if err != nil {
			t.Fatal(err)
		}
		k := newLeakCheck(t, reconConfig(rec), rec.History, ps)
		second.waitFrom(t, 0, "the end in the second tab", func(st *play.ReconState) bool { return st != nil && st.Phase == "over" })
		k.check(append(ps.log.messages(seat), second.messages(seat)...))
		second.checkNoRepeats(t)
	}
}

// refusedDuringPlay checks that the owner's record and replay, and every
// page of the game for a stranger, are refused while it is played.
func refusedDuringPlay(t *testing.T, e *testEnv, owner, stranger *http.Client, page string, ownerOnly ...string) {
	t.Helper()
	for _, p := range ownerOnly {
		resp, err := owner.Get(e.ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("the owner's %s during play: %s", p, resp.Status)
		}
	}
	for _, p := range append([]string{page}, ownerOnly...) {
		resp, err := stranger.Get(e.ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a stranger's %s during play: %s", p, resp.Status)
		}
	}
}

// apiSeatDriver plays one seat of an API game by HTTP calls and keeps
// every answer with the moment it was answered at.
type apiSeatDriver struct {
	t    *testing.T
	c    *apiClient
	seat game.Color
	path string
	msgs *[]seatMessage
	at   *int // the game's moment now (index into the replayed points)
}

// call makes one call and keeps its answer; it returns the status.
func (d *apiSeatDriver) call(method, name string, body any, request game.Square) (int, map[string]json.RawMessage) {
	d.t.Helper()
	status, out := d.c.call(method, d.path+name, body)
	raw, _ := json.Marshal(out)
	*d.msgs = append(*d.msgs, seatMessage{seat: d.seat, what: name, status: status, raw: raw, point: *d.at, request: request})
	return status, out
}

// look calls a few of the endpoints that tell the seat something, whether
// or not it is its turn.
func (d *apiSeatDriver) look(rng *rand.Rand) {
	for _, name := range []string{"move_actions", "opponent_move_results", "is_my_turn", "game_status", "sense_actions", "game_history", "seconds_left"} {
		if rng.IntN(5) == 0 {
			d.call("GET", name, nil, game.NoSquare)
		}
	}
}

// TestNoHiddenPieceInAPIGames plays API games between two users: each
// seat's calls (and, for one of them, the page's socket, with a second tab
// watching) come in a random mix with out-of-turn calls and refused
// requests; the person on the page sometimes moves by the page, sometimes
// by HTTP, as the probe of issue 41 did. A stranger's calls and pages,
// and the players' replays, are refused during play.
func TestNoHiddenPieceInAPIGames(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: time.Hour, messageRate: 1e6, messageBurst: 1e6})
	ann := e.apiClient("ann", "ann's password")
	ann.register()
	bob := e.apiClient("bob", "bob's password")
	bob.register()
	carol := e.apiClient("carol", "carol's password")
	carol.register()
	page := e.browser()
	e.signIn(page, "ann", "ann's password")
	strangerPage := e.browser()
	e.signIn(strangerPage, "carol", "carol's password")
	games := 4
	if testing.Short() {
		games = 2
	}
	for i := range games {
		rng := rand.New(rand.NewPCG(uint64(i), 4141))
		annWhite := i%2 == 0
		id := bob.invite("ann", !annWhite)
		var inv []int64
		ann.must("GET", "/api/invitations/", nil, "invitations", &inv)
		if len(inv) == 0 {
			t.Fatal("ann has no invitation")
		}
		ann.must("POST", fmt.Sprintf("/api/invitations/%d", inv[len(inv)-1]), map[string]any{}, "", nil)
		var msgs []seatMessage
		at := 0
		seats := [2]*apiSeatDriver{}
		annSeat := game.Black
		if annWhite {
			annSeat = game.White
		}
		path := fmt.Sprintf("/api/games/%d/", id)
		seats[annSeat] = &apiSeatDriver{t: t, c: ann, seat: annSeat, path: path, msgs: &msgs, at: &at}
		seats[annSeat.Other()] = &apiSeatDriver{t: t, c: bob, seat: annSeat.Other(), path: path, msgs: &msgs, at: &at}
		w, err := e.dialAPI(page, id)
		if err != nil {
			t.Fatal(err)
		}
		ps := newPageSeat(t, w, annSeat, rng)
		w2, err := e.dialAPI(page, id)
		if err != nil {
			t.Fatal(err)
		}
		second := newFrameLog(w2)
		for _, d := range seats {
			if status, out := d.call("POST", "ready", map[string]any{}, game.NoSquare); status != http.StatusOK {
				t.Fatalf("ready: %d %s", status, out["error"])
			}
		}
		over := false
		seq := 0 // senses and moves so far, as states count them
		for turn := 0; !over; turn++ {
			mover := game.White
			if turn%2 == 1 {
				mover = game.Black
			}
			d := seats[mover]
			if turn == 6 {
				outsidersRefused(t, e, page, strangerPage, carol, id)
			}
			for _, s := range seats {
				s.look(rng)
			}
			if mover == annSeat && rng.IntN(2) == 0 {
				// Ann plays this turn on the page.
				st := ps.stateAt(seq, func(st *play.ReconState) bool { return st.Phase == "sense" })
				if st.Phase == "over" {
					t.Fatal("the game ended before ann's turn")
				}
				ps.noise(st)
				ps.act(st)
				st = ps.stateAt(seq+1, func(st *play.ReconState) bool { return st.Phase == "move" })
				at, seq = at+1, seq+1
				seats[annSeat.Other()].look(rng)
				ps.noise(st)
				ps.act(st)
				end := ps.stateAt(seq+1, func(st *play.ReconState) bool { return st.Phase == "waiting" })
				at, seq = at+1, seq+1 // the move
				if end.Phase == "over" {
					over = true
					break
				}
				at++ // and the end of the turn, in the same change
				continue
			}
			// A refused step first, sometimes: the wrong phase, the wrong
			// seat, a bad square.
			switch rng.IntN(4) {
			case 0:
				d.call("POST", "move", map[string]any{"requested_move": nil}, game.NoSquare)
			case 1:
				seats[mover.Other()].call("POST", "sense", map[string]any{"square": 12}, 12)
			case 2:
				d.call("POST", "end_turn", map[string]any{}, game.NoSquare)
			}
			var sq any
			req := game.NoSquare
			if rng.IntN(8) > 0 {
				req = game.Square(rng.IntN(64))
				sq = int(req)
			}
			if status, out := d.call("POST", "sense", map[string]any{"square": sq}, req); status != http.StatusOK {
				t.Fatalf("sense: %d %s", status, out["error"])
			}
			at, seq = at+1, seq+1
			for _, s := range seats {
				s.look(rng)
			}
			var acts []*typedJSON
			_, out := d.call("GET", "move_actions", nil, game.NoSquare)
			_ = json.Unmarshal(out["move_actions"], &acts)
			var mv any
			if len(acts) > 0 && rng.IntN(10) > 0 {
				mv = map[string]string{"type": "Move", "value": *acts[rng.IntN(len(acts))].Value}
			}
			if status, out := d.call("POST", "move", map[string]any{"requested_move": mv}, game.NoSquare); status != http.StatusOK {
				t.Fatalf("move: %d %s", status, out["error"])
			}
			at, seq = at+1, seq+1
			// Between the move and the end of the turn, both seats look.
			for _, s := range seats {
				s.look(rng)
			}
			var isOver bool
			_, out = d.call("GET", "is_over", nil, game.NoSquare)
			_ = json.Unmarshal(out["is_over"], &isOver)
			if status, out := d.call("POST", "end_turn", map[string]any{}, game.NoSquare); status != http.StatusOK {
				t.Fatalf("end_turn: %d %s", status, out["error"])
			}
			if isOver {
				over = true
				break
			}
			at++
		}
		for _, s := range seats {
			s.look(rng)
		}
		rec, err := e.store.API().GetAPIGame(id)
		if err != nil || rec.Status != store.StatusOver {
			t.Fatalf("game %d: %v %v", id, rec.Status, err)
		}
		k := newLeakCheck(t, apiConfig(rec), rec.History, ps)
		if at != len(k.points)-1 {
			t.Fatalf("the test counted %d moments, the record has %d", at+1, len(k.points))
		}
		for _, l := range []*frameLog{ps.log, second} {
			l.waitFrom(t, 0, "the end on the page", func(st *play.ReconState) bool { return st != nil && st.Phase == "over" })
		}
		k.check(msgs)
		k.check(ps.log.messages(annSeat))
		k.check(second.messages(annSeat))
		second.checkNoRepeats(t)
	}
}

// outsidersRefused checks, during play of API game id, that the players'
// replays and records are refused, and that a stranger (another user, on
// the page and by the API, and nobody signed in) gets nothing of the game.
func outsidersRefused(t *testing.T, e *testEnv, player, stranger *http.Client, strangerAPI *apiClient, id int64) {
	t.Helper()
	g := fmt.Sprintf("/bots/games/%d/", id)
	refusedDuringPlay(t, e, player, stranger, g+"play", g+"history.json", g+"replay")
	for _, c := range []*http.Client{e.browser(), stranger} {
		if _, err := e.dialAPI(c, id); err == nil {
			t.Fatal("a stranger opened the game's socket")
		}
	}
	for _, name := range []string{"move_actions", "opponent_move_results", "game_history", "sense_actions", "game_status"} {
		if status, out := strangerAPI.call("GET", fmt.Sprintf("/api/games/%d/%s", id, name), nil); status != http.StatusUnauthorized {
			t.Fatalf("a stranger's %s: %d %v", name, status, out)
		}
	}
	resp, err := e.browser().Get(e.ts.URL + "/bots")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.Contains(string(body), g+"replay") || strings.Contains(string(body), g+"history.json") {
		t.Fatal("/bots links the record of a game in play")
	}
}

// TestNoHiddenPieceInAPIGamesAgainstBots: a person plays the built-in bots
// of the API on the page (the bot's steps commit as the table's own
// changes), with a second tab open.
func TestNoHiddenPieceInAPIGamesAgainstBots(t *testing.T) {
	e := newEnv(t, envOpts{rbcClock: time.Hour, messageRate: 1e6, messageBurst: 1e6})
	ann := e.apiClient("ann", "ann's password")
	ann.register()
	page := e.browser()
	e.signIn(page, "ann", "ann's password")
	for i, color := range []string{"white", "black"} {
		seat := game.White
		if color == "black" {
			seat = game.Black
		}
		resp, err := page.PostForm(e.ts.URL+"/bots/invite", map[string][]string{"opponent": {"random"}, "color": {color}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		var id int64
		if _, err := fmt.Sscanf(resp.Header.Get("Location"), "/bots/games/%d/play", &id); err != nil {
			t.Fatalf("invite: %s %q", resp.Status, resp.Header.Get("Location"))
		}
		w, err := e.dialAPI(page, id)
		if err != nil {
			t.Fatal(err)
		}
		ps := newPageSeat(t, w, seat, rand.New(rand.NewPCG(uint64(i), 7)))
		w2, err := e.dialAPI(page, id)
		if err != nil {
			t.Fatal(err)
		}
		second := newFrameLog(w2)
		next := 0
		for {
			st := ps.stateAt(next, func(st *play.ReconState) bool { return st.Phase == "sense" || st.Phase == "move" })
			if st.Phase == "over" {
				break
			}
			ps.noise(st)
			ps.act(st)
			next = st.Seq + 1
		}
		rec, err := e.store.API().GetAPIGame(id)
		if err != nil {
			t.Fatal(err)
		}
		k := newLeakCheck(t, apiConfig(rec), rec.History, ps)
		second.waitFrom(t, 0, "the end in the second tab", func(st *play.ReconState) bool { return st != nil && st.Phase == "over" })
		k.check(ps.log.messages(seat))
		k.check(second.messages(seat))
		second.checkNoRepeats(t)
	}
}

// squareOrEmpty names s as the state does: "" for no square.
func squareOrEmpty(s game.Square) string {
	if s == game.NoSquare {
		return ""
	}
	return s.String()
}

// reconConfig is the arbiter configuration of a stored browser game: its
// clock and the reference's 100-half-move draw.
func reconConfig(rec *store.ReconGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}

// apiConfig is the arbiter configuration of a stored API game.
func apiConfig(rec *store.APIGame) recon.Config {
	return recon.Config{
		Clock:     time.Duration(rec.ClockInitialMS) * time.Millisecond,
		Increment: time.Duration(rec.ClockIncrementMS) * time.Millisecond,
		MoveLimit: 100,
	}
}
