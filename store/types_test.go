package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"knightwatch/game"
	"knightwatch/recon"
)

// The game tables exactly as Open created them when status, colour and
// reason were plain strings.
var oldGameTables = map[string]string{
	"games":       "CREATE TABLE `games` (`id` text,`owner` text NOT NULL,`variant` text NOT NULL,`start_fen` text NOT NULL,`moves` text NOT NULL DEFAULT \"\",`human` text NOT NULL,`level` integer NOT NULL,`clock_initial_ms` integer NOT NULL DEFAULT 0,`clock_increment_ms` integer NOT NULL DEFAULT 0,`white_ms` integer NOT NULL DEFAULT 0,`black_ms` integer NOT NULL DEFAULT 0,`status` text NOT NULL,`result` text NOT NULL DEFAULT \"*\",`reason` text NOT NULL DEFAULT \"\",`created_at` datetime,`updated_at` datetime,`finished_at` datetime,PRIMARY KEY (`id`))",
	"recon_games": "CREATE TABLE `recon_games` (`id` text,`owner` text NOT NULL,`human` text NOT NULL,`opponent` text NOT NULL,`seed` integer NOT NULL DEFAULT 0,`clock_initial_ms` integer NOT NULL DEFAULT 0,`clock_increment_ms` integer NOT NULL DEFAULT 0,`white_ms` integer NOT NULL DEFAULT 0,`black_ms` integer NOT NULL DEFAULT 0,`history` text NOT NULL DEFAULT \"\",`markers` text NOT NULL DEFAULT \"{}\",`status` text NOT NULL,`result` text NOT NULL DEFAULT \"*\",`reason` text NOT NULL DEFAULT \"\",`created_at` datetime,`updated_at` datetime,`finished_at` datetime,PRIMARY KEY (`id`))",
	"api_games":   "CREATE TABLE `api_games` (`id` integer PRIMARY KEY AUTOINCREMENT,`white_id` integer NOT NULL,`black_id` integer NOT NULL,`white_name` text NOT NULL,`black_name` text NOT NULL,`white_version` integer NOT NULL DEFAULT 0,`black_version` integer NOT NULL DEFAULT 0,`ranked` numeric NOT NULL DEFAULT false,`rated` numeric NOT NULL DEFAULT false,`seed` integer NOT NULL DEFAULT 0,`clock_initial_ms` integer NOT NULL,`clock_increment_ms` integer NOT NULL,`white_ms` integer NOT NULL,`black_ms` integer NOT NULL,`white_ready` numeric NOT NULL DEFAULT false,`black_ready` numeric NOT NULL DEFAULT false,`history` text NOT NULL DEFAULT \"\",`markers` text NOT NULL DEFAULT \"{}\",`status` text NOT NULL,`result` text NOT NULL DEFAULT \"*\",`reason` text NOT NULL DEFAULT \"\",`created_at` datetime,`updated_at` datetime,`finished_at` datetime)",
}

// addedColumns are the columns added since (nullable or with a default, so
// old rows load):
// tableSQL leaves them out, after checking that they are there.
var addedColumns = map[string][]string{
	"games":       {"`watch_token` text", "`experience_notes` text NOT NULL DEFAULT \"\"", "`opening` text", "`clock_since` datetime", "`revision` integer NOT NULL DEFAULT 0"},
	"recon_games": {"`clock_since` datetime", "`revision` integer NOT NULL DEFAULT 0"},
	"api_games":   {"`clock_since` datetime", "`revision` integer NOT NULL DEFAULT 0", "`turn_open` numeric NOT NULL DEFAULT false"},
}

func tableSQL(t *testing.T, db *gorm.DB, name string) string {
	t.Helper()
	sql := rawTableSQL(t, db, name)
	for _, col := range addedColumns[name] {
		// A fresh table lists the column after a comma, a migrated one
		// after a comma and a space (ALTER TABLE ADD COLUMN).
		before := sql
		sql = strings.Replace(sql, ", "+col, "", 1)
		sql = strings.Replace(sql, ","+col, "", 1)
		if sql == before {
			t.Errorf("%s: column %s missing: %s", name, col, before)
		}
	}
	return sql
}

