package vision

// #include "lsh.h"
import "C"

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// lshIndex finds, for a query descriptor, the nearest reference descriptors by
// Hamming distance without comparing against all of them: each table keys a
// descriptor by a fixed random subset of its bits, and only descriptors
// sharing a key with the query in some table are compared. With a few dozen
// faces the buckets are nearly empty and this is an exact search in effect;
// with a thousand faces it is what keeps matching in milliseconds.
//
// A bucket that would hold more than lshBucketCap descriptors is split by
// further key bits, splitBits at a time, until each part fits (a tree of
// buckets per table): the key is as long as the descriptors' density needs
// where they lie, short where they are few (a longer key misses more true
// neighbours, each key bit being one more that must agree), long where many
// faces have similar corners. A bucket still crowded at maxKeyBits holds
// what every face shares (frame, text box): useless for telling faces apart
// and slow to scan, it is left empty. So the buckets stay as small with a
// thousand faces as with a few dozen, and what a larger catalog costs is
// longer keys in its crowded parts, not longer scans.
type lshIndex struct {
	descs []descriptor
	// The descriptors are grouped by reference: reference r's are
	// starts[r] up to starts[r+1]. A table holds each descriptor as its
	// reference and its place among that reference's descriptors (see
	// entry), so that a lookup reads no table of owners: one read fewer
	// for each candidate, in a place of its own (the owners of 1.4 M
	// descriptors are megabytes).
	starts    []int32
	localBits int // bits of an entry that hold the place
	tables    []lshTable
	// flat holds the tables end to end (each table's slices are parts of
	// it), as lsh.c reads them.
	flat lshFlat
	// portable keeps lsh.c to the code any processor runs (for tests: it
	// finds what the fast code finds).
	portable bool
}

// portableLSH is lsh.c's flag for lshIndex.portable.
func portableLSH(portable bool) C.int {
	if portable {
		return 1
	}
	return 0
}

// lshFlat is the parts of all the tables of an lshIndex that lsh.c reads,
// end to end, and where each table's begin.
type lshFlat struct {
	// spans is the tables' slots with each bucket's number replaced by
	// where its descriptor ids lie (see packedSpan): a lookup then reads no
	// bucket bounds (lshTable.offsets), one read fewer that waits for
	// memory.
	spans, ids []int32
	bits       []uint8
	tables     []C.tablecam_lsh_table
}

// The tables read the candidates' descriptors in the index's one copy
// (lshIndex.descs), through their entries. (Each table's own copy of its
// entries' descriptors, in bucket order, made the candidates of a bucket
// lie side by side: faster when one benchmark's lookups keep the index in
// the caches, but slower in a frame's reading, where the matching's
// lookups find it pushed out by the stages before them and a table's own
// copy is ten times the memory to read in: the sample catalog's lookups
// took 0.82–0.93 of the time without them.)

// Where a bucket's ids lie in its table's ids, packed into one
// non-negative slot: the first id's place shifted left by spanLenBits,
// and the count (at most lshBucketCap) in the low bits.
const (
	spanLenBits = 5
	maxSpanFrom = 1<<(31-spanLenBits) - 1
)

// packedSpan is bucket b's span of t's ids, packed.
func (t *lshTable) packedSpan(b int32) int32 {
	lo, hi := t.offsets[b], t.offsets[b+1]
	if hi-lo >= 1<<spanLenBits || lo > maxSpanFrom {
		panic("vision: hash table bucket past what a packed span holds")
	}
	return lo<<spanLenBits | (hi - lo)
}

// flatten puts the tables' parts that lsh.c reads end to end in x.flat,
// and points the tables at the copies of their ids and key bits.
func (x *lshIndex) flatten() {
	var f lshFlat
	for _, t := range x.tables {
		f.tables = append(f.tables, C.tablecam_lsh_table{
			slots: C.int64_t(len(f.spans)), ids: C.int64_t(len(f.ids)), bits: C.int64_t(len(f.bits)),
			root_bits: C.int32_t(t.rootBits), split_bits: splitBits, root_mask: t.rootMasks(),
		})
		for _, v := range t.slots {
			if v >= 0 {
				v = t.packedSpan(v)
			}
			f.spans = append(f.spans, v)
		}
		f.ids = append(f.ids, t.ids...)
		f.bits = append(f.bits, t.bits...)
	}
	// The arrays lookups read at random, on huge pages (see onHugePages).
	x.descs = onHugePages(x.descs, x)
	f.spans = onHugePages(f.spans, x)
	f.ids = onHugePages(f.ids, x)
	for i := range x.tables {
		t, m := &x.tables[i], f.tables[i]
		t.ids = f.ids[m.ids : int(m.ids)+len(t.ids) : int(m.ids)+len(t.ids)]
		t.bits = f.bits[m.bits : int(m.bits)+len(t.bits) : int(m.bits)+len(t.bits)]
	}
	x.flat = f
}

