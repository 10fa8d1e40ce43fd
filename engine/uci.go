package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"knightwatch/game"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// UCI runs the Universal Chess Interface protocol: commands are read from
// in line by line and answers written to out. It returns when "quit" is
// read or in ends. Malformed commands are reported with "info string" and
// change nothing; lines may end in "\r\n" and tokens be separated by any
// white space.
func UCI(in io.Reader, out io.Writer) error {
	return newUCISession(out).run(in)
}

// maxUCILine is the longest command line read; a longer one is skipped
// with an info string (a position with ten thousand moves is 50 KB).
const maxUCILine = 1 << 20

// run reads and handles commands until "quit" or the end of in.
func (u *uciSession) run(in io.Reader) error {
	r := bufio.NewReaderSize(in, 64*1024)
	quit := false
	var err error
	for !quit {
		line, n, rerr := readUCILine(r, maxUCILine)
		switch {
		case n > maxUCILine:
			u.send("info string error: a line of %d bytes is longer than the %d accepted; ignored", n, maxUCILine)
		case n > 0 || rerr == nil:
			quit = !u.handle(line)
		}
		if rerr != nil {
			if rerr != io.EOF {
				err = rerr
			}
			break
		}
	}
	if quit {
		u.stopSearch()
	} else {
		// End of input without "quit" (a script piped in): let a finite
		// search finish and print its move.
		u.waitSearch()
	}
	u.closeTables()
	u.closeGaviota()
	return err
}

// readUCILine reads one line without its end of line and returns it with
// its length n; when n > limit the line is read to its end but only its
// length is returned. At the end of the input err is io.EOF (the last
// line may lack its newline).
func readUCILine(r *bufio.Reader, limit int) (line string, n int, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		n += len(chunk)
		if n <= limit+1 { // +1: the newline
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			n--
			if n <= limit {
				buf = buf[:len(buf)-1]
			}
		}
		if n > limit {
			return "", n, err
		}
		return string(buf), n, err
	}
}

// uciSession is the state of one UCI conversation.
type uciSession struct {
	outMu sync.Mutex
	out   io.Writer

	eng      *Engine
	root     uciPosition // set by "position", searched by "go"
	chess960 bool        // UCI_Chess960
	ponder   bool        // Ponder (the GUI may send "go ponder"; it is accepted either way)
	evalFile string      // EvalFile: the network file loaded, or builtinEvalFile
	// tb holds the tables SyzygyPath (syzygyPath, "" for none) opened;
	// the session owns them and closes them when they are replaced.
	tb         *syzygy.Tablebase
	syzygyPath string
	// gtb holds the tables GaviotaTbPath (gaviotaPath) opened, owned
	// and closed as tb is.
	gtb         *gaviota.Tablebase
	gaviotaPath string

	// maxHashMB and maxThreads cap the Hash and Threads options, and
	// limitGo, when set, adjusts the limits of every search: the fuzz test
	// keeps memory and time small with them.
	maxHashMB  int
	maxThreads int
	limitGo    func(*Limits)

	// The running search, if any.
	cancel  context.CancelFunc
	done    chan struct{}
	endless bool // the search runs until stopped
}

func newUCISession(out io.Writer) *uciSession {
	u := &uciSession{out: out, evalFile: builtinEvalFile}
	u.eng = New(Options{OwnBook: true})
	u.root = u.newPosition(nil)
	return u
}

// uciPosition is a position set up by "position" with the keys of the
// positions before it since the last capture or pawn move, oldest first,
// for the search to see repetitions.
type uciPosition struct {
	pos  game.Position
	keys []uint64
}

// play makes move m, which must be legal.
func (r *uciPosition) play(m game.Move) {
	r.keys = append(r.keys, r.pos.Hash())
	r.pos.MakeMove(m)
	if n := r.pos.HalfmoveClock(); len(r.keys) > n {
		r.keys = r.keys[len(r.keys)-n:]
	}
}

// maxInfoString caps an info string: a malformed command may be a
// megabyte long, and its echo need not be.
const maxInfoString = 1000

