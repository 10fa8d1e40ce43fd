//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package syzygy

import (
	"os"
	"syscall"
)

// mapFile maps size bytes of f read-only. The mapping outlives f, which the
// caller may close.
func mapFile(f *os.File, size int) ([]byte, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	// Probes touch a few bytes at random offsets: no read-ahead. Advice only.
	_ = syscall.Madvise(data, syscall.MADV_RANDOM)
	return data, nil
}

// unmapFile releases a mapping made by mapFile.
func unmapFile(data []byte) error { return syscall.Munmap(data) }
