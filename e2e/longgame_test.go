package e2e

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"knightwatch/game"
	"knightwatch/store"
)

// longGamePlies is the length of the long games the layout tests use: 150
// moves by each side, longer than nearly every game a person plays.
const longGamePlies = 300

// longGameMoves returns plies UCI moves of a game from the standard start
// that is still going after every one of them: a seeded random playout that
// never plays a move ending the game (mate, stalemate, bare kings, a draw
// by the fifty-move rule or repetition, claimed or not), and pushes a pawn
// when the fifty-move count grows long. The same plies give the same game.
// It captures much of the material on both sides, which is what the
// captured-pieces rows need to show.
func longGameMoves(t *testing.T, plies int) []string {
	t.Helper()
	return searchPlayouts(t, plies, func(*game.Position) bool { return true })
}

// playableLongGame is longGameMoves for a game the test plays on: its last
// position leaves each side a pawn and White (the person in the tests) a
// piece as well, so the few moves played after it (safeMove) can keep
// clear of a draw by material and of a repetition.
func playableLongGame(t *testing.T, plies int) []string {
	t.Helper()
	return searchPlayouts(t, plies, func(p *game.Position) bool {
		return has(p, game.White, game.Pawn) && has(p, game.Black, game.Pawn) &&
			(has(p, game.White, game.Knight) || has(p, game.White, game.Bishop) ||
				has(p, game.White, game.Rook) || has(p, game.White, game.Queen))
	})
}

// searchPlayouts returns the first seed's playout of plies that stays
// unfinished and whose last position end accepts.
func searchPlayouts(t *testing.T, plies int, end func(*game.Position) bool) []string {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		if moves, last, ok := playout(seed, plies); ok && end(last) {
			return moves
		}
	}
	t.Fatalf("no random playout of %d plies stays unfinished and ends as the test needs", plies)
	return nil
}

func playout(seed uint64, plies int) ([]string, *game.Position, bool) {
	rng := rand.New(rand.NewPCG(seed, 42))
	g := game.NewGame()
	out := make([]string, 0, plies)
	for len(out) < plies {
		p := g.Position()
		legal := p.LegalMoves()
		rng.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		// Past 60 plies without a pawn move or capture, try those first.
		if p.HalfmoveClock() > 60 {
			k := 0
			for i, m := range legal {
				if p.IsCapture(m) || p.PieceAt(m.From()).Type() == game.Pawn {
					legal[i], legal[k] = legal[k], legal[i]
					k++
				}
			}
		}
		played := false
		for _, m := range legal {
			uci := p.UCI(m)
			if err := g.Play(m); err != nil {
				continue
			}
			if g.OutcomeWithClaims().Over() {
				g.Undo()
				continue
			}
			out = append(out, uci)
			played = true
			break
		}
		if !played {
			return nil, nil, false
		}
	}
	return out, g.Position(), true
}

// has reports whether c has a piece of type pt on p's board.
func has(p *game.Position, c game.Color, pt game.PieceType) bool {
	for sq := game.Square(0); sq < 64; sq++ {
		if pc := p.PieceAt(sq); pc != game.NoPiece && pc.Type() == pt && pc.Color() == c {
			return true
		}
	}
	return false
}

// injectMoves gives the test's game id the moves (UCI) as if they had been
// played: the server is stopped, the moves written to its database through
// the store, and the server started again on the same address, so the
// browser's cookie and the game's URL stay valid. A browser that had the
// game open reconnects by itself.
func (e *env) injectMoves(id string, moves []string) {
	e.t.Helper()
	// Killed, not stopped: a graceful stop waits out the browser's idle
	// pre-opened connections, and every write is on disk already.
	if err := e.srv.Kill(); err != nil {
		e.t.Fatalf("stopping the server: %v", err)
	}
	st, err := store.Open(e.srv.DB)
	if err != nil {
		e.t.Fatalf("opening the database: %v", err)
	}
	g, err := st.Games().GetGame(id)
	if err == nil {
		g.Moves = strings.Join(moves, " ")
		err = st.Games().SaveGame(g)
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		e.t.Fatalf("writing %d moves into game %s: %v", len(moves), id, err)
	}
	if err := e.srv.Start(); err != nil {
		e.t.Fatalf("restarting the server: %v", err)
	}
}

