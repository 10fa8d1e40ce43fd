package store

import (
	"errors"
	"testing"
)

// An account's owner key is set once, by the first browser to sign in;
// every later one gets the same.
func TestAccountOwnerKey(t *testing.T) {
	onBoth(t, func(t *testing.T, b backend) {
		st, _ := openTemp(t, b)
		u := &User{Name: "alice", PasswordHash: []byte("x")}
		if err := st.API().CreateUser(u); err != nil {
			t.Fatal(err)
		}
		first, err := st.API().AccountOwnerKey(u.ID, "0123456789abcdef0123456789abcdef")
		if err != nil || first != "0123456789abcdef0123456789abcdef" {
			t.Fatalf("first: %q, %v", first, err)
		}
		second, err := st.API().AccountOwnerKey(u.ID, "fedcba9876543210fedcba9876543210")
		if err != nil || second != first {
			t.Fatalf("second: %q, %v; want the first's %q", second, err, first)
		}
		got, err := st.API().UserByID(u.ID)
		if err != nil || got.OwnerKey != first {
			t.Fatalf("the user reads %q, %v", got.OwnerKey, err)
		}
		if _, err := st.API().AccountOwnerKey(u.ID+100, "00000000000000000000000000000000"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("no such user: %v, want ErrNotFound", err)
		}
	})
}
