package play

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxMessageBytes is the largest browser message the server reads; bigger
// frames get a too_large error and are discarded (web/PROTOCOL.md).
const MaxMessageBytes = 4096

// Error codes sent in error messages (web/PROTOCOL.md lists them).
const (
	CodeBadJSON     = "bad_json"
	CodeUnknownType = "unknown_type"
	CodeBadField    = "bad_field"
	CodeTooLarge    = "too_large"
	CodeIllegalMove = "illegal_move"
	CodeNotYourTurn = "not_your_turn"
	CodeStale       = "stale"
	CodeGameOver    = "game_over"
	CodeNoTakeback  = "no_takeback"
	CodeServer      = "server"
)

// Message types of the chess game's WebSocket protocol: the "type" field
// of every JSON frame (web/PROTOCOL.md, "WebSocket messages"; static/js sends
// and reads the same strings).
const (
	// Browser → server.
	MsgSync     = "sync"     // send me the full state
	MsgMove     = "move"     // play my move (fields move and ply)
	MsgResign   = "resign"   // I resign (ply)
	MsgDraw     = "draw"     // I offer a draw (ply)
	MsgTakeback = "takeback" // take back my last move and the engine's reply (ply)
	MsgRematch  = "rematch"  // a new game with colours swapped; answered by MsgRedirect

	// Server → browser. Reconnaissance Chess games send MsgError,
	// MsgNotice and MsgRedirect as well.
	MsgState    = "state"    // the whole game (StateMessage)
	MsgError    = "error"    // a refusal: code and message (ProtoError)
	MsgNotice   = "notice"   // something to show the person briefly
	MsgRedirect = "redirect" // go to another page (after a rematch)
	// MsgAnalysis is the review of a finished game: queued, running (with
	// its progress) and done (web's AnalysisMessage). Sent to the game's
	// players and spectators alike.
	MsgAnalysis = "analysis"
)

// Message is a decoded browser → server message.
type Message struct {
	Type string // MsgSync, MsgMove, MsgResign, MsgDraw, MsgTakeback or MsgRematch
	Move string // for MsgMove: UCI or SAN
	Ply  int    // for MsgMove, MsgResign, MsgDraw, MsgTakeback: the ply the sender had seen
}

// ProtoError is a refusal sent back to the browser as an error message.
type ProtoError struct {
	Code    string
	Message string
}

// Error implements error.
func (e *ProtoError) Error() string { return e.Code + ": " + e.Message }

// Errorf returns the refusal with code and the message format says.
func Errorf(code, format string, args ...any) *ProtoError {
	return &ProtoError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// wireMessage is the JSON shape of browser messages. Pointers tell a
// missing field from a zero one.
type wireMessage struct {
	Type *string          `json:"type"`
	Move *string          `json:"move"`
	Ply  *json.RawMessage `json:"ply"`
}

// needsPly lists the message types whose ply guards against stale tabs.
var needsPly = map[string]bool{MsgMove: true, MsgResign: true, MsgDraw: true, MsgTakeback: true}

var knownTypes = map[string]bool{MsgSync: true, MsgMove: true, MsgResign: true, MsgDraw: true, MsgTakeback: true, MsgRematch: true}

// DecodeMessage parses one browser message. Every failure is a ProtoError
// with the code the protocol prescribes; it never panics on any input.
func DecodeMessage(data []byte) (Message, *ProtoError) {
	if len(data) > MaxMessageBytes {
		return Message{}, Errorf(CodeTooLarge, "message of %d bytes exceeds %d", len(data), MaxMessageBytes)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return Message{}, Errorf(CodeBadJSON, "message is not a JSON object")
	}
	var w wireMessage
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&w); err != nil {
		return Message{}, Errorf(CodeBadJSON, "invalid JSON: %v", err)
	}
	if dec.More() {
		return Message{}, Errorf(CodeBadJSON, "invalid JSON: data after the object")
	}
	if w.Type == nil {
		return Message{}, Errorf(CodeBadField, "missing field type")
	}
	m := Message{Type: *w.Type}
	if !knownTypes[m.Type] {
		return Message{}, Errorf(CodeUnknownType, "unknown message type %.40q", m.Type)
	}
	if needsPly[m.Type] {
		if w.Ply == nil {
			return Message{}, Errorf(CodeBadField, "missing field ply")
		}
		var ply int
		if err := json.Unmarshal(*w.Ply, &ply); err != nil || ply < 0 || ply > 100000 {
			return Message{}, Errorf(CodeBadField, "ply must be a non-negative integer")
		}
		m.Ply = ply
	}
	if m.Type == MsgMove {
		if w.Move == nil || *w.Move == "" {
			return Message{}, Errorf(CodeBadField, "missing field move")
		}
		if len(*w.Move) > 16 {
			return Message{}, Errorf(CodeBadField, "move is too long")
		}
		m.Move = *w.Move
	}
	return m, nil
}

