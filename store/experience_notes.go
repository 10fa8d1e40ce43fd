package store

import (
	"encoding/json"
	"fmt"
)

// ExperienceNote says that an engine's move of a game came from
// experience: the record of a move it set aside (Avoided), or of the move
// it played, preferred for its record. The notes are kept with the game
// (Game.ExperienceNotes), so the game page shows them after a reload.
type ExperienceNote struct {
	// Ply is the index of the engine's move in the game's move list (0:
	// the first move of the game).
	Ply int `json:"ply"`
	// Move is the UCI move the record is about: the move set aside, or the
	// move played.
	Move    string `json:"move"`
	Avoided bool   `json:"avoided"`
	// The record, as the engine was given it (Experience's fields).
	Wins          int `json:"wins"`
	Draws         int `json:"draws"`
	Losses        int `json:"losses"`
	AnalysisCP    int `json:"analysisCp,omitempty"`
	AnalysisDepth int `json:"analysisDepth,omitempty"`
}

// Notes returns the game's experience notes, in the order they were
// added; an unreadable column (never written so) reads as none, with the
// error.
func (g *Game) Notes() ([]ExperienceNote, error) {
	if g.ExperienceNotes == "" {
		return nil, nil
	}
	var notes []ExperienceNote
	if err := json.Unmarshal([]byte(g.ExperienceNotes), &notes); err != nil {
		return nil, fmt.Errorf("store: game %s: experience notes: %w", g.ID, err)
	}
	return notes, nil
}

// SetNotes stores notes as the game's experience notes (none: the empty
// column).
func (g *Game) SetNotes(notes []ExperienceNote) {
	if len(notes) == 0 {
		g.ExperienceNotes = ""
		return
	}
	b, err := json.Marshal(notes)
	if err != nil {
		panic("store: marshal experience notes: " + err.Error()) // a plain struct
	}
	g.ExperienceNotes = string(b)
}

// KeepNotesBefore drops the notes of moves at ply plies or later (a
// take-back) and reports whether any were dropped.
func (g *Game) KeepNotesBefore(plies int) bool {
	notes, err := g.Notes()
	if err != nil {
		g.ExperienceNotes = ""
		return true
	}
	kept := notes[:0]
	for _, n := range notes {
		if n.Ply < plies {
			kept = append(kept, n)
		}
	}
	if len(kept) == len(notes) {
		return false
	}
	g.SetNotes(kept)
	return true
}
