package enginejobs

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"knightwatch/enginepool"
	"knightwatch/game"
	"knightwatch/pgtest"
	"knightwatch/recon/bots"
)

// The worker process of TestWorkerKilledLosesItsJob: the test binary run
// again with workerEnv set to a database's DSN.
const workerEnv = "ENGINEJOBS_TEST_WORKER"

func TestMain(m *testing.M) {
	if dsn := os.Getenv(workerEnv); dsn != "" {
		os.Exit(runStuckWorker(dsn))
	}
	os.Exit(pgtest.Main(m))
}

// stubSearcher answers the first legal move at once, counting its
// searches; with block set it says so on started and thinks until its
// context ends.
type stubSearcher struct {
	searches *atomic.Int64
	block    bool
	started  chan<- string
}

func (s *stubSearcher) Search(ctx context.Context, pos *game.Position, _ []uint64, req enginepool.SearchRequest) enginepool.SearchResult {
	s.searches.Add(1)
	if s.block {
		if s.started != nil {
			s.started <- req.Turn
		}
		<-ctx.Done()
	}
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	res := enginepool.SearchResult{Move: ml.Moves[0], CP: 17, Depth: 3}
	if req.SecondBest {
		res.Second = enginepool.Line{Move: ml.Moves[1], CP: -40}
	}
	return res
}

func (s *stubSearcher) NewGame() {}

// newJobs starts Jobs on dsn with a pool of stubs (n regular searchers).
func newJobs(t *testing.T, dsn string, work bool, n int, stub stubSearcher) *Jobs {
	t.Helper()
	pool, err := enginepool.New(enginepool.Config{Searchers: n, NewSearcher: func() enginepool.Searcher { s := stub; return &s }})
	if err != nil {
		t.Fatal(err)
	}
	j, err := Start(context.Background(), Config{DSN: dsn, Pool: pool, Work: work, NewBot: bots.NewOneThread, Logf: t.Logf, Poll: 50 * time.Millisecond, Grace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Close)
	return j
}

func startPos(t *testing.T) *game.Position {
	t.Helper()
	pos, err := game.ParseFEN(game.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	return pos
}

// waitCtx bounds a wait of a failing test.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Two servers asking for the same turn get one search and the same
// answer; another turn is another search.
func TestOneTurnOneSearch(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	serverA := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	serverB := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	newJobs(t, dsn, true, 2, stubSearcher{searches: &searches}) // the worker
	pos := startPos(t)
	req := enginepool.SearchRequest{Level: 1, MoveTime: 100 * time.Millisecond, Turn: "g1@3"}
	var wg sync.WaitGroup
	var got [2]enginepool.SearchResult
	for i, j := range []*Jobs{serverA, serverB} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, ok := j.Search(waitCtx(t), "owner", "g1", pos, nil, req)
			if !ok {
				t.Errorf("server %d: no answer", i)
			}
			got[i] = res
		}()
	}
	wg.Wait()
	if got[0] != got[1] || got[0].CP != 17 || !pos.IsLegal(got[0].Move) {
		t.Fatalf("answers %+v and %+v, want one legal answer", got[0], got[1])
	}
	if n := searches.Load(); n != 1 {
		t.Fatalf("%d searches for one turn, want 1", n)
	}
	req.Turn = "g1@5"
	if _, ok := serverA.Search(waitCtx(t), "owner", "g1", pos, nil, req); !ok {
		t.Fatal("no answer for the next turn")
	}
	if n := searches.Load(); n != 2 {
		t.Fatalf("%d searches for two turns, want 2", n)
	}
	// A review's search, and a Chess960 position, go through the same way.
	pos960, err := game.ParseFEN("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
	if err != nil {
		t.Fatal(err)
	}
	res, ok := serverB.SearchIdle(waitCtx(t), "g2", pos960, nil, enginepool.SearchRequest{Level: 8, Nodes: 1000, Evaluate: true})
	if !ok || !pos960.IsLegal(res.Move) {
		t.Fatalf("review search: %+v %v", res, ok)
	}
}

// A turn withdrawn while its job runs cancels the job: the worker's
// search stops.
func TestWithdrawnTurnCancelsItsJob(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	started := make(chan string, 1)
	server := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	newJobs(t, dsn, true, 1, stubSearcher{searches: &searches, block: true, started: started})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		_, ok := server.Search(ctx, "owner", "g1", startPos(t), nil, enginepool.SearchRequest{Level: 1, MoveTime: time.Second, Turn: "g1@1"})
		done <- ok
	}()
	select {
	case <-started:
	case <-waitCtx(t).Done():
		t.Fatal("the job never started")
	}
	cancel()
	if <-done {
		t.Fatal("a withdrawn search answered")
	}
	db, err := pgx.Connect(waitCtx(t), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	// The worker's search returns once River cancels the job; its state
	// says so. Waits on the database, polled: River signals nothing else.
	for ctx := waitCtx(t); ; {
		var state string
		if err := db.QueryRow(ctx, "SELECT state FROM river_job WHERE args->>'key' = 'g1@1'").Scan(&state); err != nil {
			t.Fatal(err)
		}
		if state == "cancelled" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the job is %s, want cancelled", state)
		case <-time.After(20 * time.Millisecond): // polling the job's state, not waiting for time
		}
	}
}

