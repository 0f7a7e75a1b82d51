package vision

import (
	"math/rand/v2"
	"slices"
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
		owner[i] = int32(i * 7 / len(owner))
	}
	alone := newLSHIndex(early, owner[:len(early)], nil)
	mixed := newLSHIndex(descs, owner, late)
	for ti := range alone.tables {
		a, m := &alone.tables[ti], &mixed.tables[ti]
		if a.rootBits != m.rootBits || len(a.slots) != len(m.slots) {
			t.Fatalf("table %d: root of %d bits and %d slots with late descriptors, %d and %d without", ti, m.rootBits, len(m.slots), a.rootBits, len(a.slots))
		}
		for sl := range a.slots {
			if a.slots[sl] < 0 || m.slots[sl] < 0 {
				if a.slots[sl] != m.slots[sl] {
					t.Fatalf("table %d slot %d: %d with late descriptors, %d without (a crowded bucket split otherwise)", ti, sl, m.slots[sl], a.slots[sl])
				}
				continue
			}
			var earlyIDs []int32
			lateIDs := 0
			for _, id := range mixed.members(m, m.slots[sl]) {
				if late[id] {
					lateIDs++
				} else {
					earlyIDs = append(earlyIDs, id)
				}
			}
			want := alone.members(a, a.slots[sl])
			if len(earlyIDs) != len(want) {
				t.Fatalf("table %d slot %d: %d descriptors, %d without the late ones", ti, sl, len(earlyIDs), len(want))
			}
			for i := range want {
				if earlyIDs[i] != want[i] {
					t.Fatalf("table %d slot %d: descriptor %d, %d without the late ones", ti, sl, earlyIDs[i], want[i])
				}
			}
			if n := len(earlyIDs) + lateIDs; lateIDs > 0 && n > lshBucketCap {
				t.Errorf("table %d slot %d: %d descriptors, over the cap of %d", ti, sl, n, lshBucketCap)
			}
		}
	}
	// The late descriptors are still found where there is room.
	if n, ok := mixed.queryTables(&descs[len(early)], lshTables); !ok || n.dist > 2 {
		t.Errorf("a late descriptor is not found: %+v", n)
	}
}

// TestLSHSplitsCrowdedBuckets checks that a crowd of descriptors that share
// their first key bits but differ in others (many faces' similar corners)
// is split into buckets within the cap, each member still found, while a
// crowd of copies no key tells apart (what every face shares) is left out,
// and that the buckets of the descriptors elsewhere keep the short key.
func TestLSHSplitsCrowdedBuckets(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	random := func() descriptor {
		return descriptor{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()}
	}
	var descs []descriptor
	for i := 0; i < 3000; i++ {
		descs = append(descs, random())
	}
	base := random()
	similar := len(descs)
	for i := 0; i < 20*lshBucketCap; i++ {
		descs = append(descs, flip(rng, base, 24)) // 48 bits apart from one another
	}
	copies := len(descs)
	copyOf := random()
	for i := 0; i < 4*lshBucketCap; i++ {
		descs = append(descs, copyOf)
	}
	owner := make([]int32, len(descs))
	for i := range owner {
		owner[i] = int32(i * 11 / len(owner))
	}
	idx := newLSHIndex(descs, owner, nil)
	for ti := range idx.tables {
		tab := &idx.tables[ti]
		for b := int32(0); int(b)+1 < len(tab.offsets); b++ {
			if n := len(idx.members(tab, b)); n > lshBucketCap {
				t.Fatalf("table %d bucket %d holds %d descriptors, over the cap of %d", ti, b, n, lshBucketCap)
			}
		}
		if len(tab.slots) == 1<<tab.rootBits {
			t.Errorf("table %d: no crowded bucket was split", ti)
		}
	}
	found := func(i int) bool {
		n, ok := idx.queryTables(&descs[i], lshTables)
		return ok && n.dist == 0
	}
	for _, tc := range []struct {
		name     string
		from, to int
		min, max float64 // share found
	}{
		{"lone descriptors", 0, similar, 1, 1},
		{"similar descriptors, split", similar, copies, 1, 1},
		{"copies, left out", copies, len(descs), 0, 0},
	} {
		n := 0
		for i := tc.from; i < tc.to; i++ {
			if found(i) {
				n++
			}
		}
		if share := float64(n) / float64(tc.to-tc.from); share < tc.min || share > tc.max {
			t.Errorf("%s: %d of %d found at distance 0, want a share in [%g, %g]", tc.name, n, tc.to-tc.from, tc.min, tc.max)
		}
	}
}

