package engine

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"knightwatch/engine/nnue"
	"knightwatch/gaviota"
	"knightwatch/syzygy"
)

// The types of UCI options, as the uci handshake announces them.
const (
	OptionCheck  = "check"  // true or false
	OptionSpin   = "spin"   // an integer in Min..Max
	OptionCombo  = "combo"  // one of Vars
	OptionString = "string" // any text, possibly empty
	OptionButton = "button" // no value: setting it does something
)

// Limits of the spin options that the Engine clamps to as well (New,
// SetHash, SetThreads); the option table below is where they are announced
// and checked.
const (
	hashDefaultMB = 16
	hashMaxMB     = 4096
	threadsMax    = 64
)

// builtinEvalFile is EvalFile's default: the network embedded in the
// binary (BuiltinNetwork), which no file on disk has to match.
const builtinEvalFile = "<built-in>"

// UCIOptionInfo describes one UCI option as the uci handshake announces it.
type UCIOptionInfo struct {
	Name string
	Type string // OptionCheck, OptionSpin, OptionCombo, OptionString or OptionButton
	// Default is the announced default ("" for a button): "true"/"false"
	// for a check, a number for a spin.
	Default  string
	Min, Max int      // a spin's accepted range
	Vars     []string // a combo's accepted values
}

// DefaultInt is a spin option's default as a number.
func (o UCIOptionInfo) DefaultInt() int {
	n, err := strconv.Atoi(o.Default)
	if err != nil {
		panic(fmt.Sprintf("engine: UCI option %s has no numeric default", o.Name))
	}
	return n
}

// InRange reports whether x is in a spin option's range Min..Max.
func (o UCIOptionInfo) InRange(x int) bool { return x >= o.Min && x <= o.Max }

// uciValue is a setoption value read according to its option's type.
type uciValue struct {
	Int  int    // spin
	Bool bool   // check
	Str  string // string and combo (a combo value as spelt in Vars)
}

// uciOption is one row of the option table: what the handshake announces,
// how a value is applied to the session, and how the current value is read
// back (nil for a button).
type uciOption struct {
	UCIOptionInfo
	apply func(u *uciSession, v uciValue) error
	value func(u *uciSession) string
}

// uciOptions is the option table: the uci handshake announces these options
// in this order, and setoption accepts exactly these, checking each value
// against its row before applying it.
var uciOptions = []uciOption{
	{
		UCIOptionInfo: UCIOptionInfo{Name: "Hash", Type: OptionSpin, Default: strconv.Itoa(hashDefaultMB), Min: 1, Max: hashMaxMB},
		apply: func(u *uciSession, v uciValue) error {
			x := v.Int
			if u.maxHashMB > 0 {
				x = min(x, u.maxHashMB)
			}
			u.eng.SetHash(x)
			return nil
		},
		value: func(u *uciSession) string { return strconv.Itoa(u.eng.opts.HashMB) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "Threads", Type: OptionSpin, Default: "1", Min: 1, Max: threadsMax},
		apply: func(u *uciSession, v uciValue) error {
			x := v.Int
			if u.maxThreads > 0 {
				x = min(x, u.maxThreads)
			}
			u.eng.SetThreads(x)
			return nil
		},
		value: func(u *uciSession) string { return strconv.Itoa(u.eng.opts.Threads) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "Level", Type: OptionSpin, Default: strconv.Itoa(len(Levels)), Min: 1, Max: len(Levels)},
		apply:         func(u *uciSession, v uciValue) error { u.eng.SetLevel(v.Int); return nil },
		value:         func(u *uciSession) string { return strconv.Itoa(u.eng.opts.Level) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "OwnBook", Type: OptionCheck, Default: "true"},
		apply:         func(u *uciSession, v uciValue) error { u.eng.SetBook(v.Bool, u.eng.opts.BookFile); return nil },
		value:         func(u *uciSession) string { return strconv.FormatBool(u.eng.opts.OwnBook) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "BookFile", Type: OptionString, Default: DefaultBookFile},
		apply:         applyBookFile,
		value: func(u *uciSession) string {
			if u.eng.opts.BookFile == "" {
				return DefaultBookFile
			}
			return u.eng.opts.BookFile
		},
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "UCI_Chess960", Type: OptionCheck, Default: "false"},
		// Applies to the next "position" and to searches.
		apply: func(u *uciSession, v uciValue) error { u.chess960 = v.Bool; return nil },
		value: func(u *uciSession) string { return strconv.FormatBool(u.chess960) },
	},
	{
		// The engine ponders when told "go ponder", whatever this says;
		// the option only tells the GUI that it may.
		UCIOptionInfo: UCIOptionInfo{Name: "Ponder", Type: OptionCheck, Default: "false"},
		apply:         func(u *uciSession, v uciValue) error { u.ponder = v.Bool; return nil },
		value:         func(u *uciSession) string { return strconv.FormatBool(u.ponder) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "MultiPV", Type: OptionSpin, Default: "1", Min: 1, Max: MaxMultiPV},
		apply:         func(u *uciSession, v uciValue) error { u.eng.SetMultiPV(v.Int); return nil },
		value:         func(u *uciSession) string { return strconv.Itoa(u.eng.opts.MultiPV) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "Use NNUE", Type: OptionCheck, Default: "true"},
		apply:         func(u *uciSession, v uciValue) error { u.eng.SetHandWrittenEval(!v.Bool); return nil },
		value:         func(u *uciSession) string { return strconv.FormatBool(!u.eng.opts.HandWrittenEval) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "EvalFile", Type: OptionString, Default: builtinEvalFile},
		apply:         applyEvalFile,
		value:         func(u *uciSession) string { return u.evalFile },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "SyzygyPath", Type: OptionString, Default: syzygyNone},
		apply:         applySyzygyPath,
		value: func(u *uciSession) string {
			if u.syzygyPath == "" {
				return syzygyNone
			}
			return u.syzygyPath
		},
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "SyzygyProbeLimit", Type: OptionSpin, Default: strconv.Itoa(MaxSyzygyProbeLimit), Min: 0, Max: MaxSyzygyProbeLimit},
		apply:         func(u *uciSession, v uciValue) error { u.eng.SetSyzygyProbeLimit(v.Int); return nil },
		value:         func(u *uciSession) string { return strconv.Itoa(u.eng.opts.syzygyProbeLimit()) },
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "GaviotaTbPath", Type: OptionString, Default: syzygyNone},
		apply:         applyGaviotaPath,
		value: func(u *uciSession) string {
			if u.gaviotaPath == "" {
				return syzygyNone
			}
			return u.gaviotaPath
		},
	},
	{
		UCIOptionInfo: UCIOptionInfo{Name: "Clear Hash", Type: OptionButton},
		apply:         func(u *uciSession, _ uciValue) error { u.eng.NewGame(); return nil },
	},
}

