//go:build linux

package vision

import (
	"slices"
	"testing"
	"unsafe"
)

// TestOnHugePages checks that a large array is copied, whole, onto memory
// aligned to huge pages, and a small one left where it is.
func TestOnHugePages(t *testing.T) {
	owner := &lshIndex{}
	large := make([]int32, 3*hugePageSize/4+5)
	for i := range large {
		large[i] = int32(i*7 - 3)
	}
	got := onHugePages(large, owner)
	if !slices.Equal(got, large) {
		t.Fatal("the copy on huge pages differs from the array")
	}
	if &got[0] == &large[0] {
		t.Fatal("a large array was not copied")
	}
	if at := uintptr(unsafe.Pointer(&got[0])); at%hugePageSize != 0 {
		t.Errorf("the copy begins at %#x, not on a huge page's boundary", at)
	}
	small := []descriptor{{1, 2, 3, 4}}
	if got := onHugePages(small, owner); &got[0] != &small[0] {
		t.Error("a small array was copied")
	}
}
