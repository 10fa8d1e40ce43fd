package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"knightwatch/game"
)

// UCI runs the Universal Chess Interface protocol: commands are read from
// in line by line and answers written to out. It returns when "quit" is
// read or in ends. Malformed commands are reported with "info string" and
// change nothing.
func UCI(in io.Reader, out io.Writer) error {
	u := newUCISession(out)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	quit := false
	for sc.Scan() {
		if !u.handle(sc.Text()) {
			quit = true
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
	return sc.Err()
}

// uciSession is the state of one UCI conversation.
type uciSession struct {
	outMu sync.Mutex
	out   io.Writer

	eng      *Engine
	game     *game.Game
	chess960 bool   // UCI_Chess960
	ponder   bool   // Ponder (the GUI may send "go ponder"; it is accepted either way)
	evalFile string // EvalFile: the network file loaded, or builtinEvalFile

	// maxHashMB caps the Hash option (the fuzz test keeps memory small).
	maxHashMB int

	// The running search, if any.
	cancel  context.CancelFunc
	done    chan struct{}
	endless bool // the search runs until stopped
}

func newUCISession(out io.Writer) *uciSession {
	u := &uciSession{out: out, game: game.NewGame(), evalFile: builtinEvalFile}
	u.eng = New(Options{OwnBook: true})
	return u
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
		u.game = u.newGameFrom(nil)
	case "setoption":
		u.stopSearch()
		if err := u.setOption(args); err != nil {
			u.send("info string error: %v", err)
		}
	case "position":
		u.stopSearch()
		g, err := u.parsePosition(args)
		if err != nil {
			u.send("info string error: %v", err)
			return true
		}
		u.game = g
	case "go":
		u.stopSearch()
		pos := u.rootPosition()
		lim, err := parseGo(args, &pos)
		if err != nil {
			u.send("info string error: %v", err)
			return true
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
		u.send("info string error: unknown command %q", cmd)
	}
	return true
}

func (u *uciSession) newGameFrom(p *game.Position) *game.Game {
	if p == nil {
		p = game.NewPosition()
	}
	if u.chess960 {
		p.SetChess960(true)
	}
	return game.NewGameFrom(p)
}

// parsePosition handles "position startpos|fen FEN... [moves m1 m2 ...]".
func (u *uciSession) parsePosition(args []string) (*game.Game, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("position: missing startpos or fen")
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
			return nil, fmt.Errorf("position fen: missing FEN")
		}
		var err error
		p, err = game.ParseFEN(strings.Join(rest[:n], " "))
		if err != nil {
			return nil, fmt.Errorf("position fen: %w", err)
		}
		rest = rest[n:]
	default:
		return nil, fmt.Errorf("position: expected startpos or fen, got %q", args[0])
	}
	g := u.newGameFrom(p)
	if len(rest) == 0 {
		return g, nil
	}
	if rest[0] != "moves" {
		return nil, fmt.Errorf("position: expected \"moves\", got %q", rest[0])
	}
	for _, s := range rest[1:] {
		m, err := g.Position().ParseUCI(s)
		if err != nil {
			return nil, fmt.Errorf("position: %w", err)
		}
		if m == game.NullMove {
			return nil, fmt.Errorf("position: null move not supported")
		}
		if err := g.Play(m); err != nil {
			return nil, fmt.Errorf("position: move %s: %w", s, err)
		}
	}
	return g, nil
}

// goKeywords are the parameters of "go"; a searchmoves list ends at the
// first of them.
var goKeywords = map[string]bool{
	"searchmoves": true, "ponder": true, "wtime": true, "btime": true, "winc": true, "binc": true,
	"movestogo": true, "depth": true, "nodes": true, "mate": true, "movetime": true, "infinite": true,
}

// parseGo reads the arguments of "go"; pos is the position to be searched,
// against which searchmoves are read (they must be legal there).
func parseGo(args []string, pos *game.Position) (Limits, error) {
	var lim Limits
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
				return Limits{}, err
			}
			lim.SearchMoves = append(lim.SearchMoves, moves...)
			i += n
			continue
		case "mate":
			// Searching for a mate is what a depth-limited search does anyway.
		case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo":
		default:
			return lim, fmt.Errorf("go: unknown parameter %q", key)
		}
		if i+1 >= len(args) {
			return lim, fmt.Errorf("go: %s needs a value", key)
		}
		i++
		x, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			return lim, fmt.Errorf("go: %s: %q is not a number", key, args[i])
		}
		// Some GUIs send negative clock times when a player is in time
		// trouble; treat them as almost nothing left.
		if x < 0 {
			x = 0
			if key == "wtime" || key == "btime" {
				x = 1
			}
		}
		ms := time.Duration(min(x, 1<<40)) * time.Millisecond
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
	return lim, nil
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
	pos := *u.game.Position()
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
	history := u.game.HashHistory()
	done := u.done
	go func() {
		defer close(done)
		res := u.eng.Search(ctx, &pos, history, lim, func(info Info) {
			u.send("%s", formatInfo(&pos, info))
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

// formatInfo renders an Info as a UCI info line.
func formatInfo(pos *game.Position, info Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d ", info.Depth, info.SelDepth, max(info.MultiPV, 1))
	if info.Score.Mate != 0 {
		fmt.Fprintf(&b, "score mate %d", info.Score.Mate)
	} else {
		fmt.Fprintf(&b, "score cp %d", info.Score.CP)
	}
	fmt.Fprintf(&b, " nodes %d nps %d hashfull %d time %d", info.Nodes, info.NPS, info.HashFull, info.Time.Milliseconds())
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
