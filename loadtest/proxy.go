package loadtest

import (
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"time"
)

// proxy is a round-robin TCP load balancer on loopback, as a site of
// several servers puts in front of them: each connection goes to the next
// server that accepts it (one that is down is skipped), and is cut after a
// random time between life/2 and life, so that a player's socket comes
// back through the next connection, to another server.
type proxy struct {
	ln       net.Listener
	backends []string
	life     time.Duration

	// gate holds every byte in both directions while the crash test
	// checks the database (Hold): each write takes it for reading.
	gate sync.RWMutex

	mu    sync.Mutex
	next  int
	conns map[net.Conn]struct{}
	rng   *rand.Rand
	wg    sync.WaitGroup
}

// startProxy listens on a free loopback port in front of backends
// (host:port each); life 0 cuts nothing.
func startProxy(backends []string, life time.Duration, seed uint64) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{ln: ln, backends: backends, life: life, conns: map[net.Conn]struct{}{}, rng: rand.New(rand.NewPCG(seed, 0x70726f78))}
	p.wg.Add(1)
	go p.serve()
	return p, nil
}

// URL is the proxy's base URL.
func (p *proxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go func() { defer p.wg.Done(); p.pass(c) }()
	}
}

// pass connects c to the next backend that answers and copies both ways
// until either side closes or the connection's life is over.
func (p *proxy) pass(c net.Conn) {
	defer c.Close()
	p.mu.Lock()
	first := p.next
	p.next = (p.next + 1) % len(p.backends)
	var life time.Duration
	if p.life > 0 {
		life = p.life/2 + time.Duration(p.rng.Int64N(int64(p.life/2)+1))
	}
	p.mu.Unlock()
	var b net.Conn
	for i := range p.backends {
		var err error
		if b, err = net.DialTimeout("tcp", p.backends[(first+i)%len(p.backends)], time.Second); err == nil {
			break
		}
	}
	if b == nil {
		return // every server is down: the client sees the connection closed
	}
	defer b.Close()
	if !p.track(c, b) {
		return
	}
	defer p.untrack(c, b)
	if life > 0 {
		t := time.AfterFunc(life, func() { c.Close(); b.Close() })
		defer t.Stop()
	}
	done := make(chan struct{}, 2)
	cp := func(to, from net.Conn) {
		p.copy(to, from)
		// Half a connection closed closes it all: a server that hung up
		// (or died) leaves nothing open behind the proxy.
		to.Close()
		from.Close()
		done <- struct{}{}
	}
	go cp(b, c)
	go cp(c, b)
	<-done
	<-done
}

// copy copies from to to until either fails, each write through the
// gate.
func (p *proxy) copy(to, from net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			p.gate.RLock()
			_, werr := to.Write(buf[:n])
			p.gate.RUnlock()
			if werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// Hold stops every byte between the players and the servers, once the
// writes in progress are done, until Release: the servers go on with
// what they have received (the actions in flight, the engine's replies),
// the players hear nothing more and send nothing more, so that what they
// saw and what the database holds can be compared while the site runs.
func (p *proxy) Hold() { p.gate.Lock() }

// Release lets the bytes through again.
func (p *proxy) Release() { p.gate.Unlock() }

// track records a pair of connections so that Close can cut them; false
// once the proxy is closed.
func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conns == nil {
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		delete(p.conns, c)
	}
}

// Close stops accepting, cuts every connection and waits for its
// goroutines.
func (p *proxy) Close() error {
	err := p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
