package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"sync"
	"time"

	"knightwatch/game"
)

// Defaults for Config's zero values.
const (
	// DefaultGrace is how far past its clock an engine may answer before it
	// loses on time: process start-up and pipe latency are charged to the
	// engine, and a few milliseconds of scheduling noise should not decide
	// a game.
	DefaultGrace = 50 * time.Millisecond
	// DefaultTimeout bounds the handshake and "isready". It only matters for
	// a broken engine, so it is generous: a loaded machine can take seconds
	// to start a process.
	DefaultTimeout = 30 * time.Second
	// DefaultStopWait is how long an engine that overran its clock gets to
	// answer "stop" before it is killed (and restarted for the next game).
	DefaultStopWait = time.Second
)

// Config describes a match. Results are counted from Engines[0]'s side.
type Config struct {
	Engines [2]EngineSpec
	// Games is the number of games; colours alternate and each opening is
	// played twice in a row, once with each engine as White.
	Games int
	TC    TimeControl
	// Openings are used in order (after an optional shuffle by Seed) and
	// reused when there are more game pairs than openings; nil means
	// DefaultOpenings.
	Openings []Opening
	// Seed, when not 0, shuffles the openings' order reproducibly.
	Seed int64
	// Concurrency is how many games run at once, each with its own pair of
	// engine processes (default 1).
	Concurrency int
	// Grace is how far past its clock an engine may answer (DefaultGrace).
	Grace time.Duration
	// Timeout bounds start-up and "isready" (DefaultTimeout).
	Timeout time.Duration
	// StopWait bounds recovery after a flag fall (DefaultStopWait).
	StopWait time.Duration
	// Event is the PGN Event tag (default "Knightwatch match").
	Event string
	// PGN receives every finished game; nil writes none.
	PGN io.Writer
	// OnGame is called (from one goroutine, in order of completion) after
	// each game with the running tally; nil is fine.
	OnGame func(r *GameResult, t Tally)
}

// GameResult is one finished game.
type GameResult struct {
	// Number is the game's 1-based number in the schedule (its PGN Round).
	Number int
	// White is the index in Config.Engines of the engine playing White.
	White int
	// Names are the players' names by colour (game.White, game.Black).
	Names   [2]string
	Opening string
	Outcome game.Outcome
	// Reason says why the game ended in words, naming the engine for
	// forfeits ("stockfish lost on time").
	Reason string
	Game   *game.Game
	// Comments holds one PGN comment per move played by the engines
	// ("+0.35/12 0.512s"), indexed by ply; opening moves have "".
	Comments []string
	Date     time.Time
}

// Points returns what Engines[0] scored in this game: 1, 0.5 or 0.
func (r *GameResult) Points() float64 {
	w, ok := r.Outcome.Winner()
	switch {
	case !ok:
		return 0.5
	case (w == game.White) == (r.White == 0):
		return 1
	}
	return 0
}

// Summary is a finished match.
type Summary struct {
	Names   [2]string
	Tally   Tally
	Results []*GameResult
}

// player owns one engine process of a worker and restarts it when needed.
type player struct {
	spec    EngineSpec
	eng     *Engine
	timeout time.Duration
}

func (p *player) ready() error {
	if p.eng != nil && p.eng.Alive() {
		if err := p.eng.NewGame(p.timeout); err == nil {
			return nil
		}
		p.eng.Kill() // unresponsive between games: start afresh
	}
	e, err := StartEngine(p.spec, p.timeout)
	if err != nil {
		return err
	}
	p.eng = e
	return p.eng.NewGame(p.timeout)
}

func (p *player) close() {
	if p.eng != nil {
		p.eng.Close(time.Second)
		p.eng = nil
	}
}

