package tune

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"knightwatch/game"
)

// TrainingPosition is a quiet position labelled with the expected result
// from White's point of view: the final result of the game it came from
// (1, 0.5 or 0), or a value between for a label blended with a search
// score (see TrainingFromPGN and BlendLabels).
type TrainingPosition struct {
	FEN    string
	Result float64
	// Score is the search score of the position in centipawns from
	// White's view, when Scored; the network trainer learns from it (see
	// NetworkSets), the Texel tuner ignores it.
	Score  int
	Scored bool
}

// WriteTrainingData writes positions as "FEN;result" lines, or
// "FEN;result;score" for a scored position.
func WriteTrainingData(w io.Writer, ps []TrainingPosition) error {
	bw := bufio.NewWriter(w)
	for _, p := range ps {
		if p.Scored {
			fmt.Fprintf(bw, "%s;%g;%d\n", p.FEN, p.Result, p.Score)
		} else {
			fmt.Fprintf(bw, "%s;%g\n", p.FEN, p.Result)
		}
	}
	return bw.Flush()
}

// WriteTrainingFile writes positions to the file name (see
// WriteTrainingData), replacing it.
func WriteTrainingFile(name string, ps []TrainingPosition) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := WriteTrainingData(f, ps); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReadTrainingData parses "FEN;result" or "FEN;result;score" lines (the
// expected result from White's view: 1, 0.5 or 0 for a game result, or
// any value between for a label blended with a search score; the score in
// centipawns from White's view). Blank lines and lines starting with # are
// skipped.
func ReadTrainingData(r io.Reader) ([]TrainingPosition, error) {
	var out []TrainingPosition
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.IndexByte(line, ';')
		if i < 0 {
			return nil, fmt.Errorf("line %d: missing ';result'", n)
		}
		resText, scoreText, _ := strings.Cut(line[i+1:], ";")
		scoreText = strings.TrimSpace(scoreText)
		res, err := strconv.ParseFloat(strings.TrimSpace(resText), 64)
		if err != nil || !(res >= 0 && res <= 1) {
			return nil, fmt.Errorf("line %d: result must be a number from 0 to 1", n)
		}
		fen := strings.TrimSpace(line[:i])
		if _, err := game.ParseFEN(fen); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		tp := TrainingPosition{FEN: fen, Result: res}
		if scoreText != "" {
			score, err := strconv.Atoi(scoreText)
			if err != nil || score < -100000 || score > 100000 {
				return nil, fmt.Errorf("line %d: score must be a whole number of centipawns", n)
			}
			tp.Score, tp.Scored = score, true
		}
		out = append(out, tp)
	}
	return out, sc.Err()
}

// ReadTrainingFiles reads the training positions of every file named, in
// order (see ReadTrainingData).
func ReadTrainingFiles(names []string) ([]TrainingPosition, error) {
	var data []TrainingPosition
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		d, err := ReadTrainingData(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		data = append(data, d...)
	}
	return data, nil
}
