package store

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// The engine's experience (docs/experience.md): what finished games, and
// the analyses of finished games, say about moves in positions. The web
// package fills it when a game ends and reads it before each engine move;
// the engine gets the rows of its root position as data.

// Learning is the store's facet for the engine's experience (package
// experience): recording what finished games and reviews teach, the cap
// on the table, and reading a position's rows back. Get it from
// Store.Learning; it shares the Store's connections, hooks and writer.
type Learning struct{ s *Store }

// Learning returns the facet of the engine's experience.
func (s *Store) Learning() Learning { return Learning{s} }

// Experience is one row of the experience table: one move in one position,
// its record from the point of view of the side that played it.
type Experience struct {
	// Key is the position's Polyglot key (game.Position.Hash), its 64 bits
	// stored as a signed integer; use PositionKey to read it.
	Key  int64  `gorm:"primaryKey;autoIncrement:false"`
	Move string `gorm:"primaryKey;size:8"` // UCI
	// Games counts the finished games in which Move was played here;
	// Wins, Draws and Losses split them by their result for its side.
	Games  int `gorm:"not null;default:0"`
	Wins   int `gorm:"not null;default:0"`
	Draws  int `gorm:"not null;default:0"`
	Losses int `gorm:"not null;default:0"`
	// Weight and Points are the same games weighed by what each says about
	// the move (its Lesson's Weight): Weight sums the weights, Points the
	// weighted results (1 a win, 1/2 a draw).
	Weight float64 `gorm:"not null;default:0"`
	Points float64 `gorm:"not null;default:0"`
	// Depth is the depth of the games' knowledge: the fewest plies from the
	// move to the end of a game it was played in, counting the move (1:
	// the game's last move); 0 when no game has played it.
	Depth int `gorm:"not null;default:0"`
	// AnalysisCP is the deepest analysis' score of the move in centipawns
	// for its side, from a search of AnalysisDepth plies (0: never analysed).
	AnalysisCP    int `gorm:"not null;default:0"`
	AnalysisDepth int `gorm:"not null;default:0"`
	// UpdatedAt is when a game or an analysis last taught the row.
	UpdatedAt time.Time `gorm:"index:idx_experiences_updated"`
}

// PositionKey is the row's position key as game.Position.Hash gives it.
func (e *Experience) PositionKey() uint64 { return uint64(e.Key) }

// ExperienceGame marks a finished game as learnt from, so that no game is
// learnt twice (a restart's catch-up, two servers on one file).
type ExperienceGame struct {
	GameID   string    `gorm:"primaryKey;size:40"`
	LearntAt time.Time `gorm:"index:idx_experience_games_learnt"`
	// Lessons is the number of moves the game taught.
	Lessons int `gorm:"not null;default:0"`
}

// Lesson is what a finished game says about one of its moves.
type Lesson struct {
	Key  uint64 // the Polyglot key of the position the move was played in
	Move string // UCI
	// Result is the game's result for the side that played Move: 1 a win,
	// 0.5 a draw, 0 a loss.
	Result float64
	// Depth is the number of plies from the move to the game's end,
	// counting the move; Weight how much the result says about the move
	// (the engine's LessonWeight of Depth).
	Depth  int
	Weight float64
}

// DefaultExperienceRows is the experience table's row cap unless
// SetExperienceCap says otherwise: about 2,500 games of 80 plies, about
// 20 MB on disk.
const DefaultExperienceRows = 200_000

// experienceTrim is how far below the cap an eviction goes (a fraction of
// the cap), so that a full table is not trimmed after every game.
const experienceTrim = 0.05

var errBadLesson = errors.New("store: invalid lesson")

// experienceCap is the row cap (see SetExperienceCap; 0 means the
// default) and an upper bound on the table's rows (-1: unknown), for
// trimExperience. The writes that change them run one at a time (the
// writer is one connection).
type experienceCap struct {
	n    atomic.Int64
	rows atomic.Int64
}

func (c *experienceCap) get() int64 {
	if n := c.n.Load(); n > 0 {
		return n
	}
	return DefaultExperienceRows
}

// SetExperienceCap bounds the experience table to rows rows (at least 1;
// 0 or less restores DefaultExperienceRows). Beyond it, each recording
// evicts the least valuable rows: the smallest weight of games, counting
// an analysis as a whole game, the least recently taught first, down to 95%
// of the cap.
func (lr Learning) SetExperienceCap(rows int) {
	lr.s.expCap.n.Store(int64(max(rows, 0)))
	lr.forgetCount()
}

// rowCap returns the experience table's row cap.
func (lr Learning) rowCap() int { return int(lr.s.expCap.get()) }

// validLesson reports whether l can be stored.
func validLesson(l Lesson) bool {
	return l.Move != "" && len(l.Move) <= 8 && l.Depth >= 1 &&
		(l.Result == 0 || l.Result == 0.5 || l.Result == 1) &&
		l.Weight >= 0 && l.Weight <= 1 && !math.IsNaN(l.Weight)
}

