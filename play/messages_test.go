package play

import (
	"strings"
	"testing"

	"knightwatch/game"
)

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"sync"}`, `{"type":"move","move":"e7e8q","ply":3}`, `{"type":"resign","ply":0}`,
		`{"type":"draw","ply":2}`, `{"type":"takeback","ply":4}`, `{"type":"rematch"}`, `{"type":"move","move":"Nf3"}`,
		`{"type":`, `[]`, `{"type":"move","ply":1e99}`, "{\"type\":\"move\",\"move\":\"\\u0000\",\"ply\":0}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeMessage(data)
		if err != nil {
			if err.Code == "" || err.Message == "" {
				t.Fatalf("error without code or message: %+v", err)
			}
			if m != (Message{}) {
				t.Fatalf("error with a message: %+v", m)
			}
			return
		}
		if !knownTypes[m.Type] || m.Ply < 0 {
			t.Fatalf("accepted %+v", m)
		}
		if m.Type == "move" && (m.Move == "" || len(m.Move) > 16) {
			t.Fatalf("accepted move %+v", m)
		}
		// Whatever is accepted can be played against a position without panicking.
		p := game.NewPosition()
		if m.Type == "move" {
			p.ParseMove(m.Move)
		}
	})
}

// FuzzDecodeReconMessage checks that no input makes the decoder panic and
// that what it accepts is one of the known types.
func FuzzDecodeReconMessage(f *testing.F) {
	for _, s := range []string{`{"type":"sense","square":"e4","seq":3}`, `{"type":"move","move":"pass","seq":0}`,
		`{"type":"marker","square":"a1","piece":"bQ"}`, `{"type":"sync"}`, `{"type":"move","move":"e7e8q","seq":9}`, `[]`, `{"type":"sense","square":"","seq":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, perr := DecodeReconMessage(data)
		if perr == nil && !reconTypes[m.Type] {
			t.Fatalf("accepted type %q", m.Type)
		}
	})
}

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		in   string
		want Message
		code string
	}{
		{`{"type":"sync"}`, Message{Type: "sync"}, ""},
		{`{"type":"move","move":"e2e4","ply":0}`, Message{Type: "move", Move: "e2e4"}, ""},
		{` {"type":"takeback","ply":12} `, Message{Type: "takeback", Ply: 12}, ""},
		{`{"type":"rematch","extra":1}`, Message{Type: "rematch"}, ""},
		{`{"type":"move","move":"e2e4","ply":-1}`, Message{}, CodeBadField},
		{`{"type":"move","move":"e2e4","ply":1.5}`, Message{}, CodeBadField},
		{`{"type":"move","move":"e2e4","ply":"1"}`, Message{}, CodeBadField},
		{`{"type":"move","move":5,"ply":1}`, Message{}, CodeBadJSON},
		{`{"type":7}`, Message{}, CodeBadJSON},
		{`{}`, Message{}, CodeBadField},
		{`{"type":"move","move":"","ply":0}`, Message{}, CodeBadField},
		{`{"type":"x"}`, Message{}, CodeUnknownType},
		{`{"type":"sync"}{"type":"sync"}`, Message{}, CodeBadJSON},
		{`null`, Message{}, CodeBadJSON},
		{``, Message{}, CodeBadJSON},
		{strings.Repeat(" ", MaxMessageBytes+1), Message{}, CodeTooLarge},
	}
	for _, tc := range tests {
		got, err := DecodeMessage([]byte(tc.in))
		code := ""
		if err != nil {
			code = err.Code
		}
		if code != tc.code || (err == nil && got != tc.want) {
			t.Errorf("DecodeMessage(%.40q) = %+v, %v; want %+v, %q", tc.in, got, err, tc.want, tc.code)
		}
	}
}
