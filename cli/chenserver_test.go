package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestChenserverCommand drives `knightwatch chenserver` in-process: the -s
// mode over a reader and writer, and the flag checks.
func TestChenserverCommand(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		out, err string
	}{
		{"stdio session", []string{"chenserver", "-s", "-hash", "1"},
			"new\nmove e4 f6 Nc3 g5\nthink 1000\nstatus\nexit\nstatus\n", 0,
			"OK\nOK 4\nOK d1h5 Qh5#\n1-0 rnbqkbnr/ppppp2p/5p2/6pQ/4P3/2N5/PPPP1PPP/R1B1KBNR b KQkq - 1 3\nOK\n", ""},
		{"stdio long line", []string{"chenserver", "-s", "-hash", "1", "-maxline", "16"},
			"move e4 e5 Nf3 Nc6 Bb5\nhistory\n", 0, "LINE_TOO_LONG\nOK 0\n", ""},
		{"no mode", []string{"chenserver"}, "", 2, "", "usage: knightwatch chenserver"},
		{"both modes", []string{"chenserver", "-s", "-p", "1234"}, "", 1, "", "either -s or -p"},
		{"bad port", []string{"chenserver", "-p", "65536"}, "", 1, "", "range 1..65535"},
		{"negative port", []string{"chenserver", "-p", "-3"}, "", 1, "", "range 1..65535"},
		{"extra args", []string{"chenserver", "-s", "x"}, "", 1, "", "unexpected arguments"},
		{"bad hash", []string{"chenserver", "-s", "-hash", "0"}, "", 1, "", "-hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := runMain(tt.args, strings.NewReader(tt.stdin), &out, &errb)
			if code != tt.code || out.String() != tt.out || !strings.Contains(errb.String(), tt.err) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d, %q, ...%q...", code, out.String(), errb.String(), tt.code, tt.out, tt.err)
			}
		})
	}
}
