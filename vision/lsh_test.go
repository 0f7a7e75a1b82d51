package vision

import (
	"math/rand/v2"
	"testing"
)

// TestLSHLateDescriptorsYield checks that descriptors marked late (a face's
// blurred copy) never take a bucket's room from the others, and that the
// others' index is the one they would have alone.
func TestLSHLateDescriptorsYield(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() descriptor {
		return descriptor{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()}
	}
	var early []descriptor
	for i := 0; i < 2000; i++ {
		early = append(early, random())
	}
	// Many late descriptors that are all alike crowd one bucket per table.
	alike := random()
	descs := append([]descriptor(nil), early...)
	late := make([]bool, len(early))
	for i := 0; i < 3*lshBucketCap; i++ {
		d := alike
		d[0] ^= 1 << (i % 64) // a bit or two off: the same key in most tables
		descs = append(descs, d)
		late = append(late, true)
	}
	owner := make([]int32, len(descs))
	for i := range owner {
		owner[i] = int32(i % 7)
	}
	alone := newLSHIndex(early, owner[:len(early)], nil)
	mixed := newLSHIndex(descs, owner, late)
	for ti := range alone.tables {
		a, m := &alone.tables[ti], &mixed.tables[ti]
		if len(a.bits) != len(m.bits) {
			t.Fatalf("table %d: key of %d bits with late descriptors, %d without", ti, len(m.bits), len(a.bits))
		}
		for b := 0; b+1 < len(a.offsets); b++ {
			var earlyIDs []int32
			lateIDs := 0
			for _, id := range m.ids[m.offsets[b]:m.offsets[b+1]] {
				if late[id] {
					lateIDs++
				} else {
					earlyIDs = append(earlyIDs, id)
				}
			}
			want := a.ids[a.offsets[b]:a.offsets[b+1]]
			if len(earlyIDs) != len(want) {
				t.Fatalf("table %d bucket %d: %d descriptors, %d without the late ones", ti, b, len(earlyIDs), len(want))
			}
			for i := range want {
				if earlyIDs[i] != want[i] {
					t.Fatalf("table %d bucket %d: descriptor %d, %d without the late ones", ti, b, earlyIDs[i], want[i])
				}
			}
			if n := len(earlyIDs) + lateIDs; lateIDs > 0 && n > lshBucketCap {
				t.Errorf("table %d bucket %d: %d descriptors, over the cap of %d", ti, b, n, lshBucketCap)
			}
		}
	}
	// The late descriptors are still found where there is room.
	if n, ok := mixed.queryTables(&descs[len(early)], lshTables); !ok || n.dist > 2 {
		t.Errorf("a late descriptor is not found: %+v", n)
	}
}