// entry is how the tables hold descriptor id, of reference ref.
func (x *lshIndex) entry(id, ref int32) int32 {
	return ref<<x.localBits | (id - x.starts[ref])
}

// decode gives the descriptor and reference of a table's entry.
func (x *lshIndex) decode(e int32) (id, ref int32) {
	ref = e >> x.localBits
	return x.starts[ref] + e&(1<<x.localBits-1), ref
}

// groupByReference sets starts and localBits for descriptors whose
// references are owner, which must be grouped: 0 or more, never lower than
// the one before.
func (x *lshIndex) groupByReference(owner []int32) {
	refs := 0
	if len(owner) > 0 {
		refs = int(owner[len(owner)-1]) + 1
	}
	x.starts = make([]int32, refs+1)
	most := int32(0)
	for i, r := range owner {
		if r < 0 || (i > 0 && r < owner[i-1]) {
			panic("vision: descriptors not grouped by reference")
		}
		x.starts[r+1] = int32(i) + 1
	}
	for r := 1; r <= refs; r++ {
		x.starts[r] = max(x.starts[r], x.starts[r-1]) // a reference without descriptors
		most = max(most, x.starts[r]-x.starts[r-1])
	}
	x.localBits = bits.Len32(uint32(max(most-1, 0)))
	if refs > 0 && bits.Len32(uint32(refs-1))+x.localBits > 31 {
		panic("vision: too many references, or too many descriptors a reference, for the hash tables' entries")
	}
}

// lshTable is one hash table: a tree of buckets. The first rootBits of bits
// choose a slot of the root node; each slot is a bucket or a child node, in
// which the next splitBits bits choose a slot, and so on.
type lshTable struct {
	bits     []uint8 // bit positions 0–255 forming the key, in the order read
	rootBits int
	// slots holds the nodes' slots, the root's first: a slot ≥ 0 is a
	// bucket's number, one < 0 is ^(the first slot of a child node).
	slots []int32
	// offsets: bucket b holds ids[offsets[b]:offsets[b+1]]; bucket 0 is
	// empty (every empty slot's).
	offsets []int32
	ids     []int32 // descriptors' entries (lshIndex.entry) grouped by bucket
}

// lshBucketCap is the most descriptors one bucket may hold.
const lshBucketCap = 16

// lshTables is the number of hash tables.
const lshTables = 10

// splitBits is how many more key bits split a crowded bucket, and
// maxKeyBits the longest key.
const (
	splitBits  = 2
	maxKeyBits = 32
)

// newLSHIndex indexes the descriptors; owner gives each one's reference.
// Descriptors marked late (a blurred copy of a face, whose corners look
// alike) take a bucket's room only after all others: the key lengths and
// the crowded buckets are decided by the others alone, and a late
// descriptor joins a bucket only while it stays within lshBucketCap.
func newLSHIndex(descs []descriptor, owner []int32, late []bool) *lshIndex {
	var early []descriptor
	for i := range descs {
		if late == nil || !late[i] {
			early = append(early, descs[i])
		}
	}
	rootBits := int(math.Round(math.Log2(float64(len(early)+1)/2))) + 2
	rootBits = min(max(rootBits, 6), 18)
	rng := rand.New(rand.NewPCG(4, 2)) // fixed: the same index for the same references
	idx := &lshIndex{descs: descs}
	idx.groupByReference(owner)
	pool := balancedBits(early, 128)
	// The tables are built side by side, each from its own draw of key
	// bits (drawn in turn: the same index for the same references).
	tableBits := make([][]uint8, lshTables)
	for t := range tableBits {
		perm := rng.Perm(len(pool))
		tableBits[t] = make([]uint8, maxKeyBits)
		for i := range tableBits[t] {
			tableBits[t][i] = pool[perm[i]]
		}
		// The root key's bits in the order they lie in a descriptor: the
		// key is then the descriptor's words with the other bits squeezed
		// out (see rootMasks). Which descriptors share a root slot does not
		// depend on the order.
		slices.Sort(tableBits[t][:rootBits])
	}
	idx.tables = make([]lshTable, lshTables)
	next := make(chan int, lshTables)
	for t := range lshTables {
		next <- t
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), lshTables) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys := make([]uint32, len(descs))
			scratch := make([]int32, len(descs))
			for t := range next {
				idx.tables[t] = idx.buildTable(descs, owner, late, tableBits[t], rootBits, keys, scratch)
			}
		}()
	}
	wg.Wait()
	idx.flatten()
	return idx
}

