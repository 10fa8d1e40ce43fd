package store

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Training (issue 47): the "learn from your mistakes" sessions of finished
// games, and the puzzles found in finished games with their ratings and
// the players' attempts (package training).

// Training is the store's facet for learning from one's mistakes and for
// puzzles. Get it from Store.Training; it shares the Store's connections,
// hooks and writer.
type Training struct{ s *Store }

// Training returns the facet of learn sessions and puzzles.
func (s *Store) Training() Training { return Training{s} }

// LearnSession is where a player is in learning from one finished game's
// mistakes: one result per mistake of the review, in the game's order.
type LearnSession struct {
	GameID string `gorm:"primaryKey;size:40"`
	// Results holds one letter per mistake: '.' not done yet, 's' solved,
	// 'r' the solution was shown, 'k' skipped.
	Results   string `gorm:"type:text;not null;default:''"`
	UpdatedAt time.Time
}

// Puzzle is a position of a finished game where one side has a single
// clearly winning move, and the line that follows (package training).
type Puzzle struct {
	ID     int64  `gorm:"primaryKey"`
	GameID string `gorm:"size:40;not null;uniqueIndex:idx_puzzles_game_ply"`
	// Ply is the position's index in the game (moves played before it).
	Ply int `gorm:"not null;uniqueIndex:idx_puzzles_game_ply"`
	// Owner is the game's owner, whose puzzles come first to them.
	Owner string `gorm:"size:64;not null;index"`
	// FEN is the position before LastMove, the move the game's player
	// made (the one that allowed the puzzle); the solver plays next.
	FEN      string `gorm:"size:128;not null;index:idx_puzzles_position"`
	LastMove string `gorm:"size:8;not null;index:idx_puzzles_position"`
	// Line is the solution in UCI, space separated: the solver's moves
	// and the opponent's replies between them, ending with the solver's.
	Line string `gorm:"size:256;not null"`
	// Mate is set when the line ends in checkmate.
	Mate bool `gorm:"not null;default:false"`
	// Rating, RD and Volatility are the puzzle's Glicko-2 rating.
	Rating     float64 `gorm:"not null;index"`
	RD         float64 `gorm:"not null"`
	Volatility float64 `gorm:"not null"`
	Plays      int     `gorm:"not null;default:0"`
	CreatedAt  time.Time
}

// PuzzleAttempt is one player's first try at a puzzle: only the first
// moves the ratings.
type PuzzleAttempt struct {
	Owner    string `gorm:"primaryKey;size:64"`
	PuzzleID int64  `gorm:"primaryKey;autoIncrement:false"`
	Win      bool   `gorm:"not null"`
	// RatingBefore and RatingAfter are the player's puzzle rating.
	RatingBefore float64 `gorm:"not null"`
	RatingAfter  float64 `gorm:"not null"`
	CreatedAt    time.Time
}

// PuzzlePlayer is a player's puzzle rating (Glicko-2), by owner key.
type PuzzlePlayer struct {
	Owner      string  `gorm:"primaryKey;size:64"`
	Rating     float64 `gorm:"not null"`
	RD         float64 `gorm:"not null"`
	Volatility float64 `gorm:"not null"`
	Plays      int     `gorm:"not null;default:0"`
	UpdatedAt  time.Time
}

// PuzzleScan marks a finished game as searched for puzzles, so that no
// game is searched twice.
type PuzzleScan struct {
	GameID    string `gorm:"primaryKey;size:40"`
	Puzzles   int    `gorm:"not null;default:0"`
	ScannedAt time.Time
}

// LearnSession returns game id's learn session, or ErrNotFound.
func (t Training) LearnSession(id string) (*LearnSession, error) {
	var ls LearnSession
	err := t.s.rd.Where("game_id = ?", id).Take(&ls).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: learn session of %s: %w", id, err)
	}
	return &ls, nil
}

// SaveLearnSession writes ls, replacing the game's earlier session.
func (t Training) SaveLearnSession(ls *LearnSession) error {
	if ls.GameID == "" {
		return errors.New("store: learn session without a game")
	}
	ls.UpdatedAt = t.s.now()
	err := t.s.transaction(func(tx *gorm.DB) error {
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(ls).Error
	})
	if err != nil {
		return fmt.Errorf("store: save learn session of %s: %w", ls.GameID, err)
	}
	return nil
}

