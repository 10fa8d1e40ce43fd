package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"knightwatch/recon"
)

// chooseHistory is the way on after any refused upload.
const chooseHistory = " Choose the .json file that reconchess's GameHistory.save, rbc-match or a game's “Download history” link wrote, and press Show the game."

// historyWords says why an uploaded file is not a history the replay can
// show, for the person who chose it: what the file is, where its first
// fault lies, and what to choose instead. The parser's words ("invalid
// character 'o' in literal null") stay in the log's terms, not the page's.
func historyWords(data []byte, err error) string {
	const not = "This file is not a Reconnaissance Chess history: "
	var he *recon.HistoryError
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return "This file is empty." + chooseHistory
	case !json.Valid(data):
		var any json.RawMessage
		var se *json.SyntaxError
		if jerr := json.Unmarshal(data, &any); errors.As(jerr, &se) {
			line, col := lineCol(data, se.Offset)
			return fmt.Sprintf("%sit is not JSON text (the first fault is at line %d, column %d).%s", not, line, col, chooseHistory)
		}
		return not + "it is not JSON text, or it stops before its end." + chooseHistory
	case errors.As(err, &he) && he.Field == "":
		return not + "it is JSON, but not one object with a game's fields." + chooseHistory
	case errors.As(err, &he) && he.Field == "type":
		return not + `it is JSON, but its "type" is not "GameHistory".` + chooseHistory
	case errors.As(err, &he):
		what := he.Msg
		if w, ok := strings.CutPrefix(what, "want "); ok {
			what = "should be " + w
		} else if what == "missing" {
			what = "is missing"
		}
		return fmt.Sprintf("%sits field “%s” %s.%s", not, he.Field, what, chooseHistory)
	}
	return not + "it could not be read." + chooseHistory
}

// lineCol turns a byte offset (json.SyntaxError's, one past the fault)
// into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:max(offset-1, 0)]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}
