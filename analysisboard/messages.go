package analysisboard

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The analysis socket's messages (web/PROTOCOL.md has them in full).
// From the page:
//
//	{"type":"position","id":N,"fen":F,"chess960":B,"moves":[...],"engine":B,"multipv":K}
//	{"type":"stop"}
//	{"type":"sync"} (sent by the page's socket as it connects: nothing to do)
//
// To the page: "position" (the position's Position, with the id of the
// request it answers), "lines" (the engine's lines at one depth),
// "engine" (the engine's state for that id: "running", "done",
// "stopped", "refused" with words) and "error" (a request that was not
// understood, with words; nothing changed).
const (
	MsgPosition = "position"
	MsgStop     = "stop"
	MsgSync     = "sync"
	MsgLines    = "lines"
	MsgEngine   = "engine"
	MsgError    = "error"
)

// MaxMessageBytes is the longest message the page may send, the
// transport's limit on every socket's messages (play.MaxMessageBytes): a
// path of MaxPathMoves moves in UCI fits.
const MaxMessageBytes = 4096

// MaxMultiPV is the most lines the page may ask for.
const MaxMultiPV = 3

// Request is one message from the page, decoded and checked.
type Request struct {
	Type string `json:"type"`
	// ID numbers the page's position requests, so that it can tell the
	// answers to its latest one from older ones still on the way.
	ID       int64    `json:"id"`
	FEN      string   `json:"fen"`
	Chess960 bool     `json:"chess960"`
	Moves    []string `json:"moves"`
	Engine   bool     `json:"engine"`
	MultiPV  int      `json:"multipv"`
}

// Path is the request's position as a Path.
func (r *Request) Path() Path { return Path{FEN: r.FEN, Chess960: r.Chess960, Moves: r.Moves} }

// ParseRequest decodes and checks one message from the page: a known
// type, at most MaxMessageBytes, at most MaxPathMoves moves of at most 10
// characters each, a MultiPV of 0 (1) to MaxMultiPV. The error says what
// is wrong, in words for the page.
func ParseRequest(data []byte) (*Request, error) {
	if len(data) > MaxMessageBytes {
		return nil, fmt.Errorf("message of %d bytes; at most %d", len(data), MaxMessageBytes)
	}
	var r Request
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a message: %v", err)
	}
	switch r.Type {
	case MsgStop, MsgSync:
		return &r, nil
	case MsgPosition:
	default:
		return nil, fmt.Errorf("unknown message type %q", r.Type)
	}
	if len(r.Moves) > MaxPathMoves {
		return nil, fmt.Errorf("a path of %d moves; at most %d", len(r.Moves), MaxPathMoves)
	}
	for _, m := range r.Moves {
		if len(m) == 0 || len(m) > 10 {
			return nil, errors.New("a move of the path is empty or too long")
		}
	}
	if len(r.FEN) > 100 {
		return nil, errors.New("the FEN is too long")
	}
	if r.MultiPV < 0 || r.MultiPV > MaxMultiPV {
		return nil, fmt.Errorf("multipv %d; from 1 to %d", r.MultiPV, MaxMultiPV)
	}
	if r.MultiPV == 0 {
		r.MultiPV = 1
	}
	return &r, nil
}

// PositionMsg answers a position request.
type PositionMsg struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	*Position
}

// LineView is one engine line as the page shows it: its rank, the score
// from White's point of view (centipawns, or mate in N, negative when
// Black mates), and its moves in SAN and UCI from the position.
type LineView struct {
	Rank int      `json:"rank"`
	CP   int      `json:"cp"`
	Mate int      `json:"mate,omitempty"`
	SAN  []string `json:"san"`
	UCI  []string `json:"uci"`
}

// LinesMsg is the engine's lines at one depth.
type LinesMsg struct {
	Type  string     `json:"type"`
	ID    int64      `json:"id"`
	Depth int        `json:"depth"`
	Nodes uint64     `json:"nodes"`
	Lines []LineView `json:"lines"`
}

// EngineMsg is the engine's state for a request: "running", "done" (as
// deep as it goes, or its time for this position spent), "stopped" (the
// page asked, or moved on), "refused" (a cap: Text says which, in words),
// "off" (the server has no engine).
type EngineMsg struct {
	Type  string `json:"type"`
	ID    int64  `json:"id"`
	State string `json:"state"`
	Text  string `json:"text,omitempty"`
}

// ErrorMsg is a request the session could not take, in words.
type ErrorMsg struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Text string `json:"text"`
}

// encode marshals v; the messages are plain structs, so it cannot fail.
func encode(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
