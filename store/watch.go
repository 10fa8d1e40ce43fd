package store

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// WatchTokenBytes is the randomness of a watch token: 24 bytes (192 bits),
// 32 characters of URL-safe base64.
const WatchTokenBytes = 24

// NewWatchToken returns a fresh random watch token (URL-safe, no padding).
func NewWatchToken() string {
	var b [WatchTokenBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// EnsureWatchToken returns game id's watch token, making and storing one
// the first time. Two callers racing both get the one that was stored.
func (gm Games) EnsureWatchToken(id string) (string, error) {
	tok := NewWatchToken()
	res := gm.s.db.Model(&Game{}).Where("id = ? AND watch_token IS NULL", id).Update("watch_token", tok)
	if res.Error != nil {
		return "", fmt.Errorf("store: watch token of %s: %w", id, res.Error)
	}
	if res.RowsAffected == 1 {
		return tok, nil
	}
	var g Game
	err := gm.s.db.Select("id", "watch_token").Where("id = ?", id).Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: watch token of %s: %w", id, err)
	}
	if g.WatchToken == nil {
		return "", fmt.Errorf("store: watch token of %s: not stored", id)
	}
	return *g.WatchToken, nil
}

// GameByWatchToken loads the game whose watch token is tok, or
// ErrNotFound (also for an empty or malformed token).
func (gm Games) GameByWatchToken(tok string) (*Game, error) {
	if len(tok) != base64.RawURLEncoding.EncodedLen(WatchTokenBytes) {
		return nil, ErrNotFound
	}
	var g Game
	err := gm.s.rd.Where("watch_token = ?", tok).Take(&g).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("store: game by watch token: %w", err)
	}
	return &g, nil
}