// clusteredIndex indexes descriptors of 9 references: most random, and
// clusters of copies (flips bits apart) that crowd a bucket per table
// (patterns many faces share), each on a random reference. It returns the
// index, its descriptors (grouped by reference, as an index holds them),
// and the ids of the clusters' copies.
func clusteredIndex(rng *rand.Rand, clusters, clusterSize, flips int) (*lshIndex, []descriptor, []int) {
	random := func() descriptor {
		return descriptor{rng.Uint64(), rng.Uint64(), rng.Uint64(), rng.Uint64()}
	}
	type indexed struct {
		d      descriptor
		owner  int32
		copied bool
	}
	var all []indexed
	for i := 0; i < 3000; i++ {
		all = append(all, indexed{random(), int32(rng.IntN(9)), false})
	}
	for c := 0; c < clusters; c++ {
		base := random()
		for i := 0; i < clusterSize; i++ {
			all = append(all, indexed{flip(rng, base, flips), int32(rng.IntN(9)), true})
		}
	}
	slices.SortStableFunc(all, func(a, b indexed) int { return int(a.owner - b.owner) })
	descs := make([]descriptor, len(all))
	owner := make([]int32, len(all))
	var copies []int
	for i, x := range all {
		descs[i], owner[i] = x.d, x.owner
		if x.copied {
			copies = append(copies, i)
		}
	}
	return newLSHIndex(descs, owner, nil), descs, copies
}

// flip returns d with n random bits flipped.
func flip(rng *rand.Rand, d descriptor, n int) descriptor {
	for i := 0; i < n; i++ {
		b := rng.IntN(256)
		d[b/64] ^= 1 << (b % 64)
	}
	return d
}

// TestLSHBatchIsQueryTables checks that looking many descriptors up at once
// finds, for each, what looking it up alone finds (the same nearest and the
// same second distance), with queries that share crowded buckets, queries
// near one indexed descriptor, and queries near none.
func TestLSHBatchIsQueryTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	idx, descs, copies := clusteredIndex(rng, 6, 60, 2)
	queries := mixedQueries(rng, descs, copies, 1500, 40)
	copied := map[int32]bool{}
	for _, id := range copies {
		copied[int32(id)] = true
	}
	for _, tc := range []struct {
		name  string
		which []int
		k     int
	}{
		{"every query, 3 tables", seq(0, len(queries), 1), 3},
		{"every query, all tables", seq(0, len(queries), 1), lshTables},
		{"every other query backwards, all tables", seq(len(queries)-1, -1, -2), lshTables},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]nearest, len(tc.which))
			idx.queryBatch(queries, tc.which, tc.k, lshBucketCap, out)
			found, shared := 0, 0
			for i, q := range tc.which {
				want, ok := idx.queryTables(&queries[q], tc.k)
				if out[i] != want {
					t.Fatalf("query %d: batch finds %+v, alone %+v", q, out[i], want)
				}
				if ok {
					found++
				}
				if want.dist < 16 && copied[want.id] {
					shared++
				}
			}
			// Not a test unless many queries find something, and many share a cluster.
			if found < len(tc.which)/3 || shared < 50 {
				t.Fatalf("only %d of %d queries find a neighbour, %d in a cluster: not a test", found, len(tc.which), shared)
			}
		})
	}
}

func seq(from, to, step int) []int {
	var out []int
	for i := from; i != to; i += step {
		out = append(out, i)
	}
	return out
}

