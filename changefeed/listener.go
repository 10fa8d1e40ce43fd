package changefeed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Handler is what a Listener tells. Its methods run one at a time, in
// the listener's goroutine: they must return soon (a server's hosts read
// the database in goroutines of their own).
type Handler interface {
	// Changed: game c.Game was committed at revision c.Revision.
	Changed(c Change)
	// Resync: the listener was cut off and is back; changes made meanwhile
	// were not heard, so every game held must be read again.
	Resync()
}

// Options configure a Listener; the zero value is sensible.
type Options struct {
	// Logf logs a reconnection or a malformed payload; nil: not logged.
	Logf func(format string, args ...any)
	// MinBackoff and MaxBackoff bound the wait between two attempts to
	// connect again, which doubles from the first to the second
	// (defaults 100 ms and 5 s).
	MinBackoff, MaxBackoff time.Duration
}

// PayloadHandler is what a Listener of any channel tells (ListenChannel):
// each notification's payload, as sent, and Resync after a cut. Its
// methods run as Handler's do.
type PayloadHandler interface {
	Payload(payload string)
	Resync()
}

// Listener holds one connection listening on a channel (Channel for
// Listen) and hands what it hears to its handler.
type Listener struct {
	dsn     string
	channel string
	h       PayloadHandler
	opts    Options

	cancel context.CancelFunc
	done   chan struct{}
}

// Listen connects to the database at dsn, listens on Channel and returns
// once it does: every change committed after Listen returns reaches h
// (or, after a cut, h.Resync). Then it listens in a goroutine of its own,
// connecting again whenever the connection fails, until Close.
func Listen(ctx context.Context, dsn string, h Handler, opts Options) (*Listener, error) {
	return ListenChannel(ctx, dsn, Channel, changes{h, opts.Logf}, opts)
}

// changes parses the payloads of Channel for a Handler.
type changes struct {
	h    Handler
	logf func(format string, args ...any)
}

func (c changes) Payload(payload string) {
	ch, err := Parse(payload)
	if err != nil {
		if c.logf != nil {
			c.logf("changefeed: %v", err)
		}
		return
	}
	c.h.Changed(ch)
}

func (c changes) Resync() { c.h.Resync() }

// ListenChannel is Listen for notifications on channel, whatever their
// payload: another part of the site (the engine jobs' results) uses the
// same connection handling for its own channel.
func ListenChannel(ctx context.Context, dsn, channel string, h PayloadHandler, opts Options) (*Listener, error) {
	if opts.MinBackoff <= 0 {
		opts.MinBackoff = 100 * time.Millisecond
	}
	if opts.MaxBackoff < opts.MinBackoff {
		opts.MaxBackoff = max(5*time.Second, opts.MinBackoff)
	}
	conn, err := listenConn(ctx, dsn, channel)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithCancel(context.Background())
	l := &Listener{dsn: dsn, channel: channel, h: h, opts: opts, cancel: cancel, done: make(chan struct{})}
	go l.run(lctx, conn)
	return l, nil
}

// Close stops listening and waits for the listener's goroutine to end.
func (l *Listener) Close() error {
	l.cancel()
	<-l.done
	return nil
}

// listenConn connects and listens on channel.
func listenConn(ctx context.Context, dsn, channel string) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("changefeed: connect: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		conn.Close(context.Background())
		return nil, fmt.Errorf("changefeed: listen: %w", err)
	}
	return conn, nil
}

func (l *Listener) logf(format string, args ...any) {
	if l.opts.Logf != nil {
		l.opts.Logf("changefeed: "+format, args...)
	}
}

// run hears notifications on conn until ctx ends; when the connection
// fails it connects again (backing off), and tells Resync once it listens
// again.
func (l *Listener) run(ctx context.Context, conn *pgx.Conn) {
	defer close(l.done)
	for {
		err := l.hear(ctx, conn)
		conn.Close(context.Background())
		if ctx.Err() != nil {
			return
		}
		l.logf("listening stopped: %v; connecting again", err)
		if conn = l.reconnect(ctx); conn == nil {
			return
		}
		l.h.Resync()
	}
}

// hear hands every notification on conn to the handler until the
// connection fails or ctx ends.
func (l *Listener) hear(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Channel != l.channel {
			continue
		}
		l.h.Payload(n.Payload)
	}
}

// reconnect connects and listens again, waiting between attempts from
// MinBackoff doubling up to MaxBackoff; nil once ctx ends.
func (l *Listener) reconnect(ctx context.Context) *pgx.Conn {
	wait := l.opts.MinBackoff
	for {
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
		conn, err := listenConn(ctx, l.dsn, l.channel)
		if err == nil {
			return conn
		}
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return nil
		}
		l.logf("%v; trying again in %v", err, min(2*wait, l.opts.MaxBackoff))
		wait = min(2*wait, l.opts.MaxBackoff)
	}
}
