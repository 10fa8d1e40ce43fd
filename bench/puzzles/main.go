// Command puzzles measures the puzzle generator (package training): how
// many puzzles it finds in recorded games, and how much engine time that
// takes. Games are read from a PGN (by default the level-1 vs Stockfish
// 1350 match of bench/results, games with blunders in them), stored as
// finished games in a temporary database, reviewed by the real reviewer
// (200,000 nodes a position), then searched for puzzles on a pool of one
// searcher, so that engine time is wall time. With -tries it also
// compares two ways of judging a move tried in "learn from your
// mistakes" (tries.go).
//
//	go run ./bench/puzzles [-pgn FILE.pgn.gz] [-games 20] [-tries 20]
//	(or bash bench/puzzles.sh)
package main

import (
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/training"
)

func main() {
	pgn := flag.String("pgn", "bench/results/level1-vs-sf1350-10s-100games.pgn.gz", "games to search (PGN, gzipped or not)")
	n := flag.Int("games", 20, "how many of its games")
	tries := flag.Int("tries", 0, "also compare two ways of judging a move tried in learn from your mistakes, at this many mistakes (0: not)")
	flag.Parse()
	if err := run(*pgn, *n, *tries); err != nil {
		fmt.Fprintln(os.Stderr, "puzzles:", err)
		os.Exit(1)
	}
}

func readGames(path string, n int) ([]*game.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = z
	}
	pr := game.NewPGNReader(r)
	var out []*game.Game
	for len(out) < n {
		pg, err := pr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			continue
		}
		g, err := pg.Mainline()
		if err == nil && g.Len() > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

func run(path string, n, tries int) error {
	games, err := readGames(path, n)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "kw-puzzles-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(filepath.Join(dir, "kw.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	pool, err := enginepool.New(enginepool.Config{Searchers: 1})
	if err != nil {
		return err
	}
	defer pool.Close()
	var mu sync.Mutex
	pending := map[string]bool{}
	allDone := make(chan struct{})
	for i, g := range games {
		rec := &store.Game{Owner: fmt.Sprintf("%032x", i), Variant: store.VariantStandard, StartFEN: g.StartPosition().FEN(),
			Human: store.ColorOf(game.White), Level: 1, Status: store.StatusOver, Result: "*"}
		rec.SetMoveList(g.UCIMoves())
		now := time.Now()
		rec.FinishedAt = &now
		if err := st.Games().CreateGame(rec); err != nil {
			return err
		}
		pending[rec.ID] = true
	}
	start := time.Now()
	rv, err := review.New(review.Options{Store: st, Engine: pool, Workers: 1, Logger: log.New(io.Discard, "", 0), Reviewed: func(id string) {
		mu.Lock()
		defer mu.Unlock()
		if pending[id] {
			delete(pending, id)
			if len(pending) == 0 {
				close(allDone)
			}
		}
	}})
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(pending))
	for id := range pending {
		ids = append(ids, id)
	}
	for _, id := range ids {
		rec, _ := st.Games().GetGame(id)
		rv.Finished(rec.ID, rec.Owner)
	}
	<-allDone
	rv.Close()
	reviewTook := time.Since(start)

	var puzzles, searches int
	var took time.Duration
	var lines []string
	for _, id := range ids {
		rec, err := st.Games().GetGame(id)
		if err != nil {
			return err
		}
		_, plies, err := st.Reviews().GameAnalysis(id)
		if err != nil {
			return err
		}
		g, err := rec.Replay()
		if err != nil {
			return err
		}
		t0 := time.Now()
		found, s, _ := training.Find(context.Background(), pool, training.FindOptions{}, rec, g, plies)
		took += time.Since(t0)
		puzzles += len(found)
		searches += s
		for _, p := range found {
			lines = append(lines, fmt.Sprintf("  %s (after %s) %s%s", p.FEN, p.LastMove, p.Line, map[bool]string{true: " mate"}[p.Mate]))
		}
	}
	fmt.Printf("games: %d from %s (reviewed in %v on one searcher)\n", len(ids), path, reviewTook.Round(time.Second))
	fmt.Printf("puzzle search: %d searches in %v of one searcher: %d puzzles, %.1f per engine-minute, %.1f per game\n",
		searches, took.Round(100*time.Millisecond), puzzles, float64(puzzles)/took.Minutes(), float64(puzzles)/float64(len(ids)))
	for _, l := range lines {
		fmt.Println(l)
	}
	if tries > 0 {
		return measureTries(st, ids, tries, 4, review.DefaultNodes)
	}
	return nil
}
