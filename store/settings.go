package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// Setting is a key/value pair of server-wide state, such as the generated
// session secret.
type Setting struct {
	Key   string `gorm:"primaryKey;size:64"`
	Value string `gorm:"type:text;not null"`
}

// getSetting returns a setting's value, or ErrNotFound.
func (s *Store) getSetting(key string) (string, error) {
	var st Setting
	err := s.rd.Where("key = ?", key).Take(&st).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", ErrNotFound
	}
	if err != nil {
		return "", fmt.Errorf("store: get setting %s: %w", key, err)
	}
	return st.Value, nil
}

// SetSetting stores a setting, replacing any earlier value.
func (s *Store) SetSetting(key, value string) error {
	err := s.db.Save(&Setting{Key: key, Value: value}).Error
	if err != nil {
		return fmt.Errorf("store: set setting %s: %w", key, err)
	}
	return nil
}

// Secret returns the server's session secret, generating and storing a
// random one on first use so that restarts keep everyone's sessions.
func (s *Store) Secret() ([]byte, error) {
	v, err := s.getSetting("session_secret")
	if err == nil {
		b, derr := hex.DecodeString(v)
		if derr == nil && len(b) >= 32 {
			return b, nil
		}
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	b := make([]byte, 64)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("store: random secret: %w", err)
	}
	// Insert only if still absent, so that two servers starting on the
	// same file agree on one secret; then read back whatever won.
	err = s.db.Exec("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING",
		"session_secret", hex.EncodeToString(b)).Error
	if err != nil {
		return nil, fmt.Errorf("store: save secret: %w", err)
	}
	v, err = s.getSetting("session_secret")
	if err != nil {
		return nil, err
	}
	b, err = hex.DecodeString(v)
	if err != nil || len(b) < 32 {
		// A corrupt stored value: replace it rather than run without sessions.
		b = make([]byte, 64)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("store: random secret: %w", err)
		}
		if err := s.SetSetting("session_secret", hex.EncodeToString(b)); err != nil {
			return nil, err
		}
	}
	return b, nil
}
