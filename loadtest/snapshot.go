package loadtest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"knightwatch/store"
)

// storedGames is every game of a database, read from a copy of its files.
type storedGames struct {
	chess map[string]*store.Game
	recon map[string]*store.ReconGame
}

// readSnapshot copies the database at path with its write-ahead log, as
// they are on disk at this moment (after a kill -9: what the killed
// process had written), opens the copy, which recovers the log the way the
// server's next start would, and reads every game. The files themselves
// are left untouched for the server's own recovery.
func readSnapshot(path, scratch string) (*storedGames, error) {
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, err
	}
	snap := filepath.Join(scratch, "snap.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(snap + suffix)
	}
	defer func() {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			os.Remove(snap + suffix)
		}
	}()
	if err := copyFile(path, snap); err != nil {
		return nil, err
	}
	if err := copyFile(path+"-wal", snap+"-wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	db, err := gorm.Open(sqlite.Open("file:"+snap+"?_busy_timeout=5000"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open the snapshot: %w", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	defer sqlDB.Close()
	return readGames(db)
}

// readPostgres reads every game of the PostgreSQL database at dsn: what
// it has committed is what a kill -9 of any server leaves.
func readPostgres(dsn string) (*storedGames, error) {
	db, err := gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return nil, fmt.Errorf("open the database: %w", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	defer sqlDB.Close()
	return readGames(db)
}

// countEngineAnswers counts the engine searches the site's workers
// answered (package enginejobs).
func countEngineAnswers(dsn string) (int, error) {
	db, err := gorm.Open(postgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		return 0, err
	}
	sqlDB, err := db.DB()
	if err != nil {
		return 0, err
	}
	defer sqlDB.Close()
	var n int64
	err = db.Table("engine_answers").Count(&n).Error
	return int(n), err
}

// readGames reads every chess and Reconnaissance Chess game of db.
func readGames(db *gorm.DB) (*storedGames, error) {
	var chess []store.Game
	if err := db.Find(&chess).Error; err != nil {
		return nil, fmt.Errorf("read the games: %w", err)
	}
	var recon []store.ReconGame
	if err := db.Find(&recon).Error; err != nil {
		return nil, fmt.Errorf("read the recon games: %w", err)
	}
	out := &storedGames{chess: map[string]*store.Game{}, recon: map[string]*store.ReconGame{}}
	for i := range chess {
		out.chess[chess[i].ID] = &chess[i]
	}
	for i := range recon {
		out.recon[recon[i].ID] = &recon[i]
	}
	return out, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkResult is one check of a database against the ledger.
type checkResult struct {
	problems                 []string
	chessGames, reconGames   int // rows read
	ackedMoves, ackedActions int // acknowledged chess moves and recon actions compared
	unseenChess, unseenRecon int // rows no player had a state of (a rematch made as the server died)
}

// checkGames reads every stored game (readChess, readRecon) and compares
// each game a player saw with what is stored (checkChess, checkRecon).
func checkGames(db *storedGames, cs []chessSeen, rs []reconSeen) checkResult {
	var res checkResult
	res.chessGames, res.reconGames = len(db.chess), len(db.recon)
	takebacks := map[string]int{}
	for _, s := range cs {
		takebacks[s.ID] = s.Takebacks
	}
	chess := map[string]chessStored{}
	for id, g := range db.chess {
		st, err := readChess(g, takebacks[id])
		if err != nil {
			res.problems = append(res.problems, fmt.Sprintf("game %s is unreadable: %v", id, err))
			continue
		}
		chess[id] = st
	}
	recon := map[string]reconStored{}
	for id, g := range db.recon {
		st, err := readRecon(g)
		if err != nil {
			res.problems = append(res.problems, fmt.Sprintf("recon game %s is unreadable: %v", id, err))
			continue
		}
		recon[id] = st
	}
	seen := map[string]bool{}
	for _, s := range cs {
		seen[s.ID] = true
		st, ok := chess[s.ID]
		if _, there := db.chess[s.ID]; !there && s.Human != "" {
			res.problems = append(res.problems, fmt.Sprintf("game %s is lost: a player saw %d moves acknowledged", s.ID, len(s.Moves)))
			continue
		}
		if !ok {
			continue // unreadable, already said
		}
		if err := checkChess(s, st); err != nil {
			res.problems = append(res.problems, fmt.Sprintf("game %s: %v", s.ID, err))
		}
		res.ackedMoves += len(s.Moves)
	}
	for _, s := range rs {
		seen[s.ID] = true
		st, ok := recon[s.ID]
		if _, there := db.recon[s.ID]; !there && s.Human != "" {
			res.problems = append(res.problems, fmt.Sprintf("recon game %s is lost: a player saw %d actions acknowledged", s.ID, s.Seq))
			continue
		}
		if !ok {
			continue
		}
		if err := checkRecon(s, st); err != nil {
			res.problems = append(res.problems, fmt.Sprintf("recon game %s: %v", s.ID, err))
		}
		res.ackedActions += s.Seq
	}
	for id := range db.chess {
		if !seen[id] {
			res.unseenChess++
		}
	}
	for id := range db.recon {
		if !seen[id] {
			res.unseenRecon++
		}
	}
	return res
}
