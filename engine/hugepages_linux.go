package engine

import (
	"syscall"
	"unsafe"
)

// hugePageBytes is the size of a transparent huge page on amd64 and arm64.
const hugePageBytes = 2 << 20

// allocTableWords returns n zeroed words for the transposition table,
// backed by transparent huge pages where the kernel allows them. Every
// probe lands on a random cache line of the table, so with 4 KB pages
// nearly every probe also misses the TLB; 2 MB pages remove most of those
// misses. Debian's default THP mode is "madvise", which is why the table
// asks. Failure to advise is harmless: the memory is simply ordinary.
func allocTableWords(n int) []uint64 {
	const perPage = hugePageBytes / 8
	if n < perPage {
		return make([]uint64, n)
	}
	raw := make([]uint64, n+perPage)
	off := 0
	if r := uintptr(unsafe.Pointer(&raw[0])) % hugePageBytes; r != 0 {
		off = int((hugePageBytes - r) / 8)
	}
	words := raw[off : off+n : off+n]
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), n*8)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
	return words
}
