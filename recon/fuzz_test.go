package recon

import (
	"bytes"
	"testing"
)

// FuzzUnmarshalHistory feeds arbitrary bytes to the history reader. It must
// never panic; what it accepts must save and load back to the same bytes,
// and must replay (to ok or to a mismatch) without panicking, with a bot
// fed one side's observations as rbc-playback --bot does.
func FuzzUnmarshalHistory(f *testing.F) {
	f.Add([]byte(`{"type": "GameHistory"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := UnmarshalHistory(data)
		if err != nil {
			if h != nil {
				t.Fatal("a history returned with an error")
			}
			return
		}
		out := MarshalHistory(h)
		h2, err := UnmarshalHistory(out)
		if err != nil {
			t.Fatalf("a saved history does not load: %v", err)
		}
		if !bytes.Equal(MarshalHistory(h2), out) {
			t.Fatal("save, load, save differs")
		}
		_, _ = Playback(h, PlaybackOptions{Bot: newTestPlayer(1), BotColor: 1})
	})
}

// FuzzParseMove checks that any string either parses to a move that writes
// back as the same string or is refused, never a panic.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "a1h8", "e2e4k", "", "0000"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err == nil && UCI(m) != s {
			t.Fatalf("ParseMove(%q) writes back as %q", s, UCI(m))
		}
	})
}