// buildTable builds the table keyed by keyBits, its first rootBits at the
// root; keys and scratch are room for as many numbers as descriptors.
func (x *lshIndex) buildTable(descs []descriptor, owner []int32, late []bool, keyBits []uint8, rootBits int, keys []uint32, scratch []int32) lshTable {
	b := tableBuilder{descs: descs, late: late, bits: keyBits, scratch: scratch, ids: make([]int32, 0, len(descs)), keys: keys}
	all := make([]int32, len(descs))
	for id := range descs {
		keys[id] = keyOf(&descs[id], keyBits)
		all[id] = int32(id)
	}
	b.offsets = []int32{0, 0}
	b.slots = make([]int32, 1<<rootBits)
	b.fill(0, 0, rootBits, all)
	for i, id := range b.ids {
		b.ids[i] = x.entry(id, owner[id])
	}
	return lshTable{bits: keyBits[:b.used], rootBits: rootBits, slots: b.slots, offsets: b.offsets, ids: b.ids}
}

// tableBuilder builds one lshTable.
type tableBuilder struct {
	descs   []descriptor
	late    []bool
	bits    []uint8
	used    int // key bits read by some node
	slots   []int32
	offsets []int32
	ids     []int32
	scratch []int32  // as long as the descriptors
	keys    []uint32 // each descriptor's bits, all of them, in key order
}

// fill sorts the descriptors ids (ascending; reordered in place) into the
// node whose slots begin at base, keyed by the n bits from position pos: a
// slot whose descriptors fit in a bucket gets one, a crowded one a child
// node.
func (b *tableBuilder) fill(base, pos, n int, ids []int32) {
	b.used = max(b.used, pos+n)
	mask := uint32(1)<<n - 1
	// A child node's counts fit on the stack: there are many of them.
	var small [3<<splitBits + 1]int32
	var count, early, next []int32
	if n <= splitBits {
		count, early, next = small[:1<<n+1], small[1<<n+1:2<<n+1], small[2<<n+1:3<<n+1]
	} else {
		count, early, next = make([]int32, 1<<n+1), make([]int32, 1<<n), make([]int32, 1<<n)
	}
	for _, id := range ids {
		k := b.keys[id] >> pos & mask
		count[k+1]++
		if b.late == nil || !b.late[id] {
			early[k]++
		}
	}
	for k := 1; k < len(count); k++ {
		count[k] += count[k-1]
	}
	// Stable: each slot's ids stay ascending.
	copy(next, count)
	grouped := b.scratch[:len(ids)]
	for _, id := range ids {
		k := b.keys[id] >> pos & mask
		grouped[next[k]] = id
		next[k]++
	}
	copy(ids, grouped)
	for k := 0; k < 1<<n; k++ {
		g := ids[count[k]:count[k+1]]
		switch {
		case len(g) == 0:
		case early[k] > lshBucketCap && pos+n+splitBits <= len(b.bits):
			child := len(b.slots)
			b.slots = append(b.slots, make([]int32, 1<<splitBits)...)
			b.slots[base+k] = ^int32(child)
			b.fill(child, pos+n, splitBits, g)
		case early[k] > lshBucketCap:
			// What many faces share, however long the key: left empty.
		default:
			start, room := len(b.ids), lshBucketCap-int(early[k])
			for _, id := range g {
				switch {
				case b.late == nil || !b.late[id]:
					b.ids = append(b.ids, id)
				case room > 0:
					b.ids = append(b.ids, id)
					room--
				}
			}
			if len(b.ids) > start {
				b.slots[base+k] = int32(len(b.offsets) - 1)
				b.offsets = append(b.offsets, int32(len(b.ids)))
			}
		}
	}
}

