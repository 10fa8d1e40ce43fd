package store

import (
	"context"
	"errors"
	"knightwatch/changefeed"
	"strconv"
	"strings"
	"testing"
	"time"
)

// revisedKind is one kind of game record, as the revision test makes,
// copies, changes and saves it.
type revisedKind struct {
	name   string
	create func(s *Store) (key string, err error)
	// load reads the record; change changes a copy's moves or history to
	// mark; save saves the copy; marked reads what the database holds.
	load   func(s *Store, key string) (any, error)
	change func(rec any, mark string)
	save   func(s *Store, rec any) error
	marked func(rec any) string
	rev    func(rec any) int64
}

var revisedKinds = []revisedKind{
	{
		name: "game",
		create: func(s *Store) (string, error) {
			g := &Game{Owner: "o", Variant: "standard", StartFEN: "startfen", Human: White, Level: 1}
			err := s.Games().CreateGame(g)
			return g.ID, err
		},
		load:   func(s *Store, id string) (any, error) { return s.Games().GetGame(id) },
		change: func(rec any, mark string) { rec.(*Game).Moves = mark },
		save:   func(s *Store, rec any) error { return s.Games().SaveGame(rec.(*Game)) },
		marked: func(rec any) string { return rec.(*Game).Moves },
		rev:    func(rec any) int64 { return rec.(*Game).Revision },
	},
	{
		name: "recon game",
		create: func(s *Store) (string, error) {
			g := &ReconGame{Owner: "o", Human: White, Opponent: "random"}
			err := s.Games().CreateReconGame(g)
			return g.ID, err
		},
		load:   func(s *Store, id string) (any, error) { return s.Games().GetReconGame(id) },
		change: func(rec any, mark string) { rec.(*ReconGame).Markers = `{"a1":"` + mark + `"}` },
		save:   func(s *Store, rec any) error { return s.Games().SaveReconGame(rec.(*ReconGame)) },
		marked: func(rec any) string { return rec.(*ReconGame).Markers },
		rev:    func(rec any) int64 { return rec.(*ReconGame).Revision },
	},
	{
		name: "api game",
		create: func(s *Store) (string, error) {
			g := &APIGame{WhiteName: "a", BlackName: "b"}
			err := s.API().CreateAPIGame(g)
			return APIGameKey(g.ID), err
		},
		load: func(s *Store, key string) (any, error) {
			id, err := strconv.ParseInt(strings.TrimPrefix(key, APIIDPrefix), 10, 64)
			if err != nil {
				return nil, err
			}
			return s.API().GetAPIGame(id)
		},
		change: func(rec any, mark string) { rec.(*APIGame).History = mark },
		save:   func(s *Store, rec any) error { return s.API().SaveAPIGame(rec.(*APIGame)) },
		marked: func(rec any) string { return rec.(*APIGame).History },
		rev:    func(rec any) int64 { return rec.(*APIGame).Revision },
	},
}

// TestSaveFromAnOldRevision: of two copies of a game read at the same
// revision (two servers), the first saved is written and makes the next
// revision; the second is refused with ErrConflict and writes nothing,
// its copy keeping its revision. Read again, it saves.
func TestSaveFromAnOldRevision(t *testing.T) { onBoth(t, testSaveFromAnOldRevision) }

func testSaveFromAnOldRevision(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	for _, k := range revisedKinds {
		t.Run(k.name, func(t *testing.T) {
			key, err := k.create(s)
			if err != nil {
				t.Fatal(err)
			}
			a, err := k.load(s, key)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := k.load(s, key)
			k.change(a, "A")
			if err := k.save(s, a); err != nil {
				t.Fatalf("the first save: %v", err)
			}
			if k.rev(a) != 1 {
				t.Errorf("after the first save the copy has revision %d, want 1", k.rev(a))
			}
			k.change(b, "B")
			if err := k.save(s, b); !errors.Is(err, ErrConflict) {
				t.Fatalf("a save from revision 0 after another: %v, want ErrConflict", err)
			}
			if k.rev(b) != 0 {
				t.Errorf("the refused copy's revision became %d", k.rev(b))
			}
			now, _ := k.load(s, key)
			if k.marked(now) != k.marked(a) || k.rev(now) != 1 {
				t.Fatalf("the database holds %q at revision %d; want the first save's %q at 1", k.marked(now), k.rev(now), k.marked(a))
			}
			k.change(now, "C")
			if err := k.save(s, now); err != nil || k.rev(now) != 2 {
				t.Fatalf("a save from the revision read again: %v, revision %d", err, k.rev(now))
			}
		})
	}
}

// feedRecorder hands on what a change feed's listener hears.
type feedRecorder chan changefeed.Change

func (r feedRecorder) Changed(c changefeed.Change) { r <- c }
func (r feedRecorder) Resync()                     {}

// TestSaveTellsTheOtherServers: on PostgreSQL each saved revision of a
// game is heard on the change feed, named as the registries name it
// (an API game by APIGameKey), and a refused save tells nobody.
func TestSaveTellsTheOtherServers(t *testing.T) {
	s, dsn := openTemp(t, postgresDB)
	heard := make(feedRecorder, 16)
	l, err := changefeed.Listen(context.Background(), dsn, heard, changefeed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	next := func(what string) changefeed.Change {
		t.Helper()
		select {
		case c := <-heard:
			return c
		case <-time.After(10 * time.Second):
			t.Fatalf("nothing heard: %s", what)
			return changefeed.Change{}
		}
	}
	for _, k := range revisedKinds {
		key, err := k.create(s)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := k.load(s, key)
		b, _ := k.load(s, key)
		k.change(a, "A")
		if err := k.save(s, a); err != nil {
			t.Fatal(err)
		}
		if c := next(k.name + "'s first save"); c != (changefeed.Change{Game: key, Revision: 1}) {
			t.Errorf("%s: heard %+v, want %s at 1", k.name, c, key)
		}
		k.change(b, "B")
		if err := k.save(s, b); !errors.Is(err, ErrConflict) {
			t.Fatalf("%s: %v", k.name, err)
		}
		k.change(a, "C")
		if err := k.save(s, a); err != nil {
			t.Fatal(err)
		}
		// Heard in commit order: the refused save, had it told anyone,
		// would come first.
		if c := next(k.name + "'s second save"); c != (changefeed.Change{Game: key, Revision: 2}) {
			t.Errorf("%s: heard %+v, want %s at 2 (a refused save was told?)", k.name, c, key)
		}
	}
}