// applyBookFile sets BookFile and reads the book at once, so that a file
// that is missing or not a Polyglot book is reported now rather than
// found out silently at the first move. The setting is kept either way
// (the GUI asked for that book) and the engine plays without a book until
// a usable one is set; empty means DefaultBookFile.
func applyBookFile(u *uciSession, v uciValue) error {
	u.eng.SetBook(u.eng.opts.OwnBook, v.Str)
	path := v.Str
	if path == "" {
		path = DefaultBookFile
	}
	if err := reloadBook(path); err != nil {
		return fmt.Errorf("setoption bookfile: cannot use %q: %v; playing without a book", path, err)
	}
	return nil
}

// applyEvalFile sets EvalFile: a network file (tune nnue writes one)
// replaces the built-in network; empty, <empty> or <built-in> goes back to
// it. A file that does not load changes nothing. Whether the network is
// used at all is Use NNUE's business, as in Stockfish.
func applyEvalFile(u *uciSession, v uciValue) error {
	if v.Str == "" || v.Str == "<empty>" || v.Str == builtinEvalFile {
		u.eng.SetNet(nil)
		u.evalFile = builtinEvalFile
		return nil
	}
	net, err := readNetworkFile(v.Str)
	if err != nil {
		return fmt.Errorf("setoption evalfile: cannot use %q: %v; keeping %s", v.Str, err, u.evalFile)
	}
	u.eng.SetNet(net)
	u.evalFile = v.Str
	return nil
}

// syzygyNone is SyzygyPath's default and its value without tables, as
// Stockfish spells it.
const syzygyNone = "<empty>"

// applySyzygyPath sets SyzygyPath: directories separated by ':' (';' on
// Windows) holding Syzygy tables. Empty or <empty> drops the tables. A
// path that cannot be read or holds no table is reported and changes
// nothing: the engine keeps the tables it had (or none). A good one is
// announced with the number of tables found and their largest piece
// count.
func applySyzygyPath(u *uciSession, v uciValue) error {
	path := strings.TrimSpace(v.Str)
	if path == "" || path == syzygyNone {
		u.closeTables()
		return nil
	}
	keeping := "keeping " + syzygyNone
	if u.tb != nil {
		keeping = fmt.Sprintf("keeping %s", u.syzygyPath)
	}
	tb, err := syzygy.Open(path)
	if err != nil {
		return fmt.Errorf("setoption syzygypath: cannot use %q: %v; %s", path, err, keeping)
	}
	wdl, dtz := tb.NumTables()
	if wdl == 0 {
		tb.Close()
		return fmt.Errorf("setoption syzygypath: no Syzygy tables (*%s) in %q; %s", syzygy.WDLSuffix, path, keeping)
	}
	u.closeTables()
	u.tb, u.syzygyPath = tb, path
	u.eng.SetTablebase(tb)
	u.send("info string Syzygy: found %d tables (%d WDL, %d DTZ) of up to %d pieces in %s", wdl+dtz, wdl, dtz, tb.MaxPieces(), path)
	return nil
}

// readNetworkFile reads a network file; a device or a pipe (which might
// block or never end) is refused before it is opened.
func readNetworkFile(path string) (*nnue.Network, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return nnue.Read(f)
}