// Run plays the match. It returns early with an error when an engine cannot
// be started (or restarted), the openings are unusable, or ctx is done; the
// summary then holds the games finished so far.
func Run(ctx context.Context, cfg Config) (*Summary, error) {
	if cfg.Games < 1 {
		return nil, fmt.Errorf("games must be at least 1, got %d", cfg.Games)
	}
	if cfg.TC.Base <= 0 && cfg.TC.MoveTime <= 0 {
		return nil, errors.New("no time control")
	}
	for i, s := range cfg.Engines {
		if len(s.Command) == 0 {
			return nil, fmt.Errorf("engine %d has no command", i+1)
		}
	}
	if cfg.Openings == nil {
		cfg.Openings = DefaultOpenings()
	}
	if len(cfg.Openings) == 0 {
		return nil, errors.New("empty opening set")
	}
	if cfg.Seed != 0 {
		ops := append([]Opening(nil), cfg.Openings...)
		rand.New(rand.NewSource(cfg.Seed)).Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		cfg.Openings = ops
	}
	if cfg.Concurrency < 1 {
		cfg.Concurrency = 1
	}
	if cfg.Concurrency > cfg.Games {
		cfg.Concurrency = cfg.Games
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.StopWait <= 0 {
		cfg.StopWait = DefaultStopWait
	}
	if cfg.Event == "" {
		cfg.Event = "Knightwatch match"
	}

	// Start one pair first so a bad command fails before anything else,
	// and so the names are known for output.
	first := [2]*player{}
	sum := &Summary{}
	for i := range first {
		first[i] = &player{spec: cfg.Engines[i], timeout: cfg.Timeout}
		if err := first[i].ready(); err != nil {
			for _, p := range first[:i] {
				p.close()
			}
			return nil, err
		}
		sum.Names[i] = first[i].eng.Name()
		cfg.Engines[i].Name = sum.Names[i] // later restarts keep the name
		first[i].spec.Name = sum.Names[i]
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan *GameResult)
	errs := make(chan error, cfg.Concurrency)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Concurrency; w++ {
		players := first
		if w > 0 {
			players = [2]*player{
				{spec: cfg.Engines[0], timeout: cfg.Timeout},
				{spec: cfg.Engines[1], timeout: cfg.Timeout},
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer players[0].close()
			defer players[1].close()
			for n := range jobs {
				r, err := playOne(ctx, &cfg, players, n)
				if err != nil {
					errs <- err
					cancel()
					return
				}
				select {
				case results <- r:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for n := 0; n < cfg.Games; n++ {
			select {
			case jobs <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var pgnErr error
	for r := range results {
		sum.Results = append(sum.Results, r)
		switch r.Points() {
		case 1:
			sum.Tally.Wins++
		case 0:
			sum.Tally.Losses++
		default:
			sum.Tally.Draws++
		}
		if cfg.PGN != nil && pgnErr == nil {
			if pgnErr = writeGamePGN(cfg.PGN, &cfg, r); pgnErr != nil {
				cancel()
			}
		}
		if cfg.OnGame != nil {
			cfg.OnGame(r, sum.Tally)
		}
	}
	select {
	case err := <-errs:
		return sum, err
	default:
	}
	if pgnErr != nil {
		return sum, fmt.Errorf("writing PGN: %w", pgnErr)
	}
	if err := ctx.Err(); err != nil && len(sum.Results) < cfg.Games {
		return sum, err
	}
	return sum, nil
}

// playOne plays game number n (0-based) with the worker's two players.
func playOne(ctx context.Context, cfg *Config, players [2]*player, n int) (*GameResult, error) {
	op := &cfg.Openings[(n/2)%len(cfg.Openings)]
	white := n % 2 // engine index playing White: 0 in even games
	for _, p := range players {
		if err := p.ready(); err != nil {
			return nil, fmt.Errorf("game %d: restarting engine: %w", n+1, err)
		}
	}
	g, err := op.NewGame()
	if err != nil {
		return nil, err
	}
	r := &GameResult{
		Number: n + 1, White: white, Opening: op.Name, Game: g, Date: time.Now(),
		Comments: make([]string, g.Len()),
	}
	byColour := [2]*player{players[white], players[1-white]}
	r.Names = [2]string{byColour[0].eng.Name(), byColour[1].eng.Name()}
	var clock [2]time.Duration
	if cfg.TC.MoveTime == 0 {
		clock = [2]time.Duration{cfg.TC.Base, cfg.TC.Base}
	}
	moves := g.UCIMoves()
	posPrefix := "position startpos"
	if fen := g.StartPosition().FEN(); fen != game.StartFEN {
		posPrefix = "position fen " + fen
	}
	for {
		if o := g.OutcomeWithClaims(); o.Over() {
			r.Outcome, r.Reason = o, o.Termination.String()
			return r, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pos := g.Position()
		side := pos.Side()
		p := byColour[side]
		name := p.eng.Name()
		posCmd := posPrefix
		if len(moves) > 0 {
			posCmd += " moves " + strings.Join(moves, " ")
		}
		goCmd, limit := goCommand(cfg.TC, clock, side, cfg.Grace)
		reply, err := p.eng.Go(ctx, posCmd, goCmd, limit)
		forfeit := func(reason string) (*GameResult, error) {
			r.Outcome = game.Outcome{Result: game.WinFor(side.Other()), Termination: game.Adjudication}
			r.Reason = name + " " + reason
			g.SetOutcome(r.Outcome)
			return r, nil
		}
		switch {
		case errors.Is(err, ErrEngineTimeout):
			// The flag fell. The engine may just be slow; give it a chance to
			// stop cleanly, else kill it and let the next game restart it.
			if p.eng.Stop(cfg.StopWait) != nil {
				p.eng.Kill()
			}
			r.Outcome = game.Outcome{Result: game.WinFor(side.Other()), Termination: game.TimeForfeit}
			r.Reason = fmt.Sprintf("%s lost on time (%.3fs left, no move after %.3fs)", name, clock[side].Seconds(), reply.Elapsed.Seconds())
			if pos.HasInsufficientMaterial(side.Other()) {
				// The opponent could never mate: a flag fall is a draw.
				r.Outcome.Result = game.Draw
				r.Reason = fmt.Sprintf("%s ran out of time (%.3fs left), but the opponent cannot mate: draw", name, clock[side].Seconds())
			}
			g.SetOutcome(r.Outcome)
			return r, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			p.eng.Kill()
			return forfeit("crashed or quit (" + err.Error() + ")")
		}
		if cfg.TC.MoveTime == 0 {
			// An answer inside the grace leaves an empty clock, not a
			// negative one: the grace forgives latency, it does not lend time.
			left := max(clock[side]-reply.Elapsed, 0)
			clock[side] = left + cfg.TC.Inc
		}
		m, perr := pos.ParseUCI(reply.Move)
		if perr != nil || m == game.NullMove {
			return forfeit(fmt.Sprintf("sent an illegal move %q", reply.Move))
		}
		if err := g.Play(m); err != nil {
			return forfeit(fmt.Sprintf("sent an illegal move %q: %v", reply.Move, err))
		}
		moves = append(moves, pos.UCI(m))
		c := fmt.Sprintf("%.3fs", reply.Elapsed.Seconds())
		if reply.Info.HasScore {
			c = fmt.Sprintf("%s/%d %s", reply.Info.ScoreString(), reply.Info.Depth, c)
		}
		r.Comments = append(r.Comments, c)
	}
}

// goCommand builds the "go" command for the clocks and how long to wait for
// the answer.
func goCommand(tc TimeControl, clock [2]time.Duration, side game.Color, grace time.Duration) (string, time.Duration) {
	if tc.MoveTime > 0 {
		return fmt.Sprintf("go movetime %d", ms(tc.MoveTime)), tc.MoveTime + grace
	}
	cmd := fmt.Sprintf("go wtime %d btime %d", ms(clock[game.White]), ms(clock[game.Black]))
	if tc.Inc > 0 {
		cmd += fmt.Sprintf(" winc %d binc %d", ms(tc.Inc), ms(tc.Inc))
	}
	return cmd, clock[side] + grace
}

// ms converts to whole milliseconds, at least 1 for a positive clock: some
// engines treat "wtime 0" as "no time control".
func ms(d time.Duration) int64 {
	v := d.Milliseconds()
	if v < 1 {
		v = 1
	}
	return v
}