func rawTableSQL(t *testing.T, db *gorm.DB, name string) string {
	t.Helper()
	var sql string
	if err := db.Raw("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", name).Scan(&sql).Error; err != nil {
		t.Fatal(err)
	}
	return sql
}

// TestSchemaUnchanged: the typed fields keep text columns, so a fresh
// database has the tables an old one has. SQLite only: it is about the
// tables of old SQLite files (TestPostgresSchema has PostgreSQL's).
func TestSchemaUnchanged(t *testing.T) {
	s, _ := openTemp(t, sqliteDB)
	for name, want := range oldGameTables {
		if got := tableSQL(t, s.db, name); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// TestPostgresSchema: on PostgreSQL the columns have the types the
// store's values need (a float is a double precision as on SQLite, not
// gorm's numeric; a uint64 seed a bigint; times keep their zone; the
// sizes are enforced there, so they are what the tags say), and opening
// the database again migrates nothing: one schema, one migration path.
func TestPostgresSchema(t *testing.T) {
	s, dsn := openTemp(t, postgresDB)
	for _, tc := range []struct {
		table, column, want string
	}{
		{"games", "id", "character varying(40)"},
		{"games", "start_fen", "character varying(128)"},
		{"games", "moves", "text"},
		{"games", "human", "character varying(8)"},
		{"games", "status", "character varying(16)"},
		{"games", "updated_at", "timestamp with time zone"},
		{"games", "clock_since", "timestamp with time zone"},
		{"recon_games", "seed", "bigint"},
		{"api_games", "seed", "bigint"},
		{"api_games", "ranked", "boolean"},
		{"users", "password_hash", "bytea"},
		{"ratings", "elo", "double precision"},
		{"experiences", "weight", "double precision"},
		{"experiences", "key", "bigint"},
		{"analyses", "white_accuracy", "double precision"},
		{"analysis_plies", "judgement", "character varying(16)"},
	} {
		var got string
		err := s.db.Raw(`SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
WHERE a.attrelid = ?::regclass AND a.attname = ? AND NOT a.attisdropped`, tc.table, tc.column).Scan(&got).Error
		if err != nil || got != tc.want {
			t.Errorf("%s.%s: %q (%v), want %q", tc.table, tc.column, got, err, tc.want)
		}
	}
	var ddl []string
	c := pgConfig()
	c.Logger = sqlRecorder(func(sql string) {
		if u := strings.ToUpper(strings.TrimSpace(sql)); strings.HasPrefix(u, "ALTER") || strings.HasPrefix(u, "CREATE") || strings.HasPrefix(u, "DROP") {
			ddl = append(ddl, sql)
		}
	})
	db, err := gorm.Open(pgOpen(dsn), c)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	}()
	if err := db.AutoMigrate(models...); err != nil {
		t.Fatal(err)
	}
	if len(ddl) > 0 {
		t.Errorf("migrating a migrated database changed it:\n%s", strings.Join(ddl, "\n"))
	}
}

// sqlRecorder is a gorm logger that hands each statement to f.
type sqlRecorder func(sql string)

func (r sqlRecorder) LogMode(logger.LogLevel) logger.Interface { return r }
func (sqlRecorder) Info(context.Context, string, ...any)       {}
func (sqlRecorder) Warn(context.Context, string, ...any)       {}
func (sqlRecorder) Error(context.Context, string, ...any)      {}
func (r sqlRecorder) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	sql, _ := fc()
	r(sql)
}

