// Package nnue is a small efficiently-updatable neural network evaluation:
// 768 inputs (piece colour × type × square, seen from each side), one
// hidden layer of Hidden neurons per side, clipped ReLU, one output. The
// search keeps the hidden layer's sums (an Accumulator) per ply and updates
// them by the few pieces that moved, so a node costs a few hundred integer
// additions instead of a full evaluation. The trainer (package tune)
// learns the weights in floating point from labelled positions; Quantize
// turns them into the integers of the file format below.
package nnue

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"knightwatch/game"
)

const (
	// Inputs is the number of input features: 2 colours × 6 piece types
	// × 64 squares.
	Inputs = 768
	// Hidden is the number of hidden neurons per side.
	Hidden = 64
	// QA is the scale of the first layer's integer weights (and the
	// clipped ReLU's ceiling); QB that of the output weights.
	QA = 255
	QB = 64
	// OutputScale turns the network's output (about -4..4 in training)
	// into centipawns.
	OutputScale = 400
)

// fileMagic starts every network file; fileVersion changes with the layout.
const (
	fileMagic   = "KWNN"
	fileVersion = 1
)

// Network holds the quantized weights. The first layer is shared by both
// sides: White's features are the pieces as they stand, Black's the board
// flipped vertically with colours swapped, so one set of weights serves
// both points of view.
type Network struct {
	W1 [Inputs * Hidden]int16 // [feature*Hidden + neuron]
	B1 [Hidden]int16
	W2 [2 * Hidden]int16 // side to move's neurons, then the other side's
	B2 int32
}

// Feature is the input index of a piece of colour pc and type pt on sq,
// seen from perspective's side: its own pieces first, squares from its
// own back rank.
func Feature(perspective, pc game.Color, pt game.PieceType, sq game.Square) int {
	side := 0
	if pc != perspective {
		side = 1
	}
	if perspective == game.Black {
		sq ^= 56
	}
	return side*384 + int(pt-game.Pawn)*64 + int(sq)
}

// ErrFormat is wrapped by every error about a malformed network file.
var ErrFormat = errors.New("nnue: malformed network file")

