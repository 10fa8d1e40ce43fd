package bots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"knightwatch/game"
	"knightwatch/recon"
)

// TroutConfig chooses trout's engine and how long each search may take.
type TroutConfig struct {
	// Stockfish is the path of a UCI engine to use instead of
	// Knightwatch's own; empty means Knightwatch's engine.
	Stockfish string
	// MoveTime bounds each search (the reference gives Stockfish 0.5 s);
	// trout also never spends more than a twentieth of its clock on one.
	MoveTime time.Duration
	// Nodes bounds each search by nodes instead (0: no node bound); with
	// Knightwatch's engine and no MoveTime this makes trout deterministic.
	Nodes uint64
}

func parseTroutOptions(opts map[string]string) (TroutConfig, error) {
	cfg := TroutConfig{Stockfish: os.Getenv(StockfishEnv), MoveTime: 500 * time.Millisecond}
	switch opts["engine"] {
	case "":
	case "knightwatch":
		cfg.Stockfish = ""
	case "stockfish":
		if cfg.Stockfish == "" {
			return cfg, fmt.Errorf("engine=stockfish needs %s to name the Stockfish executable", StockfishEnv)
		}
	default:
		return cfg, fmt.Errorf("engine=%q: want knightwatch or stockfish", opts["engine"])
	}
	if v, ok := opts["movetime"]; ok {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return cfg, fmt.Errorf("movetime=%q: want a duration such as 100ms", v)
		}
		cfg.MoveTime = d
	}
	if v, ok := opts["nodes"]; ok {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil || n == 0 {
			return cfg, fmt.Errorf("nodes=%q: want a positive number", v)
		}
		cfg.Nodes = n
		if _, timed := opts["movetime"]; !timed {
			cfg.MoveTime = 0
		}
	}
	return cfg, nil
}

// Trout is the reference's TroutBot with a choice of engine. It keeps one
// board: the starting position, its own moves as taken, its pieces removed
// where the opponent captured, and every sensed square written over. It
// senses where it was just captured, else where its intended move would
// capture, else at random away from its own pieces; it takes the king
// whenever its board shows the king attacked, and otherwise plays the
// engine's move on its board.
type Trout struct {
	cfg     TroutConfig
	rng     *rand.Rand
	chooser moveChooser
	color   game.Color
	board   mailbox
	// castle[side] stays true while trout's own king and that rook have
	// never moved (the opponent's rights are read from its board).
	castle     [2]bool
	capturedSq game.Square
}

// NewTrout returns a trout bot; seed drives its random senses (and its
// engine's random choices).
func NewTrout(cfg TroutConfig, seed uint64) (*Trout, error) {
	t := &Trout{cfg: cfg, rng: rand.New(rand.NewPCG(seed, 0x74726f7574)), capturedSq: game.NoSquare}
	if cfg.Stockfish != "" {
		c, err := newStockfishChooser(cfg.Stockfish)
		if err != nil {
			return nil, err
		}
		t.chooser = c
	} else {
		t.chooser = newKnightwatchChooser(seed)
	}
	return t, nil
}

// Close stops trout's engine process, if it has one.
func (t *Trout) Close() error {
	t.chooser.close()
	return nil
}

// Start sets up trout's board.
func (t *Trout) Start(color game.Color, board recon.Board, _ string) {
	t.color = color
	for s := game.A1; s <= game.H8; s++ {
		t.board[s] = board.PieceAt(s)
	}
	t.castle = [2]bool{true, true}
	t.capturedSq = game.NoSquare
}

// OpponentMoveResult removes the captured piece.
func (t *Trout) OpponentMoveResult(capture game.Square) {
	t.capturedSq = capture
	if capture != game.NoSquare {
		t.board[capture] = game.NoPiece
	}
}

// ChooseSense senses where trout was captured, else where its move would
// capture, else at random on a square without its own piece.
func (t *Trout) ChooseSense(ctx context.Context, senseActions []game.Square, moveActions []game.Move, timeLeft time.Duration) game.Square {
	if t.capturedSq != game.NoSquare {
		return t.capturedSq
	}
	if m := t.ChooseMove(ctx, moveActions, timeLeft); m != game.NoMove && t.board[m.To()] != game.NoPiece {
		return m.To()
	}
	var free []game.Square
	for _, s := range senseActions {
		if pc := t.board[s]; pc == game.NoPiece || pc.Color() != t.color {
			free = append(free, s)
		}
	}
	if len(free) == 0 {
		return game.NoSquare
	}
	return free[t.rng.IntN(len(free))]
}

