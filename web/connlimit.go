package web

import (
	"net"
	"sync"
)

// DefaultMaxConnsPerAddr is how many connections one client address may
// hold open at once (LimitConnsPerAddr): far more than a browser needs (six
// for pages and one socket per open game, up to DefaultMaxSocketsPerOwner),
// and a small share of the 1,024 file descriptors a process often gets.
// Without it one client holding idle connections (refused WebSocket
// upgrades left open, or kept-alive page loads) used every descriptor,
// and the server could neither accept anyone else nor open its database's
// files (issue 35).
const DefaultMaxConnsPerAddr = 128

// LimitConnsPerAddr returns ln with at most n connections open at once
// from any one remote IP address: a connection beyond that is closed as
// soon as it is accepted, before anything is read from it. A connection
// counts until it is closed, hijacked WebSockets included.
//
// Behind a reverse proxy every connection comes from the proxy's address,
// so serve does not cap connections there (the proxy limits its clients).
func LimitConnsPerAddr(ln net.Listener, n int) net.Listener {
	return &addrLimitListener{Listener: ln, max: n, open: map[string]int{}}
}

type addrLimitListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

func (l *addrLimitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		l.mu.Lock()
		if l.open[host] >= l.max {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.open[host]++
		l.mu.Unlock()
		return &addrConn{Conn: c, l: l, host: host}, nil
	}
}

func (l *addrLimitListener) release(host string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[host]--; l.open[host] <= 0 {
		delete(l.open, host)
	}
}

// addrConn frees its place under its address's cap once closed.
type addrConn struct {
	net.Conn
	l    *addrLimitListener
	host string
	once sync.Once
}

func (c *addrConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c.host) })
	return err
}

// CloseWrite half-closes the connection when the underlying one can (as
// a TCP connection can), which http.Server uses to end a connection
// gracefully.
func (c *addrConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
