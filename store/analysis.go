package store

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// The engine's review of finished games (issue 34). Web analyses a game
// position by position and saves what it has as it goes; Analysis is the
// game's row (how far it got and the summary), AnalysisPly one row per
// position.

// Reviews is the store's facet for the reviews of finished games (package
// review): their rows, and which games still want one. Get it from
// Store.Reviews; it shares the Store's connections, hooks and writer.
// The reviews teach the experience through package experience, not
// through the store, so the two are facets of their own.
type Reviews struct{ s *Store }

// Reviews returns the facet of the reviews of finished games.
func (s *Store) Reviews() Reviews { return Reviews{s} }

// Judgement is the review's verdict on one move, stored as "" (none),
// "inaccuracy", "mistake" or "blunder".
type Judgement uint8

// The judgements, from none to the worst.
const (
	NoJudgement Judgement = iota
	Inaccuracy
	Mistake
	Blunder
)

var judgementNames = [...]string{NoJudgement: "", Inaccuracy: "inaccuracy", Mistake: "mistake", Blunder: "blunder"}

// String returns the stored text ("" for NoJudgement).
func (j Judgement) String() string {
	if int(j) < len(judgementNames) {
		return judgementNames[j]
	}
	return fmt.Sprintf("judgement(%d)", int(j))
}

// MarshalText returns the stored text; an unknown value is an error.
func (j Judgement) MarshalText() ([]byte, error) {
	if int(j) >= len(judgementNames) {
		return nil, fmt.Errorf("store: invalid judgement %d", int(j))
	}
	return []byte(judgementNames[j]), nil
}

// UnmarshalText reads a stored judgement; any other text is an error.
func (j *Judgement) UnmarshalText(b []byte) error {
	for i, n := range judgementNames {
		if n == string(b) {
			*j = Judgement(i)
			return nil
		}
	}
	return fmt.Errorf("store: unknown judgement %q", b)
}

// Value implements driver.Valuer.
func (j Judgement) Value() (driver.Value, error) { return textValue(j) }

// Scan implements sql.Scanner.
func (j *Judgement) Scan(src any) error { return scanText(j, src) }

// GormDataType makes the column text.
func (Judgement) GormDataType() string { return "string" }

// Analysis is the review of one finished game: with which engine settings
// it is made, whether it is complete, and once complete each side's
// accuracy and counts of inaccuracies, mistakes and blunders.
type Analysis struct {
	GameID string `gorm:"primaryKey;size:40"`
	// Settings names the engine and the budget the evaluations came from
	// (web's analysisSettings); a review made with other settings is made
	// again.
	Settings string `gorm:"size:160;not null"`
	// Positions is how many positions the game has (its moves + 1).
	Positions int `gorm:"not null"`
	// Complete is set once every position is evaluated and every move is
	// judged; until then the plies saved so far are kept (a restart
	// carries on from them).
	Complete bool `gorm:"index;not null;default:false"`
	// WhiteAccuracy and BlackAccuracy are lichess-style accuracies, 0 to
	// 100; NULL for a side that made no move, or until complete.
	WhiteAccuracy, BlackAccuracy *float64
	WhiteInaccuracies            int `gorm:"not null;default:0"`
	WhiteMistakes                int `gorm:"not null;default:0"`
	WhiteBlunders                int `gorm:"not null;default:0"`
	BlackInaccuracies            int `gorm:"not null;default:0"`
	BlackMistakes                int `gorm:"not null;default:0"`
	BlackBlunders                int `gorm:"not null;default:0"`
	CreatedAt                    time.Time
	UpdatedAt                    time.Time
}

