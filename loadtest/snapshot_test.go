package loadtest

import (
	"path/filepath"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/recon"
	"knightwatch/store"
)

// checkGames, on a copy of a live database (the server's store still
// open, so the latest commits are only in the write-ahead log), finds a
// lost move, an invented one and an unreadable game, and nothing in games
// that match what their players saw.
func TestCheckGamesOnADatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kw.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	chess := func(moves string) string {
		g := &store.Game{Owner: "o", Variant: "standard", StartFEN: game.StartFEN, Human: store.ColorOf(game.White), Level: 1}
		if err := st.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		g.Moves = moves
		if err := st.Games().SaveGame(g); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	h := reconHistory(t)
	rg := &store.ReconGame{Owner: "o", Human: store.ColorOf(game.White), Opponent: "random"}
	if err := st.Games().CreateReconGame(rg); err != nil {
		t.Fatal(err)
	}
	rg.History = string(recon.MarshalHistory(h))
	if err := st.Games().SaveReconGame(rg); err != nil {
		t.Fatal(err)
	}
	kept, short, long, broken := chess("e2e4 e7e5"), chess("e2e4"), chess("e2e4 e7e5 g1f3"), chess("e2e4 e2e4")
	seen := func(id string, moves ...string) chessSeen {
		return chessSeen{ID: id, Human: "white", Moves: moves, HumanToMove: true}
	}
	cs := []chessSeen{seen(kept, "e2e4", "e7e5"), seen(short, "e2e4", "e7e5"), seen(long, "e2e4", "e7e5"), seen(broken, "e2e4")}
	rs := []reconSeen{{ID: rg.ID, Human: "white", Seq: 5, Senses: []string{"e7", "d7"}, Moves: []string{"e2e4"}}}

	db, err := readSnapshot(path, filepath.Join(dir, "check"))
	if err != nil {
		t.Fatal(err)
	}
	res := checkGames(db, cs, rs)
	if res.chessGames != 4 || res.reconGames != 1 {
		t.Errorf("read %d chess and %d recon games, want 4 and 1", res.chessGames, res.reconGames)
	}
	want := map[string]string{short: "lost", long: "duplicated", broken: "unreadable"}
	for _, p := range res.problems {
		found := false
		for id, word := range want {
			if strings.Contains(p, id) && strings.Contains(p, word) {
				delete(want, id)
				found = true
			}
		}
		if !found {
			t.Errorf("unexpected problem: %s", p)
		}
	}
	for id, word := range want {
		t.Errorf("game %s: no problem saying %q among %q", id, word, res.problems)
	}

	// The recon game's acknowledged sense, lost: found too.
	rs[0].Senses = append(rs[0].Senses, "a1")
	rs[0].Seq = 6
	found := 0
	for _, p := range checkGames(db, nil, rs).problems {
		if strings.Contains(p, rg.ID) && strings.Contains(p, "lost") {
			found++
		}
	}
	if found != 1 {
		t.Errorf("a lost recon sense: %d problems saying so", found)
	}
}
