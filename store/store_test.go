package store

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGameRoundTrip(t *testing.T) { onBoth(t, testGameRoundTrip) }

func testGameRoundTrip(t *testing.T, bk backend) {
	s, path := openTemp(t, bk)
	g := &Game{Owner: "owner1", Variant: "standard", StartFEN: "startfen", Human: White, Level: 3,
		ClockInitialMS: 300000, ClockIncrementMS: 3000, WhiteMS: 300000, BlackMS: 300000}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	if len(g.ID) < 10 || g.Status != StatusPlaying || g.Result != "*" {
		t.Fatalf("defaults not applied: %+v", g)
	}
	g.SetMoveList([]string{"e2e4", "e7e5"})
	g.WhiteMS = 299000
	if err := s.Games().SaveGame(g); err != nil {
		t.Fatal(err)
	}
	// A second handle on the same file sees the committed state, as a
	// restarted server would.
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Games().GetGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"moves", len(got.MoveList()), 2},
		{"first move", got.MoveList()[0], "e2e4"},
		{"white ms", got.WhiteMS, int64(299000)},
		{"black ms", got.BlackMS, int64(300000)},
		{"increment", got.ClockIncrementMS, int64(3000)},
		{"level", got.Level, 3},
		{"owner", got.Owner, "owner1"},
		{"timed", got.Timed(), true},
		// The times the store fills in read back as its writer holds
		// them (PostgreSQL keeps microseconds, and the store writes no
		// finer).
		{"created at", got.CreatedAt.Equal(g.CreatedAt), true},
		{"updated at", got.UpdatedAt.Equal(g.UpdatedAt), true},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestOwnershipAndLists(t *testing.T) { onBoth(t, testOwnershipAndLists) }

func testOwnershipAndLists(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	mk := func(owner string, status Status) *Game {
		g := &Game{Owner: owner, Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: status}
		if status == StatusOver {
			now := time.Now()
			g.FinishedAt = &now
			g.Result = "1-0"
		}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	a1 := mk("alice", StatusOver)
	a2 := mk("alice", StatusPlaying)
	b1 := mk("bob", StatusPlaying)

	tests := []struct {
		name, id, owner string
		wantErr         error
	}{
		{"own game", a1.ID, "alice", nil},
		{"someone else's", b1.ID, "alice", ErrNotFound},
		{"empty owner", a1.ID, "", ErrNotFound},
		{"missing", "g_nope", "alice", ErrNotFound},
	}
	for _, tc := range tests {
		_, err := s.Games().GetOwnedGame(tc.id, tc.owner)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.wantErr)
		}
	}
	u, err := s.Games().LatestUnfinished("alice")
	if err != nil || u.ID != a2.ID {
		t.Fatalf("LatestUnfinished = %v, %v; want %s", u, err, a2.ID)
	}
	if _, err := s.Games().LatestUnfinished("carol"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("carol has no game, got %v", err)
	}
	fin, err := s.Games().FinishedGames("alice", 10)
	if err != nil || len(fin) != 1 || fin[0].ID != a1.ID {
		t.Fatalf("FinishedGames = %v, %v", fin, err)
	}
	if err := s.Games().SaveGame(&Game{ID: "g_missing", Owner: "x", Status: StatusPlaying}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("saving a missing game: %v", err)
	}
}

func TestSecretPersists(t *testing.T) { onBoth(t, testSecretPersists) }

func testSecretPersists(t *testing.T, bk backend) {
	s, path := openTemp(t, bk)
	a, err := s.Secret()
	if err != nil || len(a) < 32 {
		t.Fatalf("Secret = %x, %v", a, err)
	}
	b, err := s.Secret()
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("second call changed the secret")
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	c, err := s2.Secret()
	if err != nil || !bytes.Equal(a, c) {
		t.Fatalf("secret not kept across reopen")
	}
}

