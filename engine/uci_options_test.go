package engine

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// uciHandshake is the answer to "uci" as it was before the options became a
// table; the table must keep announcing exactly this.
const uciHandshake = `id name Knightwatch
id author the Knightwatch developers
option name Hash type spin default 16 min 1 max 4096
option name Threads type spin default 1 min 1 max 64
option name Level type spin default 8 min 1 max 8
option name OwnBook type check default true
option name BookFile type string default /usr/share/games/gnuchess/book.bin
option name UCI_Chess960 type check default false
option name Ponder type check default false
option name MultiPV type spin default 1 min 1 max 256
option name Use NNUE type check default true
option name EvalFile type string default <built-in>
option name SyzygyPath type string default <empty>
option name SyzygyProbeLimit type spin default 7 min 0 max 7
option name GaviotaTbPath type string default <empty>
option name Clear Hash type button
uciok`

func TestUCIHandshakeListsTheOptionTable(t *testing.T) {
	lines := runTranscript(t, "uci\nquit\n")
	if got := strings.Join(lines, "\n"); got != uciHandshake {
		t.Errorf("uci answer changed:\n%s\nwant\n%s", got, uciHandshake)
	}
	opts := linesWith(lines, "option name ")
	if len(opts) != len(uciOptions) {
		t.Fatalf("%d option lines for %d table rows", len(opts), len(uciOptions))
	}
	for i, o := range uciOptions {
		if want := o.announce(); opts[i] != want {
			t.Errorf("line %d: %q, want %q", i, opts[i], want)
		}
		if !strings.HasPrefix(opts[i], "option name "+o.Name+" type "+o.Type) {
			t.Errorf("line %d %q does not announce %s", i, opts[i], o.Name)
		}
	}
}

func TestUCIOptionAnnounce(t *testing.T) {
	cases := []struct {
		o    UCIOptionInfo
		want string
	}{
		{UCIOptionInfo{Name: "A b", Type: OptionSpin, Default: "3", Min: -1, Max: 9}, "option name A b type spin default 3 min -1 max 9"},
		{UCIOptionInfo{Name: "C", Type: OptionCheck, Default: "true"}, "option name C type check default true"},
		{UCIOptionInfo{Name: "S", Type: OptionString, Default: ""}, "option name S type string default <empty>"},
		{UCIOptionInfo{Name: "S", Type: OptionString, Default: "x y"}, "option name S type string default x y"},
		{UCIOptionInfo{Name: "Style", Type: OptionCombo, Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}, "option name Style type combo default Normal var Solid var Normal var Risky"},
		{UCIOptionInfo{Name: "Go", Type: OptionButton}, "option name Go type button"},
	}
	for _, c := range cases {
		if got := c.o.announce(); got != c.want {
			t.Errorf("announce %+v = %q, want %q", c.o, got, c.want)
		}
	}
}

// testSession is a UCI session whose Hash stays small.
func testSession() *uciSession {
	u := newUCISession(io.Discard)
	u.maxHashMB = 4
	return u
}

// TestUCIOptionDefaults: a new session's settings are the announced
// defaults.
func TestUCIOptionDefaults(t *testing.T) {
	u := newUCISession(io.Discard)
	for _, o := range uciOptions {
		if o.value == nil {
			if o.Type != OptionButton {
				t.Errorf("%s: no way to read its value", o.Name)
			}
			continue
		}
		if got := o.value(u); got != o.Default {
			t.Errorf("%s: a new session has %q, the handshake says default %q", o.Name, got, o.Default)
		}
	}
}

// setoption runs one setoption command through the session and returns
// the info string it printed, if any.
func setoption(u *uciSession, name, value string) string {
	var out strings.Builder
	u.out = &out
	defer func() { u.out = io.Discard }()
	cmd := "setoption name " + name
	if value != "\x00" {
		cmd += " value " + value
	}
	u.handle(cmd)
	return strings.TrimSpace(out.String())
}

