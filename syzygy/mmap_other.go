//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package syzygy

import (
	"io"
	"os"
)

// mapFile reads the file into memory: this platform has no memory mapping in
// the standard library. It suits the small 3- to 5-piece sets only; the
// large sets need a platform with mmap (Linux, macOS, the BSDs, Windows).
func mapFile(f *os.File, size int) ([]byte, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return data, nil
}

// unmapFile releases a buffer made by mapFile (the garbage collector does).
func unmapFile([]byte) error { return nil }
