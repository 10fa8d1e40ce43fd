package store

import (
	"errors"
	"fmt"
	"math"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Ratings: Elo per user and bot version. Every version starts at
// StartRating; each ranked game moves both players by EloK times the
// difference between the score and the expected score.
const (
	StartRating = 1200.0
	EloK        = 32.0
)

// Rating is one bot version's Elo rating and record in ranked games.
type Rating struct {
	UserID    int64 `gorm:"primaryKey;autoIncrement:false"`
	Version   int   `gorm:"primaryKey;autoIncrement:false"`
	Elo       float64
	Games     int
	Wins      int
	Losses    int
	Draws     int
	UpdatedAt time.Time
}

// ExpectedScore is the Elo expectation of a player rated a against one
// rated b.
func ExpectedScore(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// RateGame applies a finished ranked game to both players' ratings, once:
// the game is marked rated in the same transaction, so a second call (a
// retry after a crash) changes nothing.
func (a API) RateGame(gameID int64) error {
	err := a.s.transaction(func(tx *gorm.DB) error {
		var g APIGame
		if err := tx.Where("id = ?", gameID).Take(&g).Error; err != nil {
			return err
		}
		if !g.Ranked || g.Rated || g.Status != StatusOver {
			return nil
		}
		var score float64 // White's
		switch g.Result {
		case "1-0":
			score = 1
		case "0-1":
			score = 0
		case "1/2-1/2":
			score = 0.5
		default:
			return fmt.Errorf("result %q", g.Result)
		}
		w, err := ratingTx(tx, g.WhiteID, g.WhiteVersion)
		if err != nil {
			return err
		}
		b, err := ratingTx(tx, g.BlackID, g.BlackVersion)
		if err != nil {
			return err
		}
		ew := ExpectedScore(w.Elo, b.Elo)
		w.Elo += EloK * (score - ew)
		b.Elo += EloK * ((1 - score) - (1 - ew))
		for _, r := range []struct {
			r     *Rating
			score float64
		}{{w, score}, {b, 1 - score}} {
			r.r.Games++
			switch r.score {
			case 1:
				r.r.Wins++
			case 0:
				r.r.Losses++
			default:
				r.r.Draws++
			}
			// An upsert: Save would take version 0 for a missing key.
			if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(r.r).Error; err != nil {
				return err
			}
		}
		return tx.Model(&APIGame{}).Where("id = ?", g.ID).Update("rated", true).Error
	})
	if err != nil {
		return fmt.Errorf("store: rate game %d: %w", gameID, err)
	}
	return nil
}

func ratingTx(tx *gorm.DB, userID int64, version int) (*Rating, error) {
	r := Rating{UserID: userID, Version: version}
	err := tx.Where("user_id = ? AND version = ?", userID, version).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		r.Elo = StartRating
		return &r, nil
	}
	return &r, err
}

// LeaderRow is one line of the leaderboard.
type LeaderRow struct {
	Name string
	Rating
}

// Leaderboard returns every rated version, best first.
func (a API) Leaderboard(limit int) ([]LeaderRow, error) {
	var rows []LeaderRow
	err := a.s.rd.Table("ratings").Select("users.name AS name, ratings.*").
		Joins("JOIN users ON users.id = ratings.user_id").
		Order("ratings.elo DESC").Limit(limit).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("store: leaderboard: %w", err)
	}
	return rows, nil
}

// UnratedGames returns the IDs of finished ranked games not yet rated.
func (a API) UnratedGames() ([]int64, error) {
	var ids []int64
	err := a.s.rd.Model(&APIGame{}).Where("ranked = ? AND rated = ? AND status = ?", true, false, StatusOver).Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: unrated games: %w", err)
	}
	return ids, nil
}

// RankedCandidates returns the users with ranked play on, seen since t,
// with their unfinished games counted.
func (a API) RankedCandidates(seenSince time.Time) ([]User, map[int64]int, error) {
	var us []User
	if err := a.s.rd.Where("ranked = ? AND builtin = '' AND last_seen >= ?", true, seenSince).Find(&us).Error; err != nil {
		return nil, nil, fmt.Errorf("store: ranked users: %w", err)
	}
	open := map[int64]int{}
	for _, u := range us {
		n, err := a.OpenAPIGames(u.ID)
		if err != nil {
			return nil, nil, err
		}
		open[u.ID] = n
	}
	return us, open, nil
}

// StaleWaitingGames returns the ranked (or unranked) games created before
// t that have not started.
func (a API) StaleWaitingGames(createdBefore time.Time, ranked bool) ([]int64, error) {
	var ids []int64
	err := a.s.rd.Model(&APIGame{}).Where("status = ? AND ranked = ? AND created_at < ?", StatusWaiting, ranked, createdBefore).Pluck("id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("store: stale games: %w", err)
	}
	return ids, nil
}
