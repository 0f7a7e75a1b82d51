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
type lshIndex struct {
	descs  []descriptor
	owner  []int32 // reference of each descriptor
	tables []lshTable
}

type lshTable struct {
	bits    []uint8 // bit positions 0–255 forming the key
	offsets []int32 // bucket b holds ids[offsets[b]:offsets[b+1]]
	ids     []int32 // descriptor ids grouped by bucket
}

// lshBucketCap is the most descriptors one bucket may hold.
const lshBucketCap = 96

// lshTables is the number of hash tables.
const lshTables = 10

// newLSHIndex indexes the descriptors; owner gives each one's reference.
// Descriptors marked late (a blurred copy of a face, whose corners look
// alike) take a bucket's room only after all others: the key length and
// the crowded buckets are decided by the others alone, and a late
// descriptor joins a bucket only while it stays within lshBucketCap.
func newLSHIndex(descs []descriptor, owner []int32, late []bool) *lshIndex {
	var early []descriptor
	for i := range descs {
		if late == nil || !late[i] {
			early = append(early, descs[i])
		}
	}
	keyBits := int(math.Round(math.Log2(float64(len(early)+1)/2))) + 2
	keyBits = min(max(keyBits, 6), 18)
	rng := rand.New(rand.NewPCG(4, 2)) // fixed: the same index for the same references
	idx := &lshIndex{descs: descs, owner: owner}
	pool := balancedBits(early, 128)
	for t := 0; t < lshTables; t++ {
		tab := lshTable{bits: make([]uint8, keyBits), offsets: make([]int32, (1<<keyBits)+1)}
		perm := rng.Perm(len(pool))
		for i := range tab.bits {
			tab.bits[i] = pool[perm[i]]
		}
		keys := make([]uint32, len(descs))
		count := make([]int32, 1<<keyBits)
		for i := range descs {
			k := tab.key(&descs[i])
			keys[i] = k
			if late == nil || !late[i] {
				count[k]++
			}
		}
		// A crowded bucket holds what every face shares (frame, text box):
		// useless for telling faces apart and slow to scan. Leave it empty.
		for k, c := range count {
			if c > lshBucketCap {
				count[k] = -1
			}
		}
		keep := make([]bool, len(descs))
		for i, k := range keys {
			switch {
			case count[k] < 0:
			case late == nil || !late[i]:
				keep[i] = true
			case count[k] < lshBucketCap:
				keep[i] = true
				count[k]++
			}
		}
		for k, c := range count {
			tab.offsets[k+1] = max(c, 0)
		}
		for b := 1; b < len(tab.offsets); b++ {
			tab.offsets[b] += tab.offsets[b-1]
		}
		fill := append([]int32(nil), tab.offsets[:len(tab.offsets)-1]...)
		tab.ids = make([]int32, tab.offsets[len(tab.offsets)-1])
		for i, k := range keys {
			if !keep[i] {
				continue
			}
			tab.ids[fill[k]] = int32(i)
			fill[k]++
		}
		idx.tables = append(idx.tables, tab)
	}
	return idx
}

func (t *lshTable) key(d *descriptor) uint32 {
	var k uint32
	for i, b := range t.bits {
		k |= uint32(d[b>>6]>>(b&63)&1) << i
	}
	return k
}

// nearest is the best match of one query descriptor: the closest reference
// descriptor, and the distance to the closest one on any other reference
// (for the ratio test; 256 when there is none).
type nearest struct {
	id, ref      int32
	dist, second int
}

// offer takes descriptor id of reference ref at distance dist into account.
func (n *nearest) offer(id, ref int32, dist int) {
	switch {
	case dist < n.dist:
		if ref != n.ref && n.ref >= 0 {
			n.second = min(n.second, n.dist)
		}
		n.id, n.ref, n.dist = id, ref, dist
	case ref != n.ref && dist < n.second:
		n.second = dist
	}
}

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
		k := t.key(d)
		for _, id := range t.ids[t.offsets[k]:t.offsets[k+1]] {
			if id == n.id {
				continue
			}
			n.offer(id, x.owner[id], hamming(d, &x.descs[id]))
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
// (lshBucketCap: none is). It goes table by table, and within a table
// bucket by bucket, so that a bucket many queries share (a crowded one,
// where most of the comparisons are) is read from memory once, not once
// per query: on a frame's keypoints that halves the time. Each query's
// candidates are offered in queryTables' order, so the results are the
// same.
func (x *lshIndex) queryBatch(descs []descriptor, which []int, k, bucketCap int, out []nearest) {
	for i := range out[:len(which)] {
		out[i] = nearest{id: -1, ref: -1, dist: 257, second: 256}
	}
	// Each query's key in the high half, its number in the low half.
	order, scratch := make([]uint64, len(which)), make([]uint64, len(which))
	for ti := range x.tables[:min(k, len(x.tables))] {
		t := &x.tables[ti]
		for i, w := range which {
			order[i] = uint64(t.key(&descs[w]))<<32 | uint64(i)
		}
		sortByKey(order, scratch, len(t.bits))
		for _, o := range order {
			key, q := o>>32, uint32(o)
			b := t.ids[t.offsets[key]:t.offsets[key+1]]
			if len(b) > bucketCap {
				continue
			}
			d, n := &descs[which[q]], &out[q]
			for _, id := range b {
				if id == n.id {
					continue
				}
				n.offer(id, x.owner[id], hamming(d, &x.descs[id]))
			}
		}
	}
}

// sortByKey sorts keyed queries (key in the high half, at most keyBits
// bits) by key, a radix sort of two passes; scratch is as long as order.
func sortByKey(order, scratch []uint64, keyBits int) {
	lo := (keyBits + 1) / 2
	var count [1 << 10]int
	src, dst := order, scratch
	for _, shift := range []int{32, 32 + lo} {
		mask := uint64(1)<<lo - 1
		count = [1 << 10]int{}
		for _, o := range src {
			count[o>>shift&mask]++
		}
		sum := 0
		for d := range count[:mask+1] {
			sum, count[d] = sum+count[d], sum
		}
		for _, o := range src {
			d := o >> shift & mask
			dst[count[d]] = o
			count[d]++
		}
		src, dst = dst, src
	}
}
