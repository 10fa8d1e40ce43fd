// Package loadtest drives the real knightwatch binary from outside, as
// many players would, on loopback only: the load generator (many games at
// once, each its own visitor, with the latencies and the server's
// resources), the idle-memory measurement, the acknowledgement benchmark
// with the engine off, and the crash test (kill -9 under load, restart on
// the same database, every game checked against what its player saw
// acknowledged).
//
// bench/load is its command line (bench/load.sh, bench/crash.sh,
// bench/ws_latency.sh); crash_test.go is the crash test's short form in
// `make test`. Servers are started through e2e's harness (e2e.Server), so
// the binary, its flags and its restarts are the same as in the browser
// tests.
package loadtest
