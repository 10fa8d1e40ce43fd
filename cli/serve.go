package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"knightwatch/analysisboard"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"knightwatch/changefeed"
	"knightwatch/enginepool"
	"knightwatch/review"
	"knightwatch/store"
	"knightwatch/web"
)

func init() {
	register(command{
		name:    "serve",
		summary: "serve the web app (the default subcommand)",
		runWeb:  runServe,
	})
}

// envBool reads a yes/no environment variable: 1, true, yes or on.
func envBool(name string) bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(name))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// envOnOff reads an on/off environment variable: on, 1, true or yes;
// off, 0, false or no; def when unset or empty. Anything else is an error
// naming the variable.
func envOnOff(name string, def bool) (bool, error) {
	v := strings.ToLower(strings.TrimSpace(os.Getenv(name)))
	switch v {
	case "":
		return def, nil
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%s=%q: want on or off", name, os.Getenv(name))
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// parseSecondsClock reads a clock written "SECONDS+INCREMENT", such as
// "900+5" or "120+1": both in seconds, the first above zero.
func parseSecondsClock(v string) (clock, increment time.Duration, err error) {
	a, b, ok := strings.Cut(v, "+")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not SECONDS+INCREMENT, such as 900+5", v)
	}
	secs, err1 := strconv.ParseFloat(a, 64)
	inc, err2 := strconv.ParseFloat(b, 64)
	if err1 != nil || err2 != nil || !(secs > 0 && secs <= 86400) || !(inc >= 0 && inc <= 3600) {
		return 0, 0, fmt.Errorf("%q is not SECONDS+INCREMENT with 0 < SECONDS <= 86400 and 0 <= INCREMENT <= 3600", v)
	}
	return time.Duration(secs * float64(time.Second)), time.Duration(inc * float64(time.Second)), nil
}

func runServe(assets fs.FS, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	experienceOn, err := envOnOff("KNIGHTWATCH_EXPERIENCE", true)
	if err != nil {
		return err
	}
	fs := newFlagSet("serve", "[--addr HOST:PORT] [--db PATH|URL] [--syzygy DIRS] [--gaviota DIRS] [--experience=false] [--trust-proxy] [--public-origin URL] [--read-timeout D] [--max-conns-per-addr N] [--new-games-per-addr N]", stderr)
	addr := fs.String("addr", envOr("KNIGHTWATCH_ADDR", ":8080"), "listen address (env KNIGHTWATCH_ADDR)")
	database := fs.String("db", envOr("KNIGHTWATCH_DB", "knightwatch.db"),
		"the database: a SQLite file's path, created if missing, or a PostgreSQL URL such as postgres://user:password@host:5432/knightwatch, whose database must exist (env KNIGHTWATCH_DB)")
	noEngine := fs.Bool("no-engine", false, "never let the engine reply (for benchmarks of the server alone)")
	engineWork := fs.Bool("engine-work", true, "on PostgreSQL, take engine jobs in this process too (false: leave them to `knightwatch worker` processes)")
	analysisNodes := fs.Int("analysis-nodes", review.DefaultNodes,
		"the engine's budget per position when it reviews a finished game (in the background, below every live game); 0: no reviews")
	syzygyPath := fs.String("syzygy", os.Getenv("KNIGHTWATCH_SYZYGY"), "Syzygy tablebase directories, ':'-separated, for the engine to play endings perfectly (env KNIGHTWATCH_SYZYGY)")
	gaviotaPath := fs.String("gaviota", os.Getenv("KNIGHTWATCH_GAVIOTA"), "Gaviota tablebase directories (.gtb.cp4), ':'-separated, for the engine to mate by the shortest way and the reviews to say how far mate is (env KNIGHTWATCH_GAVIOTA)")
	experience := fs.Bool("experience", experienceOn,
		"let the engine learn from finished games and avoid the lines that lost (env KNIGHTWATCH_EXPERIENCE=off turns it off); off, it plays as if it had never played, for reproducible tests and benchmarks")
	experienceRows := fs.Int("experience-rows", store.DefaultExperienceRows, "the most rows the experience table keeps; beyond, the least valuable go")
	rbcClock := fs.String("rbc-clock", "900+5", "clock of Reconnaissance Chess games of the HTTP API: seconds each + seconds added per turn")
	rbcBotCores := fs.Int("rbc-bot-cores", enginepool.DefaultBotCores(runtime.NumCPU()), rbcBotCoresUsage)
	trustProxy := fs.Bool("trust-proxy", envBool("KNIGHTWATCH_TRUST_PROXY"),
		"trust X-Forwarded-Proto and X-Forwarded-For from a TLS-terminating proxy: \"https\" there makes the session cookie Secure, sends HSTS and uses wss://, and the per-address limits count the address the proxy appended to X-Forwarded-For (env KNIGHTWATCH_TRUST_PROXY=1); leave off when clients connect directly")
	debugAddr := fs.String("debug-addr", "", "serve GET /debug/goroutines (the goroutine count, for the load tests under bench/) on this loopback address, such as 127.0.0.1:6060; off when empty")
	publicOrigin := fs.String("public-origin", os.Getenv("KNIGHTWATCH_PUBLIC_ORIGIN"),
		"the site's origin as browsers see it, such as https://example.org, for WebSocket URLs, the CSP, the PGN Site tag and the WebSocket Origin check (env KNIGHTWATCH_PUBLIC_ORIGIN; default: the request's scheme and a validated Host)")
	maxConns := fs.Int("max-conns-per-addr", -1,
		fmt.Sprintf("the most connections one client address may hold open at once; more are closed as they arrive (0: no cap; -1: %d, or no cap with --trust-proxy, where every connection comes from the proxy)", web.DefaultMaxConnsPerAddr))
	newGames := fs.Int("new-games-per-addr", web.DefaultCreateAddrBurst,
		"how many new games one client address may start at once, all its visitors together; then one a second (0: no limit)")
	readTimeout := fs.Duration("read-timeout", web.DefaultRequestReadTimeout,
		"the longest one request's body may take to arrive (forms, API calls, uploads; not WebSockets): a body trickled in slower is cut off")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *newGames < 0 {
		return fmt.Errorf("--new-games-per-addr must be 0 (no limit) or more, got %d", *newGames)
	}
	createAddrRate := 0.0 // the default
	if *newGames == 0 {
		createAddrRate = -1
	}
	if *readTimeout <= 0 {
		return fmt.Errorf("--read-timeout must be above zero, got %v", *readTimeout)
	}
	clock, increment, err := parseSecondsClock(*rbcClock)
	if err != nil {
		return fmt.Errorf("--rbc-clock: %w", err)
	}
	if err := checkBotCores(*rbcBotCores); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *experienceRows < 1 {
		return fmt.Errorf("--experience-rows: %d is not a positive number of rows", *experienceRows)
	}
	if *analysisNodes < 0 {
		return fmt.Errorf("--analysis-nodes: %d is negative (0 turns reviews off)", *analysisNodes)
	}
	logger := log.New(stderr, "", log.LstdFlags)
	if *debugAddr != "" {
		stop, err := startDebugServer(*debugAddr, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	st, err := store.Open(*database)
	if err != nil {
		return err
	}
	defer st.Close()
	templates, static, err := webFolders(assets)
	if err != nil {
		return err
	}
	parts, closeParts, err := buildParts(st, partsFlags{database: *database, syzygy: *syzygyPath, gaviota: *gaviotaPath, experience: *experience, experienceRows: *experienceRows,
		analysisNodes: *analysisNodes, noEngine: *noEngine, engineWork: *engineWork, rbcClock: clock, rbcIncrement: increment, rbcBotCores: *rbcBotCores}, logger)
	if err != nil {
		return err
	}
	defer closeParts() // after srv.Close
	srv, err := web.New(web.Config{
		Templates: templates,
		Static:    static,
		// Unset, the secret generated on first start and kept in the
		// database is used, so restarts keep everyone's session.
		Secret:       []byte(os.Getenv("KNIGHTWATCH_SECRET")),
		Logger:       logger,
		TrustProxy:   *trustProxy,
		PublicOrigin: *publicOrigin,

		RequestReadTimeout: *readTimeout,
		CreateAddrRate:     createAddrRate,
		CreateAddrBurst:    *newGames,
		AnalysisCaps:       analysisCaps(*database, *engineWork),
	}, parts)
	if err != nil {
		return err
	}
	if store.IsPostgres(*database) {
		// Another server's sign-out hangs up this server's sockets of the
		// sessions it ended.
		l, err := changefeed.ListenChannel(context.Background(), *database, store.SessionsChannel, sessionsFeed{srv}, changefeed.Options{Logf: logger.Printf})
		if err != nil {
			srv.Close()
			return err
		}
		defer l.Close()
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Close()
		return err
	}
	if *maxConns < 0 && !*trustProxy {
		*maxConns = web.DefaultMaxConnsPerAddr
	}
	if *maxConns > 0 {
		ln = web.LimitConnsPerAddr(ln, *maxConns)
	}
	// Header and idle timeouts here; web bounds each request's body and
	// response itself, so that WebSockets are not cut short.
	hs := web.NewHTTPServer(srv)
	hs.ErrorLog = logger
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Describe: a PostgreSQL URL's password stays out of the log.
	fmt.Fprintf(stdout, "Knightwatch listening on http://%s (database %s)\n", ln.Addr(), store.Describe(*database))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		srv.Close()
		return err
	case <-ctx.Done():
	}
	// Every move is already committed; shutting down only stops the
	// clocks of open games and closes their connections.
	shutCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = hs.Shutdown(shutCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// Requests still arriving, or connections that never sent one,
		// after the grace: nothing of theirs is committed, so they are cut
		// and the stop is as clean as any (exit 0 for a process manager).
		logger.Printf("closing the connections still open after %v", shutdownGrace)
		err = hs.Close()
	}
	srv.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "Knightwatch stopped")
	return nil
}

// shutdownGrace is how long a stopping server lets requests in progress
// finish before it cuts them.
const shutdownGrace = 5 * time.Second

// webFolders returns the templates and static folders of the web assets,
// failing when either is missing so a broken build cannot serve blank pages.
func webFolders(assets fs.FS) (templates, static fs.FS, err error) {
	for _, dir := range []string{"templates", "static"} {
		if st, err := fs.Stat(assets, dir); err != nil || !st.IsDir() {
			return nil, nil, fmt.Errorf("web assets: no %s folder", dir)
		}
	}
	if templates, err = fs.Sub(assets, "templates"); err != nil {
		return nil, nil, err
	}
	static, err = fs.Sub(assets, "static")
	return templates, static, err
}

// analysisCaps are the analysis board's caps: the defaults, and on a
// PostgreSQL site whose engine work is left to workers
// (--engine-work=false) one analysis at a time on this server's own pool
// (docs/analysis.md): the analysis streams to a socket of this server, so
// it runs here, not as jobs.
func analysisCaps(database string, engineWork bool) analysisboard.Caps {
	if store.IsPostgres(database) && !engineWork {
		return analysisboard.Caps{Server: 1}
	}
	return analysisboard.Caps{}
}
