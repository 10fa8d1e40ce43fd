package store

import (
	"slices"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// reconRecord is the history of a Reconnaissance Chess game after each
// side's actions in turn: "s" a sense, "m" a move (e2e4 / e7e5 / d2d4 ...),
// "e" the end of the turn.
func reconRecord(t *testing.T, steps string) string {
	t.Helper()
	if steps == "" {
		return ""
	}
	g := recon.NewGame(recon.Config{MoveLimit: 100}, "You", "Bot")
	g.Start()
	moves := []string{"e2e4", "e7e5", "d2d4"}
	for _, st := range steps {
		var err error
		switch st {
		case 's':
			_, err = g.Sense(game.NoSquare)
		case 'm':
			m, _ := recon.ParseMove(moves[0])
			moves = moves[1:]
			_, err = g.Move(m)
		case 'e':
			err = g.EndTurn()
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return string(recon.MarshalHistory(g.History()))
}

// Untouched games are those still played in which their player never
// acted; a move or a sense of the engine's or the bot's does not count.
func TestUntouchedGames(t *testing.T) { onBoth(t, testUntouchedGames) }

func testUntouchedGames(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	now := time.Now()
	old, recent := now.Add(-48*time.Hour), now.Add(-time.Hour)
	const blackToMove = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	chess := []struct {
		name      string
		human     game.Color
		fen       string
		moves     string
		status    Status
		created   time.Time
		untouched bool
	}{
		{"no move", game.White, "", "", StatusPlaying, old, true},
		{"the engine's first move", game.Black, "", "e2e4", StatusPlaying, old, true},
		{"the engine's first move from a position", game.White, blackToMove, "e7e5", StatusPlaying, old, true},
		{"the person's first move", game.White, "", "e2e4", StatusPlaying, old, false},
		{"the person's first move from a position", game.Black, blackToMove, "e7e5", StatusPlaying, old, false},
		{"the person's move after the engine's", game.Black, "", "e2e4 e7e5", StatusPlaying, old, false},
		{"created an hour ago", game.White, "", "", StatusPlaying, recent, false},
		{"resigned at once", game.White, "", "", StatusOver, old, false},
		{"deleted from the list", game.White, "", "", StatusDeleted, old, false},
	}
	reconGames := []struct {
		name      string
		human     game.Color
		steps     string
		status    Status
		created   time.Time
		untouched bool
	}{
		{"no action", game.White, "", StatusPlaying, old, true},
		{"the bot's first turn", game.Black, "sme", StatusPlaying, old, true},
		{"the person's sense", game.White, "s", StatusPlaying, old, false},
		{"the person's sense after the bot's turn", game.Black, "smes", StatusPlaying, old, false},
		{"created an hour ago", game.White, "", StatusPlaying, recent, false},
		{"over", game.White, "", StatusOver, old, false},
		// Never written so; left alone, and the statement does not fail.
		{"an unreadable record", game.White, "{", StatusPlaying, old, false},
	}
	want := map[string]string{} // id: case, for the untouched ones
	names := map[string]string{}
	setCreated := func(model any, id string, at time.Time) {
		if err := s.db.Model(model).Where("id = ?", id).Update("created_at", at).Error; err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range chess {
		fen := c.fen
		if fen == "" {
			fen = game.StartFEN
		}
		g := &Game{Owner: "o", Variant: "standard", StartFEN: fen, Human: ColorOf(c.human), Level: 1, Moves: c.moves, Status: c.status}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		setCreated(&Game{}, g.ID, c.created)
		names[g.ID] = "chess: " + c.name
		if c.untouched {
			want[g.ID] = names[g.ID]
		}
	}
	for _, c := range reconGames {
		history := c.steps
		if history != "{" {
			history = reconRecord(t, c.steps)
		}
		g := &ReconGame{Owner: "o", Human: ColorOf(c.human), Opponent: "random", History: history, Status: c.status}
		if err := s.Games().CreateReconGame(g); err != nil {
			t.Fatal(err)
		}
		setCreated(&ReconGame{}, g.ID, c.created)
		names[g.ID] = "recon: " + c.name
		if c.untouched {
			want[g.ID] = names[g.ID]
		}
	}
	before := now.Add(-24 * time.Hour)
	// Two at a time, to go through the pages.
	var got []string
	for after := ""; ; {
		page, err := s.Games().UntouchedGames(before, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		got = append(got, page...)
		after = page[len(page)-1]
	}
	for _, id := range got {
		if _, ok := want[id]; !ok {
			t.Errorf("listed as untouched: %s", names[id])
		}
	}
	for id, name := range want {
		if !slices.Contains(got, id) {
			t.Errorf("not listed as untouched: %s", name)
		}
	}
	all := make([]string, 0, len(names))
	for id := range names {
		all = append(all, id)
	}
	n, err := s.Games().DropUntouchedGames(all, before)
	if err != nil || n != int64(len(want)) {
		t.Errorf("dropped %d (%v), want %d", n, err, len(want))
	}
	for id, name := range names {
		_, gerr := s.Games().GetGame(id)
		_, rerr := s.Games().GetReconGame(id)
		exists := gerr == nil || rerr == nil
		if _, untouched := want[id]; exists == untouched {
			t.Errorf("%s: still there %v after the drop", name, exists)
		}
	}
}