// AnalysisPly is one position of an analysed game: the position after Ply
// half-moves (0 is the start), its evaluation from White's point of view,
// the engine's best move there, and the verdict on the move that led to it.
type AnalysisPly struct {
	GameID string `gorm:"primaryKey;size:40"`
	Ply    int    `gorm:"primaryKey;autoIncrement:false"`
	// CP is the evaluation in centipawns, positive when White stands
	// better; 0 when Mate or Mated is set.
	CP int `gorm:"not null;default:0"`
	// Mate is the moves to a forced mate: positive when White mates,
	// negative when Black does; 0 when none is seen.
	Mate int `gorm:"not null;default:0"`
	// Mated is set when the side to move is checkmated (the game's last
	// position); there is no best move then.
	Mated bool `gorm:"not null;default:false"`
	// Depth is how deep the engine searched (0 where it did not search:
	// a game over on the board).
	Depth int `gorm:"not null;default:0"`
	// BestUCI and BestSAN are the engine's best move in the position,
	// empty where the game is over.
	BestUCI string `gorm:"size:8;not null;default:''"`
	BestSAN string `gorm:"size:16;not null;default:''"`
	// Judgement is the verdict on the move that led here (none at ply 0).
	Judgement Judgement `gorm:"size:16;not null"`
}

// SaveAnalysis stores a's row and plies (replacing any rows of the same
// plies) in one transaction. With reset, the game's earlier plies are
// deleted first: a review started again with other settings.
func (rv Reviews) SaveAnalysis(a *Analysis, plies []AnalysisPly, reset bool) error {
	if a.GameID == "" {
		return errors.New("store: analysis without a game")
	}
	for _, p := range plies {
		if p.GameID != a.GameID {
			return fmt.Errorf("store: analysis of %s given a ply of %q", a.GameID, p.GameID)
		}
	}
	err := rv.s.transaction(func(tx *gorm.DB) error {
		if reset {
			if err := tx.Where("game_id = ?", a.GameID).Delete(&AnalysisPly{}).Error; err != nil {
				return err
			}
		}
		a.UpdatedAt = rv.s.now()
		if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(a).Error; err != nil {
			return err
		}
		if len(plies) == 0 {
			return nil
		}
		return tx.Clauses(clause.OnConflict{UpdateAll: true}).CreateInBatches(plies, 200).Error
	})
	if err != nil {
		return fmt.Errorf("store: save analysis of %s: %w", a.GameID, err)
	}
	return nil
}

// GameAnalysis returns game id's review: its row and the plies saved so
// far, in ply order (every position of the game when a.Complete). It
// reports ErrNotFound when the game has never been analysed.
func (rv Reviews) GameAnalysis(id string) (*Analysis, []AnalysisPly, error) {
	var a Analysis
	err := rv.s.rd.Where("game_id = ?", id).Take(&a).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, nil, ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("store: analysis of %s: %w", id, err)
	}
	plies := []AnalysisPly{}
	if err := rv.s.rd.Where("game_id = ?", id).Order("ply").Find(&plies).Error; err != nil {
		return nil, nil, fmt.Errorf("store: analysis plies of %s: %w", id, err)
	}
	return &a, plies, nil
}

// GamesToAnalyse returns the finished games whose review is to be made
// or finished, oldest finished first: those with an incomplete review,
// and those finished at or after since without any. (Games finished
// before since, the first start with reviews, are reviewed only when
// opened.)
func (rv Reviews) GamesToAnalyse(since time.Time) ([]Game, error) {
	var gs []Game
	err := rv.s.rd.Model(&Game{}).
		Joins("LEFT JOIN analyses ON analyses.game_id = games.id").
		Where("games.status = ? AND ((analyses.game_id IS NULL AND games.finished_at >= ?) OR analyses.complete = ?)", StatusOver, since.Local(), false).
		Order("games.finished_at NULLS FIRST, games.id").Find(&gs).Error // NULLS FIRST: SQLite's order, on both
	if err != nil {
		return nil, fmt.Errorf("store: games to analyse: %w", err)
	}
	return gs, nil
}

// analysisSinceKey is the setting holding when reviews began.
const analysisSinceKey = "analysis_since"

// AnalysisSince returns when this database's games began to be reviewed
// (as they finish): stored on the first call, so that the games finished
// before are not all queued at once on the first start.
func (rv Reviews) AnalysisSince() (time.Time, error) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	err := rv.s.db.Exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", analysisSinceKey, now).Error
	if err != nil {
		return time.Time{}, fmt.Errorf("store: analysis start: %w", err)
	}
	v, err := rv.s.getSetting(analysisSinceKey)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: analysis start %q: %w", v, err)
	}
	return t, nil
}
