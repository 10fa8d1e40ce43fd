package training

import (
	"errors"
	"strings"

	"knightwatch/game"
	"knightwatch/store"
)

// Puzzles are the puzzles' play and ratings: a player's moves checked
// against the solution, the first attempt rated (Glicko-2, the player
// against the puzzle).
type Puzzles struct{ Store *store.Store }

// Step is the answer to a player's move in a puzzle.
type Step struct {
	// Correct is set when the move is the solution's (or mates).
	Correct bool
	// Done is set when the puzzle is over: solved, or failed.
	Done bool
	// Reply is the opponent's answer to a correct move (UCI), "" at the
	// end.
	Reply string
	// Solution is the whole line (UCI), once Done.
	Solution []string
	// Counted is set when this attempt moved the ratings (the player's
	// first); Before and After are then the player's rating, PuzzleAfter
	// the puzzle's.
	Counted       bool
	Before, After float64
	PuzzleAfter   float64
}

// ErrBadMoves is Play's answer when the moves are not the puzzle's line
// so far (a stale page, a forged request): nothing is recorded.
var ErrBadMoves = errors.New("those moves are not this puzzle's line; reload the page")

// Solver is the side that solves p: the side to move after its last move.
func Solver(p *store.Puzzle) (game.Color, error) {
	pos, err := game.ParseFEN(p.FEN)
	if err != nil {
		return game.White, err
	}
	return pos.Side().Other(), nil
}

// Start is the puzzle's position: its FEN with its last move played.
func Start(p *store.Puzzle) (*game.Position, error) {
	pos, err := game.ParseFEN(p.FEN)
	if err != nil {
		return nil, err
	}
	m, err := pos.ParseUCI(p.LastMove)
	if err != nil || !pos.IsLegal(m) {
		return nil, errors.New("training: puzzle's last move is not legal")
	}
	pos.MakeMove(m)
	return pos, nil
}

// Play checks the solver's moves in puzzle p (moves: the line so far,
// the solver's and the replies, ending with the solver's newest move), or
// with giveUp the player's asking for the solution after moves (a loss).
// A wrong move or giving up ends the puzzle as failed; the last correct
// move as solved. The owner's first attempt is rated.
func (pz Puzzles) Play(owner string, p *store.Puzzle, moves []string, giveUp bool) (Step, error) {
	line := strings.Fields(p.Line)
	pos, err := Start(p)
	if err != nil {
		return Step{}, err
	}
	n := len(moves)
	if giveUp {
		n++ // every move given is the line's
	}
	if n == 0 || n%2 == 0 || n > len(line) {
		return Step{}, ErrBadMoves
	}
	for i := 0; i < n-1; i++ {
		if moves[i] != line[i] {
			return Step{}, ErrBadMoves
		}
		m, _ := pos.ParseUCI(line[i])
		pos.MakeMove(m)
	}
	var st Step
	if !giveUp {
		m, err := pos.ParseUCI(moves[n-1])
		if err != nil || !pos.IsLegal(m) {
			return Step{}, ErrIllegal
		}
		next := *pos
		next.MakeMove(m)
		st.Correct = pos.UCI(m) == line[n-1] || next.IsCheckmate()
	}
	switch {
	case st.Correct && n < len(line) && !mates(pos, moves[n-1]):
		st.Reply = line[n]
		return st, nil
	case st.Correct:
		st.Done = true
	default:
		st.Done = true
	}
	st.Solution = line
	if err := pz.rate(owner, p, st.Correct, &st); err != nil {
		return st, err
	}
	return st, nil
}

// mates reports whether u (UCI, legal) mates in pos.
func mates(pos *game.Position, u string) bool {
	m, err := pos.ParseUCI(u)
	if err != nil {
		return false
	}
	next := *pos
	next.MakeMove(m)
	return next.IsCheckmate()
}

// rate records owner's first attempt at p, won or lost, with both new
// ratings; a later attempt changes nothing.
func (pz Puzzles) rate(owner string, p *store.Puzzle, win bool, st *Step) error {
	tr := pz.Store.Training()
	player := NewRating()
	plays := 0
	row, err := tr.PuzzlePlayer(owner)
	switch {
	case err == nil:
		player, plays = Rating{row.Rating, row.RD, row.Volatility}, row.Plays
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	score := 0.0
	if win {
		score = 1
	}
	puzzle := Rating{p.Rating, p.RD, p.Volatility}
	np, nz := Update(player, puzzle, score), Update(puzzle, player, 1-score)
	a := &store.PuzzleAttempt{Owner: owner, PuzzleID: p.ID, Win: win, RatingBefore: player.R, RatingAfter: np.R}
	pp := &store.PuzzlePlayer{Owner: owner, Rating: np.R, RD: np.RD, Volatility: np.Vol, Plays: plays + 1}
	pr := *p
	pr.Rating, pr.RD, pr.Volatility = nz.R, nz.RD, nz.Vol
	err = tr.SaveAttempt(a, pp, &pr)
	if errors.Is(err, store.ErrAttempted) {
		return nil
	}
	if err != nil {
		return err
	}
	st.Counted, st.Before, st.After, st.PuzzleAfter = true, player.R, np.R, nz.R
	return nil
}

// PlayerRating returns owner's puzzle rating (the start rating before any
// attempt) and how many puzzles they have tried.
func (pz Puzzles) PlayerRating(owner string) (float64, int, error) {
	row, err := pz.Store.Training().PuzzlePlayer(owner)
	if errors.Is(err, store.ErrNotFound) {
		return StartRating, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	return row.Rating, row.Plays, nil
}
