package chenserver

import (
	"bytes"
	"strings"
	"testing"
)

// fuzzSeeds are command lines worth mutating: every verb, good and bad.
var fuzzSeeds = []struct{ setup, cmd string }{
	{"", "new"},
	{"", "status"},
	{"e4", "legal"},
	{"e4 e5", "legal pgn"},
	{"", "legal alg"},
	{"e4 e5 Nc3 Nf6", "history pgn"},
	{"d4 d5 c4", "history tuna"},
	{"", "move e4 e5 Nc3 Nf6"},
	{"e4", "move g8f6 Nc3"},
	{"e4 Nf6 Nc3", "move Nc6 Bb2"},
	{"e4 e5 Nf3 Nc6 Bc4 Bc5", "move O-O"},
	{"e4 d5 exd5 Nf6 c4 e6 dxe6 Bd6 exf7+ Ke7", "move f7f8q"},
	{"e4 a6 e5 d5", "test exd6"},
	{"", "test a1b1"},
	{"e4 f6 Nc3 g5", "think 5"},
	{"", "think 0"},
	{"d4 d5 c4", "undo 2"},
	{"", "undo 1"},
	{"", "exit"},
	{"", "   "},
	{"", "move --"},
	{"", "test 0000"},
}

// FuzzCommand runs arbitrary command lines after an arbitrary `move`
// setup: never a panic, always exactly one line, and an answer that is not
// OK leaves the game exactly as it was.
func FuzzCommand(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.setup, s.cmd)
	}
	f.Fuzz(func(t *testing.T, setup, cmd string) {
		s := NewSession(&quickThinker{})
		s.Execute("move " + setup)
		before := snapshot(s)
		resp, exit := s.Execute(cmd)
		if resp == "" || strings.ContainsAny(resp, "\r\n") {
			t.Fatalf("%q: answer %q is not one line", cmd, resp)
		}
		if !strings.HasPrefix(resp, "OK") {
			if after := snapshot(s); after != before {
				t.Fatalf("%q answered %q but changed the game:\n%s\n%s", cmd, resp, before, after)
			}
		}
		if verb, _ := splitCommand(cmd); exit && verb != "exit" {
			t.Fatalf("%q made the server exit", cmd)
		}
	})
}

// FuzzRequestLine feeds arbitrary first lines through the HTTP sniffing,
// URL decoding and command execution the TCP server applies.
func FuzzRequestLine(f *testing.F) {
	for _, l := range []string{
		"GET /status HTTP/1.1\r\n", "GET /move+e4 HTTP/1.0\r\n", "GET /move%20e4+e5 HTTP/1.1\n",
		"GET /bad%zz HTTP/1.1\r\n", "GET / HTTP/1.1\r\n", "status\n", "GET /test+Qh5%23 HTTP/1.1\r\n",
	} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		cmd := string(line)
		if ok, minor, uri := parseHTTPRequestLine(line); ok {
			if minor != '0' && minor != '1' {
				t.Fatalf("minor %q", minor)
			}
			cmd = urlDecode(uri)
		}
		resp, _ := NewSession(&quickThinker{}).Execute(cmd)
		if resp == "" || strings.ContainsAny(resp, "\r\n") {
			t.Fatalf("%q: answer %q is not one line", line, resp)
		}
	})
}

// FuzzServeLines feeds arbitrary input to the -s mode with a small line
// limit: no error, and one response line per input line at most.
func FuzzServeLines(f *testing.F) {
	f.Add([]byte("new\nstatus\nmove e4 e5\nhistory pgn\n"))
	f.Add([]byte("legal\n" + strings.Repeat("x", 100) + "\nundo 1\nexit\nstatus\n"))
	f.Add([]byte("move e4\r\nstatus"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		if err := ServeLines(NewSession(&quickThinker{}), bytes.NewReader(data), &out, 32); err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		if got := bytes.Count(out.Bytes(), []byte("\n")); got > lines {
			t.Fatalf("%d responses to %d lines", got, lines)
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			t.Fatalf("unterminated response %q", out.Bytes())
		}
	})
}
