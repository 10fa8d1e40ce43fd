package web

import (
	"io"
	"net"
	"testing"
	"time"
)

// LimitConnsPerAddr holds at most n connections from one address: one more
// is closed at once, other addresses are not affected, and closing one
// frees its place.
func TestLimitConnsPerAddr(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitConnsPerAddr(raw, 3)
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func(from string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// closedByServer reports whether the server hung up on c.
	closedByServer := func(c net.Conn) bool {
		c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		_, err := c.Read(make([]byte, 1))
		return err == io.EOF || (err != nil && !isTimeout(err))
	}
	var held []net.Conn
	for i := 0; i < 3; i++ {
		dial("127.0.0.1")
		held = append(held, <-accepted)
	}
	over := dial("127.0.0.1")
	if !closedByServer(over) {
		t.Error("a fourth connection from one address was kept")
	}
	other := dial("127.0.0.2")
	select {
	case c := <-accepted:
		defer c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("another address was refused")
	}
	if closedByServer(other) {
		t.Error("another address's connection was closed")
	}
	held[0].Close()
	again := dial("127.0.0.1")
	select {
	case c := <-accepted:
		defer c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("closing a connection did not free its place")
	}
	if closedByServer(again) {
		t.Error("the connection in the freed place was closed")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
