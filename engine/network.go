package engine

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"knightwatch/engine/nnue"
)

// builtinNetFile is the network the engine evaluates with unless told
// otherwise: 768 inputs (colour x piece x square, each side from its own
// back rank) -> 64 hidden neurons per side (clipped ReLU) -> one output,
// integer weights (engine/nnue). Trained by `tune nnue` on 19.7 M positions
// from the engine's own games (self-play with random opening plies, the level
// ladder), labels 70% search score and 30% result, 2026-11-25; how to train
// it again is in docs/evaluation.md. It is named, as Stockfish names its
// networks, by the first 12 hex digits of the file's SHA-256. It is embedded
// so that the one binary plays at full strength with no files beside it.
//
//go:embed nets/nn-5bda84f71d01.nnue
var builtinNetFile []byte

// BuiltinNetworkName names the embedded network in UCI output and docs.
const BuiltinNetworkName = "nn-5bda84f71d01.nnue"

var builtinNet = sync.OnceValue(func() *nnue.Network {
	n, err := nnue.Read(bytes.NewReader(builtinNetFile))
	if err != nil {
		// The file is part of the binary and a test reads it, so this
		// is a broken build, not bad input.
		panic(fmt.Sprintf("engine: embedded network %s: %v", BuiltinNetworkName, err))
	}
	return n
})

// BuiltinNetwork returns the embedded network (parsed once, shared: a
// Network is read-only while searching).
func BuiltinNetwork() *nnue.Network { return builtinNet() }

// evalNet is the network a search with these options evaluates with, or
// nil for the hand-written evaluation.
func (o *Options) evalNet() *nnue.Network {
	switch {
	case o.HandWrittenEval:
		return nil
	case o.Net != nil:
		return o.Net
	default:
		return BuiltinNetwork()
	}
}
