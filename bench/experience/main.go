// Command experience measures what the engine's experience
// (docs/experience.md) does against a player who repeats a winning line:
//
//	go run ./bench/experience -levels 1,3,5 -seeds 4 -replays 3
//
// For each level, seed and colour, a strong player (full strength to depth
// 7) plays a game against the level, whose random choices are seeded afresh
// each game, so that the same moves get the same replies. When the strong
// player wins, that winning line is replayed: the player repeats its moves
// for as long as the engine repeats its replies, and plays on at full
// strength once the engine leaves the line. Each replay is played twice,
// without experience and with the experience of the games before it (learnt
// as the web server learns: experience.GameLessons into a store, read back
// as experience.MoveRecords before each engine move). It prints, per level
// and mode, how many replays repeated the line to its end, where the engine
// left it (plies before the line's end) and the engine's score in the
// replays. Everything is bounded by depth, so a run gives the same figures
// on any machine.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"knightwatch/engine"
	"knightwatch/experience"
	"knightwatch/game"
	"knightwatch/store"
)

func main() {
	levels := flag.String("levels", "1,3,5", "levels played against, comma-separated (1-7)")
	seeds := flag.Int("seeds", 4, "seeds per level and colour")
	replays := flag.Int("replays", 3, "replays of each winning line")
	flag.Parse()
	var ls []int
	for _, f := range strings.Split(*levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 7 {
			fmt.Fprintf(os.Stderr, "-levels: %q is not a level from 1 to 7\n", f)
			os.Exit(2)
		}
		ls = append(ls, n)
	}
	dir, err := os.MkdirTemp("", "kw-experience-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	fmt.Printf("%-6s %-4s %6s %9s %15s %22s %14s\n", "level", "mode", "lines", "replays", "line won again", "left it (plies to end)", "engine score")
	for _, level := range ls {
		var tallies [2]tally
		lines := 0
		for seed := 1; seed <= *seeds; seed++ {
			for _, human := range []game.Color{game.White, game.Black} {
				line, ok := winningLine(level, uint64(seed), human)
				if !ok {
					continue
				}
				lines++
				for mode := range 2 {
					path := filepath.Join(dir, fmt.Sprintf("l%d-s%d-%v-%d.db", level, seed, human, mode))
					if err := replay(&tallies[mode], path, level, uint64(seed), human, line, *replays, mode == 1); err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
				}
			}
		}
		for mode, name := range []string{"off", "on"} {
			t := tallies[mode]
			fmt.Printf("%-6d %-4s %6d %9d %15s %22s %14s\n", level, name, lines, t.replays,
				fmt.Sprintf("%d (%.0f%%)", t.repeated, pct(t.repeated, t.replays)), t.left(), fmt.Sprintf("%.1f%%", pct2(t.points, t.replays)))
		}
	}
	fmt.Printf("(%s)\n", time.Since(start).Round(time.Second))
}

// tally sums up one mode's replays.
type tally struct {
	replays, repeated int
	points            float64 // the engine's: 1 a win, 1/2 a draw
	leftAt            []int   // plies before the line's end where the engine left it
}

func (t tally) left() string {
	if len(t.leftAt) == 0 {
		return "-"
	}
	s := append([]int(nil), t.leftAt...)
	sort.Ints(s)
	return fmt.Sprintf("%d times, median %d", len(s), s[len(s)/2])
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func pct2(a float64, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * a / float64(b)
}

// player picks a move for the side to move of g.
type player func(g *game.Game) game.Move

// seededLevel is the engine at level as the web game runs it (one thread,
// the opening book), its random choices seeded with seed at each game's
// start, with a minute per move (its level's depth ends every search
// long before), given the experience read by recs before each move.
func seededLevel(level int, seed uint64, recs func(pos *game.Position) []engine.MoveRecord) player {
	e := engine.New(engine.Options{HashMB: 16, Threads: 1, OwnBook: true, Level: level})
	e.SetSeed(seed)
	return func(g *game.Game) game.Move {
		pos := g.PositionAt(g.Len())
		lim := engine.Limits{MoveTime: time.Minute}
		if recs != nil {
			lim.Experience = recs(pos)
		}
		return e.Search(context.Background(), pos, g.HashHistory(), lim, nil).Move
	}
}

// strong is the player who finds the winning lines.
func strong() player {
	e := engine.New(engine.Options{HashMB: 16, Level: 8})
	return func(g *game.Game) game.Move {
		return e.Search(context.Background(), g.PositionAt(g.Len()), g.HashHistory(), engine.Limits{Depth: 7}, nil).Move
	}
}

// play plays a game from the start between human (the colour human) and
// the engine, at most 300 plies.
func play(human game.Color, person, eng player) *game.Game {
	g := game.NewGame()
	for g.Len() < 300 {
		if o := g.OutcomeWithClaims(); o.Over() {
			g.SetOutcome(o)
			break
		}
		mover := eng
		if g.PositionAt(g.Len()).Side() == human {
			mover = person
		}
		if err := g.Play(mover(g)); err != nil {
			panic(err) // the engine always returns a legal move
		}
	}
	return g
}

// winningLine is the strong player's game against the level, when the
// strong player wins it.
func winningLine(level int, seed uint64, human game.Color) ([]string, bool) {
	g := play(human, strong(), seededLevel(level, seed, nil))
	if w, ok := g.Outcome().Winner(); !ok || w != human {
		return nil, false
	}
	return g.UCIMoves(), true
}

// replay replays line n times against the level, with experience when
// learnt (learnt into the store at path from the line's game and from
// each replay), adding the replays to t.
func replay(t *tally, path string, level int, seed uint64, human game.Color, line []string, n int, learnt bool) error {
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	learn := func(g *game.Game) error {
		rec := &store.Game{ID: store.NewID(), Variant: store.VariantStandard, StartFEN: game.StartFEN, Status: store.StatusOver,
			Result: string(g.Outcome().Result), Reason: store.TerminationOf(g.Outcome().Termination)}
		rec.SetMoveList(g.UCIMoves())
		lessons, err := experience.GameLessons(rec)
		if err != nil {
			return err
		}
		_, err = st.Learning().RecordGame(rec.ID, lessons)
		return err
	}
	var recs func(*game.Position) []engine.MoveRecord
	if learnt {
		first := game.NewGame()
		for _, u := range line {
			if _, err := first.PlayMove(u); err != nil {
				return err
			}
		}
		first.SetOutcome(first.OutcomeWithClaims())
		if err := learn(first); err != nil {
			return err
		}
		recs = func(pos *game.Position) []engine.MoveRecord {
			rows, err := st.Learning().ExperienceFor(pos.Hash())
			if err != nil {
				panic(err)
			}
			return experience.MoveRecords(pos, rows)
		}
	}
	full := strong()
	for k := 0; k < n; k++ {
		onLine := true
		person := func(g *game.Game) game.Move {
			moves := g.UCIMoves()
			if onLine && len(moves) < len(line) && strings.Join(moves, " ") == strings.Join(line[:len(moves)], " ") {
				m, _ := g.PositionAt(g.Len()).ParseUCI(line[len(moves)])
				return m
			}
			if onLine {
				onLine = false
				t.leftAt = append(t.leftAt, len(line)-(len(moves)-1))
			}
			return full(g)
		}
		g := play(human, person, seededLevel(level, seed, recs))
		t.replays++
		if onLine && strings.Join(g.UCIMoves(), " ") == strings.Join(line, " ") {
			t.repeated++
		}
		switch w, ok := g.Outcome().Winner(); {
		case !ok && g.Outcome().Over():
			t.points += 0.5
		case ok && w != human:
			t.points++
		}
		if learnt {
			if err := learn(g); err != nil {
				return err
			}
		}
	}
	return nil
}
