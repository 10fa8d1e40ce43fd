package live

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"knightwatch/game"
)

func newToyHost(t *testing.T, g *toyGame, autos [2]Automaton, always bool) *Host {
	t.Helper()
	h := NewHost(Config{ID: "toy", Always: always, SaveRetryFirst: time.Millisecond, SaveRetryMax: 4 * time.Millisecond,
		Logf: t.Logf}, g, autos)
	t.Cleanup(h.Close)
	return h
}

func has(sub string) func(string) bool {
	return func(m string) bool { return strings.Contains(m, sub) }
}

// TestActCommitsThenTells: a player's change is committed before anybody
// hears of it; a refused or unsaved change leaves the game as it was and
// tells nobody; each viewer gets its own view, and nothing when its view
// did not change.
func TestActCommitsThenTells(t *testing.T) {
	st := &toyStore{}
	g := newToy(st, 10, 0)
	h := newToyHost(t, g, [2]Automaton{}, false)
	white, black, spec := newSub(WhiteViewer), newSub(BlackViewer), newSub(Spectator)
	for _, s := range []*toySub{white, black, spec} {
		if err := h.Join(s); err != nil {
			t.Fatal(err)
		}
	}
	add := func(c game.Color, n int) error {
		return h.Act(func(now time.Time) error { return g.add(c, n, now) })
	}
	tests := []struct {
		name     string
		do       func() error
		want     error
		total    int
		commits  int
		wantSent [3]int // messages each of white, black, spectator has by then
	}{
		{"joined: the state once each", func() error { return nil }, nil, 0, 0, [3]int{1, 1, 1}},
		{"white adds 3", func() error { return add(game.White, 3) }, nil, 3, 1, [3]int{2, 2, 2}},
		{"refused: not white's turn", func() error { return add(game.White, 1) }, errors.New("not your turn"), 3, 1, [3]int{2, 2, 2}},
		{"refused: not a positive number", func() error { return add(game.Black, 0) }, errors.New("add a positive number"), 3, 1, [3]int{2, 2, 2}},
		{"unsaved: the disk is full", func() error { st.setFail(true); defer st.setFail(false); return add(game.Black, 5) }, ErrUnsaved, 3, 1, [3]int{2, 2, 2}},
		{"black adds 5", func() error { return add(game.Black, 5) }, nil, 8, 2, [3]int{3, 3, 3}},
	}
	for _, tc := range tests {
		err := tc.do()
		if (err == nil) != (tc.want == nil) || err != nil && err.Error() != tc.want.Error() {
			t.Fatalf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if g.total != tc.total || len(st.saved) != tc.commits {
			t.Fatalf("%s: total %d after %d commits, want %d after %d", tc.name, g.total, len(st.saved), tc.total, tc.commits)
		}
		for i, s := range []*toySub{white, black, spec} {
			if n := len(s.messages()); n != tc.wantSent[i] {
				t.Fatalf("%s: subscriber %d has %d messages, want %d: %q", tc.name, i, n, tc.wantSent[i], s.messages())
			}
		}
	}
	if m := spec.messages(); !strings.Contains(m[len(m)-1], "total -1") {
		t.Errorf("the spectator saw the total: %q", m)
	}
	if m := white.messages(); !strings.Contains(m[len(m)-1], "total 8") {
		t.Errorf("white's last state: %q", m)
	}
}

// TestAutomatonPlaysItsTurn: the automaton plays when it is its turn, off
// the lock; a player's change that overtakes its turn withdraws it, and
// its step is refused.
func TestAutomatonPlaysItsTurn(t *testing.T) {
	st := &toyStore{}
	g := newToy(st, 10, 0)
	bot := newBot(game.Black, true)
	h := newToyHost(t, g, [2]Automaton{nil, bot}, false)
	white := newSub(WhiteViewer)
	if err := h.Join(white); err != nil {
		t.Fatal(err)
	}
	var moved time.Time
	if err := h.Act(func(now time.Time) error { moved = now; return g.add(game.White, 2, now) }); err != nil {
		t.Fatal(err)
	}
	turn := <-bot.started
	// The bot's natural pause counts from White's move, whenever its
	// goroutine gets going.
	if !turn.Since().Equal(moved) {
		t.Errorf("the turn began at %v, want the moment of White's move, %v", turn.Since(), moved)
	}
	white.waitFor(t, "thinking", has("ply 1 total 2 result \"\" saving false thinking true"))
	bot.go_ <- struct{}{}
	if !<-bot.steps {
		t.Fatal("the bot's step was refused")
	}
	white.waitFor(t, "the bot's move", has("ply 2 total 3 result \"\" saving false thinking false"))
	if turn.Color() != game.Black {
		t.Errorf("turn of %s", turn.Color())
	}

	// White moves, the bot thinks, and White's second change (a ply the
	// bot did not think about: here, the game is made to move on under it)
	// withdraws its turn.
	if err := h.Act(func(now time.Time) error { return g.add(game.White, 1, now) }); err != nil {
		t.Fatal(err)
	}
	turn = <-bot.started
	if err := h.Act(func(now time.Time) error { g.ply += 2; return nil }); err != nil { // a take-back, say
		t.Fatal(err)
	}
	<-turn.Context().Done()
	if <-bot.steps {
		t.Fatal("a withdrawn turn's step was applied")
	}
}

// TestStepSavedLater: an automaton's step whose commit the database
// refuses is kept and saved later, the clock standing still meanwhile;
// every subscriber is told both times.
func TestStepSavedLater(t *testing.T) {
	st := &toyStore{commits: make(chan toyRecord, 64)}
	g := newToy(st, 10, time.Hour)
	bot := newBot(game.Black, true)
	h := newToyHost(t, g, [2]Automaton{nil, bot}, false)
	white := newSub(WhiteViewer)
	if err := h.Join(white); err != nil {
		t.Fatal(err)
	}
	if err := h.Act(func(now time.Time) error { return g.add(game.White, 2, now) }); err != nil {
		t.Fatal(err)
	}
	<-st.commits
	<-bot.started
	st.setFail(true)
	bot.go_ <- struct{}{}
	<-st.commits // refused
	white.waitFor(t, "the notice", has("notice 0"))
	white.waitFor(t, "saving", has("saving true thinking true"))
	var left time.Duration
	h.Read(func(g Game, m Moment) {
		if _, running := g.Clock().Running(); running {
			t.Error("the clock runs while the step waits to be saved")
		}
		left = g.Clock().Remaining(game.Black, m.Now)
	})
	for range 3 { // three more refusals, backing off
		<-st.commits
	}
	st.setFail(false)
	if !<-bot.steps {
		t.Fatal("the step was not saved")
	}
	white.waitFor(t, "saved again", has("notice 2"))
	white.waitFor(t, "the bot's move", has("ply 2 total 3 result \"\" saving false thinking false"))
	h.Read(func(g Game, m Moment) {
		if got := g.Clock().Remaining(game.Black, m.Now); got != left {
			t.Errorf("black was charged for the wait: %v, then %v", left, got)
		}
		if side, running := g.Clock().Running(); !running || side != game.White {
			t.Errorf("white's clock does not run after the bot's move")
		}
	})
}

// TestFlag ends a game on time (the time is what is tested, so the clock
// is short and real); a change after it is refused with ErrTimeUp, and an
// end the database refuses is kept and saved later, refusing changes
// meanwhile.
func TestFlag(t *testing.T) {
	for _, failFirst := range []bool{false, true} {
		st := &toyStore{commits: make(chan toyRecord, 64)}
		g := newToy(st, 10, 30*time.Millisecond)
		h := newToyHost(t, g, [2]Automaton{}, false)
		white := newSub(WhiteViewer)
		st.setFail(failFirst)
		if err := h.Join(white); err != nil { // White's clock starts
			t.Fatal(err)
		}
		if failFirst {
			<-st.commits // the flag's end, refused
			white.waitFor(t, "the notice", has("notice 1"))
			if err := h.Act(func(now time.Time) error { return g.add(game.White, 1, now) }); !errors.Is(err, ErrEndUnsaved) {
				t.Fatalf("a move while the end waits: %v", err)
			}
			st.setFail(false)
		}
		white.waitFor(t, "the end on time", has(`result "time"`))
		if err := h.Act(func(now time.Time) error { return g.add(game.White, 1, now) }); err == nil {
			t.Fatal("a move after the flag fell")
		}
		if rec := st.last(); rec.result != "time" || rec.left[game.White] > 0 {
			t.Errorf("committed %+v", rec)
		}
	}
}

// TestClockStopsWhileNobodyPlays: the clock of a game played in person
// stands still while no player has it open (a spectator does not count)
// and the automaton does not think; a game on the server's clock goes on.
func TestClockStopsWhileNobodyPlays(t *testing.T) {
	for _, always := range []bool{false, true} {
		st := &toyStore{}
		g := newToy(st, 10, time.Hour)
		bot := newBot(game.Black, true)
		h := newToyHost(t, g, [2]Automaton{nil, bot}, always)
		white, spec := newSub(WhiteViewer), newSub(Spectator)
		h.Join(white)
		h.Join(spec)
		if err := h.Act(func(now time.Time) error { return g.add(game.White, 1, now) }); err != nil {
			t.Fatal(err)
		}
		turn := <-bot.started
		h.Leave(white)
		h.Read(func(g Game, m Moment) {
			if _, running := g.Clock().Running(); running == !always {
				t.Errorf("always %v: the clock runs %v with only a spectator", always, running)
			}
		})
		select {
		case <-turn.Context().Done():
			if always {
				t.Error("a game on the server's clock withdrew the bot's turn")
			}
		default:
			if !always {
				t.Error("the bot's turn goes on with nobody playing")
			}
		}
		if !always && st.last().left != g.clock.Left() {
			t.Errorf("the stopped clock was not committed: %+v, %v", st.last(), g.clock.Left())
		}
	}
}

// TestRegistryOneHostPerGame: many subscribers joining at once share one
// host, loaded once; the last one out closes it, its clock committed; a
// subscriber coming as it closes gets a host loaded after that commit.
func TestRegistryOneHostPerGame(t *testing.T) {
	st := &toyStore{}
	var mu sync.Mutex
	loads := 0
	var g *toyGame
	r := NewRegistry()
	r.Kind("", func(id string) (*Host, error) {
		mu.Lock()
		defer mu.Unlock()
		loads++
		g = newToy(st, 10, time.Hour)
		if len(st.saved) > 0 {
			rec := st.last()
			g.total, g.ply = rec.total, rec.ply
		}
		return NewHost(Config{ID: id, Logf: t.Logf}, g, [2]Automaton{}), nil
	})
	subs := make([]*toySub, 20)
	hosts := make([]*Host, 20)
	var wg sync.WaitGroup
	for i := range subs {
		subs[i] = newSub(WhiteViewer)
		wg.Add(1)
		go func() {
			defer wg.Done()
			h, err := r.Join("g1", subs[i])
			if err != nil {
				t.Error(err)
			}
			hosts[i] = h
		}()
	}
	wg.Wait()
	for _, h := range hosts {
		if h != hosts[0] {
			t.Fatal("two hosts for one game")
		}
	}
	if loads != 1 {
		t.Fatalf("%d loads", loads)
	}
	h := hosts[0]
	if err := h.Act(func(now time.Time) error { return g.add(game.White, 4, now) }); err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		r.Leave(h, s)
	}
	if !h.Closed() || r.Get("g1") != nil {
		t.Fatal("the last one out did not close the host")
	}
	h2, err := r.Join("g1", newSub(BlackViewer))
	if err != nil {
		t.Fatal(err)
	}
	if h2 == h || loads != 2 {
		t.Fatalf("a closed host served again (loads %d)", loads)
	}
	h2.Read(func(g Game, m Moment) {
		if g.Ply() != 1 {
			t.Errorf("loaded at ply %d, want 1", g.Ply())
		}
	})
	for _, s := range r.Close() {
		_ = s
	}
	if _, err := r.Join("g1", newSub(WhiteViewer)); !errors.Is(err, ErrStopped) {
		t.Fatalf("join after Close: %v", err)
	}
}

