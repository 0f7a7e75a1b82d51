package vision

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"
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
	descs  []descriptor
	owner  []int32 // reference of each descriptor
	tables []lshTable
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
	ids     []int32 // descriptor ids grouped by bucket
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
	idx := &lshIndex{descs: descs, owner: owner}
	pool := balancedBits(early, 128)
	all := make([]int32, len(descs))
	for i := range all {
		all[i] = int32(i)
	}
	keys := make([]uint32, len(descs))
	for t := 0; t < lshTables; t++ {
		perm := rng.Perm(len(pool))
		b := tableBuilder{descs: descs, late: late, scratch: make([]int32, len(all)), ids: make([]int32, 0, len(all)), keys: keys}
		b.bits = make([]uint8, maxKeyBits)
		for i := range b.bits {
			b.bits[i] = pool[perm[i]]
		}
		for _, id := range all {
			keys[id] = keyOf(&descs[id], b.bits)
		}
		b.offsets = []int32{0, 0}
		b.slots = make([]int32, 1<<rootBits)
		b.fill(0, 0, rootBits, append([]int32(nil), all...))
		idx.tables = append(idx.tables, lshTable{bits: b.bits[:b.used], rootBits: rootBits, slots: b.slots, offsets: b.offsets, ids: b.ids})
	}
	return idx
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

// members lists the descriptors in bucket b.
func (t *lshTable) members(b int32) []int32 { return t.ids[t.offsets[b]:t.offsets[b+1]] }

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
		for _, id := range t.members(t.bucket(d)) {
			if dist := hamming(d, &x.descs[id]); n.matters(dist) {
				n.offer(id, x.owner[id], dist)
			}
		}
	}
	return n, n.id >= 0
}

// balancedBits picks the n descriptor bits whose share of ones is closest to
// a half: ORB's bits are not all balanced, and a key made of lopsided bits
// piles most descriptors into a few buckets.
func balancedBits(descs []descriptor, n int) []uint8 {
	var ones [256]int
	for i := range descs {
		for b := 0; b < 256; b++ {
			ones[b] += int(descs[i][b>>6] >> (b & 63) & 1)
		}
	}
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

// queryBatch finds the nearest reference descriptor to each of
// descs[which[i]] as queryTables does, in out[i] (id −1: none), except that
// a bucket holding more than bucketCap descriptors is passed over
// (lshBucketCap: none is). With a large catalog the time goes into waiting
// for memory: the buckets and the candidates' descriptors lie scattered
// over tens of megabytes. So it works in stages over all the queries at
// once, each stage's reads independent of one another (the processor has
// many under way at a time) and in the order they lie in memory: each
// table's root slots in key order, then one level of child nodes after
// another, then the buckets; then every (candidate, query) pair is grouped
// by block of candidates (groupByKey), and the distances are taken reading
// the index's descriptors in their order in memory. (Read query by
// query, even the sample catalog's 41-face index takes twice as long.)
// The results are queryTables' (nearest does not depend on the order of
// its candidates).
func (x *lshIndex) queryBatch(descs []descriptor, which []int, k, bucketCap int, out []nearest) {
	for i := range out[:len(which)] {
		out[i] = nearest{id: -1, ref: -1, dist: 257, second: 256}
	}
	tables := x.tables[:min(k, len(x.tables))]
	nq := len(which)
	// For each table, the queries in root slot order (slot in the high
	// half, query in the low half), and the bucket each falls in.
	orders := make([]uint64, len(tables)*nq)
	buckets := make([]int32, len(tables)*nq)
	scratch := make([]uint64, nq)
	total := 0
	for ti := range tables {
		t := &tables[ti]
		order, bucket := orders[ti*nq:(ti+1)*nq], buckets[ti*nq:(ti+1)*nq]
		for i, w := range which {
			order[i] = uint64(t.rootKey(&descs[w]))<<32 | uint64(i)
		}
		groupByKey(order, scratch, t.rootBits)
		deeper := false
		for i, o := range order {
			bucket[i] = t.slots[o>>32]
			deeper = deeper || bucket[i] < 0
		}
		for level := 0; deeper; level++ {
			deeper = false
			pos := t.rootBits + level*splitBits
			for i, o := range order {
				if v := bucket[i]; v < 0 {
					bucket[i] = t.slots[^v+int32(keyOf(&descs[which[uint32(o)]], t.bits[pos:pos+splitBits]))]
					deeper = deeper || bucket[i] < 0
				}
			}
		}
		for _, b := range bucket {
			if n := int(t.offsets[b+1] - t.offsets[b]); n <= bucketCap {
				total += n
			}
		}
	}
	pairs := make([]uint64, 0, total) // candidate id in the high half, query in the low
	for ti := range tables {
		t := &tables[ti]
		order, bucket := orders[ti*nq:(ti+1)*nq], buckets[ti*nq:(ti+1)*nq]
		for i, b := range bucket {
			members := t.members(b)
			if len(members) > bucketCap {
				continue
			}
			q := order[i] & (1<<32 - 1)
			for _, id := range members {
				pairs = append(pairs, uint64(id)<<32|q)
			}
		}
	}
	groupByKey(pairs, make([]uint64, len(pairs)), bits.Len(uint(len(x.descs))))
	for _, p := range pairs {
		id, q := int32(p>>32), uint32(p)
		n := &out[q]
		if dist := hamming(&descs[which[q]], &x.descs[id]); n.matters(dist) {
			n.offer(id, x.owner[id], dist)
		}
	}
}

// groupByKey orders keyed queries (key in the high half, at most keyBits
// bits) by the key's top groupBits bits (all of it when shorter), in one
// pass of a radix sort, stable; scratch is as long as order. Reading what
// the keys name in that order goes through memory in blocks of 2^(keyBits −
// groupBits) in ascending order, which is what the order is for: a full
// sort would cost a second pass for no fewer cache misses.
func groupByKey(order, scratch []uint64, keyBits int) {
	shift := 32 + max(keyBits-groupBits, 0)
	mask := uint64(1)<<min(keyBits, groupBits) - 1
	var count [1 << groupBits]int
	for _, o := range order {
		count[o>>shift&mask]++
	}
	sum := 0
	for d := range count[:mask+1] {
		sum, count[d] = sum+count[d], sum
	}
	for _, o := range order {
		d := o >> shift & mask
		scratch[count[d]] = o
		count[d]++
	}
	copy(order, scratch)
}

// groupBits is how many of a key's top bits groupByKey orders by.
const groupBits = 11
