package play

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/live"
	"knightwatch/recon"
	"knightwatch/store"
)

// The socket handlers under fuzzing: each input is a few lines, each line
// one message from a tab, handed to a live game exactly as a Seat hands a
// decoded message (DecodeMessage, DecodeReconMessage). After every
// message the host must hold what the database holds, and what the
// database holds must load; nothing may panic. The engine (firstSearcher)
// and the bot (random) answer meanwhile, as in play.

// fuzzMaxMessages bounds the messages of one input.
const fuzzMaxMessages = 24

// fuzzGames are the games for the fuzz targets, with their own database;
// they close when the fuzz target ends.
func fuzzGames(f *testing.F) (*Games, *store.Store) {
	st, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	gs, _ := newTestGames(f, st)
	return gs, st
}

// fuzzJoin opens game id in a tab of the person (testTab), which leaves
// when the test ends.
func fuzzJoin(t *testing.T, gs *Games, id string, human store.Color) *Seat {
	t.Helper()
	tab := newTestTab(live.PlayerOf(human.Color))
	s, err := gs.Join(id, tab)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gs.reg.Leave(s.Host(), tab)
		close(tab.done)
	})
	return s
}

// fuzzLines splits an input into its messages.
func fuzzLines(data []byte) [][]byte {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > fuzzMaxMessages {
		lines = lines[:fuzzMaxMessages]
	}
	return lines
}

var fuzzOwners atomic.Int64

func FuzzChessRoom(f *testing.F) {
	for _, s := range []string{
		"{\"type\":\"move\",\"move\":\"e2e4\",\"ply\":0}\n{\"type\":\"move\",\"move\":\"d2d4\",\"ply\":2}\n{\"type\":\"takeback\",\"ply\":4}",
		"{\"type\":\"move\",\"move\":\"Nf3\",\"ply\":0}\n{\"type\":\"draw\",\"ply\":2}\n{\"type\":\"resign\",\"ply\":2}\n{\"type\":\"rematch\"}",
		"{\"type\":\"move\",\"move\":\"e2e5\",\"ply\":0}\n{\"type\":\"move\",\"move\":\"e7e5\",\"ply\":0}\n{\"type\":\"move\",\"move\":\"e2e4\",\"ply\":7}",
		"{\"type\":\"takeback\",\"ply\":0}\n{\"type\":\"sync\"}\n{\"type\":\"draw\",\"ply\":0}\n{\"type\":\"draw\",\"ply\":0}",
		"{\"type\":\"move\",\"move\":\"e2e4\",\"ply\":0}\n{\"type\":\"takeback\",\"ply\":1}\n{\"type\":\"move\",\"move\":\"a2a4\",\"ply\":0}",
		"{\"type\":\"resign\",\"ply\":0}\n{\"type\":\"move\",\"move\":\"e2e4\",\"ply\":0}\n{\"type\":\"takeback\",\"ply\":0}",
	} {
		f.Add(byte(0), []byte(s))
		f.Add(byte(1), []byte(s))
	}
	gs, st := fuzzGames(f)
	f.Fuzz(func(t *testing.T, setup byte, data []byte) {
		rec := &store.Game{Owner: fmt.Sprintf("fuzz%d", fuzzOwners.Add(1)), Variant: store.VariantStandard, StartFEN: game.StartFEN, Human: store.White, Level: 1}
		if setup&1 == 1 { // a clock, a fast one
			rec.ClockInitialMS, rec.ClockIncrementMS = 60000, 1000
			rec.WhiteMS, rec.BlackMS = 60000, 60000
		}
		if setup&2 == 2 {
			rec.Human = store.Black
		}
		if err := st.Games().CreateGame(rec); err != nil {
			t.Fatal(err)
		}
		s := fuzzJoin(t, gs, rec.ID, rec.Human)
		for _, line := range fuzzLines(data) {
			m, perr := DecodeMessage(line)
			if perr != nil {
				continue
			}
			gs.chessMessage(s, s.chess, m)
			checkChessHost(t, s.Host(), st)
		}
	})
}

