package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Errors from talking to an engine; the runner maps them to game results.
var (
	// ErrEngineExited means the engine process ended (crashed or quit).
	ErrEngineExited = errors.New("engine process exited")
	// ErrEngineTimeout means the engine did not answer in time.
	ErrEngineTimeout = errors.New("engine did not answer in time")
)

// Option is one UCI option to set with "setoption name Name value Value".
type Option struct {
	Name, Value string
}

// ParseOption parses "Name=Value" as given on the command line.
func ParseOption(s string) (Option, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Option{}, fmt.Errorf("option %q: want Name=Value", s)
	}
	return Option{Name: name, Value: strings.TrimSpace(value)}, nil
}

// EngineSpec says how to start an engine and how to set it up.
type EngineSpec struct {
	// Name is the name used in output and PGN; empty means the engine's own
	// "id name".
	Name string
	// Command is the program and its arguments.
	Command []string
	// Options are set after the "uci" handshake, in order.
	Options []Option
}

// SplitCommand splits a command line into words the way a shell would for
// simple cases: blanks separate words, single and double quotes group, and a
// backslash escapes the next character. It does no expansion.
func SplitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, fmt.Errorf("command %q ends with a backslash", s)
			}
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("command %q has an unclosed quote", s)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty engine command")
	}
	return words, nil
}

// Engine is a running UCI engine process. It is used by one goroutine at a
// time (the worker playing a game with it).
type Engine struct {
	spec  EngineSpec
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string   // stdout, one line each; closed at EOF
	stop  chan struct{} // closed by Kill so the reader never blocks forever
	// exited is closed once the process has been reaped.
	exited chan struct{}
	// IDName is what the engine called itself in "id name".
	IDName  string
	options map[string]bool // declared option names, lower case
	once    sync.Once
}

// StartEngine starts the engine, runs the "uci" handshake, sets the spec's
// options and waits for "readyok". Every step must answer within timeout.
// An option the engine does not declare is an error, so a misspelt option
// does not silently change what is being measured.
func StartEngine(spec EngineSpec, timeout time.Duration) (*Engine, error) {
	if len(spec.Command) == 0 {
		return nil, errors.New("empty engine command")
	}
	cmd := exec.Command(spec.Command[0], spec.Command[1:]...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %q: %w", strings.Join(spec.Command, " "), err)
	}
	e := &Engine{
		spec: spec, cmd: cmd, stdin: stdin,
		lines: make(chan string, 64), stop: make(chan struct{}), exited: make(chan struct{}),
		options: map[string]bool{},
	}
	go e.read(stdout)
	if err := e.handshake(timeout); err != nil {
		e.Kill()
		return nil, fmt.Errorf("engine %q: %w", strings.Join(spec.Command, " "), err)
	}
	return e, nil
}

// read copies stdout lines into e.lines until EOF, then reaps the process.
func (e *Engine) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		select {
		case e.lines <- sc.Text():
		case <-e.stop:
			// Nobody listens any more; drain so the process is not blocked
			// writing, until it exits.
			for sc.Scan() {
			}
		}
	}
	close(e.lines)
	_ = e.cmd.Wait()
	close(e.exited)
}

func (e *Engine) handshake(timeout time.Duration) error {
	if err := e.send("uci"); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		line, err := e.next(deadline)
		if err != nil {
			return fmt.Errorf("waiting for uciok: %w", err)
		}
		f := strings.Fields(line)
		switch {
		case len(f) >= 3 && f[0] == "id" && f[1] == "name":
			e.IDName = strings.Join(f[2:], " ")
		case len(f) >= 3 && f[0] == "option" && f[1] == "name":
			// The name runs up to the " type " keyword and may contain spaces.
			rest := strings.Join(f[2:], " ")
			name, _, _ := strings.Cut(rest, " type ")
			e.options[strings.ToLower(strings.TrimSpace(name))] = true
		case len(f) >= 1 && f[0] == "uciok":
			for _, o := range e.spec.Options {
				if !e.options[strings.ToLower(o.Name)] {
					return fmt.Errorf("engine has no option %q", o.Name)
				}
				if err := e.send("setoption name " + o.Name + " value " + o.Value); err != nil {
					return err
				}
			}
			return e.Sync(timeout)
		}
	}
}