// SenseResult writes the sensed squares onto the board. An opponent king
// seen on one square is gone from every other.
func (t *Trout) SenseResult(result recon.SenseResult) {
	for _, sp := range result {
		if sp.Piece.Type() == game.King && sp.Piece.Color() != t.color {
			for s := range t.board {
				if t.board[s] == sp.Piece {
					t.board[s] = game.NoPiece
				}
			}
		}
		t.board[sp.Square] = sp.Piece
	}
}

// ChooseMove takes the king if the board shows it attacked, else plays the
// engine's move for the board (a pass when the engine has none).
func (t *Trout) ChooseMove(ctx context.Context, moveActions []game.Move, timeLeft time.Duration) game.Move {
	pos, err := game.ParseBoardFEN(t.fen())
	if err != nil {
		return game.NoMove
	}
	if k := pos.KingSquare(t.color.Other()); k != game.NoSquare {
		if attackers := pos.AttackersTo(k, pos.Occupied()) & pos.ByColor(t.color); attackers != 0 {
			m := game.NewMove(attackers.First(), k)
			if slices.Contains(moveActions, recon.WithDefaultPromotion(pos, m)) {
				return m
			}
		}
	}
	limit := searchLimit{moveTime: t.cfg.MoveTime, nodes: t.cfg.Nodes}
	if limit.moveTime > 0 && timeLeft < recon.Unlimited && timeLeft/20 < limit.moveTime {
		limit.moveTime = max(timeLeft/20, time.Millisecond)
	}
	enc, err := t.chooser.choose(ctx, pos, limit)
	if err != nil {
		return game.NoMove
	}
	m := plain(pos, enc)
	if !slices.Contains(moveActions, m) {
		return game.NoMove
	}
	return m
}

// MoveResult plays the taken move on the board.
func (t *Trout) MoveResult(r recon.MoveResult) {
	m := r.Taken
	if m == game.NoMove {
		return
	}
	from, to := m.From(), m.To()
	pc := t.board[from]
	if r.Capture != game.NoSquare {
		t.board[r.Capture] = game.NoPiece
	}
	t.board[to], t.board[from] = pc, game.NoPiece
	if m.IsPromotion() {
		t.board[to] = game.MakePiece(t.color, m.Promotion())
	}
	if pc.Type() == game.King {
		t.castle = [2]bool{}
		if d := int(to) - int(from); d == 2 || d == -2 {
			rookFrom, rookTo := to+1, to-1 // king side
			if d < 0 {
				rookFrom, rookTo = to-2, to+1
			}
			t.board[rookTo], t.board[rookFrom] = t.board[rookFrom], game.NoPiece
		}
	}
	home := game.Square(0)
	if t.color == game.Black {
		home = 56
	}
	if from == home+7 {
		t.castle[game.KingSide] = false
	}
	if from == home {
		t.castle[game.QueenSide] = false
	}
}

// End stops the engine.
func (t *Trout) End(recon.Outcome, *recon.History) { _ = t.Close() }

// fen writes trout's board with trout to move, castling rights where king
// and rook stand at home (its own only while they have never moved), and
// no en passant square.
func (t *Trout) fen() string {
	var sb strings.Builder
	sb.WriteString(t.board.placement())
	side := " w "
	if t.color == game.Black {
		side = " b "
	}
	sb.WriteString(side)
	rights := ""
	for _, c := range []game.Color{game.White, game.Black} {
		home := game.Square(0)
		if c == game.Black {
			home = 56
		}
		if t.board[home+4] != game.MakePiece(c, game.King) {
			continue
		}
		for i, side := range [2]int{game.KingSide, game.QueenSide} {
			rook := home + 7
			if side == game.QueenSide {
				rook = home
			}
			if t.board[rook] != game.MakePiece(c, game.Rook) || (c == t.color && !t.castle[side]) {
				continue
			}
			letter := "KQ"[i]
			if c == game.Black {
				letter += 'a' - 'A'
			}
			rights += string(letter)
		}
	}
	if rights == "" {
		rights = "-"
	}
	sb.WriteString(rights + " - 0 1")
	return sb.String()
}

// plain turns an engine's move into the plain form move actions use:
// castling as the king's two-square move, en passant as a diagonal move.
func plain(pos *game.Position, m game.Move) game.Move {
	switch {
	case m.IsCastling():
		to := game.NewSquare(6, m.From().Rank())
		if m.To() < m.From() {
			to = game.NewSquare(2, m.From().Rank())
		}
		return game.NewMove(m.From(), to)
	case m.IsEnPassant():
		return game.NewMove(m.From(), m.To())
	}
	return m
}