// keyOf reads the key bits of a descriptor.
func keyOf(d *descriptor, keyBits []uint8) uint32 {
	var k uint32
	for i, b := range keyBits {
		k |= uint32(d[b>>6]>>(b&63)&1) << i
	}
	return k
}

// bucket gives the number of the bucket a descriptor falls in.
func (t *lshTable) bucket(d *descriptor) int32 {
	return t.bucketFrom(d, t.rootKey(d))
}

// rootMasks marks the root key's bits in each word of a descriptor: the
// root key is the marked bits of the first word, then those of the second,
// and so on, each in the order they lie in the word (newLSHIndex sorts
// them so).
func (t *lshTable) rootMasks() (m [4]C.uint64_t) {
	for _, b := range t.bits[:t.rootBits] {
		m[b>>6] |= 1 << (b & 63)
	}
	return m
}

// rootKey is a descriptor's slot in the root node.
func (t *lshTable) rootKey(d *descriptor) uint32 { return keyOf(d, t.bits[:t.rootBits]) }

// bucketFrom gives the bucket of a descriptor whose root slot is root.
func (t *lshTable) bucketFrom(d *descriptor, root uint32) int32 {
	v := t.slots[root]
	for pos := t.rootBits; v < 0; pos += splitBits {
		v = t.slots[^v+int32(keyOf(d, t.bits[pos:pos+splitBits]))]
	}
	return v
}

// entries gives the entries (lshIndex.entry) in bucket b.
func (t *lshTable) entries(b int32) []int32 { return t.ids[t.offsets[b]:t.offsets[b+1]] }

// members lists the descriptors in bucket b of t.
func (x *lshIndex) members(t *lshTable, b int32) []int32 {
	var ids []int32
	for _, e := range t.entries(b) {
		id, _ := x.decode(e)
		ids = append(ids, id)
	}
	return ids
}

// nearest is the best match of one query descriptor: the closest reference
// descriptor (of two as close, the one first in the index), and the distance
// to the closest one on any other reference (for the ratio test; 256 when
// there is none). Both are the same whatever order the candidates are
// offered in.
type nearest struct {
	id, ref      int32
	dist, second int
}

// offer takes descriptor id of reference ref at distance dist into account.
func (n *nearest) offer(id, ref int32, dist int) {
	closer := dist < n.dist || (dist == n.dist && id < n.id)
	switch {
	case ref == n.ref:
		if closer {
			n.id, n.dist = id, dist
		}
	case closer:
		// The old best is on another reference, and no farther than the
		// old second.
		if n.ref >= 0 {
			n.second = n.dist
		}
		n.id, n.ref, n.dist = id, ref, dist
	case dist < n.second:
		n.second = dist
	}
}

// matters reports whether a candidate at distance dist can change n.
func (n *nearest) matters(dist int) bool { return dist <= n.dist || dist < n.second }

// hamming is the number of bits in which two descriptors differ.
func hamming(a, b *descriptor) int {
	return bits.OnesCount64(a[0]^b[0]) + bits.OnesCount64(a[1]^b[1]) +
		bits.OnesCount64(a[2]^b[2]) + bits.OnesCount64(a[3]^b[3])
}

// queryTables finds the nearest reference descriptor to d among those
// sharing a bucket with it in the first k tables; ok is false when there is
// none. Fewer tables are faster, and enough when many keypoints vote for the
// same card. (queryBatch does the same for many descriptors, faster.)
func (x *lshIndex) queryTables(d *descriptor, k int) (n nearest, ok bool) {
	n = nearest{id: -1, ref: -1, dist: 257, second: 256}
	for ti := range x.tables[:min(k, len(x.tables))] {
		t := &x.tables[ti]
		for _, e := range t.entries(t.bucket(d)) {
			id, ref := x.decode(e)
			if dist := hamming(d, &x.descs[id]); n.matters(dist) {
				n.offer(id, ref, dist)
			}
		}
	}
	return n, n.id >= 0
}

