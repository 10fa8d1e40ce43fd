package store

import (
	"errors"
	"sync"
	"testing"
)

// CreateAPIGameWithin counts and inserts in one transaction: creations
// racing each other never take a user over its cap, and a refused one
// inserts neither the game nor its invitation.
func TestCreateAPIGameWithinRace(t *testing.T) { onBoth(t, testCreateAPIGameWithinRace) }

func testCreateAPIGameWithinRace(t *testing.T, bk backend) {
	const max, tries = 10, 40
	s, _ := openTemp(t, bk)
	a, b := &User{Name: "alice", PasswordHash: []byte("x")}, &User{Name: "bob", PasswordHash: []byte("x")}
	for _, u := range []*User{a, b} {
		if err := s.API().CreateUser(u); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	results := map[string]int{}
	start := make(chan struct{})
	for range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			g := &APIGame{WhiteID: a.ID, BlackID: b.ID, WhiteName: a.Name, BlackName: b.Name}
			n, err := s.API().CreateAPIGameWithin(a.ID, max, g, &Invitation{FromID: a.ID, ToID: b.ID})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				results["created"]++
			case errors.Is(err, ErrTooManyGames) && n == max:
				results["refused"]++
			default:
				results[err.Error()]++
			}
		}()
	}
	close(start)
	wg.Wait()
	if results["created"] != max || results["refused"] != tries-max || len(results) != 2 {
		t.Errorf("%d creations at once under a cap of %d: %v", tries, max, results)
	}
	if n, err := s.API().OpenAPIGames(a.ID); err != nil || n != max {
		t.Errorf("%d open games (%v), want %d", n, err, max)
	}
	if ids, err := s.API().PendingInvitations(b.ID); err != nil || len(ids) != max {
		t.Errorf("%d invitations (%v), want %d", len(ids), err, max)
	}
}
