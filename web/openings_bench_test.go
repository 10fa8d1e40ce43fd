package web

import (
	"compress/gzip"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"knightwatch/game"
	"knightwatch/play"
	"knightwatch/store"
)

// benchGames are n finished games of 40 moves as the store holds them: the
// first n games of at least 80 plies of a level-ladder match (engine games
// from 42 balanced openings, bench/results), cut at ply 80.
func benchGames(tb testing.TB, n int) []store.Game {
	tb.Helper()
	f, err := os.Open("../bench/results/level4-vs-level3-10s-200games.pgn.gz")
	if err != nil {
		tb.Skip(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	pgs, err := game.ReadPGN(zr)
	if err != nil {
		tb.Fatal(err)
	}
	var out []store.Game
	for _, pg := range pgs {
		if len(out) == n {
			break
		}
		g, err := pg.Mainline()
		if err != nil || g.Len() < 80 {
			continue
		}
		moves := g.Moves()
		uci := make([]string, 80)
		for i := range uci {
			uci[i] = g.PositionAt(i).UCI(moves[i])
		}
		finished := time.Now().Add(-time.Duration(len(out)) * time.Minute)
		out = append(out, store.Game{ID: fmt.Sprintf("g_bench%02d", len(out)), Owner: "bench", Variant: VariantStandard,
			StartFEN: game.StartFEN, Moves: strings.Join(uci, " "), Human: store.White, Level: 3,
			Status: store.StatusOver, Result: "1-0", Reason: store.Termination{Termination: game.Resignation}, FinishedAt: &finished})
	}
	if len(out) < n {
		tb.Fatalf("%d games of 80 plies, want %d", len(out), n)
	}
	return out
}

// BenchmarkHomeOpenings is what naming the openings of a full list of
// finished games (finishedListSize, 40 moves each) costs a home page load.
// "replay" names them by replaying each game, as every load did before the
// name was stored with the game, and as the first list that shows an older
// game still does, once; "homeData" is all the page's data from a real
// store (the query, the summaries with their names, the levels), the names
// stored as the games ended (or by the first load, which the timing leaves
// out).
func BenchmarkHomeOpenings(b *testing.B) {
	games := benchGames(b, finishedListSize)
	b.Run("replay", func(b *testing.B) {
		for b.Loop() {
			for i := range games {
				g := games[i]
				g.Opening = nil
				if play.OpeningName(&g) == "" {
					b.Fatalf("game %d has no opening", i)
				}
			}
		}
	})
	b.Run("homeData", func(b *testing.B) {
		srv := realHomeServer(b)
		for i := range games {
			g := games[i]
			if err := srv.store.Games().CreateGame(&g); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := srv.home.homeData("bench", ""); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			d, err := srv.home.homeData("bench", "")
			if err != nil {
				b.Fatal(err)
			}
			if len(d.Finished) != len(games) || d.Finished[0].Opening == "" {
				b.Fatalf("%d finished games, the first named %q", len(d.Finished), d.Finished[0].Opening)
			}
		}
	})
}