// sendError reports a refused or partly refused command.
func (u *uciSession) sendError(err error) {
	msg := err.Error()
	if len(msg) > maxInfoString {
		msg = strings.ToValidUTF8(msg[:maxInfoString], "") + "..."
	}
	u.send("info string error: %s", msg)
}

// closeTables closes the session's Syzygy tables, if any; no search may
// be running.
func (u *uciSession) closeTables() {
	if u.tb != nil {
		u.eng.SetTablebase(nil)
		u.tb.Close()
		u.tb, u.syzygyPath = nil, ""
	}
}

// closeGaviota closes the session's Gaviota tables, if any; no search
// may be running.
func (u *uciSession) closeGaviota() {
	if u.gtb != nil {
		u.eng.SetGaviota(nil)
		u.gtb.Close()
		u.gtb, u.gaviotaPath = nil, ""
	}
}

func (u *uciSession) send(format string, args ...any) {
	u.outMu.Lock()
	defer u.outMu.Unlock()
	fmt.Fprintf(u.out, format+"\n", args...)
}

// handle processes one command line; it returns false on "quit".
func (u *uciSession) handle(line string) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return true
	}
	cmd, args := fields[0], fields[1:]
	switch cmd {
	case "uci":
		u.send("id name Knightwatch")
		u.send("id author the Knightwatch developers")
		for i := range uciOptions {
			u.send("%s", uciOptions[i].announce())
		}
		u.send("uciok")
	case "isready":
		u.send("readyok")
	case "ucinewgame":
		u.stopSearch()
		u.eng.NewGame()
		u.root = u.newPosition(nil)
	case "setoption":
		u.stopSearch()
		if err := u.setOption(args); err != nil {
			u.sendError(err)
		}
	case "position":
		u.stopSearch()
		// A refused move still sets up the position before it, as in
		// Stockfish: the GUI learns which move was refused, and the engine
		// does not search a position from an earlier command.
		r, err := u.parsePosition(args)
		if r != nil {
			u.root = *r
		}
		if err != nil {
			u.sendError(err)
		}
	case "go":
		u.stopSearch()
		pos := u.rootPosition()
		lim, warnings, err := parseGo(args, &pos)
		if err != nil {
			u.sendError(err)
			return true
		}
		for _, w := range warnings {
			u.send("info string warning: %s", w)
		}
		if u.limitGo != nil {
			u.limitGo(&lim)
		}
		u.startSearch(lim)
	case "stop":
		u.stopSearch()
	case "ponderhit":
		u.eng.PonderHit()
	case "quit":
		return false
	case "debug", "register":
		// Accepted and ignored, as the protocol allows.
	default:
		u.sendError(fmt.Errorf("unknown command %q", cmd))
	}
	return true
}

// newPosition starts a uciPosition from p (nil: the standard start
// position) with the session's Chess960 setting.
func (u *uciSession) newPosition(p *game.Position) uciPosition {
	if p == nil {
		p = game.NewPosition()
	}
	if u.chess960 {
		p.SetChess960(true)
	}
	return uciPosition{pos: *p}
}

// parsePosition handles "position startpos|fen FEN... [moves m1 m2 ...]".
// Without a usable start position it returns a nil position and an error:
// the session keeps its position. Otherwise it returns the position after
// the moves up to the first one that is malformed or illegal, and an error
// naming that move.
func (u *uciSession) parsePosition(args []string) (*uciPosition, error) {
	const unchanged = "; position unchanged"
	if len(args) == 0 {
		return nil, fmt.Errorf("position: missing \"startpos\" or \"fen\"" + unchanged)
	}
	var p *game.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		p = game.NewPosition()
	case "fen":
		n := 0
		for n < len(rest) && rest[n] != "moves" {
			n++
		}
		if n == 0 {
			return nil, fmt.Errorf("position fen: no FEN given" + unchanged)
		}
		var err error
		p, err = game.ParseFEN(strings.Join(rest[:n], " "))
		if err != nil {
			return nil, fmt.Errorf("position fen: %w"+unchanged, err)
		}
		rest = rest[n:]
	default:
		return nil, fmt.Errorf("position: expected \"startpos\" or \"fen\", got %q"+unchanged, args[0])
	}
	r := u.newPosition(p)
	if len(rest) == 0 {
		return &r, nil
	}
	if rest[0] != "moves" {
		return &r, fmt.Errorf("position: expected \"moves\", got %q; position set up without moves", rest[0])
	}
	for i, s := range rest[1:] {
		m, err := r.pos.ParseUCI(s)
		var why string
		switch {
		case errors.Is(err, game.ErrInvalidMove):
			why = "is not a UCI move"
		case err != nil:
			why = "is illegal in " + r.pos.FEN() + castlingHint(&r.pos, s)
		case m == game.NullMove:
			why = "is a null move, which cannot be played"
		}
		if why != "" {
			played := "with no moves played"
			if i > 0 {
				played = fmt.Sprintf("to move %d", i)
			}
			return &r, fmt.Errorf("position: move %d %q %s; position set up %s", i+1, s, why, played)
		}
		r.play(m)
	}
	return &r, nil
}

