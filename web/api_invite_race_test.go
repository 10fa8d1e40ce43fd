package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"knightwatch/rbcapi"
)

// Issue 41 item 8: the cap on a user's unfinished API games holds under
// concurrent invitations. Before, the count was read apart from the
// insert, so invitations racing each other all saw room: 130 at once made
// 110 games.
func TestAPIInvitationCapUnderRace(t *testing.T) {
	const extra = 30
	e := newEnv(t, envOpts{})
	dave := e.apiClient("dave", "password-d")
	dave.register()
	e.apiClient("carol", "password-c").register()
	dave.must("GET", "/api/invitations/", nil, "", nil) // the password checked once: the rest compare a digest
	var (
		wg               sync.WaitGroup
		mu               sync.Mutex
		created, refused int
		other            []string
	)
	start := make(chan struct{})
	for range rbcapi.MaxOpenGames + extra {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			status, out := dave.call("POST", "/api/invitations/", map[string]any{"opponent": "carol", "color": true})
			var msg string
			json.Unmarshal(out["error"], &msg)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case status == http.StatusOK:
				created++
			case status == http.StatusBadRequest && strings.Contains(msg, "unfinished games; finish some first"):
				refused++
			default:
				other = append(other, msg)
			}
		}()
	}
	close(start)
	wg.Wait()
	u, err := e.store.API().UserByName("dave")
	if err != nil {
		t.Fatal(err)
	}
	n, err := e.store.API().OpenAPIGames(u.ID)
	if err != nil || n != rbcapi.MaxOpenGames || created != rbcapi.MaxOpenGames || refused != extra || len(other) > 0 {
		t.Errorf("%d invitations at once: %d open games (%v), %d created, %d refused, other answers %q; want %d, %d and %d",
			rbcapi.MaxOpenGames+extra, n, err, created, refused, other, rbcapi.MaxOpenGames, rbcapi.MaxOpenGames, extra)
	}
}
