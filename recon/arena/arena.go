// Package arena plays Reconnaissance Chess bots against each other: many
// games, colours alternating, several at once, every history saved, the
// results tallied. It is what the rbc-match subcommand runs.
package arena

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/match"
	"knightwatch/recon"
	"knightwatch/recon/bots"
)

// Config describes a match between two bots.
type Config struct {
	// First and Second are bot specs (see bots.New). First plays White in
	// games 1, 3, 5, ... and Black in the others.
	First, Second string
	Games         int
	// FirstGame is the number of the match's first game (0 means 1): the
	// games are FirstGame to FirstGame+Games-1. A game's colours and seeds
	// follow from its number, so a stopped match goes on where it stopped
	// and plays the very games the whole match would have.
	FirstGame int
	// Game sets clocks and limits for every game.
	Game recon.Config
	// Seed makes the bots' random choices reproducible: game n's bots get
	// seeds derived from Seed and n.
	Seed uint64
	// OutDir, when set, receives every game's history as JSON.
	OutDir string
	// Concurrency is how many games run at once (at least 1).
	Concurrency int
}

// GameResult is one finished game.
type GameResult struct {
	Number       int    // 1-based
	White, Black string // the specs as given
	Outcome      recon.Outcome
	Turns        int
	Duration     time.Duration
	File         string // the saved history, or ""
	Err          error  // a player failed: the game has no result
	// Reports holds what each bot that reports on itself (see Reporter)
	// said at the end, by colour; empty for the others.
	Reports [2]string
}

// Reporter is a bot that sums up its game in a line (belief sizes, times).
type Reporter interface {
	Report() string
}

// TruthChecker is a bot that can say whether the true board is among those
// it holds possible. Run asks it after every step of its turns, so that
// its report can say how often it was.
type TruthChecker interface {
	TrueBoardInSet(truth *game.Position) bool
}

// FirstColor returns the colour the first bot plays in game n.
func FirstColor(n int) game.Color {
	if n%2 == 1 {
		return game.White
	}
	return game.Black
}

// Summary totals a match from the first bot's side.
type Summary struct {
	Tally match.Tally
	// Wins, Losses and Draws count the first bot's results by reason.
	Wins, Losses, Draws map[recon.WinReason]int
	Errors              int
	Turns               int
}

// ScoreMargin returns the half-width of the 95% confidence interval of the
// score (as a fraction), from the per-game variance of the results.
func (s Summary) ScoreMargin() float64 {
	n := float64(s.Tally.Games())
	if n == 0 {
		return math.Inf(1)
	}
	p := s.Tally.Score()
	v := p*(1-p) - s.Tally.DrawRatio()/4
	return 1.959963984540054 * math.Sqrt(math.Max(v, 0)/n)
}

// Run plays the match, calling onResult (from one goroutine at a time) as
// each game ends, and returns the totals. Every game's bots are built
// fresh. Cancelling ctx stops the games under way and the match.
func Run(ctx context.Context, cfg Config, onResult func(GameResult)) (Summary, error) {
	if cfg.Games < 1 {
		return Summary{}, fmt.Errorf("games must be at least 1, got %d", cfg.Games)
	}
	if cfg.FirstGame < 0 {
		return Summary{}, fmt.Errorf("the first game's number must be at least 1, got %d", cfg.FirstGame)
	}
	if cfg.FirstGame == 0 {
		cfg.FirstGame = 1
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	for _, spec := range []string{cfg.First, cfg.Second} {
		p, err := bots.New(spec, 0)
		if err != nil {
			return Summary{}, err
		}
		closePlayer(p)
	}
	if cfg.OutDir != "" {
		if err := os.MkdirAll(cfg.OutDir, 0o755); err != nil {
			return Summary{}, err
		}
	}
	sum := Summary{Wins: map[recon.WinReason]int{}, Losses: map[recon.WinReason]int{}, Draws: map[recon.WinReason]int{}}
	var mu sync.Mutex
	next := make(chan int)
	var wg sync.WaitGroup
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range next {
				r := playOne(ctx, &cfg, n)
				mu.Lock()
				sum.add(cfg.First, r)
				if onResult != nil {
					onResult(r)
				}
				mu.Unlock()
			}
		}()
	}
	for n := cfg.FirstGame; n < cfg.FirstGame+cfg.Games && ctx.Err() == nil; n++ {
		select {
		case next <- n:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return sum, ctx.Err()
}

func (s *Summary) add(first string, r GameResult) {
	if r.Err != nil {
		s.Errors++
		return
	}
	s.Turns += r.Turns
	switch {
	case !r.Outcome.Over():
		s.Errors++
	case !r.Outcome.Decisive:
		s.Tally.Draws++
		s.Draws[r.Outcome.Reason]++
	case r.Outcome.Winner == FirstColor(r.Number):
		s.Tally.Wins++
		s.Wins[r.Outcome.Reason]++
	default:
		s.Tally.Losses++
		s.Losses[r.Outcome.Reason]++
	}
}

// playOne plays game n.
func playOne(ctx context.Context, cfg *Config, n int) GameResult {
	white, black := cfg.First, cfg.Second
	if FirstColor(n) == game.Black {
		white, black = black, white
	}
	r := GameResult{Number: n, White: white, Black: black}
	start := time.Now()
	seed := cfg.Seed*1_000_003 + uint64(n)*2
	wp, err := bots.New(white, seed)
	if err != nil {
		r.Err = err
		return r
	}
	defer closePlayer(wp)
	bp, err := bots.New(black, seed+1)
	if err != nil {
		r.Err = err
		return r
	}
	defer closePlayer(bp)

	g := recon.NewGame(cfg.Game, white, black)
	players := [2]recon.Player{wp, bp}
	r.Outcome, r.Err = recon.PlayObserved(ctx, g, wp, bp, func(c game.Color, _ recon.Step) {
		if tc, ok := players[c].(TruthChecker); ok {
			b := g.Board()
			p := b.Position()
			tc.TrueBoardInSet(&p)
		}
	})
	for c, p := range players {
		if rp, ok := p.(Reporter); ok {
			r.Reports[c] = rp.Report()
		}
	}
	r.Duration = time.Since(start)
	r.Turns = g.History().NumTurns()
	if cfg.OutDir != "" {
		r.File = filepath.Join(cfg.OutDir, fmt.Sprintf("game%04d-%s-vs-%s.json", n, fileSafe(white), fileSafe(black)))
		if err := recon.SaveHistory(r.File, g.History()); err != nil && r.Err == nil {
			r.Err = err
		}
	}
	return r
}

// closePlayer releases a bot's resources (an engine process) when it has any.
func closePlayer(p recon.Player) {
	if c, ok := p.(io.Closer); ok {
		_ = c.Close()
	}
}

// fileSafe keeps letters, digits, '.', '-' and '_' of a spec for a file name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// FormatReasons writes counts by reason, "KING_CAPTURE 38, TIMEOUT 2", or
// "none".
func FormatReasons(m map[recon.WinReason]int) string {
	var reasons []recon.WinReason
	for r, n := range m {
		if n > 0 {
			reasons = append(reasons, r)
		}
	}
	if len(reasons) == 0 {
		return "none"
	}
	sort.Slice(reasons, func(i, j int) bool { return reasons[i] < reasons[j] })
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%s %d", r, m[r])
	}
	return strings.Join(parts, ", ")
}