func TestOpenRejectsBadPath(t *testing.T) {
	missing := strings.Replace(postgresDB.dsn(t), "/kw_", "/no_such_", 1)
	for _, p := range []string{
		"",
		filepath.Join(t.TempDir(), "no", "such", "dir", "x.db"),
		missing,
		"postgres://user:secret@127.0.0.1:1/kw?sslmode=disable", // nothing listens on port 1
		"postgres://user:secret@[bad/kw",
	} {
		s, err := Open(p)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", p)
			continue
		}
		if strings.Contains(err.Error(), "secret") {
			t.Errorf("Open(%q): the error shows the password: %v", p, err)
		}
	}
}

// Describe names a database for a log line: a PostgreSQL URL without
// its password.
func TestDescribe(t *testing.T) {
	for _, tc := range []struct{ dsn, want string }{
		{"kw.db", "kw.db"},
		{"/var/lib/knightwatch/kw.db", "/var/lib/knightwatch/kw.db"},
		{"postgres://kw@db.example.org/kw", "postgres://kw@db.example.org/kw"},
		{"postgres://kw:secret@db.example.org:5433/kw?sslmode=require", "postgres://kw:xxxxx@db.example.org:5433/kw?sslmode=require"},
		{"POSTGRESQL://kw:secret@db/kw", "postgresql://kw:xxxxx@db/kw"},
		{"postgres://kw:secret@[bad/kw", "a PostgreSQL URL that does not parse"},
	} {
		if got := Describe(tc.dsn); got != tc.want {
			t.Errorf("Describe(%q) = %q, want %q", tc.dsn, got, tc.want)
		}
	}
}

// A bot's seed is a signed 64-bit column on both databases: the largest
// that fits reads back, one more is refused before the database.
func TestSeedRange(t *testing.T) { onBoth(t, testSeedRange) }

func testSeedRange(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	for _, tc := range []struct {
		seed uint64
		ok   bool
	}{{0, true}, {math.MaxInt64, true}, {math.MaxInt64 + 1, false}, {math.MaxUint64, false}} {
		r := &ReconGame{Owner: "o", Human: White, Opponent: "random", Seed: tc.seed}
		err := s.Games().CreateReconGame(r)
		if (err == nil) != tc.ok {
			t.Errorf("recon game with seed %d: %v", tc.seed, err)
		}
		if err == nil {
			if got, err := s.Games().GetReconGame(r.ID); err != nil || got.Seed != tc.seed {
				t.Errorf("seed %d read back as %v (%v)", tc.seed, got, err)
			}
		}
		a := &APIGame{WhiteName: "a", BlackName: "b", Seed: tc.seed}
		err = s.API().CreateAPIGame(a)
		if (err == nil) != tc.ok {
			t.Errorf("api game with seed %d: %v", tc.seed, err)
		}
		if err == nil {
			if got, err := s.API().GetAPIGame(a.ID); err != nil || got.Seed != tc.seed {
				t.Errorf("seed %d read back as %v (%v)", tc.seed, got, err)
			}
		}
	}
}

// TestReconGameRoundTrip checks that a Reconnaissance Chess game's record
// survives a reopened database, and that only its owner sees it.
func TestReconGameRoundTrip(t *testing.T) { onBoth(t, testReconGameRoundTrip) }

func testReconGameRoundTrip(t *testing.T, bk backend) {
	s, path := openTemp(t, bk)
	g := &ReconGame{Owner: "o1", Human: Black, Opponent: "knightwatch:level=2", Seed: 7,
		ClockInitialMS: 900000, ClockIncrementMS: 5000, WhiteMS: 900000, BlackMS: 900000}
	if err := s.Games().CreateReconGame(g); err != nil {
		t.Fatal(err)
	}
	if len(g.ID) < 10 || g.ID[:2] != ReconIDPrefix || g.Status != StatusPlaying || g.Markers != "{}" {
		t.Fatalf("defaults not applied: %+v", g)
	}
	g.History = `{"type": "GameHistory"}`
	g.Markers = `{"e5":"n"}`
	g.BlackMS = 898000
	if err := s.Games().SaveReconGame(g); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.Games().GetOwnedReconGame(g.ID, "o1")
	if err != nil {
		t.Fatal(err)
	}
	if got.History != g.History || got.Markers != g.Markers || got.BlackMS != 898000 || got.Opponent != g.Opponent || got.Seed != 7 || !got.Timed() {
		t.Errorf("after reopening: %+v", got)
	}
	if _, err := s2.Games().GetOwnedReconGame(g.ID, "o2"); !errors.Is(err, ErrNotFound) {
		t.Errorf("another owner: %v", err)
	}
	if list, err := s2.Games().ReconGames("o1", StatusPlaying, 10); err != nil || len(list) != 1 {
		t.Errorf("unfinished list: %v, %v", list, err)
	}
	if err := s2.Games().SaveReconGame(&ReconGame{ID: "r_missing", Status: StatusPlaying}); !errors.Is(err, ErrNotFound) {
		t.Errorf("saving a missing game: %v", err)
	}
}

