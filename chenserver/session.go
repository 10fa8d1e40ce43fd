// Package chenserver speaks the ChenServer line protocol: one command line
// in, one response line out, over standard input/output, TCP or HTTP GET.
// ChenServer (a server version of the Chenard engine) lets any program that
// can open a socket play and analyse chess; Knightwatch answers the same
// commands with the same responses so ChenServer clients work unchanged.
//
// Commands: new, status, legal [pgn|alg], move m1 m2 ..., test m,
// think millis, undo n, history [pgn|alg], exit. A response starting with
// "OK" is success; anything else is an error and leaves the game unchanged.
// The error words are ChenServer's (BAD_MOVE m, ILLEGAL, BAD_FORMAT,
// BAD_NUM_TURNS, BAD_THINK_TIME, GAME_OVER, THINK_ERROR, BAD_ARGS,
// UNKNOWN_COMMAND, CANNOT_PARSE) plus LINE_TOO_LONG and BUSY from the
// transport limits ChenServer lacks.
//
// Where the document is silent, behaviour follows ChenServer's source: the
// legal move list comes in Chenard's generation order, the FEN names the
// en passant square after every double push, and status and think treat
// the game as over on checkmate, stalemate, insufficient material, the
// fifty-move rule or threefold repetition.
package chenserver

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"knightwatch/game"
)

// MaxThinkMillis is the largest time `think` accepts: five minutes, as in
// ChenServer.
const MaxThinkMillis = 300000

// Error responses. The names are ChenServer's, so clients that test for
// them keep working.
const (
	respOK           = "OK"
	respBadArgs      = "BAD_ARGS"
	respUnknown      = "UNKNOWN_COMMAND"
	respCannotParse  = "CANNOT_PARSE"
	respBadFormat    = "BAD_FORMAT"
	respBadNumTurns  = "BAD_NUM_TURNS"
	respBadThinkTime = "BAD_THINK_TIME"
	respGameOver     = "GAME_OVER"
	respIllegal      = "ILLEGAL"
	respBadMove      = "BAD_MOVE"
	respThinkError   = "THINK_ERROR"
	// RespLineTooLong answers a command line longer than the server's limit.
	RespLineTooLong = "LINE_TOO_LONG"
)

// Thinker chooses moves for `think`. The engine package provides the real
// one (see NewEngineThinker); the interface keeps the protocol testable on
// its own.
type Thinker interface {
	// NewGame forgets everything learnt in the previous game (`new`).
	NewGame()
	// Think returns a legal move for pos within moveTime, stopping early
	// when ctx is done, or game.NoMove when it has none. history holds the
	// Polyglot keys of the earlier positions since the last irreversible
	// move, for repetition detection.
	Think(ctx context.Context, pos *game.Position, history []uint64, moveTime time.Duration) game.Move
}

// Session is the one game a ChenServer process plays, shared by every
// client. Its methods are safe for concurrent use: commands run one at a
// time, in arrival order of the lock.
type Session struct {
	mu      sync.Mutex
	g       *game.Game
	thinker Thinker
}

// NewSession starts a session at the initial position. thinker may be nil,
// in which case `think` answers THINK_ERROR.
func NewSession(thinker Thinker) *Session {
	return &Session{g: game.NewGame(), thinker: thinker}
}

// Execute runs one command line and returns its one-line response (without
// the newline) and whether the command was `exit`. It never panics on bad
// input, and a command that fails leaves the game as it was.
func (s *Session) Execute(line string) (response string, exit bool) {
	verb, args := splitCommand(line)
	if verb == "" {
		return respCannotParse, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch verb {
	case "exit":
		if len(args) != 0 {
			return respBadArgs, false
		}
		return respOK, true
	case "new":
		if len(args) != 0 {
			return respBadArgs, false
		}
		s.g = game.NewGame()
		if s.thinker != nil {
			s.thinker.NewGame()
		}
		return respOK, false
	case "status":
		if len(args) != 0 {
			return respBadArgs, false
		}
		return s.status(), false
	case "legal":
		return s.legal(args), false
	case "history":
		return s.history(args), false
	case "move":
		return s.move(args), false
	case "test":
		if len(args) != 1 {
			return respBadArgs, false
		}
		return s.test(args[0]), false
	case "think":
		if len(args) != 1 {
			return respBadArgs, false
		}
		return s.think(args[0]), false
	case "undo":
		if len(args) != 1 {
			return respBadArgs, false
		}
		return s.undo(args[0]), false
	}
	return respUnknown, false
}

// splitCommand splits a line at ASCII white space (C's isspace, as
// ChenServer does, so "\r" from CRLF clients is ignored): the first word is
// the verb, the rest are arguments.
func splitCommand(line string) (verb string, args []string) {
	fields := strings.FieldsFunc(line, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			return true
		}
		return false
	})
	if len(fields) == 0 {
		return "", nil
	}
	return fields[0], fields[1:]
}

// parseFormat reads the optional pgn|alg argument of legal and history;
// algebraic is the default.
func parseFormat(args []string) (pgn bool, ok bool) {
	switch {
	case len(args) == 0:
		return false, true
	case len(args) > 1:
		return false, false
	case args[0] == "pgn":
		return true, true
	case args[0] == "alg":
		return false, true
	}
	return false, false
}

