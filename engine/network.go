package engine

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"knightwatch/engine/nnue"
)

// builtinNetFile is the network the engine evaluates with unless told
// otherwise: trained in session 20 (README, "Evaluation tuning") on 19.7 M
// positions from the engine's own games. It is embedded so that the one
// binary plays at full strength with no files beside it.
//
//go:embed nets/session20.nnue
var builtinNetFile []byte

// BuiltinNetworkName names the embedded network in UCI output and docs.
const BuiltinNetworkName = "session20.nnue"

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
