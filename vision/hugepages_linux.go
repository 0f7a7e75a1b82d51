package vision

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageSize is the size of a transparent huge page on x86-64 Linux.
const hugePageSize = 2 << 20

// onHugePages gives a copy of s in memory of its own that the kernel is
// asked to back with huge pages (madvise MADV_HUGEPAGE, asked before the
// memory is first touched), unmapped when owner is no longer reachable; s
// itself where that fails or s is small. The hash tables' lookups read
// megabytes at random: on pages of 4 KB nearly every read misses the
// processor's address translation cache as well (a page walk before the
// read itself), on pages of 2 MB the whole index is a few dozen entries.
// T must hold no pointers.
func onHugePages[T, O any](s []T, owner *O) []T {
	var zero T
	size := len(s) * int(unsafe.Sizeof(zero))
	if size < hugePageSize/2 {
		return s
	}
	// (Rounded up to whole huge pages, and one more to align them.)
	mapped := (size+hugePageSize-1)/hugePageSize*hugePageSize + hugePageSize
	mem, err := unix.Mmap(-1, 0, mapped, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return s
	}
	skip := int((hugePageSize - uintptr(unsafe.Pointer(&mem[0]))%hugePageSize) % hugePageSize)
	aligned := mem[skip : skip+mapped-hugePageSize]
	_ = unix.Madvise(aligned, unix.MADV_HUGEPAGE) // (only a hint: without it, the copy still works)
	out := unsafe.Slice((*T)(unsafe.Pointer(&aligned[0])), len(s))
	copy(out, s)
	runtime.AddCleanup(owner, func(m []byte) { _ = unix.Munmap(m) }, mem)
	return out
}
