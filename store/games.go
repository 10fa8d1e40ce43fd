package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Games is the store's facet for the games people play in the browser:
// chess against the engine (Game, this file, watch.go, openings.go) and
// Reconnaissance Chess against a bot (ReconGame, recon.go), with what the
// two kinds share: the lists of unfinished games and their deletion
// (unfinished.go), and the untouched games a server drops (untouched.go).
// The two kinds are one facet because the code treats them as one: the
// same owner, the same soft delete and the same sweep, and every package
// that plays or lists the one does the other too. Get it from
// Store.Games; it shares the Store's connections, hooks and writer.
type Games struct{ s *Store }

// Games returns the facet of the games played in the browser.
func (s *Store) Games() Games { return Games{s} }

// Game is one game against the engine as it is stored: enough to rebuild it
// exactly (start position plus moves) and to resume its clocks.
type Game struct {
	ID       string `gorm:"primaryKey;size:40"`
	Owner    string `gorm:"index:idx_owner_status;size:64;not null"`
	Variant  string `gorm:"size:16;not null"` // VariantStandard or VariantChess960
	StartFEN string `gorm:"size:128;not null"`
	// Moves is the list of moves in UCI notation separated by single
	// spaces; UCI rather than SAN because it needs no position to parse.
	Moves string `gorm:"type:text;not null;default:''"`
	Human Color  `gorm:"size:8;not null"` // the person's colour
	Level int    `gorm:"not null"`
	// ClockInitialMS and ClockIncrementMS are zero for an untimed game.
	ClockInitialMS   int64 `gorm:"not null;default:0"`
	ClockIncrementMS int64 `gorm:"not null;default:0"`
	// WhiteMS and BlackMS are the remaining times as last committed. Time
	// while nobody is connected is never charged, so these plus the moves
	// are the whole clock state.
	WhiteMS    int64       `gorm:"not null;default:0"`
	BlackMS    int64       `gorm:"not null;default:0"`
	Status     Status      `gorm:"index:idx_owner_status;size:16;not null"`
	Result     string      `gorm:"size:8;not null;default:'*'"`
	Reason     Termination `gorm:"size:40;not null;default:''"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
	// WatchToken is the unguessable token of the game's read-only
	// spectator link (/watch/{token}), made on first use (EnsureWatchToken);
	// NULL until then, and in rows older than the column.
	WatchToken *string `gorm:"size:64;uniqueIndex:idx_games_watch_token"`
	// ExperienceNotes are the notes of the engine's moves that came from
	// experience, as JSON (Notes, SetNotes); empty when there are none.
	ExperienceNotes string `gorm:"type:text;not null;default:''"`
	// ClockSince is when the side to move's clock started running, WhiteMS
	// and BlackMS holding the times at that moment; NULL while no clock
	// runs. A server that stops cleanly stops the clocks (NULL), so a value
	// found at a start is a crash's, and the time from it to the crash is
	// charged (ClockCharge).
	ClockSince *time.Time
	// Opening is the opening the game ended in, in words, "B20 Sicilian
	// Defense" (ECO code and name), or "" when it reached no named
	// position; written when the game ends, so that the home page's list
	// of finished games need not replay every game on every load. NULL
	// while the game is played, and in rows older than the column until a
	// list shows them (SaveOpenings). It is the name the table gave when it
	// was written: a later table renames no stored game.
	Opening *string `gorm:"size:200"`
	// Revision counts the record's commits since it was created: a save
	// is made from the revision it read and makes the next, and one made
	// from an older revision (another server committed first) is refused
	// with ErrConflict. Each kind's live host keeps it (live.Shared).
	Revision int64 `gorm:"not null;default:0"`
}

// MoveList returns the stored moves as a slice of UCI strings.
func (g *Game) MoveList() []string {
	if strings.TrimSpace(g.Moves) == "" {
		return nil
	}
	return strings.Fields(g.Moves)
}

// SetMoveList stores moves (UCI strings).
func (g *Game) SetMoveList(moves []string) { g.Moves = strings.Join(moves, " ") }

// Timed reports whether the game has a clock.
func (g *Game) Timed() bool { return g.ClockInitialMS > 0 }

// NewID returns a random game ID such as "g_3f9c0a1b2c3d4e5f6a7b".
func NewID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return "g_" + hex.EncodeToString(b[:])
}

// CreateGame inserts g, giving it an ID when it has none.
func (gm Games) CreateGame(g *Game) error {
	if g.ID == "" {
		g.ID = NewID()
	}
	if g.Owner == "" {
		return errors.New("store: game without owner")
	}
	if g.Status == StatusUnset {
		g.Status = StatusPlaying
	}
	if g.Result == "" {
		g.Result = "*"
	}
	if g.WatchToken == nil {
		// Made now so that opening the game page never writes; older
		// rows get theirs on first use (EnsureWatchToken).
		tok := NewWatchToken()
		g.WatchToken = &tok
	}
	if err := gm.s.db.Create(g).Error; err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	return nil
}

// mutableColumns are the columns a game changes after creation; the rest
// (owner, variant, start, colours, level, clock settings) are fixed, and
// leaving them out keeps the per-move UPDATE small and its indexes untouched.
var mutableColumns = []string{"moves", "white_ms", "black_ms", "status", "result", "reason", "updated_at", "finished_at", "experience_notes", "opening", "clock_since"}

// SaveGame writes the changing fields of g (which must exist): moves,
// remaining times, status, result, reason, timestamps, experience notes
// and opening. A game's host commits it before telling any browser about a
// change.
func (gm Games) SaveGame(g *Game) error {
	g.UpdatedAt = gm.s.now()
	return saveRevised(gm.s, "game", g.ID, g, mutableColumns)
}

// GetGame loads a game by ID.
func (gm Games) GetGame(id string) (*Game, error) { return getRow[Game](gm.s.rd, "game", id) }

// GetOwnedGame loads a game only if it belongs to owner; otherwise it
// reports ErrNotFound, so that callers cannot tell someone else's game from
// a missing one.
func (gm Games) GetOwnedGame(id, owner string) (*Game, error) {
	return getOwnedRow[Game](gm.s.rd, "game", id, owner)
}

// LatestUnfinished returns the owner's most recently updated game still
// being played, or ErrNotFound.
func (gm Games) LatestUnfinished(owner string) (*Game, error) {
	var g Game
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusPlaying).
		Order("updated_at DESC").Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: latest unfinished: %w", err)
	}
	return &g, nil
}

// FinishedGames returns up to limit of the owner's finished games, newest first.
func (gm Games) FinishedGames(owner string, limit int) ([]Game, error) {
	var gs []Game
	// NULLS LAST, as SQLite orders them by itself (PostgreSQL puts them
	// first): an old row without its finishing time.
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, StatusOver).
		Order("finished_at DESC NULLS LAST").Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, fmt.Errorf("store: finished games: %w", err)
	}
	return gs, nil
}

// GameRevision reads the revision game id is committed at: a server
// whose copy is older reads the game again (live.Shared).
func (gm Games) GameRevision(id string) (int64, error) { return revisionOf[Game](gm.s.rd, "game", id) }