// castlingHint explains a refused move s in a Chess960 position where the
// king on s's square could castle: castling is then written king takes rook.
func castlingHint(p *game.Position, s string) string {
	if !p.Chess960() || len(s) < 2 {
		return ""
	}
	var castles []string
	for _, m := range p.LegalMoves() {
		if m.IsCastling() && m.From().String() == s[:2] {
			castles = append(castles, p.UCI(m))
		}
	}
	if len(castles) == 0 {
		return ""
	}
	return " (in Chess960 castling is written king takes rook: " + strings.Join(castles, ", ") + ")"
}

// goKeywords are the parameters of "go"; a searchmoves list ends at the
// first of them.
var goKeywords = map[string]bool{
	"searchmoves": true, "ponder": true, "wtime": true, "btime": true, "winc": true, "binc": true,
	"movestogo": true, "depth": true, "nodes": true, "mate": true, "movetime": true, "infinite": true,
}

// parseGo reads the arguments of "go"; pos is the position to be searched,
// against which searchmoves are read (they must be legal there). Values a
// GUI may well send are taken with a warning: negative clock times (a
// player in time trouble) and numbers too large to hold (as good as
// infinite). Anything else wrong refuses the whole command.
func parseGo(args []string, pos *game.Position) (lim Limits, warnings []string, err error) {
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			lim.Infinite = true
			continue
		case "ponder":
			lim.Ponder = true
			continue
		case "searchmoves":
			moves, n, err := parseSearchMoves(args[i+1:], pos)
			if err != nil {
				return Limits{}, nil, err
			}
			lim.SearchMoves = append(lim.SearchMoves, moves...)
			i += n
			continue
		case "mate":
			// Searching for a mate is what a depth-limited search does anyway.
		case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo":
		default:
			return Limits{}, nil, fmt.Errorf("go: unknown parameter %q", key)
		}
		if i+1 >= len(args) {
			return Limits{}, nil, fmt.Errorf("go: %s needs a value", key)
		}
		i++
		x, err := strconv.ParseInt(args[i], 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			// x is the nearest int64.
			warnings = append(warnings, fmt.Sprintf("go: %s %s is out of range, taken as %d", key, args[i], x))
		} else if err != nil {
			return Limits{}, nil, fmt.Errorf("go: %s: %q is not a number", key, args[i])
		}
		if x < 0 {
			switch key {
			case "wtime", "btime":
				// Some GUIs send negative clock times when a player is in
				// time trouble: almost nothing is left.
				warnings = append(warnings, fmt.Sprintf("go: %s %s is negative, taken as 1 ms", key, args[i]))
				x = 1
			case "winc", "binc":
				warnings = append(warnings, fmt.Sprintf("go: %s %s is negative, taken as 0", key, args[i]))
				x = 0
			default:
				return Limits{}, nil, fmt.Errorf("go: %s %s is negative", key, args[i])
			}
		}
		x = min(x, 1<<40) // 35 years in milliseconds: no limit in practice
		ms := time.Duration(x) * time.Millisecond
		switch key {
		case "depth":
			lim.Depth = int(min(x, maxPly))
		case "mate":
			lim.Depth = int(min(2*x+1, maxPly))
		case "nodes":
			lim.Nodes = uint64(x)
		case "movetime":
			lim.MoveTime = max(ms, time.Millisecond)
		case "wtime":
			lim.WTime = max(ms, time.Millisecond)
		case "btime":
			lim.BTime = max(ms, time.Millisecond)
		case "winc":
			lim.WInc = ms
		case "binc":
			lim.BInc = ms
		case "movestogo":
			lim.MovesToGo = int(min(x, 1000))
		}
	}
	return lim, warnings, nil
}

