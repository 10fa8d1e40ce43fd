package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"time"
)

// ReconGame is one Reconnaissance Chess game against a bot as it is stored:
// its record so far in the reference's history JSON (which rebuilds the
// arbiter exactly, a turn cut after its sense included), the clocks and the
// person's own markers.
type ReconGame struct {
	ID       string `gorm:"primaryKey;size:40"`
	Owner    string `gorm:"index:idx_recon_owner_status;size:64;not null"`
	Human    Color  `gorm:"size:8;not null"`  // the person's colour
	Opponent string `gorm:"size:80;not null"` // the bot's spec, such as "knightwatch:level=2"
	// Seed makes the bot's random choices reproducible across restarts.
	Seed uint64 `gorm:"not null;default:0"`
	// ClockInitialMS and ClockIncrementMS are zero for an untimed game.
	ClockInitialMS   int64 `gorm:"not null;default:0"`
	ClockIncrementMS int64 `gorm:"not null;default:0"`
	// WhiteMS and BlackMS are each side's time at the start of its
	// current or next turn, as last committed; time while nobody has the
	// game open is never charged.
	WhiteMS int64 `gorm:"not null;default:0"`
	BlackMS int64 `gorm:"not null;default:0"`
	// History is the game so far as the reference's GameHistory JSON.
	History string `gorm:"type:text;not null;default:''"`
	// Markers is the person's notes on the board: a JSON object from
	// square name to piece letter.
	Markers string `gorm:"type:text;not null;default:'{}'"`
	// ClockSince is as Game's: when the mover's clock started running
	// from WhiteMS/BlackMS, NULL while it stands still.
	ClockSince *time.Time
	// Revision counts the record's commits since it was created: a save
	// is made from the revision it read and makes the next, and one made
	// from an older revision (another server committed first) is refused
	// with ErrConflict. Each kind's live host keeps it (live.Shared).
	Revision   int64     `gorm:"not null;default:0"`
	Status     Status    `gorm:"index:idx_recon_owner_status;size:16;not null"`
	Result     string    `gorm:"size:8;not null;default:'*'"`
	Reason     WinReason `gorm:"size:40;not null;default:''"` // stored as the reference's name, e.g. KING_CAPTURE
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
}

// Timed reports whether the game has a clock.
func (g *ReconGame) Timed() bool { return g.ClockInitialMS > 0 }

// ReconIDPrefix starts every Reconnaissance Chess game's ID, so that a URL
// tells which kind of game it names.
const ReconIDPrefix = "r_"

// NewReconID returns a random Reconnaissance Chess game ID.
func NewReconID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return ReconIDPrefix + hex.EncodeToString(b[:])
}

// CreateReconGame inserts g, giving it an ID when it has none.
func (gm Games) CreateReconGame(g *ReconGame) error {
	if g.ID == "" {
		g.ID = NewReconID()
	}
	if g.Owner == "" {
		return errors.New("store: game without owner")
	}
	if err := checkSeed(g.Seed); err != nil {
		return err
	}
	if g.Status == StatusUnset {
		g.Status = StatusPlaying
	}
	if g.Result == "" {
		g.Result = "*"
	}
	if g.Markers == "" {
		g.Markers = "{}"
	}
	if err := gm.s.db.Create(g).Error; err != nil {
		return fmt.Errorf("store: create recon game: %w", err)
	}
	return nil
}

// checkSeed refuses a bot seed that a signed 64-bit column cannot hold
// (neither database has an unsigned one): play.NewSeed's fit.
func checkSeed(seed uint64) error {
	if seed > math.MaxInt64 {
		return fmt.Errorf("store: bot seed %d is over 2^63-1, the most the database holds", seed)
	}
	return nil
}

var reconMutableColumns = []string{"white_ms", "black_ms", "history", "markers", "status", "result", "reason", "updated_at", "finished_at", "clock_since"}

// SaveReconGame writes the changing fields of g (which must exist).
func (gm Games) SaveReconGame(g *ReconGame) error {
	g.UpdatedAt = gm.s.now()
	return saveRevised(gm.s, "recon game", g.ID, g, reconMutableColumns)
}

// GetReconGame loads a game by ID.
func (gm Games) GetReconGame(id string) (*ReconGame, error) {
	return getRow[ReconGame](gm.s.rd, "recon game", id)
}

// GetOwnedReconGame loads a game only if it belongs to owner; otherwise
// ErrNotFound, as for GetOwnedGame.
func (gm Games) GetOwnedReconGame(id, owner string) (*ReconGame, error) {
	return getOwnedRow[ReconGame](gm.s.rd, "recon game", id, owner)
}

// ReconGames returns up to limit of the owner's games with status, most
// recently updated first.
func (gm Games) ReconGames(owner string, status Status, limit int) ([]ReconGame, error) {
	var gs []ReconGame
	err := gm.s.rd.Where("owner = ? AND status = ?", owner, status).
		Order("updated_at DESC").Limit(limit).Find(&gs).Error
	if err != nil {
		return nil, fmt.Errorf("store: recon games: %w", err)
	}
	return gs, nil
}

// ReconGameRevision reads the revision Reconnaissance Chess game id is
// committed at.
func (gm Games) ReconGameRevision(id string) (int64, error) {
	return revisionOf[ReconGame](gm.s.rd, "recon game", id)
}
