package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

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
	fs := newFlagSet("serve", "[--addr HOST:PORT] [--db PATH] [--syzygy DIRS] [--trust-proxy] [--public-origin URL]", stderr)
	addr := fs.String("addr", envOr("KNIGHTWATCH_ADDR", ":8080"), "listen address (env KNIGHTWATCH_ADDR)")
	dbPath := fs.String("db", envOr("KNIGHTWATCH_DB", "knightwatch.db"), "SQLite database path (env KNIGHTWATCH_DB)")
	noEngine := fs.Bool("no-engine", false, "never let the engine reply (for benchmarks of the server alone)")
	syzygyPath := fs.String("syzygy", os.Getenv("KNIGHTWATCH_SYZYGY"), "Syzygy tablebase directories, ':'-separated, for the engine to play endings perfectly (env KNIGHTWATCH_SYZYGY)")
	rbcClock := fs.String("rbc-clock", "900+5", "clock of Reconnaissance Chess games of the HTTP API: seconds each + seconds added per turn")
	trustProxy := fs.Bool("trust-proxy", envBool("KNIGHTWATCH_TRUST_PROXY"),
		"trust X-Forwarded-Proto from a TLS-terminating proxy: \"https\" there makes the session cookie Secure, sends HSTS and uses wss:// (env KNIGHTWATCH_TRUST_PROXY=1); leave off when clients connect directly")
	debugAddr := fs.String("debug-addr", "", "serve GET /debug/goroutines (the goroutine count, for the load tests under bench/) on this loopback address, such as 127.0.0.1:6060; off when empty")
	publicOrigin := fs.String("public-origin", os.Getenv("KNIGHTWATCH_PUBLIC_ORIGIN"),
		"the site's origin as browsers see it, such as https://example.org, for WebSocket URLs, the CSP, the PGN Site tag and the WebSocket Origin check (env KNIGHTWATCH_PUBLIC_ORIGIN; default: the request's scheme and a validated Host)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	clock, increment, err := parseSecondsClock(*rbcClock)
	if err != nil {
		return fmt.Errorf("--rbc-clock: %w", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	logger := log.New(stderr, "", log.LstdFlags)
	if *debugAddr != "" {
		stop, err := startDebugServer(*debugAddr, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	templates, static, err := webFolders(assets)
	if err != nil {
		return err
	}
	srv, err := web.New(web.Config{
		Store:     st,
		Templates: templates,
		Static:    static,
		// Unset, the secret generated on first start and kept in the
		// database is used, so restarts keep everyone's session.
		Secret:      []byte(os.Getenv("KNIGHTWATCH_SECRET")),
		NewSearcher: web.NewEngineSearcher,
		Levels:      web.EngineLevels(),
		NoEngine:    *noEngine,
		Logger:      logger,
		RBCClock:    clock, RBCIncrement: increment,
		SyzygyPath:   *syzygyPath,
		TrustProxy:   *trustProxy,
		PublicOrigin: *publicOrigin,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		srv.Close()
		return err
	}
	// Header and idle timeouts here; web bounds each request's body and
	// response itself, so that WebSockets are not cut short.
	hs := web.NewHTTPServer(srv)
	hs.ErrorLog = logger
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "Knightwatch listening on http://%s (database %s)\n", ln.Addr(), *dbPath)
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
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = hs.Shutdown(shutCtx)
	srv.Close()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(stdout, "Knightwatch stopped")
	return nil
}

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
