package chenserver

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// Defaults for Server and ServeLines.
const (
	// DefaultMaxLine bounds a command line, newline included. A `move`
	// command replaying a 300-ply game needs under 2 KB.
	DefaultMaxLine = 8192
	// DefaultReadTimeout is how long a TCP client has to send its whole
	// command (and an HTTP client its headers).
	DefaultReadTimeout = 10 * time.Second
	// DefaultWriteTimeout is how long a TCP client has to take the response.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultMaxConns bounds the connections served at once; more are told
	// RespBusy and closed.
	DefaultMaxConns = 64
	// maxHeaderLines bounds the header lines of an HTTP request.
	maxHeaderLines = 100
	// drainLimit and drainTime bound how much of an oversize line is read
	// and thrown away before closing, so that the client receives the
	// error instead of a connection reset.
	drainLimit = 1 << 20
	drainTime  = time.Second
)

// RespBusy answers a connection when DefaultMaxConns (Server.MaxConns) are
// already being served.
const RespBusy = "BUSY"

// ServeLines runs the `-s` mode: one command per line from r, one response
// line per command to w, until end of input or `exit`. Lines longer than
// maxLine bytes (DefaultMaxLine when maxLine <= 0) are skipped without
// being held in memory and answered with RespLineTooLong.
func ServeLines(s *Session, r io.Reader, w io.Writer, maxLine int) error {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	br := bufio.NewReaderSize(r, maxLine)
	bw := bufio.NewWriter(w)
	reply := func(resp string) error {
		bw.WriteString(resp)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			if werr := reply(RespLineTooLong); werr != nil {
				return werr
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			continue
		}
		if err != nil && err != io.EOF {
			return err
		}
		if err == io.EOF && len(line) == 0 {
			return nil
		}
		resp, exit := s.Execute(string(line))
		if werr := reply(resp); werr != nil {
			return werr
		}
		if exit || err == io.EOF {
			return nil
		}
	}
}

// Server runs the `-p` mode on a listener: each connection sends one
// command line and gets one response line, then the server closes it. A
// connection whose first line is an HTTP GET request ("GET /move+e4
// HTTP/1.1") gets the response as the body of an HTTP reply instead. Every
// connection shares Session. The zero values of the limits mean the
// defaults above.
type Server struct {
	Session      *Session
	MaxLine      int
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	MaxConns     int

	mu      sync.Mutex
	ln      net.Listener
	closing bool
	wg      sync.WaitGroup
}

// Serve accepts connections on ln until Close is called or a client sends
// `exit`, then waits for the connections in progress and returns nil. It
// returns the listener's error if accepting fails otherwise.
func (srv *Server) Serve(ln net.Listener) error {
	srv.mu.Lock()
	if srv.closing {
		srv.mu.Unlock()
		ln.Close()
		return nil
	}
	srv.ln = ln
	srv.mu.Unlock()

	maxConns := srv.MaxConns
	if maxConns <= 0 {
		maxConns = DefaultMaxConns
	}
	slots := make(chan struct{}, maxConns)
	for {
		c, err := ln.Accept()
		if err != nil {
			if srv.isClosing() {
				srv.wg.Wait()
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			srv.wg.Wait()
			return err
		}
		select {
		case slots <- struct{}{}:
		default:
			// Full: answer at once rather than queue behind clients that
			// may be slow, so the caller knows to retry.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			io.WriteString(c, RespBusy+"\n")
			c.Close()
			continue
		}
		srv.wg.Add(1)
		go func() {
			defer srv.wg.Done()
			defer func() { <-slots }()
			srv.handle(c)
		}()
	}
}

// Close stops Serve: no new connections are accepted; those in progress
// finish. It is safe to call more than once.
func (srv *Server) Close() error {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.closing {
		return nil
	}
	srv.closing = true
	if srv.ln != nil {
		return srv.ln.Close()
	}
	return nil
}

func (srv *Server) isClosing() bool {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return srv.closing
}

func (srv *Server) limits() (maxLine int, rt, wt time.Duration) {
	maxLine, rt, wt = srv.MaxLine, srv.ReadTimeout, srv.WriteTimeout
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	if rt <= 0 {
		rt = DefaultReadTimeout
	}
	if wt <= 0 {
		wt = DefaultWriteTimeout
	}
	return
}

// handle serves one connection: read one line (bounded in size and time),
// run it, answer, close. Reading and writing happen outside the session
// lock, so a slow client delays nobody but itself.
func (srv *Server) handle(c net.Conn) {
	defer c.Close()
	maxLine, rt, wt := srv.limits()
	c.SetReadDeadline(time.Now().Add(rt))
	br := bufio.NewReaderSize(c, maxLine)

	line, err := br.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		srv.reply(c, wt, false, '1', RespLineTooLong)
		drain(c)
		return
	case err == io.EOF && len(line) > 0:
		// The client half-closed without a newline: still a command.
	case err != nil:
		return // silent, timed out or gone: nobody to answer
	}

	http, minor, uri := parseHTTPRequestLine(line)
	command := string(line)
	if http {
		if !skipHeaders(br) {
			srv.reply(c, wt, true, minor, RespLineTooLong)
			drain(c)
			return
		}
		command = urlDecode(uri)
	}
	resp, exit := srv.Session.Execute(command)
	srv.reply(c, wt, http, minor, resp)
	if exit {
		srv.Close()
	}
}

