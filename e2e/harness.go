// Package e2e drives the real knightwatch binary in headless Chromium.
//
// The tests (game_test.go, helpers_test.go) build the binary once, start it on a
// free loopback port with a temporary SQLite database, and play through the
// pages using only the stable hooks listed in web/PROTOCOL.md ("Page hooks").
// This file holds the parts that do not need package testing — building the
// binary, the server's life cycle, the browser's flags and the in-page
// recorder — so that bench/page_load and bench/analysis_page can reuse them.
//
// Run the tests with `make e2e` (scripts/e2e.sh), which installs Debian's
// chromium when it is missing and points KNIGHTWATCH_E2E_CHROME at it.
package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// BuildBinary compiles the knightwatch command found in moduleDir to out.
// The tests build once and reuse the binary, because `go run` per server
// start would cost seconds each time on the shared two-core machine.
func BuildBinary(moduleDir, out string) error {
	cmd := exec.Command("go", "build", "-o", out, ".")
	cmd.Dir = moduleDir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, b)
	}
	return nil
}

// BuildInto compiles the knightwatch command of the module around the
// working directory into dir (dir/knightwatch) and returns its path: what
// the tests, the load and attack programs and the benchmarks run.
func BuildInto(dir string) (string, error) {
	root, err := ModuleRoot(".")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "knightwatch")
	if err := BuildBinary(root, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// ModuleRoot walks up from dir to the folder holding go.mod, so the helpers
// work both from e2e/ (go test's working directory) and from the repo root.
func ModuleRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", abs)
		}
	}
}

// FreeAddr returns a loopback address whose port was free a moment ago.
// The kernel picks the port; the small window before the server binds it is
// acceptable for tests on a machine whose other users pick ports the same way.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		return "", err
	}
	return addr, nil
}

// Server is one running `knightwatch serve` process. Restart starts a new
// process on the same address and database, which is what "restart the
// server and resume" needs: the browser's URLs and cookies stay valid.
type Server struct {
	Bin  string   // path of the built binary
	DB   string   // SQLite file or PostgreSQL URL, kept across restarts
	Addr string   // host:port on loopback
	Log  string   // file collecting the server's stdout and stderr (appended across restarts)
	Args []string // more `serve` flags, after --addr and --db (e.g. --syzygy DIR)
	// Worker: the process is a `knightwatch worker` (NewWorker), with no
	// address; ready once it says so.
	Worker bool

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when the process has exited
	last   error         // how the last process exited (nil: status 0)
}