// TestRateGame checks the Elo arithmetic: the winner gains what the loser
// loses, an upset moves more, a draw between equals moves nothing, and
// rating a game twice counts it once.
func TestRateGame(t *testing.T) { onBoth(t, testRateGame) }

func testRateGame(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	users := make([]*User, 3)
	for i := range users {
		users[i] = &User{Name: fmt.Sprintf("u%d", i), PasswordHash: []byte("x")}
		if err := s.API().CreateUser(users[i]); err != nil {
			t.Fatal(err)
		}
	}
	play := func(w, b *User, result string) {
		t.Helper()
		g := &APIGame{WhiteID: w.ID, BlackID: b.ID, WhiteName: w.Name, BlackName: b.Name, Ranked: true, Status: StatusOver, Result: result}
		if err := s.API().CreateAPIGame(g); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ {
			if err := s.API().RateGame(g.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	elo := func(u *User) float64 {
		r, err := ratingOf(s, u.ID, 0)
		if err != nil {
			t.Fatal(err)
		}
		return r.Elo
	}
	play(users[0], users[1], "1/2-1/2")
	if elo(users[0]) != StartRating || elo(users[1]) != StartRating {
		t.Errorf("a draw between equals: %.2f %.2f", elo(users[0]), elo(users[1]))
	}
	play(users[0], users[1], "1-0")
	if got := elo(users[0]) - StartRating; got != EloK/2 || elo(users[1]) != StartRating-EloK/2 {
		t.Errorf("a win between equals moved %+.2f / %.2f, want ±%.0f", got, elo(users[1]), EloK/2)
	}
	before := elo(users[1])
	play(users[2], users[1], "0-1") // the weaker beats a fresh player
	if gain := elo(users[1]) - before; gain <= EloK/2 {
		t.Errorf("an upset gained %.2f, want more than %.0f", gain, EloK/2)
	}
	r, _ := ratingOf(s, users[0].ID, 0)
	if r.Games != 2 || r.Wins != 1 || r.Draws != 1 {
		t.Errorf("record %+v", r)
	}
	if sum := elo(users[0]) + elo(users[1]) + elo(users[2]); sum < 3*StartRating-1e-9 || sum > 3*StartRating+1e-9 {
		t.Errorf("ratings sum %.6f", sum)
	}
}

// TestWatchToken: a game's watch token is made once, is long, URL-safe and
// unique, and finds the game; wrong tokens find nothing.
func TestWatchToken(t *testing.T) { onBoth(t, testWatchToken) }

func testWatchToken(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1}
		if err := s.Games().CreateGame(g); err != nil {
			t.Fatal(err)
		}
		tok, err := s.Games().EnsureWatchToken(g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(tok) < 22 || strings.Trim(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			t.Fatalf("token %q: want at least 22 URL-safe characters (128 bits)", tok)
		}
		if seen[tok] {
			t.Fatalf("token %q repeated", tok)
		}
		seen[tok] = true
		again, err := s.Games().EnsureWatchToken(g.ID)
		if err != nil || again != tok {
			t.Fatalf("second EnsureWatchToken = %q, %v; want %q", again, err, tok)
		}
		got, err := s.Games().GameByWatchToken(tok)
		if err != nil || got.ID != g.ID {
			t.Fatalf("GameByWatchToken: %v, %v", got, err)
		}
		// A move's save leaves the token alone.
		g.SetMoveList([]string{"e2e4"})
		if err := s.Games().SaveGame(g); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Games().GetGame(g.ID); got.WatchToken == nil || *got.WatchToken != tok {
			t.Fatalf("token lost after SaveGame")
		}
	}
	if WatchTokenBytes*8 < 128 {
		t.Fatalf("WatchTokenBytes = %d: under 128 bits", WatchTokenBytes)
	}
	for _, bad := range []string{"", "x", NewWatchToken(), "' OR 1=1 --"} {
		if _, err := s.Games().GameByWatchToken(bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("GameByWatchToken(%q) = %v, want ErrNotFound", bad, err)
		}
	}
	if _, err := s.Games().EnsureWatchToken("g_missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("EnsureWatchToken(missing) = %v, want ErrNotFound", err)
	}
}

// TestWatchTokenOldRow: a game stored before the column loads with no
// token and gets one, once, on first use. SQLite only: an old SQLite
// file's row.
func TestWatchTokenOldRow(t *testing.T) {
	s, err := Open(oldDatabase(t, insertGame("g_old", "white", "playing", "")))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g, err := s.Games().GetGame("g_old")
	if err != nil {
		t.Fatal(err)
	}
	if g.WatchToken != nil {
		t.Fatalf("old row has token %q", *g.WatchToken)
	}
	tok, err := s.Games().EnsureWatchToken("g_old")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Games().EnsureWatchToken("g_old"); again != tok {
		t.Fatalf("token changed: %q then %q", tok, again)
	}
	if got, err := s.Games().GameByWatchToken(tok); err != nil || got.ID != "g_old" {
		t.Fatalf("GameByWatchToken: %v %v", got, err)
	}
}

// TestHooks: Writing runs before each write and Wrote after it with its
// error; after a transaction Wrote runs once more, when what it wrote can
// be read: tests wait on them instead of on the clock.
func TestHooks(t *testing.T) { onBoth(t, testHooks) }

func testHooks(t *testing.T, bk backend) {
	var writing, wrote int
	var errs []error
	var readable bool
	var s *Store
	s, err := OpenWith(bk.dsn(t), Options{Hooks: Hooks{
		Writing: func() { writing++ },
		Wrote: func(err error) {
			wrote++
			errs = append(errs, err)
			if s != nil {
				_, _, err := s.Reviews().GameAnalysis("g")
				readable = err == nil
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.SetSetting("k", "v"); err != nil {
		t.Fatal(err)
	}
	if writing == 0 || wrote == 0 || errs[len(errs)-1] != nil {
		t.Fatalf("a setting written: Writing ran %d times, Wrote %d with %v", writing, wrote, errs)
	}
	g := &Game{ID: "g", Owner: "o", Variant: "standard", StartFEN: "f", Human: White, Level: 1}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	errs = nil
	if err := s.Games().CreateGame(&Game{ID: "g", Owner: "o", Variant: "standard", StartFEN: "f", Human: White, Level: 1}); err == nil {
		t.Fatal("a second game with the same ID was created")
	}
	if len(errs) == 0 || errs[len(errs)-1] == nil {
		t.Errorf("a refused write: Wrote got %v", errs)
	}
	if err := s.Reviews().SaveAnalysis(&Analysis{GameID: "g", Settings: "s", Positions: 1}, []AnalysisPly{{GameID: "g"}}, false); err != nil {
		t.Fatal(err)
	}
	if errs[len(errs)-1] != nil || !readable {
		t.Errorf("after a transaction: the last Wrote with %v, its rows readable then: %v", errs[len(errs)-1], readable)
	}
}

// ratingOf returns a version's rating; a version without games is at
// StartRating.
func ratingOf(s *Store, userID int64, version int) (*Rating, error) {
	r, err := ratingTx(s.rd, userID, version)
	if err != nil {
		return nil, fmt.Errorf("store: rating: %w", err)
	}
	return r, nil
}