// TestUCIOptionValues sets every option of the table to good and bad
// values: a good one is applied, a bad one is refused with an info string
// naming the option and the problem, and changes nothing.
func TestUCIOptionValues(t *testing.T) {
	type value struct {
		in, want string // want "" = refused
	}
	var cases []struct {
		name   string
		values []value
		errHas string
	}
	for _, o := range uciOptions {
		var vs []value
		errHas := ""
		switch o.Type {
		case OptionSpin:
			capped := func(x int) string {
				if o.Name == "Hash" {
					x = min(x, 4) // testSession's cap
				}
				return strconv.Itoa(x)
			}
			vs = []value{
				{strconv.Itoa(o.Min), capped(o.Min)}, {strconv.Itoa(o.Max), capped(o.Max)},
				{strconv.Itoa(o.Min - 1), ""}, {strconv.Itoa(o.Max + 1), ""},
				{"x", ""}, {"", ""}, {"1.5", ""}, {"2 3", ""}, {"-0x1", ""},
			}
			errHas = fmt.Sprintf("is not a number in %d..%d", o.Min, o.Max)
		case OptionCheck:
			vs = []value{{"true", "true"}, {"false", "false"}, {"TRUE", "true"}, {"False", "false"}, {"yes", ""}, {"1", ""}, {"", ""}}
			errHas = "is not true or false"
		case OptionString:
			if o.Name == "SyzygyPath" {
				// A good path reports the tables found
				// (TestSyzygyUCIOptions); a bad one changes nothing.
				vs = []value{{"no-such-dir", ""}, {"uci_test.go", ""}, {"<empty>", syzygyNone}, {"", syzygyNone}}
				errHas = "syzygypath: cannot use"
			} else if o.Name == "GaviotaTbPath" {
				// A good path reports the tables found
				// (TestGaviotaUCIOption); a bad one changes nothing.
				vs = []value{{"no-such-dir", ""}, {"uci_test.go", ""}, {"<empty>", syzygyNone}, {"", syzygyNone}}
				errHas = "gaviotatbpath: cannot use"
			} else if o.Name == "EvalFile" {
				vs = []value{{"no-such-file.nnue", ""}, {"uci_test.go", ""}, {"<empty>", builtinEvalFile}, {"", builtinEvalFile}}
				errHas = "evalfile"
			} else {
				// BookFile: a file that is not a usable book is set, with
				// an info string (TestUCIBookFileProblems).
				vs = []value{{"/tmp/a book.bin", "/tmp/a book.bin"}, {"", o.Default}, {"x", "x"}}
			}
		case OptionButton:
			vs = []value{{"\x00", ""}, {"anything", ""}}
		default:
			t.Fatalf("%s: type %s untested", o.Name, o.Type)
		}
		cases = append(cases, struct {
			name   string
			values []value
			errHas string
		}{o.Name, vs, errHas})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := testSession()
			o := findUCIOption(c.name)
			for _, v := range c.values {
				before := ""
				if o.value != nil {
					before = o.value(u)
				}
				info := setoption(u, c.name, v.in)
				if o.Type == OptionButton {
					if info != "" {
						t.Errorf("%q: %s", v.in, info)
					}
					continue
				}
				after := o.value(u)
				if v.want == "" {
					want := "info string error: setoption " + strings.ToLower(c.name)
					if !strings.HasPrefix(info, want) || !strings.Contains(info, c.errHas) {
						t.Errorf("%q: info %q, want %q... %q", v.in, info, want, c.errHas)
					}
					if after != before {
						t.Errorf("refused %q changed the value from %q to %q", v.in, before, after)
					}
					continue
				}
				if c.name == "BookFile" && v.in != "" {
					if want := fmt.Sprintf("info string error: setoption bookfile: cannot use %q: ", v.in); after != v.want || !strings.HasPrefix(info, want) {
						t.Errorf("%q: value %q (info %q), want %q (info %q...)", v.in, after, info, v.want, want)
					}
					continue
				}
				if info != "" || after != v.want {
					t.Errorf("%q: value %q (info %q), want %q", v.in, after, info, v.want)
				}
			}
		})
	}
}

