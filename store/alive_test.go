package store

import (
	"testing"
	"time"
)

func TestAlive(t *testing.T) { onBoth(t, testAlive) }

func testAlive(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	if _, ok := s.LastAlive(); ok {
		t.Error("alive before any mark")
	}
	for _, at := range []time.Time{time.Now().Add(-time.Hour), time.Now()} {
		if err := s.MarkAlive(at); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.LastAlive(); !ok || got.Sub(at).Abs() > time.Millisecond {
			t.Errorf("last alive %v (%v), marked %v", got, ok, at)
		}
	}
}
