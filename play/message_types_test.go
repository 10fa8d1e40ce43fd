package play

import (
	"os"
	"strings"
	"testing"
)

// TestMessageTypeConstants pins the message types to the strings of
// web/PROTOCOL.md (and of static/js, which sends and reads them), and checks
// that the decoders accept exactly the browser → server ones.
func TestMessageTypeConstants(t *testing.T) {
	spec, err := os.ReadFile("../web/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, got, want string
		inbound         bool // browser → server
		recon           bool
	}{
		{"MsgSync", MsgSync, "sync", true, false},
		{"MsgMove", MsgMove, "move", true, false},
		{"MsgResign", MsgResign, "resign", true, false},
		{"MsgDraw", MsgDraw, "draw", true, false},
		{"MsgTakeback", MsgTakeback, "takeback", true, false},
		{"MsgRematch", MsgRematch, "rematch", true, false},
		{"MsgState", MsgState, "state", false, false},
		{"MsgError", MsgError, "error", false, false},
		{"MsgNotice", MsgNotice, "notice", false, false},
		{"MsgRedirect", MsgRedirect, "redirect", false, false},
		{"MsgAnalysis", MsgAnalysis, "analysis", false, false},
		{"ReconMsgSync", ReconMsgSync, "sync", true, true},
		{"ReconMsgSense", ReconMsgSense, "sense", true, true},
		{"ReconMsgMove", ReconMsgMove, "move", true, true},
		{"ReconMsgResign", ReconMsgResign, "resign", true, true},
		{"ReconMsgMarker", ReconMsgMarker, "marker", true, true},
		{"ReconMsgRematch", ReconMsgRematch, "rematch", true, true},
		{"ReconMsgState", ReconMsgState, "recon_state", false, true},
	}
	inbound, reconInbound := 0, 0
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
		if !strings.Contains(string(spec), "`"+c.want+"`") {
			t.Errorf("%s: web/PROTOCOL.md does not name `%s`", c.name, c.want)
		}
		switch {
		case c.inbound && c.recon:
			reconInbound++
			if !reconTypes[c.got] {
				t.Errorf("%s is not accepted by DecodeReconMessage", c.name)
			}
		case c.inbound:
			inbound++
			if !knownTypes[c.got] {
				t.Errorf("%s is not accepted by DecodeMessage", c.name)
			}
		}
	}
	if len(knownTypes) != inbound || len(reconTypes) != reconInbound {
		t.Errorf("the decoders accept %d and %d types, the constants list %d and %d", len(knownTypes), len(reconTypes), inbound, reconInbound)
	}
}