// findUCIOption returns the table row named name (case-insensitively, as
// UCI option names are), or nil.
func findUCIOption(name string) *uciOption {
	name = strings.ToLower(name)
	for i := range uciOptions {
		if strings.ToLower(uciOptions[i].Name) == name {
			return &uciOptions[i]
		}
	}
	return nil
}

// UCIOption describes the UCI option named name (case-insensitively): its
// type, default and, for a spin, its range. Other commands that take the
// same settings (bench --hash, match --level...) check them against it.
// It panics when there is no such option: names are fixed in the code.
func UCIOption(name string) UCIOptionInfo {
	o := findUCIOption(name)
	if o == nil {
		panic(fmt.Sprintf("engine: no UCI option %q", name))
	}
	return o.UCIOptionInfo
}

// UCIOptions lists the UCI options in the order the handshake announces them.
func UCIOptions() []UCIOptionInfo {
	out := make([]UCIOptionInfo, len(uciOptions))
	for i, o := range uciOptions {
		out[i] = o.UCIOptionInfo
	}
	return out
}

// announce is the option's line in the answer to "uci".
func (o *UCIOptionInfo) announce() string {
	s := "option name " + o.Name + " type " + o.Type
	def := o.Default
	if def == "" {
		def = "<empty>"
	}
	switch o.Type {
	case OptionCheck, OptionString:
		s += " default " + def
	case OptionSpin:
		s += fmt.Sprintf(" default %s min %d max %d", o.Default, o.Min, o.Max)
	case OptionCombo:
		s += " default " + def
		for _, v := range o.Vars {
			s += " var " + v
		}
	}
	return s
}

// parse reads value v for the option; name is how the error names it.
func (o *UCIOptionInfo) parse(name, v string) (uciValue, error) {
	switch o.Type {
	case OptionSpin:
		x, err := strconv.Atoi(v)
		if err != nil || !o.InRange(x) {
			return uciValue{}, fmt.Errorf("setoption %s: value %q is not a number in %d..%d", name, v, o.Min, o.Max)
		}
		return uciValue{Int: x}, nil
	case OptionCheck:
		switch strings.ToLower(v) {
		case "true":
			return uciValue{Bool: true}, nil
		case "false":
			return uciValue{Bool: false}, nil
		}
		return uciValue{}, fmt.Errorf("setoption %s: value %q is not true or false", name, v)
	case OptionCombo:
		for _, c := range o.Vars {
			if strings.EqualFold(c, v) {
				return uciValue{Str: c}, nil
			}
		}
		return uciValue{}, fmt.Errorf("setoption %s: value %q is not one of %s", name, v, strings.Join(o.Vars, ", "))
	}
	return uciValue{Str: v}, nil // string; a button ignores it
}

// setOption handles "setoption name <id> [value <x>]" (both may contain
// spaces): the option is looked up in the table and the value checked
// against its row before it is applied. A refused value changes nothing.
func (u *uciSession) setOption(args []string) error {
	if len(args) < 2 || args[0] != "name" {
		return fmt.Errorf("setoption: expected \"name\"")
	}
	var name, value []string
	i := 1
	for ; i < len(args) && args[i] != "value"; i++ {
		name = append(name, args[i])
	}
	if i < len(args) {
		value = args[i+1:]
	}
	o := findUCIOption(strings.Join(name, " "))
	if o == nil {
		return fmt.Errorf("setoption: unknown option %q", strings.Join(name, " "))
	}
	v, err := o.parse(strings.ToLower(o.Name), strings.Join(value, " "))
	if err != nil {
		return err
	}
	return o.apply(u, v)
}

// applyGaviotaPath sets GaviotaTbPath: directories separated by ':'
// holding Gaviota tables (.gtb.cp4), whose distance to mate picks the
// root move where they hold the position. Empty or <empty> drops them; a
// path that cannot be read or holds no table is reported and changes
// nothing, as SyzygyPath does.
func applyGaviotaPath(u *uciSession, v uciValue) error {
	path := strings.TrimSpace(v.Str)
	if path == "" || path == syzygyNone {
		u.closeGaviota()
		return nil
	}
	keeping := "keeping " + syzygyNone
	if u.gtb != nil {
		keeping = "keeping " + u.gaviotaPath
	}
	tb, err := gaviota.Open(path)
	if err != nil {
		return fmt.Errorf("setoption gaviotatbpath: cannot use %q: %v; %s", path, err, keeping)
	}
	if len(tb.Tables()) == 0 {
		tb.Close()
		return fmt.Errorf("setoption gaviotatbpath: no Gaviota tables (*%s) in %q; %s", gaviota.Suffix, path, keeping)
	}
	u.closeGaviota()
	u.gtb, u.gaviotaPath = tb, path
	u.eng.SetGaviota(tb)
	u.send("info string Gaviota: found %d tables of up to %d pieces in %s", len(tb.Tables()), tb.MaxPieces(), path)
	return nil
}