// oldDatabase makes a database file the way an earlier Knightwatch left it
// (the old tables, rows inserted with raw SQL holding the strings it
// stored) and returns its path.
func oldDatabase(t *testing.T, inserts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := gorm.Open(sqlite.Open(path), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"games", "recon_games", "api_games"} {
		if err := db.Exec(oldGameTables[name]).Error; err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range inserts {
		if err := db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	sqlDB, _ := db.DB()
	sqlDB.Close()
	return path
}

func insertGame(id, human, status, reason string) string {
	return "INSERT INTO games (id, owner, variant, start_fen, moves, human, level, status, result, reason, created_at, updated_at) VALUES ('" +
		id + "', 'o', 'standard', 'x', '', '" + human + "', 1, '" + status + "', '*', '" + reason + "', '2026-01-02 03:04:05', '2026-01-02 03:04:05')"
}

func insertRecon(id, human, status, reason string) string {
	return "INSERT INTO recon_games (id, owner, human, opponent, status, result, reason, created_at, updated_at) VALUES ('" +
		id + "', 'o', '" + human + "', 'random', '" + status + "', '*', '" + reason + "', '2026-01-02 03:04:05', '2026-01-02 03:04:05')"
}

func insertAPI(id, status, reason string) string {
	return "INSERT INTO api_games (id, white_id, black_id, white_name, black_name, clock_initial_ms, clock_increment_ms, white_ms, black_ms, status, result, reason, created_at, updated_at) VALUES (" +
		id + ", 1, 2, 'a', 'b', 1000, 0, 1000, 1000, '" + status + "', '*', '" + reason + "', '2026-01-02 03:04:05', '2026-01-02 03:04:05')"
}

// TestOldRowsLoad: rows holding the exact strings stored before the values
// were typed load as the matching values, after Open migrated the file.
// SQLite only: such files exist only in SQLite.
func TestOldRowsLoad(t *testing.T) {
	type gameRow struct {
		id, human, status, reason string
		wantHuman                 game.Color
		wantStatus                Status
		wantReason                game.Termination
	}
	games := []gameRow{
		{"g1", "white", "playing", "", game.White, StatusPlaying, game.NotOver},
		{"g2", "black", "over", "checkmate", game.Black, StatusOver, game.Checkmate},
	}
	// Every termination, by the names the web package stored.
	for _, tc := range []struct {
		name string
		term game.Termination
	}{
		{"stalemate", game.Stalemate}, {"insufficient material", game.InsufficientMaterial},
		{"seventy-five-move rule", game.SeventyFiveMoves}, {"fivefold repetition", game.FivefoldRepetition},
		{"fifty-move rule", game.FiftyMoves}, {"threefold repetition", game.ThreefoldRepetition},
		{"resignation", game.Resignation}, {"time forfeit", game.TimeForfeit},
		{"draw by agreement", game.DrawAgreed}, {"adjudication", game.Adjudication},
	} {
		games = append(games, gameRow{"g_" + strings.ReplaceAll(tc.name, " ", "_"), "white", "over", tc.name, game.White, StatusOver, tc.term})
	}
	type reconRow struct {
		id, human, status, reason string
		wantHuman                 game.Color
		wantStatus                Status
		wantReason                recon.WinReason
	}
	recons := []reconRow{
		{"r1", "black", "playing", "", game.Black, StatusPlaying, recon.NoReason},
		{"r2", "white", "over", "KING_CAPTURE", game.White, StatusOver, recon.KingCapture},
		{"r3", "white", "over", "TIMEOUT", game.White, StatusOver, recon.Timeout},
		{"r4", "white", "over", "RESIGN", game.White, StatusOver, recon.Resign},
		{"r5", "white", "over", "TURN_LIMIT", game.White, StatusOver, recon.TurnLimit},
		{"r6", "white", "over", "MOVE_LIMIT", game.White, StatusOver, recon.MoveLimit},
	}
	apis := []struct {
		id, status, reason string
		wantStatus         Status
		wantReason         recon.WinReason
	}{
		{"1", "waiting", "", StatusWaiting, recon.NoReason},
		{"2", "playing", "", StatusPlaying, recon.NoReason},
		{"3", "over", "KING_CAPTURE", StatusOver, recon.KingCapture},
		{"4", "aborted", "", StatusAborted, recon.NoReason},
	}
	var inserts []string
	for _, g := range games {
		inserts = append(inserts, insertGame(g.id, g.human, g.status, g.reason))
	}
	for _, g := range recons {
		inserts = append(inserts, insertRecon(g.id, g.human, g.status, g.reason))
	}
	for _, g := range apis {
		inserts = append(inserts, insertAPI(g.id, g.status, g.reason))
	}
	s, err := Open(oldDatabase(t, inserts...))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for name, want := range oldGameTables {
		if got := tableSQL(t, s.db, name); got != want {
			t.Errorf("Open changed %s:\n got %s\nwant %s", name, got, want)
		}
	}
	for _, w := range games {
		g, err := s.Games().GetGame(w.id)
		if err != nil {
			t.Errorf("%s: %v", w.id, err)
			continue
		}
		if g.Human.Color != w.wantHuman || g.Status != w.wantStatus || g.Reason.Termination != w.wantReason {
			t.Errorf("%s: human %v status %v reason %v, want %v %v %v", w.id, g.Human, g.Status, g.Reason.Termination, w.wantHuman, w.wantStatus, w.wantReason)
		}
	}
	for _, w := range recons {
		g, err := s.Games().GetReconGame(w.id)
		if err != nil {
			t.Errorf("%s: %v", w.id, err)
			continue
		}
		if g.Human.Color != w.wantHuman || g.Status != w.wantStatus || g.Reason.WinReason != w.wantReason {
			t.Errorf("%s: human %v status %v reason %v, want %v %v %v", w.id, g.Human, g.Status, g.Reason.WinReason, w.wantHuman, w.wantStatus, w.wantReason)
		}
	}
	for i, w := range apis {
		g, err := s.API().GetAPIGame(int64(i + 1))
		if err != nil {
			t.Errorf("api %s: %v", w.id, err)
			continue
		}
		if g.Status != w.wantStatus || g.Reason.WinReason != w.wantReason {
			t.Errorf("api %s: status %v reason %v, want %v %v", w.id, g.Status, g.Reason.WinReason, w.wantStatus, w.wantReason)
		}
	}
	// The status queries find the old rows.
	if g, err := s.Games().LatestUnfinished("o"); err != nil || g.ID != "g1" {
		t.Errorf("LatestUnfinished = %v, %v", g, err)
	}
	if gs, err := s.Games().FinishedGames("o", 100); err != nil || len(gs) != len(games)-1 {
		t.Errorf("FinishedGames: %d games, %v", len(gs), err)
	}
	if gs, err := s.Games().ReconGames("o", StatusOver, 100); err != nil || len(gs) != len(recons)-1 {
		t.Errorf("ReconGames: %d games, %v", len(gs), err)
	}
	if gs, err := s.API().RecentAPIGames(StatusAborted, 10); err != nil || len(gs) != 1 || gs[0].ID != 4 {
		t.Errorf("RecentAPIGames(aborted) = %v, %v", gs, err)
	}
}

// TestStoredText: saving writes the same text as before.
func TestStoredText(t *testing.T) { onBoth(t, testStoredText) }

func testStoredText(t *testing.T, bk backend) {
	s, _ := openTemp(t, bk)
	g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: Black, Level: 1}
	if err := s.Games().CreateGame(g); err != nil {
		t.Fatal(err)
	}
	g.Status, g.Reason = StatusOver, TerminationOf(game.TimeForfeit)
	if err := s.Games().SaveGame(g); err != nil {
		t.Fatal(err)
	}
	r := &ReconGame{Owner: "o", Human: White, Opponent: "random"}
	if err := s.Games().CreateReconGame(r); err != nil {
		t.Fatal(err)
	}
	a := &APIGame{WhiteName: "a", BlackName: "b"}
	if err := s.API().CreateAPIGame(a); err != nil {
		t.Fatal(err)
	}
	a.Status, a.Reason = StatusOver, WinReasonOf(recon.MoveLimit)
	if err := s.API().SaveAPIGame(a); err != nil {
		t.Fatal(err)
	}
	type row struct{ Human, Status, Reason string }
	for _, tc := range []struct {
		q    string
		want row
	}{
		{"SELECT human, status, reason FROM games", row{"black", "over", "time forfeit"}},
		{"SELECT human, status, reason FROM recon_games", row{"white", "playing", ""}},
		{"SELECT '' AS human, status, reason FROM api_games", row{"", "over", "MOVE_LIMIT"}},
	} {
		var got row
		if err := s.db.Raw(tc.q).Scan(&got).Error; err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.q, got, tc.want)
		}
	}
}

