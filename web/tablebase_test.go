package web

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"

	"strings"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/play"
	"knightwatch/syzygy"
)

// newTablebaseEnv is newEnv's server (fake engine) on a pool given
// SyzygyPath.
func newTablebaseEnv(t *testing.T, path string) *testEnv {
	t.Helper()
	return newEnv(t, envOpts{syzygyPath: path})
}

// getTablebase GETs /game/{id}/tablebase as c; entries only on 200.
func (e *testEnv) getTablebase(c *http.Client, id string) (int, []TablebaseEntry) {
	e.t.Helper()
	resp, err := c.Get(e.ts.URL + "/game/" + id + "/tablebase")
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Errorf("Content-Type %q", ct)
	}
	var out []TablebaseEntry
	if err := json.Unmarshal(body, &out); err != nil || out == nil {
		e.t.Fatalf("body %q: %v", body, err)
	}
	return resp.StatusCode, out
}

// playAndResign starts a game from fen as White, plays move (the fake
// engine answers) unless empty, and resigns; it returns the final state.
func (e *testEnv) playAndResign(c *http.Client, id, move string) *play.StateMessage {
	e.t.Helper()
	w := e.mustDial(c, id)
	w.state()
	ply := 0
	if move != "" {
		w.send(`{"type":"move","move":"` + move + `","ply":0}`)
		w.stateAt(2)
		ply = 2
	}
	if code, _ := e.getTablebase(c, id); code != http.StatusConflict {
		e.t.Errorf("unfinished game: status %d, want 409", code)
	}
	w.send(`{"type":"resign","ply":` + strconv.Itoa(ply) + `}`)
	return w.waitFor("over", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
}

// TestTablebaseEndpoint: the owner of a finished KQvK game gets the
// prober's WDL and DTZ for every position; an unfinished game is refused
// (409), another visitor gets 404 (so does a deleted game), positions
// outside the tables (castling rights, too many pieces) give an empty list.
func TestTablebaseEndpoint(t *testing.T) {
	const tables = "../syzygy/testdata"
	e := newTablebaseEnv(t, tables)
	alice, bob := e.browser(), e.browser()
	const start = "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"
	f := form("white", "1", "standard", "none")
	f.Set("fen", start)
	id := e.newGame(alice, f)
	final := e.playAndResign(alice, id, "a1a7")
	if final.Ply != 2 || final.Result != "0-1" {
		t.Fatalf("final state: ply %d result %s", final.Ply, final.Result)
	}

	code, got := e.getTablebase(alice, id)
	if code != http.StatusOK {
		t.Fatalf("owner: status %d", code)
	}
	tb, err := syzygy.Open(tables)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	fens := []string{final.StartFEN}
	for _, m := range final.Moves {
		fens = append(fens, m.FEN)
	}
	if len(got) != len(fens) {
		t.Fatalf("got %d entries %+v, want one for each of the %d positions", len(got), got, len(fens))
	}
	for ply, fen := range fens {
		p, err := game.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		wdl, err := tb.ProbeWDL(p)
		if err != nil {
			t.Fatal(err)
		}
		dtz, err := tb.ProbeDTZ(p)
		if err != nil {
			t.Fatal(err)
		}
		g := got[ply]
		if g.Ply != ply || g.WDL == nil || g.DTZ == nil || *g.WDL != int(wdl) || *g.DTZ != dtz || g.DTM != nil || g.Mate != "" {
			t.Errorf("ply %d (%s): got %s, want wdl %d dtz %d and no DTM", ply, fen, entryString(g), wdl, dtz)
		}
	}
	if *got[0].WDL != 2 || *got[0].DTZ <= 0 {
		t.Errorf("KQvK, White to move: %s, want a win", entryString(got[0]))
	}

	if code, _ := e.getTablebase(bob, id); code != http.StatusNotFound {
		t.Errorf("another visitor: status %d, want 404", code)
	}
	if code, _ := e.getTablebase(alice, "g_nosuchgame"); code != http.StatusNotFound {
		t.Errorf("missing game: status %d, want 404", code)
	}

	// A deleted game is gone, as for its PGN.
	id3 := e.newGame(alice, f)
	if code, _ := e.postList(alice, id3, "delete", ""); code != http.StatusSeeOther {
		t.Fatalf("delete: status %d", code)
	}
	if code, _ := e.getTablebase(alice, id3); code != http.StatusNotFound {
		t.Errorf("deleted game: status %d, want 404", code)
	}

	// The normal start: castling rights and 32 pieces, nothing to say.
	id2 := e.newGame(alice, form("white", "1", "standard", "none"))
	e.playAndResign(alice, id2, "e2e4")
	if code, got := e.getTablebase(alice, id2); code != http.StatusOK || len(got) != 0 {
		t.Errorf("game outside the tables: status %d, %+v; want 200 and []", code, got)
	}
}

// entryString shows an entry's values, absent ones as "-".
func entryString(e TablebaseEntry) string {
	s := "ply " + strconv.Itoa(e.Ply)
	for _, f := range []struct {
		name string
		v    *int
	}{{"wdl", e.WDL}, {"dtz", e.DTZ}, {"dtm", e.DTM}} {
		if f.v == nil {
			s += " " + f.name + " -"
		} else {
			s += " " + f.name + " " + strconv.Itoa(*f.v)
		}
	}
	return s + " mate " + strconv.Quote(e.Mate)
}

// TestTablebaseEndpointGaviota: with Gaviota tables beside the Syzygy
// ones, each position of a finished KQK game also gets the prober's DTM
// and its words ("White mates in N"); with Gaviota's alone, the Syzygy
// values are absent; a 4-piece position Gaviota does not hold has none.
func TestTablebaseEndpointGaviota(t *testing.T) {
	gtb, err := gaviota.Open(gaviota.DebianPath)
	if err != nil || len(gtb.Tables()) == 0 {
		t.Fatalf("Gaviota tables: %v (scripts/deps.sh installs Debian's gaviotatb)", err)
	}
	defer gtb.Close()
	for _, syz := range []string{"../syzygy/testdata", ""} {
		e := newEnv(t, envOpts{syzygyPath: syz, gaviotaPath: gaviota.DebianPath})
		alice := e.browser()
		f := form("white", "1", "standard", "none")
		f.Set("fen", "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1")
		id := e.newGame(alice, f)
		final := e.playAndResign(alice, id, "a1a7")
		code, got := e.getTablebase(alice, id)
		fens := []string{final.StartFEN}
		for _, m := range final.Moves {
			fens = append(fens, m.FEN)
		}
		if code != http.StatusOK || len(got) != len(fens) {
			t.Fatalf("syzygy %q: status %d, %d entries, want %d", syz, code, len(got), len(fens))
		}
		for ply, fen := range fens {
			p, err := game.ParseFEN(fen)
			if err != nil {
				t.Fatal(err)
			}
			wdl, dtm, err := gtb.Probe(p)
			if err != nil {
				t.Fatal(err)
			}
			g := got[ply]
			if g.DTM == nil || *g.DTM != dtm || g.Mate != gaviota.MateWords(p.Side(), wdl, dtm) || (g.WDL != nil) != (syz != "") {
				t.Errorf("syzygy %q, ply %d (%s): got %s, want dtm %d", syz, ply, fen, entryString(g), dtm)
			}
		}
		if !strings.HasPrefix(got[0].Mate, "White mates in ") {
			t.Errorf("KQK, White to move: %q", got[0].Mate)
		}
		f.Set("fen", "8/8/8/3k4/8/8/8/QR2K3 w - - 0 1")
		id4 := e.newGame(alice, f)
		e.playAndResign(alice, id4, "")
		code, got = e.getTablebase(alice, id4)
		if code != http.StatusOK || syz != "" && (len(got) != 1 || got[0].DTM != nil || got[0].WDL == nil) || syz == "" && len(got) != 0 {
			t.Errorf("syzygy %q, 4 pieces: status %d, %+v", syz, code, got)
		}
	}
}

// TestTablebaseEndpointNoTables: without SyzygyPath the route answers an
// empty list, even for a finished game the tables would cover; still 404
// for another visitor and 409 for an unfinished game.
func TestTablebaseEndpointNoTables(t *testing.T) {
	e := newTablebaseEnv(t, "")
	alice, bob := e.browser(), e.browser()
	f := form("white", "1", "standard", "none")
	f.Set("fen", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1")
	id := e.newGame(alice, f)
	e.playAndResign(alice, id, "a1a7")
	if code, got := e.getTablebase(alice, id); code != http.StatusOK || len(got) != 0 {
		t.Errorf("no tables: status %d, %+v; want 200 and []", code, got)
	}
	if code, _ := e.getTablebase(bob, id); code != http.StatusNotFound {
		t.Errorf("another visitor: status %d, want 404", code)
	}
}
