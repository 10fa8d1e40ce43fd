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
	for seed := uint64(1); seed < 200; seed++ {
		if moves, ok := playout(seed, plies); ok {
			return moves
		}
	}
	t.Fatalf("no random playout of %d plies stays unfinished", plies)
	return nil
}

func playout(seed uint64, plies int) ([]string, bool) {
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
			return nil, false
		}
	}
	return out, true
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
// the moves of longGameMoves(plies): the person is to move, the engine
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
	tb.e.injectMoves(gameIDOf(gamePath), longGameMoves(tb.t, plies))
	return gamePath, watchPath
}

// safeMove picks a legal move (UCI) in fen for the side to move that
// leaves the game going for a move more: not a mate or stalemate, and no
// reply mates at once. It prefers a pawn move or capture, which no
// repetition can follow.
func safeMove(t *testing.T, fen string) string {
	t.Helper()
	p, err := game.ParseFEN(fen)
	if err != nil {
		t.Fatalf("the board's fen %q: %v", fen, err)
	}
	best := ""
	for _, m := range p.LegalMoves() {
		g := game.NewGameFrom(p)
		if g.Play(m) != nil || g.OutcomeWithClaims().Over() {
			continue
		}
		mates := false
		for _, r := range g.Position().LegalMoves() {
			if g.Play(r) == nil {
				mates = g.Position().IsCheckmate()
				g.Undo()
			}
			if mates {
				break
			}
		}
		if mates {
			continue
		}
		if m.IsPromotion() {
			continue // the chooser would ask
		}
		if p.IsCapture(m) || p.PieceAt(m.From()).Type() == game.Pawn {
			return p.UCI(m)
		}
		if best == "" {
			best = p.UCI(m)
		}
	}
	if best == "" {
		t.Fatalf("no safe move in %q", fen)
	}
	return best
}

// playSafe plays a safe move by clicks (or taps) and waits for it and the
// engine's reply; it returns the ply after the reply.
func (tb *tab) playSafe() int {
	tb.t.Helper()
	b := tb.board()
	ply := 0
	fmt.Sscan(b.Ply, &ply)
	m := safeMove(tb.t, b.FEN)
	tb.clickSquare(m[:2])
	tb.clickSquare(m[2:4])
	tb.waitPly(ply+2, engineWait)
	tb.waitAttr("#board", "data-thinking", "false", engineWait)
	return ply + 2
}
