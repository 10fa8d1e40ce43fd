package store

import (
	"sync"
	"testing"
	"time"
)

// TestPresence: a server's presence in a game is seen by the others, not
// by itself, until it leaves or its presence expires unrenewed (a killed
// server's); renewed, it lasts.
func TestPresence(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		s, _ := openTemp(t, b)
		a, other := s.Presence("server-a"), s.Presence("server-b")
		t0 := time.Now().Truncate(time.Millisecond)
		elsewhere := func(p Presence, at time.Time) bool {
			t.Helper()
			ok, err := p.Elsewhere("g_1", at)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if err := a.Here("g_1", true, t0); err != nil {
			t.Fatal(err)
		}
		if err := a.Here("g_1", true, t0); err != nil { // again: no duplicate
			t.Fatal(err)
		}
		for _, tc := range []struct {
			what string
			p    Presence
			at   time.Time
			want bool
		}{
			{"the other server, at once", other, t0, true},
			{"the server itself", a, t0, false},
			{"the other server, just before it expires", other, t0.Add(PresenceTTL - time.Millisecond), true},
			{"the other server, once it expired", other, t0.Add(PresenceTTL), false},
		} {
			if got := elsewhere(tc.p, tc.at); got != tc.want {
				t.Errorf("%s: elsewhere %v, want %v", tc.what, got, tc.want)
			}
		}
		if err := a.Renew(t0.Add(PresenceTTL / 2)); err != nil {
			t.Fatal(err)
		}
		if !elsewhere(other, t0.Add(PresenceTTL)) {
			t.Error("a renewed presence expired at its first term")
		}
		if err := a.Here("g_1", false, t0); err != nil {
			t.Fatal(err)
		}
		if elsewhere(other, t0) {
			t.Error("a server that left is still present")
		}
		if err := a.Here("g_1", true, t0); err != nil {
			t.Fatal(err)
		}
		if err := a.Leave(); err != nil {
			t.Fatal(err)
		}
		if elsewhere(other, t0) {
			t.Error("a server that stopped is still present")
		}
	})
}

// TestLeaseClaimedOnce: of several servers claiming one game's lease at
// once exactly one gets it; its holder renews it; once it ran out another
// takes it; a server that gives it up (Keep without the game) frees it.
func TestLeaseClaimedOnce(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		s, _ := openTemp(t, b)
		t0 := time.Now().Truncate(time.Millisecond)
		const lease = 15 * time.Second
		servers := []string{"a", "b", "c", "d"}
		won := make([]bool, len(servers))
		var wg sync.WaitGroup
		for i, name := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.Leases(name).Claim("api_1", t0.Add(lease), t0)
				if err != nil {
					t.Error(err)
				}
				won[i] = ok
			}()
		}
		wg.Wait()
		holder := ""
		for i, ok := range won {
			if ok {
				if holder != "" {
					t.Fatalf("both %s and %s hold the lease", holder, servers[i])
				}
				holder = servers[i]
			}
		}
		if holder == "" {
			t.Fatal("nobody got the lease")
		}
		other := "a"
		if holder == "a" {
			other = "b"
		}
		claim := func(server string, at time.Time) bool {
			t.Helper()
			ok, err := s.Leases(server).Claim("api_1", at.Add(lease), at)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if !claim(holder, t0.Add(time.Second)) {
			t.Error("the holder could not renew its lease")
		}
		if claim(other, t0.Add(lease)) {
			t.Error("another server took a lease renewed until later")
		}
		if !claim(other, t0.Add(time.Second+lease)) {
			t.Error("another server could not take a lease that ran out")
		}
		if got, _, _, err := s.Leases(holder).Holder("api_1"); err != nil || got != other {
			t.Errorf("the lease is %q's (%v), want %q's", got, err, other)
		}
		if err := s.Leases(other).Keep(nil, t0); err != nil {
			t.Fatal(err)
		}
		if !claim(holder, t0.Add(2*time.Second)) {
			t.Error("a lease given up could not be taken")
		}
		if err := s.Leases(holder).Keep([]string{"api_1"}, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, until, _, err := s.Leases(holder).Holder("api_1"); err != nil || !until.Equal(t0.Add(time.Hour)) {
			t.Errorf("the lease kept runs until %v (%v), want %v", until, err, t0.Add(time.Hour))
		}
	})
}
