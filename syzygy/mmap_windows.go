//go:build windows

package syzygy

import (
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps size bytes of f read-only. The mapping outlives f, which the
// caller may close.
func mapFile(f *os.File, size int) ([]byte, error) {
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY, 0, 0, nil)
	if err != nil {
		return nil, os.NewSyscallError("CreateFileMapping", err)
	}
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	syscall.CloseHandle(h) // the view keeps the mapping alive
	if err != nil {
		return nil, os.NewSyscallError("MapViewOfFile", err)
	}
	// addr is memory outside the Go heap; reinterpret it without a
	// uintptr-to-pointer conversion.
	ptr := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(ptr), size), nil
}

// unmapFile releases a mapping made by mapFile.
func unmapFile(data []byte) error {
	return syscall.UnmapViewOfFile(uintptr(unsafe.Pointer(&data[0])))
}
