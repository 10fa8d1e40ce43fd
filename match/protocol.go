// Package match plays chess engines that speak UCI against each other as
// child processes: it keeps the clocks, adjudicates every game with the
// rules library, writes PGN and sums the results up as W/D/L, score and an
// Elo difference with its error margin.
package match

import (
	"fmt"
	"strconv"
	"strings"
)

// Info is what the runner keeps from an engine's "info" line: enough to
// annotate a move in PGN (score and depth) and nothing it would have to trust.
type Info struct {
	Depth    int
	SelDepth int
	// HasScore is false when the line carried no "score".
	HasScore bool
	// Mate is true when the score is "mate N"; Score is then N (moves, negative
	// when the engine is being mated), otherwise centipawns.
	Mate  bool
	Score int
	// Bound is "lowerbound", "upperbound" or "" for an exact score.
	Bound  string
	Nodes  int64
	NPS    int64
	TimeMS int64
	PV     []string
}

// infoKeys are the single-word "info" tokens that take exactly one value;
// knowing them lets the parser skip fields it does not keep without losing
// its place in the line.
var infoKeys = map[string]bool{
	"depth": true, "seldepth": true, "time": true, "nodes": true, "multipv": true,
	"currmove": true, "currmovenumber": true, "hashfull": true, "nps": true,
	"tbhits": true, "sbhits": true, "cpuload": true,
}

// ParseInfo parses a UCI "info" line. It reports false for lines that are
// not info lines or whose known fields carry malformed numbers; unknown
// fields are skipped, as the protocol asks of a GUI.
func ParseInfo(line string) (Info, bool) {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return Info{}, false
	}
	var in Info
	num := func(i int) (int64, bool) {
		if i >= len(f) {
			return 0, false
		}
		v, err := strconv.ParseInt(f[i], 10, 64)
		return v, err == nil
	}
	for i := 1; i < len(f); {
		switch key := f[i]; key {
		case "string":
			// The rest of the line is free text.
			return in, true
		case "pv":
			in.PV = append([]string(nil), f[i+1:]...)
			return in, true
		case "score":
			i++
		score:
			for i < len(f) {
				switch f[i] {
				case "cp", "mate":
					v, ok := num(i + 1)
					if !ok || v > 1<<30 || v < -(1<<30) {
						return Info{}, false
					}
					in.HasScore, in.Mate, in.Score = true, f[i] == "mate", int(v)
					i += 2
					continue
				case "lowerbound", "upperbound":
					in.Bound = f[i]
					i++
					continue
				}
				break score
			}
			if !in.HasScore {
				return Info{}, false
			}
		case "currline", "refutation", "wdl":
			// Variable-length fields the runner does not use: skip the moves
			// or numbers that follow until the next keyword.
			i++
			for i < len(f) && !infoKeys[f[i]] && f[i] != "score" && f[i] != "pv" && f[i] != "string" {
				i++
			}
		default:
			if !infoKeys[key] {
				i++ // unknown token: skip it alone
				continue
			}
			v, ok := num(i + 1)
			if !ok {
				if key == "currmove" && i+1 < len(f) {
					i += 2 // currmove takes a move, not a number
					continue
				}
				return Info{}, false
			}
			switch key {
			case "depth":
				in.Depth = int(v)
			case "seldepth":
				in.SelDepth = int(v)
			case "nodes":
				in.Nodes = v
			case "nps":
				in.NPS = v
			case "time":
				in.TimeMS = v
			}
			i += 2
		}
	}
	return in, true
}

// ParseBestMove parses "bestmove MOVE [ponder MOVE]". The move is returned
// as text; the caller checks it against the position, since an engine may
// well send an illegal or malformed one.
func ParseBestMove(line string) (move, ponder string, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		return "", "", false
	}
	move = f[1]
	if len(f) >= 4 && f[2] == "ponder" {
		ponder = f[3]
	}
	return move, ponder, true
}

// ScoreString formats the score the way PGN comments from engine matches
// usually do: "+0.35" in pawns from the mover's point of view, or "+M5" /
// "-M3" for mates. It is empty when the info had no score.
func (in Info) ScoreString() string {
	if !in.HasScore {
		return ""
	}
	if in.Mate {
		if in.Score < 0 {
			return fmt.Sprintf("-M%d", -in.Score)
		}
		return fmt.Sprintf("+M%d", in.Score)
	}
	return fmt.Sprintf("%+.2f", float64(in.Score)/100)
}
