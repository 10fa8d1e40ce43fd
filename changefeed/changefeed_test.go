package changefeed

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    Change
		ok      bool
	}{
		{"g_abc 7", Change{"g_abc", 7}, true},
		{"r_1 0", Change{"r_1", 0}, true},
		{"a 9223372036854775807", Change{"a", 9223372036854775807}, true},
		{"", Change{}, false},
		{"g_abc", Change{}, false},
		{" 7", Change{}, false},
		{"g_abc -1", Change{}, false},
		{"g_abc 07", Change{}, false},
		{"g_abc +7", Change{}, false},
		{"g_abc 7 ", Change{}, false},
		{"g abc 7", Change{}, false},
		{"g_abc 9223372036854775808", Change{}, false},
		{"g\tabc 7", Change{}, false},
		{strings.Repeat("g", 300) + " 1", Change{}, false},
	} {
		got, err := Parse(tc.payload)
		if tc.ok != (err == nil) || got != tc.want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v, ok %v", tc.payload, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrPayload) {
			t.Errorf("Parse(%q): %v does not wrap ErrPayload", tc.payload, err)
		}
	}
}

// FuzzParse: a payload either parses to a change that encodes back to
// it, or is refused with ErrPayload; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"g_abc 7", "r_1 0", "", "x -1", "a 1 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrPayload) {
				t.Fatalf("Parse(%q): %v", s, err)
			}
			return
		}
		if c.Payload() != s {
			t.Fatalf("Parse(%q) = %+v, which encodes as %q", s, c, c.Payload())
		}
	})
}