// RecordGame learns from the finished game gameID, in one transaction:
// each of lessons adds the game to its move's row (a move played twice in
// the same position, as in a repetition, counts once, with its lesson
// nearest to the end), then the table is trimmed to its cap. It reports
// false, changing nothing, when the game was already learnt from; an
// invalid lesson is an error, and nothing is recorded either.
func (lr Learning) RecordGame(gameID string, lessons []Lesson) (bool, error) {
	if gameID == "" {
		return false, errors.New("store: record game: no game ID")
	}
	type keyMove struct {
		key  uint64
		move string
	}
	nearest := map[keyMove]int{}
	var uniq []Lesson
	for _, l := range lessons {
		if !validLesson(l) {
			return false, fmt.Errorf("%w: %+v", errBadLesson, l)
		}
		k := keyMove{l.Key, l.Move}
		if i, ok := nearest[k]; ok {
			if l.Depth < uniq[i].Depth {
				uniq[i] = l
			}
			continue
		}
		nearest[k] = len(uniq)
		uniq = append(uniq, l)
	}
	learnt := false
	now := lr.s.now()
	err := lr.s.transaction(func(tx *gorm.DB) error {
		res := tx.Exec("INSERT INTO experience_games (game_id, learnt_at, lessons) VALUES (?, ?, ?) ON CONFLICT(game_id) DO NOTHING",
			gameID, now, len(uniq))
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return nil // learnt before
		}
		for _, l := range uniq {
			var w, d, lo int
			switch l.Result {
			case 1:
				w = 1
			case 0.5:
				d = 1
			default:
				lo = 1
			}
			err := tx.Exec(`INSERT INTO experiences (key, move, games, wins, draws, losses, weight, points, depth, analysis_cp, analysis_depth, updated_at)
VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, 0, 0, ?)
ON CONFLICT(key, move) DO UPDATE SET games = experiences.games + 1, wins = experiences.wins + excluded.wins,
draws = experiences.draws + excluded.draws, losses = experiences.losses + excluded.losses,
weight = experiences.weight + excluded.weight, points = experiences.points + excluded.points,
depth = CASE WHEN experiences.depth = 0 OR excluded.depth < experiences.depth THEN excluded.depth ELSE experiences.depth END,
updated_at = excluded.updated_at`,
				int64(l.Key), l.Move, w, d, lo, l.Weight, l.Weight*l.Result, l.Depth, now).Error
			if err != nil {
				return err
			}
		}
		learnt = true
		return lr.trimExperience(tx, len(uniq))
	})
	if err != nil {
		lr.forgetCount()
		return false, fmt.Errorf("store: record game %s: %w", gameID, err)
	}
	return learnt, nil
}

// AnalysedMove is an analysis' verdict on one move in one position: CP
// centipawns for the side that plays Move (UCI) in the position whose
// Polyglot key is Key, from a search of Depth plies.
type AnalysedMove struct {
	Key   uint64
	Move  string
	CP    int
	Depth int
}

// RecordAnalyses stores the analysed moves in one transaction. A
// shallower analysis than the one stored leaves that row as it is; the
// rows' game results are kept. The table is then trimmed to its cap. The
// post-game review records the move played and the best move at each ply,
// so that the engine learns which of its moves were mistakes. One invalid
// entry refuses the whole batch, and nothing is written.
func (lr Learning) RecordAnalyses(moves []AnalysedMove) error {
	for _, m := range moves {
		if m.Move == "" || len(m.Move) > 8 || m.Depth < 1 || m.CP < -100000 || m.CP > 100000 {
			return fmt.Errorf("store: record analysis: invalid move %q, score %d or depth %d", m.Move, m.CP, m.Depth)
		}
	}
	if len(moves) == 0 {
		return nil
	}
	now := lr.s.now()
	err := lr.s.transaction(func(tx *gorm.DB) error {
		for _, m := range moves {
			err := tx.Exec(`INSERT INTO experiences (key, move, games, wins, draws, losses, weight, points, depth, analysis_cp, analysis_depth, updated_at)
VALUES (?, ?, 0, 0, 0, 0, 0, 0, 0, ?, ?, ?)
ON CONFLICT(key, move) DO UPDATE SET
analysis_cp = CASE WHEN excluded.analysis_depth >= experiences.analysis_depth THEN excluded.analysis_cp ELSE experiences.analysis_cp END,
analysis_depth = CASE WHEN excluded.analysis_depth > experiences.analysis_depth THEN excluded.analysis_depth ELSE experiences.analysis_depth END,
updated_at = excluded.updated_at`,
				int64(m.Key), m.Move, m.CP, m.Depth, now).Error
			if err != nil {
				return err
			}
		}
		return lr.trimExperience(tx, len(moves))
	})
	if err != nil {
		lr.forgetCount()
		return fmt.Errorf("store: record analysis: %w", err)
	}
	return nil
}