// StartServer starts the binary on addr with the database db, and any more
// serve flags in args, and waits until GET /healthz answers 200.
func StartServer(bin, db, addr, logPath string, args ...string) (*Server, error) {
	s := &Server{Bin: bin, DB: db, Addr: addr, Log: logPath, Args: args}
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// NewWorker starts the binary's `worker` on the PostgreSQL database db,
// with any more worker flags in args, and waits until it says it works.
// Its Start, Stop and Kill are a server's.
func NewWorker(bin, db, logPath string, args ...string) (*Server, error) {
	s := &Server{Bin: bin, DB: db, Log: logPath, Args: args, Worker: true}
	if err := s.Start(); err != nil {
		return nil, err
	}
	return s, nil
}

// URL is the server's base URL, without a trailing slash.
func (s *Server) URL() string { return "http://" + s.Addr }

// Start launches the process (again) and waits for /healthz.
func (s *Server) Start() error {
	s.mu.Lock()
	if s.cmd != nil {
		s.mu.Unlock()
		return errors.New("server already running")
	}
	logf, err := os.OpenFile(s.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	args := append([]string{"serve", "--addr", s.Addr, "--db", s.DB}, s.Args...)
	ready := "listening on http"
	if s.Worker {
		args = append([]string{"worker", "--db", s.DB}, s.Args...)
		ready = "Knightwatch worker"
	}
	fmt.Fprintf(logf, "\n=== %s start %s\n", time.Now().Format(time.RFC3339Nano), strings.Join(args, " "))
	cmd := exec.Command(s.Bin, args...)
	// Stdout comes through a pipe, copied into the log line by line, so
	// that the server's "listening on" line says when it takes requests.
	stdout, stdoutW, err := os.Pipe()
	if err != nil {
		logf.Close()
		s.mu.Unlock()
		return err
	}
	cmd.Stdout, cmd.Stderr = stdoutW, logf
	// A fixed secret would hide a bug where the cookie key is not kept in
	// the database across restarts, so the variable is cleared on purpose.
	// The engine's experience is off, so that a test's games do not change
	// how the engine plays the next test's (a test that needs it passes
	// --experience=true, which overrides the variable).
	cmd.Env = append(filterEnv(os.Environ(), "KNIGHTWATCH_SECRET=", "KNIGHTWATCH_ADDR=", "KNIGHTWATCH_DB=", "KNIGHTWATCH_EXPERIENCE="),
		"KNIGHTWATCH_EXPERIENCE=off")
	err = cmd.Start()
	stdoutW.Close() // the process has its own
	if err != nil {
		stdout.Close()
		logf.Close()
		s.mu.Unlock()
		return err
	}
	listening, copied := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(copied)
		defer stdout.Close()
		rd := bufio.NewReader(stdout)
		for heard := false; ; {
			line, err := rd.ReadString('\n')
			logf.WriteString(line)
			if !heard && strings.Contains(line, ready) {
				heard = true
				close(listening)
			}
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan struct{})
	go func() {
		err := cmd.Wait()
		<-copied
		fmt.Fprintf(logf, "=== %s exit: %v\n", time.Now().Format(time.RFC3339Nano), err)
		logf.Close()
		s.mu.Lock()
		s.last = err
		s.mu.Unlock()
		close(exited)
	}()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	base := s.URL()
	if s.Worker {
		base = "" // no HTTP: ready once it says so
	}
	if err := waitHealthy(base, listening, exited, 30*time.Second); err != nil {
		_ = s.Kill()
		return fmt.Errorf("server on %s did not become healthy: %v (log: %s)", s.Addr, err, s.Log)
	}
	return nil
}

func filterEnv(env []string, drop ...string) []string {
	out := env[:0:0]
next:
	for _, kv := range env {
		for _, d := range drop {
			if strings.HasPrefix(kv, d) {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}

// waitHealthy waits until the server says it is listening (or exits, or
// limit passes), then asks /healthz once (unless base is "": a worker).
func waitHealthy(base string, listening, exited <-chan struct{}, limit time.Duration) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-listening:
	case <-exited:
		return errors.New("process exited")
	case <-timer.C:
		return fmt.Errorf("not listening after %v", limit)
	}
	if base == "" {
		return nil
	}
	client := &http.Client{Timeout: limit}
	resp, err := client.Get(base + "/healthz")
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/healthz: %s", resp.Status)
	}
	return nil
}

// Running reports whether the process is alive.
func (s *Server) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd != nil
}

// PID is the running process's ID, or 0 when none runs; the load tests
// read its memory and descriptors from /proc.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop asks the server to shut down (SIGTERM) and waits up to grace for it
// to exit. A server that ignores the signal is killed and Stop reports it,
// because a graceful shutdown that hangs is a bug worth seeing; so is one
// that exits with a non-zero status.
func (s *Server) Stop(grace time.Duration) error {
	if !s.Running() {
		return nil
	}
	if err := s.signal(syscall.SIGTERM, grace); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last != nil {
		return fmt.Errorf("server exited after SIGTERM with %v (log: %s)", s.last, s.Log)
	}
	return nil
}

// Kill ends the server with SIGKILL (kill -9): no shutdown code runs, which
// is how the tests check that every accepted move was already committed.
func (s *Server) Kill() error {
	return s.signal(syscall.SIGKILL, 10*time.Second)
}

func (s *Server) signal(sig syscall.Signal, grace time.Duration) error {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.mu.Unlock()
	if cmd == nil {
		return nil
	}
	if err := cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	var err error
	select {
	case <-exited:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-exited
		err = fmt.Errorf("server did not exit within %v of %v; killed", grace, sig)
	}
	s.mu.Lock()
	s.cmd, s.exited = nil, nil
	s.mu.Unlock()
	return err
}

// ChromePath finds the browser: $KNIGHTWATCH_E2E_CHROME, then Debian's
// /usr/bin/chromium, then the usual names on $PATH. It returns "" when none
// is found; scripts/e2e.sh installs chromium in that case.
func ChromePath() string {
	if p := os.Getenv("KNIGHTWATCH_E2E_CHROME"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// AllocatorOptions are the browser flags that work on this network-less
// machine: without the background-networking switches chromium keeps trying
// to reach Google's services and floods the closed network. userDataDir must
// be a fresh folder so each browser starts with no cookies or cache.
func AllocatorOptions(execPath, userDataDir string) []chromedp.ExecAllocatorOption {
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	return append(opts,
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(userDataDir),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.WindowSize(1280, 900),
	)
}

// NewBrowser starts a headless browser with a fresh profile under dir and
// returns a context for its first tab. Cancelling the context ends the
// browser. Child contexts made with chromedp.NewContext(ctx) are further tabs
// that share the profile (and so the session cookie).
//
// A browser that dies as it starts (seen on a loaded 2-core machine:
// chromium's crash handler reporting at launch, nothing of the test's
// doing) is started again, up to browserStarts times in all, each time
// with a fresh profile (in a folder under dir).
func NewBrowser(parent context.Context, execPath, dir string) (context.Context, context.CancelFunc, error) {
	if execPath == "" {
		return nil, nil, errors.New("no chromium found: run scripts/e2e.sh (installs Debian's chromium) or set KNIGHTWATCH_E2E_CHROME")
	}
	var err error
	for try := 0; try < browserStarts; try++ {
		profile := dir
		if try > 0 {
			profile = filepath.Join(dir, fmt.Sprintf("again%d", try))
		}
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(parent, AllocatorOptions(execPath, profile)...)
		ctx, cancelCtx := chromedp.NewContext(allocCtx)
		cancel := func() { cancelCtx(); cancelAlloc() }
		// The first Do starts the browser; it must not carry a short timeout or
		// the browser would die with it (see chromedp's docs/API.md, example 21).
		if err = chromedp.Do(ctx); err == nil {
			return ctx, cancel, nil
		}
		cancel()
	}
	return nil, nil, fmt.Errorf("starting %s (%d tries): %w", execPath, browserStarts, err)
}

// browserStarts is how many times NewBrowser starts a browser that dies as
// it starts.
const browserStarts = 3

// RecorderJS runs in every page before the page's own scripts. It keeps a
// log of the board root's hook attributes as they change, so a test can see
// short-lived states (data-thinking="true" during a fast engine reply) that
// polling would miss. It also notes the moment the board first became
// usable: #board with data-fen and data-status, at least one [data-piece]
// drawn, and the game's WebSocket has delivered its first message (without
// it a move cannot be sent). It counts the bytes the WebSocket receives.
//
// For the tests it also waits: kw.wait(pred) resolves once pred() holds,
// checked at once and after every change the page can see (a DOM
// mutation, a WebSocket's message once the page has handled it, a socket
// opening or closing, a fetch ending, a scroll, a resize, a transition or
// animation ending, the focus moving); kw.roundTrip() sends two syncs on the page's
// open game sockets and resolves once the server has answered both on
// each (or closed the socket): whatever the server sent before, in answer
// to anything the page sent before, has then been handled.
const RecorderJS = `(() => {
  if (window.__kw) return;
  const kw = window.__kw = {log: [], usableAt: 0, wsFrames: 0, wsBytes: 0, firstFrameAt: 0, sockets: []};
  const waiters = new Set();
  const changed = () => { for (const w of [...waiters]) w(); };
  kw.wait = pred => new Promise(resolve => {
    const w = () => {
      let ok = false;
      try { ok = !!pred(); } catch (e) {}
      if (ok) { waiters.delete(w); resolve(true); }
    };
    waiters.add(w);
    w();
  });
  for (const type of ['scroll', 'resize', 'transitionend', 'animationend', 'focusin', 'focusout', 'load', 'pageshow', 'popstate'])
    addEventListener(type, changed, {capture: true, passive: true});
  new MutationObserver(changed).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  if (window.PerformanceObserver) new PerformanceObserver(() => setTimeout(changed, 0)).observe({type: 'resource'});
  kw.roundTrip = () => Promise.all(kw.sockets.filter(s => s.readyState === 1).map(s => new Promise(resolve => {
    let answers = 0;
    const done = () => { s.removeEventListener('message', answer); s.removeEventListener('close', done); resolve(true); };
    const answer = e => {
      let m = null;
      try { m = JSON.parse(e.data); } catch (err) {}
      if (m && (m.type === 'state' || m.type === 'recon_state') && ++answers === 2) setTimeout(done, 0); // handled by the page first
    };
    s.addEventListener('message', answer);
    s.addEventListener('close', done);
    s.send('{"type":"sync"}');
    s.send('{"type":"sync"}');
  })));
  // Count what the game's WebSocket receives (resource timing does not
  // cover WebSockets); a subclass keeps WebSocket.OPEN and instanceof working.
  const WS = window.WebSocket;
  if (WS) window.WebSocket = class extends WS {
    constructor(...args) {
      super(...args);
      kw.sockets.push(this);
      this.addEventListener('message', e => {
        if (!kw.firstFrameAt) kw.firstFrameAt = performance.now();
        kw.wsFrames++;
        kw.wsBytes += typeof e.data === 'string' ? new TextEncoder().encode(e.data).length : (e.data.byteLength || e.data.size || 0);
        setTimeout(check, 0); // after the page's own handler has drawn the state
        setTimeout(changed, 0);
      });
      for (const type of ['open', 'close']) this.addEventListener(type, () => setTimeout(changed, 0));
    }
  };
  // The last input events, to tell "the tap never reached the page" from
  // "the page ignored it" when a test fails.
  kw.input = [];
  const desc = el => !el || !el.tagName ? String(el) : el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    [...el.attributes].filter(a => a.name.startsWith('data-')).map(a => '[' + a.name + '=' + a.value + ']').join('');
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'click', 'touchstart', 'touchend', 'touchcancel']) {
    addEventListener(type, e => {
      if (type === 'pointermove' && e.buttons === 0 && e.pointerType === 'mouse') return; // hovering
      kw.input.push(type + ':' + (e.pointerType || '') + ':' + desc(e.target) + (e.defaultPrevented ? ':prevented' : ''));
      if (kw.input.length > 40) kw.input.shift();
    }, {capture: true});
  }
  const watched = ['data-fen', 'data-status', 'data-thinking', 'data-ply', 'data-orientation'];
  const note = (el, attr) => {
    kw.log.push({t: performance.now(), attr, value: el.getAttribute(attr)});
    if (kw.log.length > 5000) kw.log.shift();
  };
  const check = () => {
    if (kw.usableAt) return;
    const b = document.getElementById('board');
    if (b && b.getAttribute('data-fen') && b.getAttribute('data-status') && b.querySelector('[data-piece]') && kw.firstFrameAt) kw.usableAt = performance.now();
  };
  new MutationObserver(muts => {
    for (const m of muts) {
      if (m.type === 'attributes' && m.target.id === 'board') note(m.target, m.attributeName);
      if (m.type === 'childList') for (const n of m.addedNodes) {
        const b = n.nodeType === 1 ? (n.id === 'board' ? n : n.querySelector('#board')) : null;
        if (b) for (const a of watched) if (b.hasAttribute(a)) note(b, a);
      }
    }
    check();
  }).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: watched});
})();`