// runStuckWorker is the worker process of TestWorkerKilledLosesItsJob: it
// takes jobs, says "searching KEY" on stdout as one starts, and never
// answers.
func runStuckWorker(dsn string) int {
	started := make(chan string)
	var searches atomic.Int64
	pool, err := enginepool.New(enginepool.Config{Searchers: 1, NewSearcher: func() enginepool.Searcher {
		return &stubSearcher{searches: &searches, block: true, started: started}
	}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	j, err := Start(context.Background(), Config{DSN: dsn, Pool: pool, Work: true, WorkOnly: true, NewBot: bots.NewOneThread})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer j.Close()
	fmt.Println("ready")
	for key := range started {
		fmt.Println("searching", key)
	}
	return 0
}

// A worker killed with -9 in the middle of a search loses its job: the
// server waiting asks again and another worker answers, once.
func TestWorkerKilledLosesItsJob(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	server := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"="+dsn)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the worker did not start: %q", lines.Text())
	}
	answered := make(chan enginepool.SearchResult)
	go func() {
		res, ok := server.Search(waitCtx(t), "owner", "g1", startPos(t), nil, enginepool.SearchRequest{Level: 1, MoveTime: 100 * time.Millisecond, Turn: "g1@7"})
		if !ok {
			t.Error("no answer after the worker died")
		}
		answered <- res
	}()
	if !lines.Scan() || lines.Text() != "searching g1@7" {
		t.Fatalf("the worker did not take the job: %q", lines.Text())
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	newJobs(t, dsn, true, 1, stubSearcher{searches: &searches}) // a live worker
	res := <-answered
	if !startPos(t).IsLegal(res.Move) {
		t.Fatalf("answer %+v", res)
	}
	db, err := pgx.Connect(waitCtx(t), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	var answers, jobs int
	if err := db.QueryRow(waitCtx(t), "SELECT (SELECT count(*) FROM engine_answers WHERE key = 'g1@7'), (SELECT count(*) FROM river_job WHERE args->>'key' = 'g1@7')").Scan(&answers, &jobs); err != nil {
		t.Fatal(err)
	}
	if answers != 1 || jobs != 2 {
		t.Fatalf("%d answers and %d jobs, want 1 answer from the second of 2 tries", answers, jobs)
	}
}

// An owner's requests queue with falling priority, so that another
// owner's first request is taken before the flooder's later ones.
func TestFloodingOwnerQueuesBehind(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	server := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	db, err := pgx.Connect(waitCtx(t), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(context.Background())
	jobCount := func() int {
		var n int
		if err := db.QueryRow(waitCtx(t), "SELECT count(*) FROM river_job").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	ask := func(owner, turn string) {
		n := jobCount()
		wg.Add(1)
		go func() {
			defer wg.Done()
			server.Search(ctx, owner, turn, startPos(t), nil, enginepool.SearchRequest{Level: 8, MoveTime: 3 * time.Second, Turn: turn})
		}()
		// One at a time, so that each sees the ones before: waits for
		// its job's row.
		for wait := waitCtx(t); jobCount() == n; {
			select {
			case <-wait.Done():
				t.Fatal("the job was not inserted")
			case <-time.After(5 * time.Millisecond): // polling the table, not waiting for time
			}
		}
	}
	for i := range 5 {
		ask("flooder", fmt.Sprintf("f%d", i))
	}
	ask("other", "o1")
	rows, err := db.Query(waitCtx(t), "SELECT args->>'key', priority, queue FROM river_job")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for rows.Next() {
		var key, queue string
		var p int
		if err := rows.Scan(&key, &p, &queue); err != nil {
			t.Fatal(err)
		}
		if queue != queueLong {
			t.Errorf("%s in queue %s, want %s", key, queue, queueLong)
		}
		got[key] = p
	}
	want := map[string]int{"f0": 1, "f1": 2, "f2": 3, "f3": 4, "f4": 4, "o1": 1}
	for k, p := range want {
		if got[k] != p {
			t.Errorf("%s has priority %d, want %d", k, got[k], p)
		}
	}
}

// A puzzle's search asks for the second best move too (SecondBest, package
// training): on a site the request and the answer cross the database as
// JSON, and both must keep it.
func TestSecondBestThroughJobs(t *testing.T) {
	dsn := pgtest.DB(t)
	var searches atomic.Int64
	server := newJobs(t, dsn, false, 1, stubSearcher{searches: &searches})
	newJobs(t, dsn, true, 1, stubSearcher{searches: &searches})
	pos := startPos(t)
	var ml game.MoveList
	pos.GenerateLegal(&ml)
	for _, second := range []bool{true, false} {
		res, ok := server.SearchIdle(waitCtx(t), "g1", pos, nil, enginepool.SearchRequest{Level: 8, Nodes: 1000, Evaluate: true, SecondBest: second})
		want := enginepool.Line{Move: game.NoMove}
		if second {
			want = enginepool.Line{Move: ml.Moves[1], CP: -40}
		}
		if !ok || res.Move != ml.Moves[0] || res.Second != want {
			t.Errorf("SecondBest %v: %+v %v, want the second line %+v", second, res, ok, want)
		}
	}
}
