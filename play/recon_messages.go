package play

import (
	"bytes"
	"encoding/json"

	"knightwatch/game"
	"knightwatch/recon"
)

// Error codes of the Reconnaissance Chess messages, beyond the standard
// game's (web/PROTOCOL.md lists them).
const (
	CodeWrongPhase = "wrong_phase"
	CodeBadSquare  = "bad_square"
)

// Message types of Reconnaissance Chess's WebSocket protocol: the "type"
// field of every JSON frame (web/PROTOCOL.md, "Reconnaissance Chess"; static/js
// sends and reads the same strings). Refusals, notices and redirects are
// the chess game's MsgError, MsgNotice and MsgRedirect.
const (
	// Browser → server.
	ReconMsgSync    = "sync"    // send me the state
	ReconMsgSense   = "sense"   // sense around a square, or skip the sense (fields square and seq)
	ReconMsgMove    = "move"    // make a move action, or pass (move, seq)
	ReconMsgResign  = "resign"  // I resign
	ReconMsgMarker  = "marker"  // my note of an enemy piece on a square (square, piece)
	ReconMsgRematch = "rematch" // a new game against the same bot; answered by MsgRedirect

	// Server → browser.
	ReconMsgState = "recon_state" // what the person may know of the game (ReconState)
)

// ReconMessage is a decoded browser → server message of a Reconnaissance
// Chess game.
type ReconMessage struct {
	Type string // one of the browser → server ReconMsg types
	// Square is the square to sense (game.NoSquare: skip the sense) or the
	// marker's square.
	Square game.Square
	// Move is the requested move; game.NoMove passes.
	Move game.Move
	// Piece is the marker's piece (game.NoPiece clears the square).
	Piece game.Piece
	// Seq is the number of actions the sender had seen (senses and moves
	// of both players), for sense and move: a stale tab's message is
	// refused.
	Seq int
}

type reconWire struct {
	Type   *string          `json:"type"`
	Square *string          `json:"square"`
	Move   *string          `json:"move"`
	Piece  *string          `json:"piece"`
	Seq    *json.RawMessage `json:"seq"`
}

var reconTypes = map[string]bool{ReconMsgSync: true, ReconMsgSense: true, ReconMsgMove: true, ReconMsgResign: true, ReconMsgMarker: true, ReconMsgRematch: true}

// reconNeedsSeq lists the message types a stale tab must not send: a sense
// or a move meant for an earlier moment. Resigning means the same at any
// moment, so it needs no seq (and a bot's reply arriving meanwhile does not
// undo it).
var reconNeedsSeq = map[string]bool{ReconMsgSense: true, ReconMsgMove: true}

// ReconNeedsSeq reports whether messages of type t carry a seq, which a
// stale tab's does not match (reconNeedsSeq).
func ReconNeedsSeq(t string) bool { return reconNeedsSeq[t] }

// DecodeReconMessage parses one browser message of a Reconnaissance Chess
// game. Every failure is a ProtoError; it never panics on any input.
func DecodeReconMessage(data []byte) (ReconMessage, *ProtoError) {
	if len(data) > MaxMessageBytes {
		return ReconMessage{}, Errorf(CodeTooLarge, "message of %d bytes exceeds %d", len(data), MaxMessageBytes)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return ReconMessage{}, Errorf(CodeBadJSON, "message is not a JSON object")
	}
	var w reconWire
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&w); err != nil {
		return ReconMessage{}, Errorf(CodeBadJSON, "invalid JSON: %v", err)
	}
	if dec.More() {
		return ReconMessage{}, Errorf(CodeBadJSON, "invalid JSON: data after the object")
	}
	if w.Type == nil {
		return ReconMessage{}, Errorf(CodeBadField, "missing field type")
	}
	m := ReconMessage{Type: *w.Type, Square: game.NoSquare}
	if !reconTypes[m.Type] {
		return ReconMessage{}, Errorf(CodeUnknownType, "unknown message type %.40q", m.Type)
	}
	if reconNeedsSeq[m.Type] {
		if w.Seq == nil {
			return ReconMessage{}, Errorf(CodeBadField, "missing field seq")
		}
		if err := json.Unmarshal(*w.Seq, &m.Seq); err != nil || m.Seq < 0 || m.Seq > 1_000_000 {
			return ReconMessage{}, Errorf(CodeBadField, "seq must be a non-negative integer")
		}
	}
	square := func(required bool) *ProtoError {
		if w.Square == nil {
			return Errorf(CodeBadField, "missing field square")
		}
		if *w.Square == "" && !required {
			return nil // no sense
		}
		s, err := game.ParseSquare(*w.Square)
		if err != nil || len(*w.Square) != 2 {
			return Errorf(CodeBadSquare, "%.8q is not a square", *w.Square)
		}
		m.Square = s
		return nil
	}
	switch m.Type {
	case ReconMsgSense:
		if err := square(false); err != nil {
			return ReconMessage{}, err
		}
	case ReconMsgMove:
		if w.Move == nil {
			return ReconMessage{}, Errorf(CodeBadField, "missing field move")
		}
		if *w.Move != "pass" {
			mv, err := recon.ParseMove(*w.Move)
			if err != nil {
				return ReconMessage{}, Errorf(CodeIllegalMove, "%v", err)
			}
			m.Move = mv
		}
	case ReconMsgMarker:
		if err := square(true); err != nil {
			return ReconMessage{}, err
		}
		if w.Piece == nil {
			return ReconMessage{}, Errorf(CodeBadField, "missing field piece")
		}
		if *w.Piece != "" {
			pc, ok := pieceFromCode(*w.Piece)
			if !ok {
				return ReconMessage{}, Errorf(CodeBadField, "piece must be a code such as bN, or empty")
			}
			m.Piece = pc
		}
	}
	return m, nil
}