// Name returns the spec's name, or the engine's own name.
func (e *Engine) Name() string {
	if e.spec.Name != "" {
		return e.spec.Name
	}
	if e.IDName != "" {
		return e.IDName
	}
	return e.spec.Command[0]
}

func (e *Engine) send(s string) error {
	if _, err := io.WriteString(e.stdin, s+"\n"); err != nil {
		return fmt.Errorf("%w: writing %q: %v", ErrEngineExited, s, err)
	}
	return nil
}

// next returns the next line, or an error at the deadline or at EOF.
func (e *Engine) next(deadline time.Time) (string, error) {
	return e.nextCtx(context.Background(), deadline)
}

// nextCtx is next, also giving up when ctx is done.
func (e *Engine) nextCtx(ctx context.Context, deadline time.Time) (string, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return "", ctx.Err()
	case line, ok := <-e.lines:
		if !ok {
			return "", ErrEngineExited
		}
		return line, nil
	case <-t.C:
		return "", ErrEngineTimeout
	}
}

// Sync sends "isready" and waits for "readyok", discarding anything before
// it (such as a late bestmove), so the next command starts from a clean
// state.
func (e *Engine) Sync(timeout time.Duration) error {
	if err := e.send("isready"); err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for {
		line, err := e.next(deadline)
		if err != nil {
			return fmt.Errorf("waiting for readyok: %w", err)
		}
		if strings.TrimSpace(line) == "readyok" {
			return nil
		}
	}
}

// NewGame tells the engine a new game starts and waits until it is ready.
func (e *Engine) NewGame(timeout time.Duration) error {
	if err := e.send("ucinewgame"); err != nil {
		return err
	}
	return e.Sync(timeout)
}

// Reply is the engine's answer to "go".
type Reply struct {
	Move   string // as sent, unchecked
	Ponder string
	// Info is the last info line that carried a score.
	Info Info
	// Elapsed runs from writing "go" to reading "bestmove": the time the
	// engine is charged, process latency included.
	Elapsed time.Duration
}

// Go sends the position and go commands and waits up to limit for
// "bestmove". On ErrEngineTimeout the engine is still thinking; the caller
// decides whether to stop it (Stop) or kill it. When ctx is done Go returns
// its error at once.
func (e *Engine) Go(ctx context.Context, position, goCmd string, limit time.Duration) (Reply, error) {
	if err := e.send(position); err != nil {
		return Reply{}, err
	}
	start := time.Now()
	if err := e.send(goCmd); err != nil {
		return Reply{}, err
	}
	deadline := start.Add(limit)
	var r Reply
	for {
		line, err := e.nextCtx(ctx, deadline)
		if err != nil {
			r.Elapsed = time.Since(start)
			return r, err
		}
		if strings.HasPrefix(line, "info") {
			if in, ok := ParseInfo(line); ok && in.HasScore {
				r.Info = in
			}
			continue
		}
		if mv, ponder, ok := ParseBestMove(line); ok {
			r.Move, r.Ponder, r.Elapsed = mv, ponder, time.Since(start)
			return r, nil
		}
	}
}

// Stop sends "stop" to an engine that overran and waits up to timeout for
// it to become responsive again. An error means it should be killed.
func (e *Engine) Stop(timeout time.Duration) error {
	if err := e.send("stop"); err != nil {
		return err
	}
	return e.Sync(timeout)
}

// Close asks the engine to quit, giving it timeout to do so before killing it.
func (e *Engine) Close(timeout time.Duration) {
	_ = e.send("quit")
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case _, ok := <-e.lines:
			if !ok {
				e.Kill()
				return
			}
		case <-t.C:
			e.Kill()
			return
		}
	}
}

// Kill ends the engine process (and its process group where supported) at
// once. It is safe to call more than once.
func (e *Engine) Kill() {
	e.once.Do(func() {
		close(e.stop)
		killProcess(e.cmd)
		_ = e.stdin.Close()
	})
}

// Alive reports whether the engine's output is still open. A crashed engine
// is noticed the next time the runner waits on it; this is a cheap check
// between games.
func (e *Engine) Alive() bool {
	select {
	case <-e.stop:
		return false
	case <-e.exited:
		return false
	default:
		return true
	}
}
