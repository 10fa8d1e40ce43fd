package attack

import (
	"runtime"
	"testing"
	"time"
)

// floodGames is how many games each of the flood's browsers plays, each
// with a socket open.
const floodGames = 4

// floodOwners is how many browsers flood: 8 (32 sockets, as in issue 35),
// or one per core on a larger machine, so that the flood always queues
// far more searches than the server has searchers (one per core).
func floodOwners() int { return max(8, runtime.NumCPU()) }

// 32 sockets keep full-strength (level-8, 3 s) searches queued: each plays
// a random legal move as soon as the engine has replied. Three other
// players in turn each get their level-1 reply ahead of the flood's queue
// and without waiting for any of the flood's searches to end: the pool's
// quick lane (enginepool/pool.go) serves it while the flood holds every
// regular searcher. So while a reply waits only the flood's searches
// already running when it asked can end, by chance, each at most once (the
// next takes 3 s): at most one per searcher, a reply in flight as it asks
// included. Before the quick lane the reply waited for one of them to end,
// and twice that was allowed; before engine time was shared between owners
// the queue was first come first served, and the reply waited for the 30
// searches queued before it (issue 35). A count cannot tell the quick lane
// from the pool before it for sure (a running search may end by chance
// while the reply is made): enginepool's TestPoolQuick* prove the order.
// How long the reply takes under the flood is measured by
// bench/starvation.sh, not asserted here.
func TestEngineStarvationSearches(t *testing.T) {
	s := startServer(t, manyGamesFromOneAddr(t)...)
	f, err := StartSearchFlood(s.URL(), floodOwners(), floodGames, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	// Every first move in, and the engine searching or queued on it.
	if err := f.Wait(time.Minute, func() bool { return f.Acked() == int64(f.Sockets()) }); err != nil {
		t.Fatalf("%v: %d of %d first moves taken", err, f.Acked(), f.Sockets())
	}
	searchers := int64(runtime.NumCPU())
	for i := range 3 { // three players, one after another
		_, atSend, atReply, err := Reply(s.URL(), 1, 3*time.Minute, f.Replies)
		if err != nil {
			t.Fatal(err)
		}
		n := atReply - atSend
		t.Logf("reply %d: flood replies while it waited: %d (searchers: %d, flood sockets: %d)", i+1, n, searchers, f.Sockets())
		if n > searchers {
			t.Errorf("reply %d: %d of the flood's searches ended while another player's level-1 reply waited; at most %d (one per searcher) may", i+1, n, searchers)
		}
	}
}

// 32 sockets offer draws in a loop, from a position past move 30, where an
// offer needs an evaluation. Before, every offer was a 400 ms
// full-strength search (and one accepted at move 1 started a new game to
// offer again). Now each socket's first offer gets one short evaluation
// and an answer in words, every later one "You offered a draw recently",
// and another player's level-1 reply is served.
func TestEngineStarvationDrawOffers(t *testing.T) {
	s := startServer(t, manyGamesFromOneAddr(t)...)
	f, err := StartDrawFlood(s.URL(), floodOwners(), floodGames, 8, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	// The flood under way: every socket has had an answer.
	if err := f.Wait(time.Minute, func() bool { return f.DrawVerdicts()+f.DrawsTooSoon() >= int64(f.Sockets()) }); err != nil {
		t.Fatalf("%v: %d verdicts, %d refused as too soon", err, f.DrawVerdicts(), f.DrawsTooSoon())
	}
	if _, _, _, err := Reply(s.URL(), 1, 3*time.Minute, nil); err != nil {
		t.Fatal(err)
	}
	// Every socket's first offer weighed: more would be one too many.
	if err := f.Wait(time.Minute, func() bool { return f.DrawVerdicts() >= int64(f.Sockets()) }); err != nil {
		t.Fatalf("%v: %d verdicts for %d sockets", err, f.DrawVerdicts(), f.Sockets())
	}
	f.Stop()
	t.Logf("draw verdicts %d, \"offered recently\" %d, from %d sockets", f.DrawVerdicts(), f.DrawsTooSoon(), f.Sockets())
	if v := f.DrawVerdicts(); v > int64(f.Sockets()) {
		t.Errorf("%d draw offers were evaluated; at most one per socket (%d) may be", v, f.Sockets())
	}
	if f.DrawsTooSoon() == 0 {
		t.Error("no offer was refused as too soon")
	}
}