// trimExperience evicts the least valuable rows when the table is over its
// cap (see SetExperienceCap), after a write that added at most added rows.
// Counting a full table costs milliseconds, so the count is kept as an
// upper bound (experienceCap.rows) and made again only when the bound
// passes the cap: about once in every cap/20/added writes once the table
// is full. Rows that another process adds are seen at the next count.
func (lr Learning) trimExperience(tx *gorm.DB, added int) error {
	limit := lr.s.expCap.get()
	if est := lr.s.expCap.rows.Load(); est >= 0 && est+int64(added) <= limit {
		lr.s.expCap.rows.Add(int64(added))
		return nil
	}
	lr.s.expCap.rows.Store(-1) // unknown until this transaction commits (see forgetCount)
	var n int64
	if err := tx.Raw("SELECT count(*) FROM experiences").Scan(&n).Error; err != nil {
		return err
	}
	if n <= limit {
		lr.s.expCap.rows.Store(n)
		return nil
	}
	keep := limit - int64(float64(limit)*experienceTrim)
	// A row is its primary key, (key, move), which also breaks the ties
	// (SQLite's rowid did once; PostgreSQL has none).
	err := tx.Exec(`DELETE FROM experiences WHERE (key, move) IN (SELECT key, move FROM experiences
ORDER BY weight + CASE WHEN analysis_depth > 0 THEN 1 ELSE 0 END, updated_at, key, move LIMIT ?)`, n-keep).Error
	if err == nil {
		lr.s.expCap.rows.Store(keep)
	}
	return err
}

// forgetCount drops the row count kept by trimExperience after a
// transaction that did not commit.
func (lr Learning) forgetCount() { lr.s.expCap.rows.Store(-1) }

// ExperienceFor returns the rows of the position whose Polyglot key is
// key (one indexed read: the key leads the primary key).
func (lr Learning) ExperienceFor(key uint64) ([]Experience, error) {
	var rows []Experience
	// Every column but updated_at, which the engine does not need and
	// which costs a time parse per row.
	q := lr.s.rd.Select("key", "move", "games", "wins", "draws", "losses", "weight", "points", "depth", "analysis_cp", "analysis_depth")
	if err := q.Where("key = ?", int64(key)).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("store: experience: %w", err)
	}
	return rows, nil
}

// ExperienceStats sums up the experience table.
type ExperienceStats struct {
	Rows      int64 // rows in the table
	Positions int64 // distinct positions among them
	Games     int64 // finished games learnt from
	Cap       int   // the row cap
	// LastLearnt is when the last game was learnt from (zero: never).
	LastLearnt time.Time
}

// ExperienceSummary returns the table's figures.
func (lr Learning) ExperienceSummary() (ExperienceStats, error) {
	st := ExperienceStats{Cap: lr.rowCap()}
	if err := lr.s.rd.Raw("SELECT count(*) FROM experiences").Scan(&st.Rows).Error; err != nil {
		return st, fmt.Errorf("store: experience summary: %w", err)
	}
	if err := lr.s.rd.Raw("SELECT count(DISTINCT key) FROM experiences").Scan(&st.Positions).Error; err != nil {
		return st, fmt.Errorf("store: experience summary: %w", err)
	}
	if err := lr.s.rd.Model(&ExperienceGame{}).Count(&st.Games).Error; err != nil {
		return st, fmt.Errorf("store: experience summary: %w", err)
	}
	var last ExperienceGame
	err := lr.s.rd.Order("learnt_at DESC").Limit(1).Find(&last).Error
	if err != nil {
		return st, fmt.Errorf("store: experience summary: %w", err)
	}
	st.LastLearnt = last.LearntAt
	return st, nil
}

// UnlearntGames returns up to limit finished games against the engine that
// no one has learnt from yet, those that finished first first: the games
// of a database older than the experience table, and those a server
// stopped before it could learn from them.
func (lr Learning) UnlearntGames(limit int) ([]Game, error) {
	var gs []Game
	err := lr.s.rd.Where("status = ? AND id NOT IN (SELECT game_id FROM experience_games)", StatusOver).
		Order("finished_at NULLS FIRST, id").Limit(limit).Find(&gs).Error // NULLS FIRST: SQLite's order, on both
	if err != nil {
		return nil, fmt.Errorf("store: unlearnt games: %w", err)
	}
	return gs, nil
}

// LearntGame is a game learnt from, as the experience page lists it.
type LearntGame struct {
	GameID   string
	LearntAt time.Time
	Lessons  int
	Level    int
	Human    Color
	Result   string
	Reason   Termination
	Moves    string // UCI, space-separated
}

// RecentLearntGames returns up to limit games learnt from, the most
// recently learnt first.
func (lr Learning) RecentLearntGames(limit int) ([]LearntGame, error) {
	var out []LearntGame
	err := lr.s.rd.Raw(`SELECT e.game_id, e.learnt_at, e.lessons, g.level, g.human, g.result, g.reason, g.moves
FROM experience_games e JOIN games g ON g.id = e.game_id ORDER BY e.learnt_at DESC, e.game_id LIMIT ?`, limit).Scan(&out).Error
	if err != nil {
		return nil, fmt.Errorf("store: recent learnt games: %w", err)
	}
	return out, nil
}