// result is the PGN result code ChenServer reports: the game is over on
// checkmate, stalemate, insufficient material, the fifty-move rule or
// threefold repetition (Chenard's GameIsOver), so draws a player could
// claim count as ended.
func (s *Session) result() game.Result {
	o := s.g.OutcomeWithClaims()
	if !o.Over() {
		return game.NoResult
	}
	return o.Result
}

func (s *Session) status() string {
	return string(s.result()) + " " + chenFEN(s.g)
}

// playable reports whether game.Game accepts moves now. It refuses them
// once the game has ended by itself (mate, stalemate, insufficient material,
// 75 moves, fivefold repetition); legal and test then agree with move by
// offering nothing.
func (s *Session) playable() bool { return !s.g.Outcome().Over() }

func (s *Session) legal(args []string) string {
	pgn, ok := parseFormat(args)
	if !ok {
		return respBadFormat
	}
	var moves []game.Move
	pos := s.g.Position()
	if s.playable() {
		moves = chenardOrder(pos)
	}
	var sb strings.Builder
	sb.WriteString("OK ")
	sb.WriteString(strconv.Itoa(len(moves)))
	for _, m := range moves {
		sb.WriteByte(' ')
		if pgn {
			sb.WriteString(pos.SAN(m))
		} else {
			sb.WriteString(pos.UCI(m))
		}
	}
	return sb.String()
}

func (s *Session) history(args []string) string {
	pgn, ok := parseFormat(args)
	if !ok {
		return respBadFormat
	}
	var moves []string
	if pgn {
		moves = s.g.SANMoves()
	} else {
		moves = s.g.UCIMoves()
	}
	return "OK " + strconv.Itoa(len(moves)) + joinLeadingSpace(moves)
}

func joinLeadingSpace(words []string) string {
	if len(words) == 0 {
		return ""
	}
	return " " + strings.Join(words, " ")
}

// parseMove reads one move in SAN/PGN or algebraic (UCI) notation, whichever
// it is, and reports whether it is legal now. The null move is not a move.
func parseMove(pos *game.Position, text string) (game.Move, bool) {
	m, err := pos.ParseMove(text)
	if err != nil || m == game.NullMove || m == game.NoMove {
		return game.NoMove, false
	}
	return m, true
}

// move plays all the moves or none: on the first bad one it takes back the
// moves already made and names the bad one.
func (s *Session) move(args []string) string {
	played := 0
	for _, tok := range args {
		m, ok := parseMove(s.g.Position(), tok)
		if ok && s.g.Play(m) == nil {
			played++
			continue
		}
		for ; played > 0; played-- {
			s.g.Undo()
		}
		return respBadMove + " " + tok
	}
	return "OK " + strconv.Itoa(played)
}

func (s *Session) test(tok string) string {
	pos := s.g.Position()
	m, ok := parseMove(pos, tok)
	if !ok || !s.playable() {
		return respIllegal
	}
	return "OK " + pos.UCI(m) + " " + pos.SAN(m)
}

// thinkBudget splits the client's limit: the engine aims a little below it
// and the context cuts it off at the limit itself, so the answer arrives
// within millis plus the time to format and send one line.
func thinkBudget(millis int) (moveTime, deadline time.Duration) {
	deadline = time.Duration(millis) * time.Millisecond
	margin := deadline / 10
	if margin > 50*time.Millisecond {
		margin = 50 * time.Millisecond
	}
	return deadline - margin, deadline
}

func (s *Session) think(arg string) string {
	// ChenServer reports a finished game before looking at the time.
	if s.result() != game.NoResult {
		return respGameOver
	}
	millis, err := strconv.Atoi(arg)
	if err != nil || millis < 1 || millis > MaxThinkMillis {
		return respBadThinkTime
	}
	if s.thinker == nil {
		return respThinkError
	}
	pos := s.g.Position()
	moveTime, deadline := thinkBudget(millis)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	m := s.thinker.Think(ctx, pos, s.g.HashHistory(), moveTime)
	cancel()
	if !pos.IsLegal(m) {
		// An engine that runs out of time with nothing to say still owes
		// the client a move: take the first one in ChenServer's order.
		moves := chenardOrder(pos)
		if len(moves) == 0 {
			return respGameOver
		}
		m = moves[0]
	}
	resp := "OK " + pos.UCI(m) + " " + pos.SAN(m)
	if err := s.g.Play(m); err != nil {
		return respThinkError
	}
	return resp
}

func (s *Session) undo(arg string) string {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 || n > s.g.Len() {
		return respBadNumTurns
	}
	for i := 0; i < n; i++ {
		s.g.Undo()
	}
	return respOK
}

// chenFEN writes the position as ChenServer does. It differs from game's
// FEN in one field: ChenServer names the en passant target square after
// every double pawn push (as the FEN standard says), even when no pawn can
// capture, e.g. "... b KQkq e3 0 1" after 1.e4; game writes it only when the
// capture is legal.
func chenFEN(g *game.Game) string {
	fields := strings.Fields(g.Position().FEN())
	ep := "-"
	if n := g.Len(); n > 0 {
		prev := g.PositionAt(n - 1)
		m := g.Moves()[n-1]
		from, to := m.From(), m.To()
		if prev.PieceAt(from).Type() == game.Pawn && (to-from == 16 || from-to == 16) {
			ep = game.Square((from + to) / 2).String()
		}
	}
	if len(fields) >= 4 {
		fields[3] = ep
	}
	return strings.Join(fields, " ")
}