func TestUCIOptionNames(t *testing.T) {
	u := testSession()
	// Names are case-insensitive and may hold spaces.
	if info := setoption(u, "use nnue", "false"); info != "" || u.eng.opts.HandWrittenEval != true {
		t.Errorf("use nnue: %q", info)
	}
	if info := setoption(u, "THREADS", "3"); info != "" || u.eng.opts.Threads != 3 {
		t.Errorf("THREADS: %q", info)
	}
	if info := setoption(u, "Clear  Hash", "\x00"); info != "" {
		t.Errorf("Clear  Hash: %q", info)
	}
	for _, c := range []struct{ cmd, want string }{
		{"setoption name Nope value 1", `info string error: setoption: unknown option "Nope"`},
		{"setoption name Use", `info string error: setoption: unknown option "Use"`},
		{"setoption name", `info string error: setoption: expected "name"`},
		{"setoption Hash value 3", `info string error: setoption: expected "name"`},
	} {
		var out strings.Builder
		u.out = &out
		u.handle(c.cmd)
		if got := strings.TrimSpace(out.String()); got != c.want {
			t.Errorf("%s: %q, want %q", c.cmd, got, c.want)
		}
	}
	if u.eng.opts.Threads != 3 {
		t.Errorf("refused commands changed the settings: %+v", u.eng.opts)
	}
}

func TestUCIOptionComboParse(t *testing.T) {
	o := UCIOptionInfo{Name: "Style", Type: OptionCombo, Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}}
	for _, c := range []struct{ in, want string }{{"Risky", "Risky"}, {"solid", "Solid"}, {"Wild", ""}, {"", ""}} {
		v, err := o.parse("style", c.in)
		if c.want == "" {
			if err == nil || !strings.Contains(err.Error(), "setoption style: value") || !strings.Contains(err.Error(), "Solid, Normal, Risky") {
				t.Errorf("%q: %v", c.in, err)
			}
			continue
		}
		if err != nil || v.Str != c.want {
			t.Errorf("%q: %q, %v", c.in, v.Str, err)
		}
	}
}

func TestUCIOptionLookup(t *testing.T) {
	infos := UCIOptions()
	if len(infos) != len(uciOptions) {
		t.Fatalf("UCIOptions lists %d of %d", len(infos), len(uciOptions))
	}
	for i, o := range infos {
		if got := UCIOption(strings.ToUpper(o.Name)); got.Name != o.Name || got.Default != uciOptions[i].Default {
			t.Errorf("UCIOption(%q) = %+v", o.Name, got)
		}
		if o.Type == OptionSpin && (o.DefaultInt() < o.Min || o.DefaultInt() > o.Max || !o.InRange(o.DefaultInt())) {
			t.Errorf("%s: default %s outside %d..%d", o.Name, o.Default, o.Min, o.Max)
		}
	}
	lv := UCIOption("Level")
	if lv.Min != 1 || lv.Max != len(Levels) || lv.DefaultInt() != len(Levels) {
		t.Errorf("Level option %+v does not match Levels", lv)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("UCIOption of an unknown name did not panic")
		}
	}()
	UCIOption("Nope")
}

// TestEngineClampsToTheOptionTable: Engine's own clamping of out-of-range
// options agrees with the UCI table's limits and defaults.
func TestEngineClampsToTheOptionTable(t *testing.T) {
	hash, threads, level, multiPV := UCIOption("Hash"), UCIOption("Threads"), UCIOption("Level"), UCIOption("MultiPV")
	e := New(Options{})
	if o := e.Options(); o.HashMB != hash.DefaultInt() || o.Threads != threads.DefaultInt() || o.Level != level.DefaultInt() || o.MultiPV != multiPV.DefaultInt() {
		t.Errorf("zero Options became %+v", o)
	}
	e = New(Options{HashMB: 1, Threads: threads.Max + 1, Level: level.Max + 1, MultiPV: multiPV.Max + 1})
	if o := e.Options(); o.Threads != threads.Max || o.Level != level.DefaultInt() || o.MultiPV != multiPV.Max {
		t.Errorf("too large Options became %+v", o)
	}
	e.SetThreads(threads.Max + 5)
	if e.Options().Threads != threads.Max {
		t.Errorf("SetThreads(%d) gave %d", threads.Max+5, e.Options().Threads)
	}
	if hashMaxMB != hash.Max {
		t.Errorf("Engine caps Hash at %d, the option at %d", hashMaxMB, hash.Max)
	}
}
