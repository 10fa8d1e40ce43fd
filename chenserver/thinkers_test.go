package chenserver

import "testing"

// testThinker names a Thinker the protocol tests run against. exact means
// its moves are the ones the document shows.
type testThinker struct {
	name  string
	exact bool
	make  func() Thinker
}

func testThinkers(t *testing.T) []testThinker {
	return []testThinker{
		{"scripted", true, func() Thinker { return &quickThinker{prefer: []string{"e7e5"}} }},
		{"engine", false, func() Thinker { return NewEngineThinker(16) }},
	}
}