// newLongGame starts a game as White with a 10+5 clock in tb and gives it
// the moves of playableLongGame(plies): the person is to move, the engine
// idle. It returns the game's path (/game/…) and its watch link's path.
func (tb *tab) newLongGame(plies int) (gamePath, watchPath string) {
	tb.t.Helper()
	tb.newGame(gameOpts{color: "white", level: "1", clock: "10+5"})
	gamePath = tb.gamePath()
	link := eval[string](tb, `document.getElementById('watch-link')?.value || ''`)
	i := strings.Index(link, "/watch/")
	if i < 0 {
		tb.fail("no watch link on the game page: %q", link)
	}
	watchPath = link[i:]
	tb.close() // the game's socket is closed while its moves are written
	moves := playableLongGame(tb.t, plies)
	tb.e.injectMoves(gameIDOf(gamePath), moves)
	g := game.NewGame()
	fens := []string{g.Position().FEN()}
	for _, u := range moves {
		m, err := g.Position().ParseUCI(u)
		if err == nil {
			err = g.Play(m)
		}
		if err != nil {
			tb.t.Fatalf("the long game's move %s: %v", u, err)
		}
		fens = append(fens, g.Position().FEN())
	}
	tb.e.markLongGame(fens...)
	return gamePath, watchPath
}

// markLongGame counts positions the long game has been in, for playSafe.
func (e *env) markLongGame(fens ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.longGame == nil {
		e.longGame = map[string]int{}
	}
	for _, f := range fens {
		e.longGame[positionKey(f)]++
	}
}

// longGameTwice reports whether the long game has been in fen's position
// twice: a third time would let a draw be claimed.
func (e *env) longGameTwice(fen string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.longGame[positionKey(fen)] >= 2
}

// safeMove picks a legal move (UCI) in fen for the side to move that
// leaves the game going for a move more: the move does not end the game and
// no reply ends it (a mate, a stalemate, a capture that leaves neither side
// mating material, a fifty-move claim), and neither the move nor any reply
// brings back a position playedTwice reports as played twice before, so no
// repetition can be claimed. The long game's thin material makes a game-ending reply
// likely otherwise: CI saw the engine's reply end it with a capture.
// Among safe moves it prefers one after which nothing can be taken, and
// then a pawn push, a quiet move, a capture, in that order, keeping
// material on the board for the moves after.
func safeMove(t *testing.T, fen string, playedTwice func(fen string) bool) string {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("the board's fen %q: %v", fen, err)
	}
	best, bestRank := "", 8
	for _, m := range p.LegalMoves() {
		if m.IsPromotion() {
			continue // the chooser would ask
		}
		g := game.NewGameFrom(p)
		if g.Play(m) != nil || g.OutcomeWithClaims().Over() || playedTwice(g.Position().FEN()) {
			continue
		}
		ends, hangs := false, false
		for _, r := range g.Position().LegalMoves() {
			hangs = hangs || g.Position().IsCapture(r)
			if g.Play(r) == nil {
				ends = g.OutcomeWithClaims().Over() || playedTwice(g.Position().FEN())
				g.Undo()
			}
			if ends {
				break
			}
		}
		if ends {
			continue
		}
		pawn, capture := p.PieceAt(m.From()).Type() == game.Pawn, p.IsCapture(m)
		rank := 2
		switch {
		case pawn && !capture:
			rank = 0
		case pawn:
			rank = 1
		case capture:
			rank = 3
		}
		if hangs {
			rank += 4
		}
		if rank < bestRank {
			best, bestRank = p.UCI(m), rank
		}
	}
	if best == "" {
		t.Fatalf("no safe move in %q", fen)
	}
	return best
}

// positionKey is a FEN without its move counters: positions with equal
// keys repeat one another.
func positionKey(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:4]
	}
	return strings.Join(f, " ")
}

// playSafe plays a safe move by clicks (or taps) and waits for it and the
// engine's reply; it returns the ply after the reply.
func (tb *tab) playSafe() int {
	tb.t.Helper()
	b := tb.board()
	ply := 0
	fmt.Sscan(b.Ply, &ply)
	m := safeMove(tb.t, b.FEN, tb.e.longGameTwice)
	tb.clickSquare(m[:2])
	tb.clickSquare(m[2:4])
	after := tb.waitPly(ply+2, engineWait)
	tb.waitAttr("#board", "data-thinking", "false", engineWait)
	mid, err := game.ParseFEN(b.FEN)
	if err != nil {
		tb.t.Fatalf("the board's fen %q: %v", b.FEN, err)
	}
	if mv, err := mid.ParseUCI(m); err == nil {
		mid.MakeMove(mv)
	}
	tb.e.markLongGame(b.FEN, mid.FEN(), after.FEN)
	return ply + 2
}