// TestUnknownStoredValue: text that is none of a type's values fails to
// load, rather than turning into some default. SQLite only: the rows are
// an old SQLite file's (the Scan that refuses them is the same on both).
func TestUnknownStoredValue(t *testing.T) {
	s, err := Open(oldDatabase(t,
		insertGame("bad_status", "white", "finished", ""),
		insertGame("bad_human", "red", "playing", ""),
		insertGame("bad_reason", "white", "over", "checkmated"),
		insertRecon("bad_recon_reason", "white", "over", "king_capture"),
		insertAPI("1", "Playing", ""),
	))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"bad_status", "bad_human", "bad_reason"} {
		if g, err := s.Games().GetGame(id); err == nil {
			t.Errorf("%s loaded as %+v", id, g)
		}
	}
	if g, err := s.Games().GetReconGame("bad_recon_reason"); err == nil {
		t.Errorf("recon game loaded as %+v", g)
	}
	if g, err := s.API().GetAPIGame(1); err == nil {
		t.Errorf("api game loaded as %+v", g)
	}
	// Nor can such values be written.
	g := &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: ColorOf(game.Color(7)), Level: 1}
	if err := s.Games().CreateGame(g); err == nil {
		t.Error("created a game with colour 7")
	}
	g = &Game{Owner: "o", Variant: "standard", StartFEN: "x", Human: White, Level: 1, Status: Status(99)}
	if err := s.Games().CreateGame(g); err == nil {
		t.Error("created a game with status 99")
	}
}