// TestLSHBatchBucketCap checks that a batch lookup with a bucket cap passes
// over the buckets holding more than the cap only: a descriptor whose
// copies fill its bucket in every table (more than the cap, not more than
// the index's own) is found without the cap and not with it, while one
// alone in its buckets is found either way.
func TestLSHBatchBucketCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	idx, descs, copies := clusteredIndex(rng, 1, lshBucketCap-1, 0)
	lone := descs[0]
	if copies[0] == 0 {
		lone = descs[len(descs)-1]
	}
	crowded := descs[copies[len(copies)-1]]
	queries := []descriptor{crowded, lone}
	for _, tc := range []struct {
		name      string
		bucketCap int
		want      [2]bool // crowded found, lone found
	}{
		{"no cap", lshBucketCap, [2]bool{true, true}},
		{"a cap below the copies", lshBucketCap / 2, [2]bool{false, true}},
	} {
		out := make([]nearest, 2)
		idx.queryBatch(queries, []int{0, 1}, lshTables, tc.bucketCap, out)
		for i, n := range out {
			if got := n.id >= 0 && n.dist == 0; got != tc.want[i] {
				t.Errorf("%s: query %d found (at distance 0): %t, want %t (%+v)", tc.name, i, got, tc.want[i], n)
			}
		}
	}
}

// TestNearestIgnoresOrder checks that the nearest descriptor and the second
// distance do not depend on the order candidates are offered in: the best
// overall (the first in the index of two as close), and the best on any
// other reference than its own.
func TestNearestIgnoresOrder(t *testing.T) {
	type cand struct {
		id, ref int32
		dist    int
	}
	cands := []cand{{5, 1, 30}, {9, 2, 40}, {3, 1, 10}, {7, 3, 35}, {8, 2, 10}, {2, 2, 33}, {6, 1, 31}}
	// Best: id 3 (ref 1, 10; id 8 is as close but later in the index).
	// Second: the best on refs 2 and 3: id 8 at 10.
	want := nearest{id: 3, ref: 1, dist: 10, second: 10}
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 200; trial++ {
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		k := 1 + rng.IntN(len(cands)) // a prefix, then every candidate
		n := nearest{id: -1, ref: -1, dist: 257, second: 256}
		for _, c := range cands[:k] {
			if n.matters(c.dist) {
				n.offer(c.id, c.ref, c.dist)
			}
		}
		// What the prefix should give, worked out directly.
		best := nearest{id: -1, ref: -1, dist: 257, second: 256}
		for _, c := range cands[:k] {
			if c.dist < best.dist || (c.dist == best.dist && c.id < best.id) {
				best.id, best.ref, best.dist = c.id, c.ref, c.dist
			}
		}
		for _, c := range cands[:k] {
			if c.ref != best.ref {
				best.second = min(best.second, c.dist)
			}
		}
		if n != best {
			t.Fatalf("trial %d, %v: offered one by one %+v, want %+v", trial, cands[:k], n, best)
		}
		if k == len(cands) && n != want {
			t.Fatalf("all candidates: %+v, want %+v", n, want)
		}
	}
}