// MarkerRefusal refuses a note (marker) of the person playing seat that
// names one of their own pieces: a note is a guess about where an
// opponent's piece is (the page cycles through the opponent's pieces
// only), and the person's own pieces are shown as they are. nil when p is
// the opponent's, or none (a note cleared).
func MarkerRefusal(p game.Piece, seat game.Color) *ProtoError {
	if p == game.NoPiece || p.Color() != seat {
		return nil
	}
	return Errorf(CodeBadField, "a note marks an opponent's piece; %s is one of your own", PieceCode(p))
}

// pieceFromCode reads a piece code of the board's images ("wK", "bN").
func pieceFromCode(s string) (game.Piece, bool) {
	if len(s) != 2 || (s[0] != 'w' && s[0] != 'b') {
		return game.NoPiece, false
	}
	letter := s[1]
	if s[0] == 'b' {
		letter += 'a' - 'A'
	}
	if s[1] < 'A' || s[1] > 'Z' {
		return game.NoPiece, false
	}
	return game.PieceFromLetter(letter)
}

// PieceCode writes a piece as the board's image code ("wK", "bN").
func PieceCode(p game.Piece) string {
	if p == game.NoPiece {
		return ""
	}
	c := "w"
	if p.Color() == game.Black {
		c = "b"
	}
	return c + string(p.Type().Letter()-('a'-'A'))
}

// ReconState is a Reconnaissance Chess game as one player may see it: sent
// after every change (web/PROTOCOL.md). Nothing in it is hidden from that
// player by the rules until the game is over.
type ReconState struct {
	Type         string `json:"type"` // ReconMsgState
	ID           string `json:"id"`
	Human        string `json:"human"`
	Opponent     string `json:"opponent"`
	OpponentName string `json:"opponentName"`
	// Phase is sense, move (the person's), waiting (the opponent's turn)
	// or over.
	Phase string `json:"phase"`
	Seq   int    `json:"seq"`
	// Pieces are the person's own pieces now, square to code.
	Pieces map[string]string `json:"pieces"`
	// Turns are the person's turns so far, oldest first, each with what the
	// person learnt in it.
	Turns []ReconTurnView `json:"turns"`
	// MoveActions are the person's move actions in the move phase.
	MoveActions []LegalView       `json:"moveActions"`
	Markers     map[string]string `json:"markers"`
	// Clock is the person's own clock only; the opponent's is never sent.
	Clock  *ReconClockView `json:"clock"`
	Status string          `json:"status"`
	Result string          `json:"result"`
	Reason string          `json:"reason"`
	// Saving is set while the server cannot save the opponent's action or
	// a flag fall and keeps trying (live.Host).
	Saving bool `json:"saving,omitempty"`
	// The rest is sent only once the game is over.
	TrueFEN    string `json:"trueFen,omitempty"`
	HistoryURL string `json:"historyUrl,omitempty"`
	ReplayURL  string `json:"replayUrl,omitempty"`
	// KingCapture is the move that took a king ("h5e8") and KingCaptureSAN
	// the same in short algebraic form ("Qxe8"): the end screen shows how
	// the game was won, not only that it was.
	KingCapture    string `json:"kingCapture,omitempty"`
	KingCaptureSAN string `json:"kingCaptureSan,omitempty"`
}

// ReconTurnView is one of the person's turns: where the opponent had just
// captured, the sense and what it showed, the move asked for, the move
// taken and where it captured. Fields not yet played are absent.
type ReconTurnView struct {
	OpponentCapture string            `json:"opponentCapture"` // "" when nothing was captured
	Sensed          bool              `json:"sensed"`
	Sense           string            `json:"sense"` // "" when the sense was skipped
	SenseResult     []ReconSquareView `json:"senseResult"`
	Moved           bool              `json:"moved"`
	Requested       string            `json:"requested"` // "pass" for a pass
	Taken           string            `json:"taken"`     // "" when nothing happened
	Capture         string            `json:"capture"`   // "" when nothing was captured
	Lost            string            `json:"lost"`      // code of the person's piece taken on OpponentCapture
}

// ReconSquareView is one square of a sense result: its name and the piece
// code on it ("" when empty).
type ReconSquareView struct {
	Square string `json:"square"`
	Piece  string `json:"piece"`
}

// ReconClockView is the person's clock in milliseconds.
type ReconClockView struct {
	Mine      int64 `json:"mine"`
	Running   bool  `json:"running"`
	Initial   int64 `json:"initial"`
	Increment int64 `json:"increment"`
}
