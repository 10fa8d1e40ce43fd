package store

import (
	"database/sql/driver"
	"fmt"

	"knightwatch/game"
	"knightwatch/recon"
)

// The stored domain values. Each is a type of its own rather than a display
// string: its text form (MarshalText) is exactly what the column has always
// held, so old databases load unchanged, and reading text that is none of
// its values (UnmarshalText, Scan) is an error instead of a silent guess.
// The columns stay text: gorm takes a column's type from the Value of the
// field's zero value (StatusUnset, whose Value is an error, says so with
// GormDataType instead), which also lets the `default:''` tags parse.
// TestSchemaUnchanged holds the schema to what it was with plain strings.

// Status is where a game is in its life.
type Status uint8

// The statuses. The zero value, StatusUnset, is never stored: Create*
// replaces it with the kind of game's first status, and saving it is an
// error.
const (
	StatusUnset Status = iota
	// StatusPlaying is a game under way.
	StatusPlaying
	// StatusOver is a finished game (result and reason set).
	StatusOver
	// StatusWaiting is an API game whose players have not both said they
	// are ready; its clocks have not started.
	StatusWaiting
	// StatusAborted is an API game that never started: a player did not
	// accept or did not say it was ready in time. Nobody won or lost.
	StatusAborted
	// StatusDeleted is a game against a bot that its owner deleted while
	// it was unfinished: kept (a soft delete) so that a tab or a bookmark
	// that comes back to it learns it was deleted instead of finding
	// nothing, but listed nowhere and never played again.
	StatusDeleted
)

var statusNames = [...]string{StatusUnset: "", StatusPlaying: "playing", StatusOver: "over", StatusWaiting: "waiting", StatusAborted: "aborted", StatusDeleted: "deleted"}

// String returns the stored text ("playing", ...), "" for StatusUnset.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// MarshalText returns the stored text; StatusUnset and unknown values are errors.
func (s Status) MarshalText() ([]byte, error) {
	if s == StatusUnset || int(s) >= len(statusNames) {
		return nil, fmt.Errorf("store: game status %d has no stored form", int(s))
	}
	return []byte(statusNames[s]), nil
}

// UnmarshalText reads a stored status; any other text is an error.
func (s *Status) UnmarshalText(b []byte) error {
	for i := StatusPlaying; int(i) < len(statusNames); i++ {
		if statusNames[i] == string(b) {
			*s = i
			return nil
		}
	}
	return fmt.Errorf("store: unknown game status %q", b)
}

// Value implements driver.Valuer.
func (s Status) Value() (driver.Value, error) { return textValue(s) }

// Scan implements sql.Scanner.
func (s *Status) Scan(src any) error { return scanText(s, src) }

// GormDataType makes the column text.
func (Status) GormDataType() string { return "string" }

// Color is the person's side in a game against a bot, stored as "white"
// or "black". (The stored types that carry a game or recon value are
// structs embedding it: gorm hands a column's default to a field through
// sql.Scanner only for struct kinds.)
type Color struct{ game.Color }

// ColorOf returns c as a stored colour.
func ColorOf(c game.Color) Color { return Color{c} }

// The two stored colours.
var (
	White = Color{game.White}
	Black = Color{game.Black}
)

// String returns "white" or "black" (or "color(n)" for an invalid value).
func (c Color) String() string {
	if c == White || c == Black {
		return c.Color.String()
	}
	return fmt.Sprintf("color(%d)", int(c.Color))
}

// MarshalText returns "white" or "black".
func (c Color) MarshalText() ([]byte, error) {
	if c != White && c != Black {
		return nil, fmt.Errorf("store: invalid colour %d", int(c.Color))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads "white" or "black"; any other text is an error.
func (c *Color) UnmarshalText(b []byte) error {
	switch string(b) {
	case "white":
		*c = White
	case "black":
		*c = Black
	default:
		return fmt.Errorf("store: unknown colour %q", b)
	}
	return nil
}

// Value implements driver.Valuer.
func (c Color) Value() (driver.Value, error) { return textValue(c) }

// Scan implements sql.Scanner.
func (c *Color) Scan(src any) error { return scanText(c, src) }

// Termination is why a game against the engine ended, stored as
// game.Termination's name ("checkmate", "time forfeit", ...) and as ""
// while the game is not over (game.NotOver, the zero value).
type Termination struct{ game.Termination }

// TerminationOf returns t as a stored termination.
func TerminationOf(t game.Termination) Termination { return Termination{t} }

// String returns the stored text: "" for game.NotOver, else the name.
func (t Termination) String() string {
	if t.Termination == game.NotOver {
		return ""
	}
	return t.Termination.String()
}

// MarshalText returns the stored text; an unknown value is an error.
func (t Termination) MarshalText() ([]byte, error) {
	if t.Termination > game.Adjudication {
		return nil, fmt.Errorf("store: invalid termination %d", int(t.Termination))
	}
	return []byte(t.String()), nil
}

// UnmarshalText reads a stored termination; any other text is an error.
func (t *Termination) UnmarshalText(b []byte) error {
	for v := game.NotOver; v <= game.Adjudication; v++ {
		if (Termination{v}).String() == string(b) {
			*t = Termination{v}
			return nil
		}
	}
	return fmt.Errorf("store: unknown termination %q", b)
}

// Value implements driver.Valuer.
func (t Termination) Value() (driver.Value, error) { return textValue(t) }

// Scan implements sql.Scanner.
func (t *Termination) Scan(src any) error { return scanText(t, src) }

// WinReason is why a Reconnaissance Chess game ended, stored as the
// reference's name ("KING_CAPTURE", ...) and as "" while the game is not
// over or when it was aborted (recon.NoReason, the zero value).
type WinReason struct{ recon.WinReason }

// WinReasonOf returns r as a stored win reason.
func WinReasonOf(r recon.WinReason) WinReason { return WinReason{r} }

// String returns the stored text: "" for recon.NoReason, else the reference's name.
func (r WinReason) String() string {
	if r.WinReason == recon.NoReason {
		return ""
	}
	return r.WinReason.String()
}

// MarshalText returns the stored text; an unknown value is an error.
func (r WinReason) MarshalText() ([]byte, error) {
	if r.WinReason == recon.NoReason {
		return []byte{}, nil
	}
	if _, err := recon.ParseWinReason(r.WinReason.String()); err != nil {
		return nil, fmt.Errorf("store: invalid win reason %d", int(r.WinReason))
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads a stored win reason; any other text is an error.
func (r *WinReason) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*r = WinReason{}
		return nil
	}
	v, err := recon.ParseWinReason(string(b))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	*r = WinReason{v}
	return nil
}

// Value implements driver.Valuer.
func (r WinReason) Value() (driver.Value, error) { return textValue(r) }

// Scan implements sql.Scanner.
func (r *WinReason) Scan(src any) error { return scanText(r, src) }

// textValue is the driver value of v: its text as a string.
func textValue(v interface{ MarshalText() ([]byte, error) }) (driver.Value, error) {
	b, err := v.MarshalText()
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// scanText reads a text column into v.
func scanText(v interface{ UnmarshalText([]byte) error }, src any) error {
	switch s := src.(type) {
	case string:
		return v.UnmarshalText([]byte(s))
	case []byte:
		return v.UnmarshalText(s)
	case nil:
		return v.UnmarshalText(nil)
	default:
		return fmt.Errorf("store: cannot read %T as %T", src, v)
	}
}
