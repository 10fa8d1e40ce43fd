package store

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// APIIDPrefix starts the key an API game has beside the browser's games
// (APIGameKey): in a server's registry of live games and on the change
// feed, where the browser's games go by their own IDs.
const APIIDPrefix = "api_"

// APIGameKey is the key of API game id beside the browser's games.
func APIGameKey(id int64) string { return APIIDPrefix + strconv.FormatInt(id, 10) }

// APIGame is one Reconnaissance Chess game of the HTTP API between two
// users (either may be one of Knightwatch's own bots). Its record is the
// reference's history JSON, as for ReconGame; IDs are integers because
// the API's paths and bodies carry them so.
type APIGame struct {
	ID               int64  `gorm:"primaryKey;autoIncrement"`
	WhiteID          int64  `gorm:"index;not null"`
	BlackID          int64  `gorm:"index;not null"`
	WhiteName        string `gorm:"size:40;not null"`
	BlackName        string `gorm:"size:40;not null"`
	WhiteVersion     int    `gorm:"not null;default:0"`
	BlackVersion     int    `gorm:"not null;default:0"`
	Ranked           bool   `gorm:"not null;default:false"`
	Rated            bool   `gorm:"not null;default:false"` // a ranked game's result applied to the ratings
	Seed             uint64 `gorm:"not null;default:0"`     // for built-in bots' random choices
	ClockInitialMS   int64  `gorm:"not null"`
	ClockIncrementMS int64  `gorm:"not null"`
	// WhiteMS and BlackMS are each side's time at the start of its
	// current or next turn as last committed, with the running turn's time
	// so far charged.
	WhiteMS int64 `gorm:"not null"`
	BlackMS int64 `gorm:"not null"`
	// ClockSince is as Game's: when the mover's clock started running
	// from WhiteMS/BlackMS (the last commit of a game in play), NULL
	// before the start, after the end and after a clean stop.
	ClockSince *time.Time
	// Revision counts the record's commits since it was created: a save
	// is made from the revision it read and makes the next, and one made
	// from an older revision (another server committed first) is refused
	// with ErrConflict. Each kind's live host keeps it (live.Shared).
	Revision int64 `gorm:"not null;default:0"`
	// TurnOpen is set while the mover has moved and not yet ended the
	// turn (the API's two calls): History has that move, and a server
	// reading the game (a restart, another server) leaves the turn open
	// (recon.RestoreOpenTurn).
	TurnOpen   bool   `gorm:"not null;default:false"`
	WhiteReady bool   `gorm:"not null;default:false"`
	BlackReady bool   `gorm:"not null;default:false"`
	History    string `gorm:"type:text;not null;default:''"`
	// Markers are the notes of players in the browser: a JSON object from
	// colour ("white", "black") to square name to piece letter.
	Markers    string    `gorm:"type:text;not null;default:'{}'"`
	Status     Status    `gorm:"index;size:16;not null"`
	Result     string    `gorm:"size:8;not null;default:'*'"`
	Reason     WinReason `gorm:"size:40;not null;default:''"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
}

// Invitation asks a user (To) to play the game its sender made; FromID
// is 0 for the server's ranked games.
type Invitation struct {
	ID        int64 `gorm:"primaryKey;autoIncrement"`
	FromID    int64 `gorm:"index;not null"`
	ToID      int64 `gorm:"index;not null"`
	GameID    int64 `gorm:"not null"`
	Accepted  bool  `gorm:"not null;default:false"`
	Finished  bool  `gorm:"not null;default:false"`
	CreatedAt time.Time
}

// ErrTooManyGames is returned by CreateAPIGameWithin when the user has
// as many unfinished games as allowed.
var ErrTooManyGames = errors.New("store: too many unfinished games")

// CreateAPIGame inserts g and the invitations to it (their GameID is
// set), all or none.
func (a API) CreateAPIGame(g *APIGame, invs ...*Invitation) error {
	return a.createAPIGame(nil, g, invs)
}

// CreateAPIGameWithin is CreateAPIGame for a game that user userID asks
// for, who may have at most max unfinished games: it counts them and
// inserts in one transaction, so that creations racing each other cannot
// all see room. When there is none it inserts nothing and returns
// ErrTooManyGames; open is the count it found.
func (a API) CreateAPIGameWithin(userID int64, max int, g *APIGame, invs ...*Invitation) (open int, err error) {
	err = a.createAPIGame(func(tx *gorm.DB) error {
		var n int64
		err := tx.Model(&APIGame{}).Where("(white_id = ? OR black_id = ?) AND status IN ?", userID, userID, []Status{StatusWaiting, StatusPlaying}).Count(&n).Error
		if err != nil {
			return err
		}
		open = int(n)
		if open >= max {
			return ErrTooManyGames
		}
		return nil
	}, g, invs)
	if errors.Is(err, ErrTooManyGames) {
		return open, ErrTooManyGames
	}
	return open, err
}

// createAPIGame inserts g and invs in one transaction, after check (when
// not nil) has passed inside it.
func (a API) createAPIGame(check func(tx *gorm.DB) error, g *APIGame, invs []*Invitation) error {
	if err := checkSeed(g.Seed); err != nil {
		return err
	}
	if g.Status == StatusUnset {
		g.Status = StatusWaiting
	}
	if g.Result == "" {
		g.Result = "*"
	}
	if g.Markers == "" {
		g.Markers = "{}"
	}
	err := a.s.transaction(func(tx *gorm.DB) error {
		if check != nil {
			if err := check(tx); err != nil {
				return err
			}
		}
		if err := tx.Create(g).Error; err != nil {
			return err
		}
		for _, inv := range invs {
			inv.GameID = g.ID
			if err := tx.Create(inv).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrTooManyGames) {
		return err
	}
	if err != nil {
		return fmt.Errorf("store: create api game: %w", err)
	}
	return nil
}

var apiGameMutableColumns = []string{"white_ms", "black_ms", "clock_since", "white_ready", "black_ready", "history", "turn_open", "markers", "status", "result", "reason", "updated_at", "finished_at"}

// SaveAPIGame writes the changing fields of g (which must exist).
func (a API) SaveAPIGame(g *APIGame) error {
	g.UpdatedAt = a.s.now()
	return saveRevised(a.s, "api game", g.ID, g, apiGameMutableColumns)
}

// GetAPIGame loads a game; ErrNotFound when none.
func (a API) GetAPIGame(id int64) (*APIGame, error) { return getRow[APIGame](a.s.rd, "api game", id) }

// UnfinishedAPIGames returns every game not over, oldest first: what a
// starting server takes up again.
func (a API) UnfinishedAPIGames() ([]APIGame, error) {
	var gs []APIGame
	if err := a.s.rd.Where("status IN ?", []Status{StatusWaiting, StatusPlaying}).Order("id").Find(&gs).Error; err != nil {
		return nil, fmt.Errorf("store: unfinished api games: %w", err)
	}
	return gs, nil
}

// UserAPIGames returns up to limit of the user's games with status (any
// when StatusUnset), newest first.
func (a API) UserAPIGames(userID int64, status Status, limit int) ([]APIGame, error) {
	q := a.s.rd.Where("(white_id = ? OR black_id = ?)", userID, userID)
	if status != StatusUnset {
		q = q.Where("status = ?", status)
	}
	var gs []APIGame
	if err := q.Order("id DESC").Limit(limit).Find(&gs).Error; err != nil {
		return nil, fmt.Errorf("store: user api games: %w", err)
	}
	return gs, nil
}

// PendingInvitations returns the IDs of the invitations to the user not
// yet accepted, oldest first.
func (a API) PendingInvitations(toID int64) ([]int64, error) {
	ids := []int64{}
	err := a.s.rd.Model(&Invitation{}).Where("to_id = ? AND accepted = ?", toID, false).Order("id").Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: invitations: %w", err)
	}
	return ids, nil
}

// GetInvitation loads an invitation; ErrNotFound when none.
func (a API) GetInvitation(id int64) (*Invitation, error) {
	var inv Invitation
	err := a.s.rd.Where("id = ?", id).Take(&inv).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: invitation %d: %w", id, err)
	}
	return &inv, nil
}

// SetInvitation marks the invitation accepted or finished; only its
// recipient may, which the caller has checked.
func (a API) SetInvitation(inv *Invitation) error {
	res := a.s.db.Model(&Invitation{}).Where("id = ?", inv.ID).Select("accepted", "finished").Updates(inv)
	if res.Error != nil {
		return fmt.Errorf("store: invitation %d: %w", inv.ID, res.Error)
	}
	return nil
}

// FinishGameInvitations marks the invitations to game gameID sent to user
// toID accepted and finished: what a built-in bot does when its game ends.
func (a API) FinishGameInvitations(gameID, toID int64) error {
	err := a.s.db.Model(&Invitation{}).Where("game_id = ? AND to_id = ?", gameID, toID).
		Updates(map[string]any{"accepted": true, "finished": true}).Error
	if err != nil {
		return fmt.Errorf("store: finish invitations of game %d: %w", gameID, err)
	}
	return nil
}

// OpenAPIGames counts the user's games not over.
func (a API) OpenAPIGames(userID int64) (int, error) {
	var n int64
	err := a.s.rd.Model(&APIGame{}).Where("(white_id = ? OR black_id = ?) AND status IN ?", userID, userID, []Status{StatusWaiting, StatusPlaying}).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("store: open api games: %w", err)
	}
	return int(n), nil
}

// RecentAPIGames returns up to limit games with status, newest first.
func (a API) RecentAPIGames(status Status, limit int) ([]APIGame, error) {
	var gs []APIGame
	err := a.s.rd.Where("status = ?", status).Order("id DESC").Limit(limit).
		Omit("history").Find(&gs).Error
	if err != nil {
		return nil, fmt.Errorf("store: recent api games: %w", err)
	}
	return gs, nil
}

// CloseGameInvitations marks every invitation to a game accepted and
// finished, so that no one is asked to play it any more.
func (a API) CloseGameInvitations(gameID int64) error {
	err := a.s.db.Model(&Invitation{}).Where("game_id = ?", gameID).
		Updates(map[string]any{"accepted": true, "finished": true}).Error
	if err != nil {
		return fmt.Errorf("store: close invitations of game %d: %w", gameID, err)
	}
	return nil
}

// APIGameRevision reads the revision API game id is committed at.
func (a API) APIGameRevision(id int64) (int64, error) {
	return revisionOf[APIGame](a.s.rd, "api game", id)
}

// QuietAPIGames returns the API games in play whose record has not changed
// since t: on a site of several servers, those a server that stopped may
// have held alone, for another to take up.
func (a API) QuietAPIGames(t time.Time) ([]int64, error) {
	var ids []int64
	err := a.s.rd.Model(&APIGame{}).Where("status = ? AND updated_at < ?", StatusPlaying, t).Order("id").Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: quiet api games: %w", err)
	}
	return ids, nil
}