// TestTextRoundTrip: every value's text reads back as the value.
func TestTextRoundTrip(t *testing.T) {
	for st := StatusPlaying; st <= StatusDeleted; st++ {
		b, err := st.MarshalText()
		var back Status
		if err != nil || back.UnmarshalText(b) != nil || back != st {
			t.Errorf("status %d: %q %v -> %v", st, b, err, back)
		}
	}
	if _, err := StatusUnset.MarshalText(); err == nil {
		t.Error("StatusUnset has a stored form")
	}
	for _, c := range []Color{White, Black} {
		b, err := c.MarshalText()
		var back Color
		if err != nil || back.UnmarshalText(b) != nil || back != c {
			t.Errorf("colour %v: %q %v -> %v", c, b, err, back)
		}
	}
	for v := game.NotOver; v <= game.Adjudication; v++ {
		b, err := TerminationOf(v).MarshalText()
		var back Termination
		if err != nil || back.UnmarshalText(b) != nil || back.Termination != v {
			t.Errorf("termination %v: %q %v -> %v", v, b, err, back)
		}
	}
	for v := recon.NoReason; v <= recon.MoveLimit; v++ {
		b, err := WinReasonOf(v).MarshalText()
		var back WinReason
		if err != nil || back.UnmarshalText(b) != nil || back.WinReason != v {
			t.Errorf("win reason %v: %q %v -> %v", v, b, err, back)
		}
	}
}