// balancedBits picks the n descriptor bits whose share of ones is closest to
// a half: ORB's bits are not all balanced, and a key made of lopsided bits
// piles most descriptors into a few buckets.
func balancedBits(descs []descriptor, n int) []uint8 {
	ones := bitCounts(descs)
	order := make([]int, 256)
	for i := range order {
		order[i] = i
	}
	half := float64(len(descs)) / 2
	sort.SliceStable(order, func(i, j int) bool {
		return math.Abs(float64(ones[order[i]])-half) < math.Abs(float64(ones[order[j]])-half)
	})
	out := make([]uint8, n)
	for i := range out {
		out[i] = uint8(order[i])
	}
	return out
}

// bitCounts counts, for each of the 256 bits, the descriptors that have it
// set. Eight counters share a word, one a byte: bit j of each byte of a
// descriptor's word w is added to counts[w][j] at once, and the counters
// are emptied before a byte can overflow.
func bitCounts(descs []descriptor) (ones [256]int) {
	var counts [4][8]uint64
	empty := func() {
		for w := range counts {
			for j, c := range counts[w] {
				for by := range 8 {
					ones[w*64+by*8+j] += int(c >> (8 * by) & 0xff)
				}
				counts[w][j] = 0
			}
		}
	}
	for i := range descs {
		for w, x := range descs[i] {
			for j := range 8 {
				counts[w][j] += x >> j & 0x0101010101010101
			}
		}
		if i%255 == 254 {
			empty()
		}
	}
	empty()
	return ones
}

// queryBatch finds the nearest reference descriptor to each of
// descs[which[i]] as queryTables does, in out[i] (id −1: none), except that
// a bucket holding more than bucketCap descriptors is passed over
// (lshBucketCap: none is). The time goes into waiting for memory: the
// buckets and the candidates' descriptors lie scattered over megabytes. So
// lsh.c reads each table in sweeps over all the queries, each sweep's reads
// independent of one another and asked for ahead of need: the processor
// has many under way at a time. (Read query by query in Go, the sample
// catalog's 41-face index took twice as long; in Go in stages, with the
// candidates sorted by their place in memory, half again as long.) The
// results are queryTables' (nearest does not depend on the order of its
// candidates).
func (x *lshIndex) queryBatch(descs []descriptor, which []int, k, bucketCap int, out []nearest) {
	for i := range out[:len(which)] {
		out[i] = nearest{id: -1, ref: -1, dist: 257, second: 256}
	}
	x.queryMore(descs, which, 0, k, bucketCap, out)
}

// queryMore goes on with a batch lookup (see queryBatch) whose out holds
// what the tables before table from found: it looks in the tables from
// up to (not including) to. What it finds is what queryBatch over all those
// tables would (nearest does not depend on the order of its candidates).
func (x *lshIndex) queryMore(descs []descriptor, which []int, from, to, bucketCap int, out []nearest) {
	nq := len(which)
	to = min(to, len(x.tables))
	if nq == 0 || from >= to || len(x.descs) == 0 {
		return
	}
	tables := x.flat.tables[from:to]
	w := make([]int32, nq)
	found := make([]C.tablecam_nearest, nq)
	for i, q := range which {
		_ = descs[q] // bad input panics here, not in C
		w[i] = int32(q)
		n := out[i]
		found[i] = C.tablecam_nearest{id: C.int32_t(n.id), ref: C.int32_t(n.ref), dist: C.int32_t(n.dist), second: C.int32_t(n.second)}
	}
	keys := make([]uint32, nq)
	scratch := make([]int32, 2*nq)
	C.tablecam_lsh_query(first(x.flat.spans), first(x.flat.ids), (*C.uint8_t)(unsafe.Pointer(&x.flat.bits[0])),
		&tables[0], C.int(len(tables)), (*C.uint64_t)(unsafe.Pointer(&x.descs[0][0])), first(x.starts), C.int(x.localBits),
		(*C.uint64_t)(unsafe.Pointer(&descs[0][0])), first(w), C.int(nq), C.int(bucketCap), &found[0],
		(*C.uint32_t)(unsafe.Pointer(&keys[0])), first(scratch), portableLSH(x.portable))
	for i, n := range found {
		out[i] = nearest{id: int32(n.id), ref: int32(n.ref), dist: int(n.dist), second: int(n.second)}
	}
}

// first points C at the start of s (nil when s is empty).
func first(s []int32) *C.int32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int32_t)(unsafe.Pointer(&s[0]))
}