// parseSearchMoves reads the moves after "searchmoves" up to the next go
// keyword, returning them and how many arguments they took. Every move must
// be legal in pos: a GUI that sends a wrong one gets an error rather than
// a search over some other set of moves.
func parseSearchMoves(args []string, pos *game.Position) ([]game.Move, int, error) {
	var moves []game.Move
	n := 0
	for n < len(args) && !goKeywords[args[n]] {
		m, err := pos.ParseUCI(args[n])
		if err != nil {
			return nil, 0, fmt.Errorf("go searchmoves: %w", err)
		}
		if m == game.NullMove || !pos.IsLegal(m) {
			return nil, 0, fmt.Errorf("go searchmoves: %q is not a legal move here", args[n])
		}
		moves = append(moves, m)
		n++
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("go searchmoves: no moves given")
	}
	return moves, n, nil
}

// rootPosition is the position a "go" searches: the game's current one,
// with the session's Chess960 setting (which decides how castling moves
// are written).
func (u *uciSession) rootPosition() game.Position {
	pos := u.root.pos
	if u.chess960 {
		pos.SetChess960(true)
	}
	return pos
}

func (u *uciSession) startSearch(lim Limits) {
	ctx, cancel := context.WithCancel(context.Background())
	u.cancel = cancel
	u.done = make(chan struct{})
	u.endless = lim.Infinite || lim.Ponder
	pos := u.rootPosition()
	history := slices.Clone(u.root.keys)
	done := u.done
	tables := u.eng.tbCardinality() > 0
	go func() {
		defer close(done)
		res := u.eng.Search(ctx, &pos, history, lim, func(info Info) {
			u.send("%s", formatInfo(&pos, info, tables))
		})
		if res.Move == game.NoMove {
			u.send("bestmove 0000")
			return
		}
		if res.Ponder != game.NoMove {
			after := pos
			after.MakeMove(res.Move)
			u.send("bestmove %s ponder %s", pos.UCI(res.Move), after.UCI(res.Ponder))
		} else {
			u.send("bestmove %s", pos.UCI(res.Move))
		}
	}()
}

// waitSearch waits for a finite search to end by itself; infinite and
// pondering searches are stopped.
func (u *uciSession) waitSearch() {
	if u.cancel == nil {
		return
	}
	if !u.endless {
		<-u.done
	}
	u.stopSearch()
}

// stopSearch ends a running search and waits for its bestmove line.
func (u *uciSession) stopSearch() {
	if u.cancel == nil {
		return
	}
	u.cancel()
	<-u.done
	u.cancel, u.done = nil, nil
}

// formatInfo renders an Info as a UCI info line; tables says that the
// engine has Syzygy tables, and the line then counts their probes
// (tbhits).
func formatInfo(pos *game.Position, info Info, tables bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d ", info.Depth, info.SelDepth, max(info.MultiPV, 1))
	if info.Score.Mate != 0 {
		fmt.Fprintf(&b, "score mate %d", info.Score.Mate)
	} else {
		fmt.Fprintf(&b, "score cp %d", info.Score.CP)
	}
	fmt.Fprintf(&b, " nodes %d nps %d hashfull %d", info.Nodes, info.NPS, info.HashFull)
	if tables {
		fmt.Fprintf(&b, " tbhits %d", info.TBHits)
	}
	fmt.Fprintf(&b, " time %d", info.Time.Milliseconds())
	if len(info.PV) > 0 {
		b.WriteString(" pv")
		p := *pos
		for _, m := range info.PV {
			if !p.IsLegal(m) {
				break
			}
			b.WriteString(" " + p.UCI(m))
			p.MakeMove(m)
		}
	}
	return b.String()
}
