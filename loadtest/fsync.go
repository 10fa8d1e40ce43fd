package loadtest

import (
	"os"
	"time"
)

// fsyncLatency writes and syncs 4 KiB n times in a file in dir (the
// database's folder) and summarizes how long each sync took. With
// synchronous=FULL every acknowledged move waits for one, and every
// commit queues behind the one before (one writer), so on a shared disk
// this, as much as the server, sets the acknowledgement's tail; it goes
// beside every load figure.
func fsyncLatency(dir string, n int) (Summary, error) {
	f, err := os.CreateTemp(dir, "fsync-probe-")
	if err != nil {
		return Summary{}, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	buf := make([]byte, 4096)
	d := make([]time.Duration, 0, n)
	for range n {
		if _, err := f.Write(buf); err != nil {
			return Summary{}, err
		}
		t := time.Now()
		if err := f.Sync(); err != nil {
			return Summary{}, err
		}
		d = append(d, time.Since(t))
	}
	return summarize(d), nil
}