// checkChessHost: the host's record and game are what the database holds,
// and the stored game loads.
func checkChessHost(t *testing.T, h *live.Host, st *store.Store) {
	t.Helper()
	h.Read(func(lg live.Game, _ live.Moment) {
		r := lg.(*chessGame)
		db, err := st.Games().GetGame(r.rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if db.Moves != r.rec.Moves || db.Status != r.rec.Status || db.Result != r.rec.Result || db.WhiteMS != r.rec.WhiteMS || db.BlackMS != r.rec.BlackMS {
			t.Fatalf("host %+v, database %+v", r.rec, db)
		}
		g, _, err := buildGame(db)
		if err != nil {
			t.Fatalf("the stored game does not load: %v", err)
		}
		if got, want := g.PositionAt(g.Len()).FEN(), r.pos().FEN(); got != want {
			t.Fatalf("stored position %s, the host's %s", got, want)
		}
	})
}

func FuzzReconRoom(f *testing.F) {
	for _, s := range []string{
		"{\"type\":\"sense\",\"square\":\"e7\",\"seq\":0}\n{\"type\":\"move\",\"move\":\"e2e4\",\"seq\":1}\n{\"type\":\"sync\"}",
		"{\"type\":\"sense\",\"square\":\"\",\"seq\":0}\n{\"type\":\"move\",\"move\":\"pass\",\"seq\":1}\n{\"type\":\"resign\"}",
		"{\"type\":\"marker\",\"square\":\"e5\",\"piece\":\"bN\"}\n{\"type\":\"marker\",\"square\":\"e5\",\"piece\":\"\"}\n{\"type\":\"rematch\"}",
		"{\"type\":\"move\",\"move\":\"e2e4\",\"seq\":0}\n{\"type\":\"sense\",\"square\":\"z9\",\"seq\":0}\n{\"type\":\"sense\",\"square\":\"a1\",\"seq\":5}",
		"{\"type\":\"sense\",\"square\":\"d5\",\"seq\":0}\n{\"type\":\"move\",\"move\":\"e7e8q\",\"seq\":1}\n{\"type\":\"move\",\"move\":\"a2a4\",\"seq\":1}",
	} {
		f.Add(byte(0), []byte(s))
		f.Add(byte(2), []byte(s))
	}
	gs, st := fuzzGames(f)
	f.Fuzz(func(t *testing.T, setup byte, data []byte) {
		rec := &store.ReconGame{Owner: fmt.Sprintf("fuzz%d", fuzzOwners.Add(1)), Human: store.White, Opponent: "random", Seed: uint64(setup)}
		if setup&1 == 1 {
			rec.ClockInitialMS, rec.ClockIncrementMS = 60000, 1000
			rec.WhiteMS, rec.BlackMS = 60000, 60000
		}
		if setup&2 == 2 {
			rec.Human = store.Black
		}
		if err := st.Games().CreateReconGame(rec); err != nil {
			t.Fatal(err)
		}
		s := fuzzJoin(t, gs, rec.ID, rec.Human)
		for _, line := range fuzzLines(data) {
			m, perr := DecodeReconMessage(line)
			if perr != nil {
				continue
			}
			gs.reconMessage(s, s.recon, m)
			checkReconHost(t, gs, s.Host(), st)
		}
		// The bot's turn, if it is one, ends before the game closes.
		select {
		case <-s.Host().Settled():
		case <-time.After(5 * time.Second):
		}
		checkReconHost(t, gs, s.Host(), st)
	})
}

// checkReconHost: the host's record is the database's, its arbiter's
// history is the stored one, and the stored game loads.
func checkReconHost(t *testing.T, gs *Games, h *live.Host, st *store.Store) {
	t.Helper()
	var r *reconGame
	h.Read(func(g live.Game, _ live.Moment) {
		r = g.(*reconGame)
		db, err := st.Games().GetReconGame(r.rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if db.History != r.rec.History || db.Status != r.rec.Status || db.Markers != r.rec.Markers {
			t.Fatalf("host %+v, database %+v", r.rec, db)
		}
		if h := string(recon.MarshalHistory(r.Arbiter.History())); db.History != "" && h != db.History {
			t.Fatalf("the arbiter's history differs from the stored one:\n%s\n%s", h, db.History)
		}
		if (db.Status == store.StatusOver) != r.Arbiter.IsOver() {
			t.Fatalf("stored status %s, the arbiter over: %v", db.Status, r.Arbiter.IsOver())
		}
		_, bot, err := gs.newReconGame(db, true)
		if err != nil && !strings.Contains(err.Error(), "bot") {
			t.Fatalf("the stored game does not load: %v", err)
		}
		if bot != nil {
			bot.Close()
		}
	})
}