// GamesToScan returns up to limit finished games with a complete review
// that have not been searched for puzzles: owner's first (when owner is
// not empty), then the others, each oldest finished first.
func (t Training) GamesToScan(owner string, limit int) ([]Game, error) {
	q := t.s.rd.Model(&Game{}).
		Joins("JOIN analyses ON analyses.game_id = games.id AND analyses.complete = ?", true).
		Joins("LEFT JOIN puzzle_scans ON puzzle_scans.game_id = games.id").
		Where("games.status = ? AND puzzle_scans.game_id IS NULL", StatusOver)
	// One ORDER BY expression: gorm builds an expression alone, dropping
	// columns ordered besides it. NULLS FIRST: SQLite's order, on both.
	order := clause.Expr{SQL: "CASE WHEN games.owner = ? THEN 0 ELSE 1 END, games.finished_at NULLS FIRST, games.id", Vars: []any{owner}, WithoutParentheses: true}
	var gs []Game
	if err := q.Order(clause.OrderBy{Expression: order}).Limit(limit).Find(&gs).Error; err != nil {
		return nil, fmt.Errorf("store: games to scan for puzzles: %w", err)
	}
	return gs, nil
}

// SaveScan stores the puzzles found in game id and marks it searched, in
// one transaction; a puzzle already stored (the same game and ply, or the
// same position and move from another game: a trap many fall into) is
// kept as it is, and the new one left out.
func (t Training) SaveScan(id string, puzzles []Puzzle) error {
	err := t.s.transaction(func(tx *gorm.DB) error {
		kept := 0
		for i := range puzzles {
			var n int64
			if err := tx.Model(&Puzzle{}).Where("fen = ? AND last_move = ?", puzzles[i].FEN, puzzles[i].LastMove).Count(&n).Error; err != nil {
				return err
			}
			if n > 0 {
				continue
			}
			puzzles[i].CreatedAt = t.s.now()
			res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&puzzles[i])
			if res.Error != nil {
				return res.Error
			}
			kept += int(res.RowsAffected)
		}
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&PuzzleScan{GameID: id, Puzzles: kept, ScannedAt: t.s.now()}).Error
	})
	if err != nil {
		return fmt.Errorf("store: save puzzles of %s: %w", id, err)
	}
	return nil
}

// Puzzle returns puzzle id, or ErrNotFound.
func (t Training) Puzzle(id int64) (*Puzzle, error) {
	var p Puzzle
	err := t.s.rd.Where("id = ?", id).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: puzzle %d: %w", id, err)
	}
	return &p, nil
}

// NextPuzzle returns a puzzle owner has not tried: one from owner's own
// games first, else the one whose rating is nearest rating; ErrNotFound
// when owner has tried them all.
func (t Training) NextPuzzle(owner string, rating float64) (*Puzzle, error) {
	var p Puzzle
	err := t.s.rd.Model(&Puzzle{}).
		Where("NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = puzzles.id AND a.owner = ?)", owner).
		Order(clause.OrderBy{Expression: clause.Expr{SQL: "CASE WHEN puzzles.owner = ? THEN 0 ELSE 1 END, ABS(puzzles.rating - ?), puzzles.id", Vars: []any{owner, rating}, WithoutParentheses: true}}).
		Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: next puzzle: %w", err)
	}
	return &p, nil
}

// PuzzleCount returns how many puzzles there are.
func (t Training) PuzzleCount() (int64, error) {
	var n int64
	if err := t.s.rd.Model(&Puzzle{}).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("store: count puzzles: %w", err)
	}
	return n, nil
}

// PuzzlePlayer returns owner's puzzle rating, or ErrNotFound before the
// first attempt.
func (t Training) PuzzlePlayer(owner string) (*PuzzlePlayer, error) {
	var p PuzzlePlayer
	err := t.s.rd.Where("owner = ?", owner).Take(&p).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: puzzle player: %w", err)
	}
	return &p, nil
}

// Attempt returns owner's attempt at puzzle id, or ErrNotFound.
func (t Training) Attempt(owner string, id int64) (*PuzzleAttempt, error) {
	var a PuzzleAttempt
	err := t.s.rd.Where("owner = ? AND puzzle_id = ?", owner, id).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: puzzle attempt: %w", err)
	}
	return &a, nil
}

// ErrAttempted is SaveAttempt's answer when the player had already tried
// the puzzle: nothing is changed.
var ErrAttempted = errors.New("store: puzzle already attempted")

// SaveAttempt records owner's first attempt at a puzzle with the new
// ratings of both, in one transaction; ErrAttempted when owner had tried
// it already (two tabs at once: the first counts).
func (t Training) SaveAttempt(a *PuzzleAttempt, player *PuzzlePlayer, puzzle *Puzzle) error {
	err := t.s.transaction(func(tx *gorm.DB) error {
		a.CreatedAt = t.s.now()
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(a)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrAttempted
		}
		player.UpdatedAt = t.s.now()
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(player).Error; err != nil {
			return err
		}
		return tx.Model(&Puzzle{}).Where("id = ?", puzzle.ID).
			Updates(map[string]any{"rating": puzzle.Rating, "rd": puzzle.RD, "volatility": puzzle.Volatility, "plays": gorm.Expr("plays + 1")}).Error
	})
	if errors.Is(err, ErrAttempted) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: save puzzle attempt: %w", err)
	}
	return nil
}