// Read loads a network written by Write. It checks the header, the size
// and that the accumulators cannot overflow, so a damaged or foreign file
// gives an error rather than a wrong evaluation.
func Read(r io.Reader) (*Network, error) {
	br := bufio.NewReader(r)
	var hdr struct {
		Magic   [4]byte
		Version uint32
		Inputs  uint32
		Hidden  uint32
	}
	if err := binary.Read(br, binary.LittleEndian, &hdr); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if string(hdr.Magic[:]) != fileMagic {
		return nil, fmt.Errorf("%w: not a Knightwatch network", ErrFormat)
	}
	if hdr.Version != fileVersion || hdr.Inputs != Inputs || hdr.Hidden != Hidden {
		return nil, fmt.Errorf("%w: version %d, %d inputs, %d hidden; want version %d, %d, %d",
			ErrFormat, hdr.Version, hdr.Inputs, hdr.Hidden, fileVersion, Inputs, Hidden)
	}
	n := new(Network)
	for _, part := range []any{n.W1[:], n.B1[:], n.W2[:], &n.B2} {
		if err := binary.Read(br, binary.LittleEndian, part); err != nil {
			return nil, fmt.Errorf("%w: weights: %v", ErrFormat, err)
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the weights", ErrFormat)
	}
	if err := n.checkRange(); err != nil {
		return nil, err
	}
	return n, nil
}

// checkRange rejects weights whose sums could overflow an int16
// accumulator: at most 32 pieces, so the bias plus the 32 largest weights
// of each neuron (an overestimate: one per feature) must fit.
func (n *Network) checkRange() error {
	for h := 0; h < Hidden; h++ {
		var top [32]int
		for f := 0; f < Inputs; f++ {
			w := int(n.W1[f*Hidden+h])
			if w < 0 {
				w = -w
			}
			// Keep the 32 largest magnitudes (insertion into a sorted array).
			if w > top[31] {
				i := 31
				for i > 0 && top[i-1] < w {
					top[i] = top[i-1]
					i--
				}
				top[i] = w
			}
		}
		sum := int(n.B1[h])
		if sum < 0 {
			sum = -sum
		}
		for _, w := range top {
			sum += w
		}
		if sum > 32767 {
			return fmt.Errorf("%w: neuron %d could overflow (%d)", ErrFormat, h, sum)
		}
	}
	return nil
}

// Write stores the network in the format Read loads.
func (n *Network) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	hdr := struct {
		Magic   [4]byte
		Version uint32
		Inputs  uint32
		Hidden  uint32
	}{Version: fileVersion, Inputs: Inputs, Hidden: Hidden}
	copy(hdr.Magic[:], fileMagic)
	for _, part := range []any{&hdr, n.W1[:], n.B1[:], n.W2[:], n.B2} {
		if err := binary.Write(bw, binary.LittleEndian, part); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// Accumulator holds the hidden layer's sums before the activation, one
// row per perspective (indexed by game.Color).
type Accumulator struct {
	V [2][Hidden]int16
}

// Pieces is a position's piece placement, [colour][type], the part of a
// position the network sees. Comparing two of them gives the features to
// update.
type Pieces [2][6]game.Bitboard

// PiecesOf returns p's piece placement.
func PiecesOf(p *game.Position) Pieces {
	var ps Pieces
	for c := game.White; c <= game.Black; c++ {
		for pt := game.Pawn; pt <= game.King; pt++ {
			ps[c][pt-game.Pawn] = p.Pieces(c, pt)
		}
	}
	return ps
}

// Refresh computes acc from scratch for the placement ps.
func (n *Network) Refresh(acc *Accumulator, ps *Pieces) {
	acc.V[game.White] = n.B1
	acc.V[game.Black] = n.B1
	for c := game.White; c <= game.Black; c++ {
		for i := range 6 {
			pt := game.Pawn + game.PieceType(i)
			for b := ps[c][i]; b != 0; {
				sq := b.PopFirst()
				n.add(&acc.V[game.White], Feature(game.White, c, pt, sq))
				n.add(&acc.V[game.Black], Feature(game.Black, c, pt, sq))
			}
		}
	}
}

// Update sets dst to src's accumulator moved from placement from to
// placement to: only the pieces that differ are touched. Any two
// placements work (a move, a null move, several moves apart); the cost
// grows with the number of changed pieces. An ordinary move (one piece
// off a square, one on) takes one pass over each row.
func (n *Network) Update(dst, src *Accumulator, from, to *Pieces) {
	// The changed features from White's view; Black's follow from them.
	var removed, added [32]int
	nr, na := 0, 0
	for c := game.White; c <= game.Black; c++ {
		for i := range 6 {
			diff := from[c][i] ^ to[c][i]
			if diff == 0 {
				continue
			}
			pt := game.Pawn + game.PieceType(i)
			for b := diff & from[c][i]; b != 0 && nr < len(removed); {
				removed[nr] = Feature(game.White, c, pt, b.PopFirst())
				nr++
			}
			for b := diff & to[c][i]; b != 0 && na < len(added); {
				added[na] = Feature(game.White, c, pt, b.PopFirst())
				na++
			}
		}
	}
	if nr == 0 || na == 0 {
		*dst = *src
	} else {
		nr--
		na--
		a, r := added[na], removed[nr]
		addSubRow(&dst.V[game.White], &src.V[game.White], n.row(a), n.row(r))
		addSubRow(&dst.V[game.Black], &src.V[game.Black], n.row(blackView(a)), n.row(blackView(r)))
	}
	for _, f := range removed[:nr] {
		subRow(&dst.V[game.White], n.row(f))
		subRow(&dst.V[game.Black], n.row(blackView(f)))
	}
	for _, f := range added[:na] {
		addRow(&dst.V[game.White], n.row(f))
		addRow(&dst.V[game.Black], n.row(blackView(f)))
	}
}

// blackView turns a feature seen from White's side into the same piece
// seen from Black's: colours swap, ranks flip.
func blackView(f int) int {
	return ((f + 384) % 768) ^ 56
}

// row is feature f's first-layer weights.
func (n *Network) row(f int) *[Hidden]int16 {
	return (*[Hidden]int16)(n.W1[f*Hidden : f*Hidden+Hidden])
}

func (n *Network) add(v *[Hidden]int16, f int) { addRow(v, n.row(f)) }

// Evaluate returns the network's score in centipawns for the side to
// move, stm, from a current accumulator.
func (n *Network) Evaluate(acc *Accumulator, stm game.Color) int {
	sum := n.B2 + outputSum(&acc.V[stm], &acc.V[stm.Other()], &n.W2)
	return int(int64(sum) * OutputScale / (QA * QB))
}

func crelu(x int16) int16 {
	return min(max(x, 0), QA)
}

// EvaluatePosition evaluates p from scratch, for the side to move.
func (n *Network) EvaluatePosition(p *game.Position) int {
	var acc Accumulator
	ps := PiecesOf(p)
	n.Refresh(&acc, &ps)
	return n.Evaluate(&acc, p.Side())
}