// reply writes resp as a line, or as an HTTP/1.minor response whose body
// is the line (ChenServer's format, plus Connection: close).
func (srv *Server) reply(c net.Conn, wt time.Duration, http bool, minor byte, resp string) {
	c.SetWriteDeadline(time.Now().Add(wt))
	if !http {
		io.WriteString(c, resp+"\n")
		return
	}
	body := resp + "\r\n"
	var b bytes.Buffer
	b.WriteString("HTTP/1.")
	b.WriteByte(minor)
	b.WriteString(" 200 OK\r\nDate: ")
	b.WriteString(time.Now().UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT"))
	b.WriteString("\r\nContent-Type: text/plain\r\nContent-Length: ")
	b.WriteString(strconv.Itoa(len(body)))
	b.WriteString("\r\nConnection: close\r\n\r\n")
	b.WriteString(body)
	c.Write(b.Bytes())
}

// drain reads and discards what the client is still sending (bounded in
// bytes and time) after the response, so that closing the socket does not
// reset the connection before the client has read the answer.
func drain(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	c.SetReadDeadline(time.Now().Add(drainTime))
	io.CopyN(io.Discard, c, drainLimit)
}

// parseHTTPRequestLine recognises "GET /URI HTTP/1.0" or "... HTTP/1.1"
// (with its CRLF) and returns the still-encoded URI without its leading
// slash. Anything else is a plain command line.
func parseHTTPRequestLine(line []byte) (ok bool, minor byte, uri []byte) {
	l := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	const prefix, suffix = "GET /", " HTTP/1."
	if !bytes.HasPrefix(l, []byte(prefix)) || len(l) < len(prefix)+len(suffix)+1 {
		return false, 0, nil
	}
	minor = l[len(l)-1]
	if minor != '0' && minor != '1' || !bytes.HasSuffix(l[:len(l)-1], []byte(suffix)) {
		return false, 0, nil
	}
	return true, minor, l[len(prefix) : len(l)-len(suffix)-1]
}

// skipHeaders consumes the request headers up to the blank line, each line
// within the reader's buffer and at most maxHeaderLines of them. It reports
// false when the headers are too large or the client stops sending.
func skipHeaders(br *bufio.Reader) bool {
	for i := 0; i < maxHeaderLines; i++ {
		line, err := br.ReadSlice('\n')
		if err != nil {
			// io.EOF right after the request line is a sloppy but
			// unambiguous request; anything else is a failure.
			return err == io.EOF && len(line) == 0
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return true
		}
	}
	return false
}

// urlDecode turns the URI into a command as ChenServer does: '+' is a
// space and %XX a byte. A malformed escape or a raw control character or
// space yields "" (answered CANNOT_PARSE).
func urlDecode(uri []byte) string {
	out := make([]byte, 0, len(uri))
	for i := 0; i < len(uri); i++ {
		switch c := uri[i]; {
		case c == '+':
			out = append(out, ' ')
		case c == '%':
			if i+2 >= len(uri) {
				return "" // unterminated escape
			}
			hi, ok1 := unhex(uri[i+1])
			lo, ok2 := unhex(uri[i+2])
			if !ok1 || !ok2 {
				return ""
			}
			out = append(out, hi<<4|lo)
			i += 2
		case c <= ' ' || c == 0x7f:
			return ""
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