// TestLSHFastIsPortable checks that lsh.c's fast code (the root keys by bit
// gathers, where the processor has them) finds for every query exactly
// what its portable code finds:
// the same nearest and second distance, table by table, with queries that
// share crowded buckets, queries near one indexed descriptor, and queries
// near none, some going on from what earlier tables found.
func TestLSHFastIsPortable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	idx, descs, copies := clusteredIndex(rng, 6, 60, 2)
	queries := mixedQueries(rng, descs, copies, 2000, 60)
	which := seq(0, len(queries), 1)
	lookup := func(portable bool, from, to int, start []nearest) []nearest {
		idx.portable = portable
		defer func() { idx.portable = false }()
		out := append([]nearest(nil), start...)
		idx.queryMore(queries, which, from, to, lshBucketCap, out)
		return out
	}
	none := make([]nearest, len(queries))
	for i := range none {
		none[i] = nearest{id: -1, ref: -1, dist: 257, second: 256}
	}
	firstThree := lookup(true, 0, 3, none)
	for _, tc := range []struct {
		name     string
		from, to int
		start    []nearest
	}{
		{"3 tables", 0, 3, none},
		{"all tables", 0, lshTables, none},
		{"the rest after 3", 3, lshTables, firstThree},
	} {
		fast, portable := lookup(false, tc.from, tc.to, tc.start), lookup(true, tc.from, tc.to, tc.start)
		found := 0
		for q := range queries {
			if fast[q] != portable[q] {
				t.Fatalf("%s, query %d: fast code finds %+v, portable %+v", tc.name, q, fast[q], portable[q])
			}
			if fast[q].id >= 0 && fast[q].second < 256 {
				found++
			}
		}
		if found < len(queries)/4 {
			t.Fatalf("%s: only %d of %d queries find a nearest and a second: not a test", tc.name, found, len(queries))
		}
	}
}

// mixedQueries makes n queries for a clusteredIndex whose indexed
// descriptors are descs, copies those of its clusters: a third near a random indexed descriptor
// (up to far bits off), often in a cluster; a third near a cluster; a third
// near nothing.
func mixedQueries(rng *rand.Rand, descs []descriptor, copies []int, n, far int) []descriptor {
	var queries []descriptor
	for i := 0; i < n; i++ {
		switch i % 3 {
		case 0:
			queries = append(queries, flip(rng, descs[rng.IntN(len(descs))], rng.IntN(far)))
		case 1:
			queries = append(queries, flip(rng, descs[copies[rng.IntN(len(copies))]], rng.IntN(8)))
		default:
			queries = append(queries, flip(rng, descriptor{}, 128))
		}
	}
	return queries
}

// TestLSHEntries checks that a table entry gives back its descriptor and
// reference, with references of no descriptors among the others, and that
// descriptors not grouped by reference are refused.
func TestLSHEntries(t *testing.T) {
	owner := []int32{0, 0, 0, 2, 2, 5, 5, 5, 5, 5, 6}
	var x lshIndex
	x.groupByReference(owner)
	if want := []int32{0, 3, 3, 5, 5, 5, 10, 11}; !slices.Equal(x.starts, want) {
		t.Fatalf("starts %v, want %v", x.starts, want)
	}
	if x.localBits != 3 { // places 0–4
		t.Errorf("%d bits for a place, want 3", x.localBits)
	}
	for id, ref := range owner {
		e := x.entry(int32(id), ref)
		if gotID, gotRef := x.decode(e); gotID != int32(id) || gotRef != ref {
			t.Errorf("descriptor %d of reference %d: entry %#x gives descriptor %d of reference %d", id, ref, e, gotID, gotRef)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("descriptors not grouped by reference were indexed")
		}
	}()
	x.groupByReference([]int32{0, 1, 0})
}

// TestBitCounts checks the counts of set bits, eight to a word, against
// one bit at a time, over more descriptors than a byte counts and with
// bits set in every descriptor, in none, and in some.
func TestBitCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	descs := make([]descriptor, 1000)
	for i := range descs {
		descs[i] = descriptor{rng.Uint64() | 1<<63, rng.Uint64() & rng.Uint64(), rng.Uint64() &^ 0xff00, ^uint64(0)}
	}
	var want [256]int
	for i := range descs {
		for b := 0; b < 256; b++ {
			want[b] += int(descs[i][b>>6] >> (b & 63) & 1)
		}
	}
	if got := bitCounts(descs); got != want {
		t.Errorf("counts\n%v\nwant\n%v", got, want)
	}
	if want[63] != len(descs) || want[255] != len(descs) || want[128+8] != 0 {
		t.Fatalf("not a test: bit 63 set in %d, bit 255 in %d, bit 136 in %d of %d", want[63], want[255], want[128+8], len(descs))
	}
}
