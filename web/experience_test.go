package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"knightwatch/engine"
	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/play"
)

// seededEngine is the real engine made reproducible: the seed of its
// random choices (book moves, the levels' choice among near-best moves)
// is set again at the start of every game, and every search has a minute,
// far more than its level's depth needs, so that no choice depends on the
// machine's speed or load. Two games in which the person plays the same
// moves are then the same game, unless the engine learnt something.
type seededEngine struct {
	enginepool.Searcher // the pool's adapter of e
	e                   *engine.Engine
	seed                uint64
}

func newSeededEngine(seed uint64) *seededEngine {
	e := engine.New(engine.Options{HashMB: 16, Threads: 1, OwnBook: true})
	return &seededEngine{Searcher: enginepool.EngineSearcher(e), e: e, seed: seed}
}

func (s *seededEngine) NewGame() {
	s.Searcher.NewGame()
	s.e.SetSeed(s.seed)
}

func (s *seededEngine) Search(ctx context.Context, pos *game.Position, history []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	req.MoveTime = time.Minute
	return s.Searcher.Search(ctx, pos, history, req)
}

// strongPlayer is the person of the tests: full strength to a fixed
// depth, so that it beats the low levels and plays the same moves in the
// same positions.
type strongPlayer struct{ e *engine.Engine }

func newStrongPlayer() *strongPlayer {
	return &strongPlayer{e: engine.New(engine.Options{HashMB: 16, Level: 8})}
}

func (p *strongPlayer) move(g *game.Game) string {
	pos := g.PositionAt(g.Len())
	r := p.e.Search(context.Background(), pos, g.HashHistory(), engine.Limits{Depth: 7}, nil)
	return pos.UCI(r.Move)
}

// playedGame is one game played over the WebSocket.
type playedGame struct {
	id    string
	moves []string // UCI
	last  *play.StateMessage
}

// playAgainstEngine plays a whole game as the person of colour human
// against the engine at level, over the WebSocket. At each of the
// person's turns next gets the game so far and returns the move to play,
// or "" to resign.
func (e *testEnv) playAgainstEngine(c *http.Client, human string, level int, next func(g *game.Game) string) playedGame {
	e.t.Helper()
	id := e.newGame(c, form(human, fmt.Sprint(level), "standard", "none"))
	w := e.mustDial(c, id)
	s := w.state()
	for s.Status != "over" {
		if s.Turn != human || s.Thinking {
			ply := s.Ply
			s = w.waitFor("the engine's move", func(m anyMsg) bool {
				return m.Type == "state" && (m.state.Ply > ply || m.state.Status == "over")
			}).state
			continue
		}
		g := game.NewGame()
		for _, u := range s.Moves {
			if _, err := g.PlayMove(u.UCI); err != nil {
				e.t.Fatal(err)
			}
		}
		mv := next(g)
		if mv == "" {
			w.send(fmt.Sprintf(`{"type":"resign","ply":%d}`, s.Ply))
			s = w.waitFor("the end", func(m anyMsg) bool { return m.Type == "state" && m.state.Status == "over" }).state
			break
		}
		w.send(fmt.Sprintf(`{"type":"move","move":%q,"ply":%d}`, mv, s.Ply))
		ply := s.Ply
		s = w.waitFor("my move", func(m anyMsg) bool { return m.Type == "state" && m.state.Ply > ply }).state
	}
	pg := playedGame{id: id, last: s}
	for _, m := range s.Moves {
		pg.moves = append(pg.moves, m.UCI)
	}
	return pg
}

// waitLearnt waits until the learner has learnt from n games.
func (e *testEnv) waitLearnt(n int64) {
	e.t.Helper()
	e.until(fmt.Sprintf("the learner to learn from %d games", n), func() bool {
		st, err := e.store.Learning().ExperienceSummary()
		if err != nil {
			e.t.Fatal(err)
		}
		return st.Games >= n
	})
}

// TestEngineLearnsFromLostLine is the test: the person plays the
// same winning line against the engine several times, through the real
// room, store and engine; the engine deviates from the line before it
// wins again, and says so on the move. With the experience off, the
// engine repeats the line every time, which shows that the test measures
// the experience and nothing else.
func TestEngineLearnsFromLostLine(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games with the real engine")
	}
	const games = 4 // the line is played up to this many times
	cases := []struct {
		level      int
		seed       uint64
		human      string
		experience bool
	}{
		{1, 3, "white", true},
		{1, 3, "white", false},
		{3, 2, "black", true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("level=%d/%s/experience=%v", c.level, c.human, c.experience), func(t *testing.T) {
			// One seeded engine serves every search, one at a time.
			e := newEnv(t, envOpts{searcher: newSeededEngine(c.seed), searchers: 1, quickSearchers: -1, experience: c.experience})
			b := e.browser()
			strong := newStrongPlayer()
			first := e.playAgainstEngine(b, c.human, c.level, strong.move)
			win := map[string]string{"white": "1-0", "black": "0-1"}[c.human]
			if first.last.Result != win || first.last.Reason != "checkmate" {
				t.Fatalf("game 1: the line did not win: %s %s after %v", first.last.Result, first.last.Reason, first.moves)
			}
			line := first.moves
			t.Logf("the winning line, %d plies: %s", len(line), strings.Join(line, " "))
			engineParity := map[string]int{"white": 1, "black": 0}[c.human]
			lastEngine := len(line) - 2 // the engine's last move before the mate
			deviated := false
			for k := 2; k <= games && !deviated; k++ {
				if c.experience {
					e.waitLearnt(int64(k - 1))
				}
				g := e.playAgainstEngine(b, c.human, c.level, func(g *game.Game) string {
					moves := g.UCIMoves()
					if len(moves) >= len(line) || !slices.Equal(moves, line[:len(moves)]) {
						return "" // the engine left the line: resign
					}
					return line[len(moves)]
				})
				d := firstDifference(g.moves, line)
				if d < 0 {
					if g.last.Result != win || g.last.Reason != "checkmate" {
						t.Fatalf("game %d: the same moves, another end: %s %s", k, g.last.Result, g.last.Reason)
					}
					t.Logf("game %d: the line won again", k)
					continue
				}
				if !c.experience {
					t.Fatalf("game %d: without experience the engine left the line at ply %d (%s for %s): the test's engine is not reproducible",
						k, d, g.moves[d], line[d])
				}
				if d%2 != engineParity || d > lastEngine {
					t.Fatalf("game %d: the line changed at ply %d, not at an engine move up to ply %d", k, d, lastEngine)
				}
				mark := g.last.Moves[d].Experience
				t.Logf("game %d: the engine played %s instead of %s at ply %d of %d: %q", k, g.moves[d], line[d], d, len(line), mark)
				if k > 3 {
					t.Errorf("the engine repeated the lost line until game %d", k)
				}
				if !strings.HasPrefix(mark, "Chosen from experience: ") || !strings.Contains(mark, "lost 1 of 1 earlier game here") {
					t.Errorf("game %d: the deviating move %s carries no experience mark: %+v", k, g.moves[d], g.last.Moves[d])
				}
				deviated = true
			}
			if c.experience && !deviated {
				t.Fatalf("the engine repeated the lost line in all %d games", games)
			}
		})
	}
}

// firstDifference is the first ply at which a and b differ (the shorter
// one ending counts), or -1 when they are equal.
func firstDifference(a, b []string) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}