// errorMessage is the server → browser error message.
type errorMessage struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// EncodeError encodes refusal e as an error message.
func EncodeError(e *ProtoError) []byte {
	b, _ := json.Marshal(errorMessage{Type: MsgError, Code: e.Code, Message: e.Message})
	return b
}

// noticeMessage is something to show the person briefly.
type noticeMessage struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// encodeNotice encodes a notice with text.
func encodeNotice(text string) []byte {
	b, _ := json.Marshal(noticeMessage{Type: MsgNotice, Text: text})
	return b
}

// redirectMessage sends the browser to another page (after a rematch).
type redirectMessage struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// encodeRedirect encodes a redirect to url.
func encodeRedirect(url string) []byte {
	b, _ := json.Marshal(redirectMessage{Type: MsgRedirect, URL: url})
	return b
}

// StateMessage is the whole game as sent after every change (web/PROTOCOL.md).
type StateMessage struct {
	Type      string        `json:"type"` // MsgState
	ID        string        `json:"id"`
	Variant   string        `json:"variant"`
	StartFEN  string        `json:"startFen"`
	FEN       string        `json:"fen"`
	Ply       int           `json:"ply"`
	Turn      string        `json:"turn"`
	Human     string        `json:"human"`
	Level     int           `json:"level"`
	LevelName string        `json:"levelName"`
	Moves     []MoveView    `json:"moves"`
	LastMove  *LastMoveView `json:"lastMove"`
	Check     string        `json:"check"`
	Legal     []LegalView   `json:"legal"`
	Status    string        `json:"status"`
	Result    string        `json:"result"`
	Reason    string        `json:"reason"`
	Captured  CapturedView  `json:"captured"`
	Material  int           `json:"material"`
	Clock     *ClockView    `json:"clock"`
	Thinking  bool          `json:"thinking"`
	// Openings lists the game's named positions (OpeningView, openings.go).
	Openings []OpeningView `json:"openings"`
	// Saving is set while the server cannot save the engine's move or a
	// flag fall and keeps trying (live.Host); the clock is stopped.
	Saving bool `json:"saving,omitempty"`
}

// MoveView is one played move in the state's move list.
type MoveView struct {
	SAN string `json:"san"`
	UCI string `json:"uci"`
	FEN string `json:"fen"`
	// Experience, on an engine's move that came from experience, says so
	// in a sentence ("Chosen from experience: 3...Nf6 lost 2 of 2 earlier
	// games here"); absent otherwise.
	Experience string `json:"experience,omitempty"`
}

// LastMoveView names the squares of the last move, for highlighting.
type LastMoveView struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// LegalView is one legal move of the person, as the board offers it.
type LegalView struct {
	From      string `json:"from"`
	To        string `json:"to"`
	UCI       string `json:"uci"`
	Promotion string `json:"promotion"`
}

// CapturedView lists the letters of the pieces each side has taken.
type CapturedView struct {
	White []string `json:"white"`
	Black []string `json:"black"`
}

// ClockView is the clock state; times are milliseconds.
type ClockView struct {
	White     int64  `json:"white"`
	Black     int64  `json:"black"`
	Running   string `json:"running"`
	Initial   int64  `json:"initial"`
	Increment int64  `json:"increment"`
}
