package store

import (
	"errors"
	"testing"
	"time"
)

// Sessions: each browser's sign-in is its own row; ending one leaves the
// others, ending all but one keeps that one, and an ended or unknown
// session is no session.
func TestSessions(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		st, _ := openTemp(t, b)
		api := st.API()
		ann := &User{Name: "ann", PasswordHash: []byte("x")}
		bob := &User{Name: "bob", PasswordHash: []byte("x")}
		for _, u := range []*User{ann, bob} {
			if err := api.CreateUser(u); err != nil {
				t.Fatal(err)
			}
		}
		start := func(u *User) string {
			ss, err := api.CreateSession(u.ID)
			if err != nil || len(ss.ID) != 32 {
				t.Fatalf("create session: %+v, %v", ss, err)
			}
			return ss.ID
		}
		desk, phone, tablet, bobs := start(ann), start(ann), start(ann), start(bob)
		holds := func(want map[string]bool) {
			t.Helper()
			for id, w := range want {
				ss, u, err := api.ActiveSession(id)
				switch {
				case w && (err != nil || ss.ID != id || u == nil):
					t.Errorf("session %s: %+v, %v; want it to hold", id, ss, err)
				case !w && !errors.Is(err, ErrNotFound):
					t.Errorf("session %s: %v; want ErrNotFound", id, err)
				}
			}
		}
		holds(map[string]bool{desk: true, phone: true, tablet: true, bobs: true, "0123456789abcdef0123456789abcdef": false, "": false})
		if _, u, _ := api.ActiveSession(bobs); u == nil || u.ID != bob.ID {
			t.Fatalf("bob's session reads user %+v", u)
		}

		for _, step := range []struct {
			name string
			do   func() error
			want map[string]bool
		}{
			{"sign out on the desk", func() error { return api.EndSession(desk) },
				map[string]bool{desk: false, phone: true, tablet: true, bobs: true}},
			{"sign out on the desk again", func() error { return api.EndSession(desk) },
				map[string]bool{desk: false, phone: true, tablet: true, bobs: true}},
			{"change the password on the phone", func() error { return api.ChangePassword(ann.ID, []byte("y"), phone) },
				map[string]bool{phone: true, tablet: false, bobs: true}},
			{"sign out everywhere", func() error {
				n, err := api.EndUserSessions(ann.ID, "")
				if err == nil && n != 1 {
					t.Errorf("ended %d sessions, want 1 (the phone's)", n)
				}
				return err
			}, map[string]bool{phone: false, bobs: true}},
		} {
			if err := step.do(); err != nil {
				t.Fatalf("%s: %v", step.name, err)
			}
			holds(step.want)
		}
		if u, _ := api.UserByID(ann.ID); string(u.PasswordHash) != "y" {
			t.Errorf("the password hash is %q after the change", u.PasswordHash)
		}
		if n, err := api.ActiveSessions(bob.ID); err != nil || n != 1 {
			t.Errorf("bob's active sessions: %d, %v", n, err)
		}
		// Bad input changes nothing.
		if err := api.ChangePassword(ann.ID+100, []byte("z"), ""); !errors.Is(err, ErrNotFound) {
			t.Errorf("change the password of nobody: %v", err)
		}
		if err := api.ChangePassword(bob.ID, nil, ""); err == nil {
			t.Error("an empty hash was accepted")
		}
		holds(map[string]bool{bobs: true})

		// Signing in again deletes the account's sessions that can never
		// hold again (ended, or unused past their cookie's life), and
		// nobody else's.
		stale := start(bob)
		old := st.now().Add(-SessionLife - time.Hour)
		if err := st.db.Model(&Session{}).Where("id = ?", stale).Update("last_seen", old).Error; err != nil {
			t.Fatal(err)
		}
		rows := func(u *User) int64 {
			var n int64
			if err := st.db.Model(&Session{}).Where("user_id = ?", u.ID).Count(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		if a, b := rows(ann), rows(bob); a != 3 || b != 2 {
			t.Fatalf("before signing in again: ann %d rows, bob %d; want 3 (all ended) and 2", a, b)
		}
		again := start(ann)
		if a, b := rows(ann), rows(bob); a != 1 || b != 2 {
			t.Errorf("after ann signs in again: ann %d rows, bob %d; want 1 and 2", a, b)
		}
		holds(map[string]bool{stale: false}) // unused past its cookie's life: no session
		bobAgain := start(bob)
		if b := rows(bob); b != 2 {
			t.Errorf("after bob signs in again: %d rows, want 2 (the stale one gone)", b)
		}
		holds(map[string]bool{again: true, bobs: true, bobAgain: true, stale: false})
	})
}

// Signing in moves every game of the browser's owner key to the
// account's, chess and Reconnaissance Chess, whatever their status, and
// nobody else's; their last activity stays.
func TestMoveOwnerGames(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		st, _ := openTemp(t, b)
		gm := st.Games()
		base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		const browser, account, other = "browser", "account", "other"
		type row struct {
			id, owner string
			status    Status
			recon     bool
		}
		rows := []row{
			{"g_b1", browser, StatusPlaying, false}, {"g_b2", browser, StatusOver, false}, {"g_b3", browser, StatusDeleted, false},
			{"r_b1", browser, StatusPlaying, true}, {"r_b2", browser, StatusOver, true},
			{"g_a1", account, StatusPlaying, false}, {"g_o1", other, StatusPlaying, false}, {"r_o1", other, StatusOver, true},
		}
		for _, r := range rows {
			var err error
			if r.recon {
				err = gm.CreateReconGame(&ReconGame{ID: r.id, Owner: r.owner, Human: White, Opponent: "random", Status: r.status, CreatedAt: base, UpdatedAt: base})
			} else {
				err = gm.CreateGame(&Game{ID: r.id, Owner: r.owner, Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: r.status, CreatedAt: base, UpdatedAt: base})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, bad := range []struct{ from, to string }{{"", account}, {browser, ""}} {
			if _, err := gm.MoveOwnerGames(bad.from, bad.to); err == nil {
				t.Errorf("move %q to %q: no error", bad.from, bad.to)
			}
		}
		if n, err := gm.MoveOwnerGames(account, account); err != nil || n != 0 {
			t.Errorf("move to itself: %d, %v", n, err)
		}
		n, err := gm.MoveOwnerGames(browser, account)
		if err != nil || n != 5 {
			t.Fatalf("moved %d, %v; want 5", n, err)
		}
		for _, r := range rows {
			want := r.owner
			if want == browser {
				want = account
			}
			var owner string
			var updated time.Time
			if r.recon {
				g, err := gm.GetReconGame(r.id)
				if err != nil {
					t.Fatal(err)
				}
				owner, updated = g.Owner, g.UpdatedAt
			} else {
				g, err := gm.GetGame(r.id)
				if err != nil {
					t.Fatal(err)
				}
				owner, updated = g.Owner, g.UpdatedAt
			}
			if owner != want {
				t.Errorf("%s: owner %q, want %q", r.id, owner, want)
			}
			if !updated.Equal(base) {
				t.Errorf("%s: updated at %v, want %v (moving is no activity)", r.id, updated, base)
			}
		}
		if n, err := gm.MoveOwnerGames(browser, account); err != nil || n != 0 {
			t.Errorf("a second move: %d, %v; want nothing left", n, err)
		}
	})
}