// TestAlwaysHostRetires: a game on the server's clock plays between two
// automata with nobody watching, and once it ends its host closes and
// leaves the registry.
func TestAlwaysHostRetires(t *testing.T) {
	st := &toyStore{}
	g := newToy(st, 6, time.Hour)
	w, b := newBot(game.White, false), newBot(game.Black, false)
	r := NewRegistry()
	h := NewHost(Config{ID: "api", Always: true, Logf: t.Logf, Context: context.Background()}, g, [2]Automaton{w, b})
	if err := r.Keep(h); err != nil {
		t.Fatal(err)
	}
	<-w.closed
	<-b.closed
	if !h.Closed() || r.Get("api") != nil {
		t.Fatal("the host of a finished game stays")
	}
	if rec := st.last(); rec.result != "done" || rec.ply != 6 {
		t.Fatalf("committed %+v", rec)
	}
}

// TestClockStartCommitted: a clock a player's arrival starts is committed
// running at once, so that a crash before the next change still charges
// the mover from then; the clock stopping as the last player leaves is
// committed too.
func TestClockStartCommitted(t *testing.T) {
	st := &toyStore{}
	g := newToy(st, 10, time.Minute)
	h := newToyHost(t, g, [2]Automaton{}, false)
	white := newSub(WhiteViewer)
	before := time.Now()
	if err := h.Join(white); err != nil {
		t.Fatal(err)
	}
	if len(st.saved) != 1 || st.last().since.Before(before) {
		t.Fatalf("after the join: %d commits, last %+v", len(st.saved), st.saved)
	}
	h.Leave(white)
	if len(st.saved) != 2 || !st.last().since.IsZero() {
		t.Fatalf("after the leave: %d commits, last %+v", len(st.saved), st.last())
	}
}

// TestRegistryKinds: a game is loaded by the loader of the longest prefix
// of its ID; an ID no kind has is refused with ErrNoKind.
func TestRegistryKinds(t *testing.T) {
	st := &toyStore{}
	var loaded []string
	loader := func(name string) func(string) (*Host, error) {
		return func(id string) (*Host, error) {
			loaded = append(loaded, name+" "+id)
			return NewHost(Config{ID: id, Logf: t.Logf}, newToy(st, 10, time.Hour), [2]Automaton{}), nil
		}
	}
	r := NewRegistry()
	r.Kind("g_", loader("chess"))
	r.Kind("r_", loader("recon"))
	r.Kind("r_x", loader("longer"))
	for _, id := range []string{"g_1", "r_1", "r_x1"} {
		h, err := r.Open(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		h.Close()
	}
	if want := []string{"chess g_1", "recon r_1", "longer r_x1"}; !slices.Equal(loaded, want) {
		t.Errorf("loaded %q, want %q", loaded, want)
	}
	if _, err := r.Open("api_1"); !errors.Is(err, ErrNoKind) {
		t.Errorf("an ID of no kind: %v, want ErrNoKind", err)
	}
}
