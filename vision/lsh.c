// Hash-table lookups of many descriptors at once (see lshIndex.queryBatch).
//
// Much of a lookup's time goes into waiting for memory: a query's root
// slot, then the slots of the child nodes down to its bucket, then the
// bucket's entries, then the candidates' descriptors, each read depending
// on the one before and each likely to miss the caches (the index is
// megabytes). A bucket's slot says where its entries lie (no table of
// bucket bounds is read in between), and an entry says its descriptor's
// reference (no table of owners is read). So each table is read in sweeps
// over a block of queries, every sweep's reads independent of one another
// and asked for ahead of need (prefetched), so that many are under way at
// a time: the root keys, the buckets one tree level at a time, and last
// the distances to the candidates. A block is small enough that what one
// sweep asked for is still in the caches when the next reads it.
//
// The rest is arithmetic, made cheap: a candidate is weighed without
// branches (most change the nearest or the second, unpredictably), and
// where the processor has them (BMI2) a root key is four bit gathers
// instead of a loop over its bits; without them, the portable code finds
// the same (TestLSHFastIsPortable).

#include "lsh.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define AHEAD 16 // queries between asking for a read and needing it

#define QUERY_BLOCK 256 // queries looked up together (see query_table)

#define SPAN_LEN_BITS 5 // a bucket's slot: its first id's place << SPAN_LEN_BITS | its count

static inline uint32_t key_bits(const uint64_t *d, const uint8_t *bits, int n) {
    uint32_t k = 0;
    for (int i = 0; i < n; i++) {
        unsigned b = bits[i];
        k |= (uint32_t)((d[b >> 6] >> (b & 63)) & 1) << i;
    }
    return k;
}

#if defined(__x86_64__)
// root_keys_pext gives the root keys of queries which[0..nq) in table t,
// the root key's bits squeezed out of each word (see root_mask).
__attribute__((target("bmi2"))) static void root_keys_pext(const tablecam_lsh_table *t, const uint64_t *queries,
                                                           const int32_t *which, int nq, uint32_t *keys) {
    const uint64_t m0 = t->root_mask[0], m1 = t->root_mask[1], m2 = t->root_mask[2], m3 = t->root_mask[3];
    const int s1 = __builtin_popcountll(m0), s2 = s1 + __builtin_popcountll(m1), s3 = s2 + __builtin_popcountll(m2);
    for (int q = 0; q < nq; q++) {
        const uint64_t *d = queries + 4 * (int64_t)which[q];
        keys[q] = (uint32_t)(_pext_u64(d[0], m0) | _pext_u64(d[1], m1) << s1 | _pext_u64(d[2], m2) << s2 |
                             _pext_u64(d[3], m3) << s3);
    }
}
#endif

typedef struct {
    int32_t lo, hi;
} span;

// set_span notes where query q's bucket's ids lie (none when the bucket
// is over the cap) and asks for them: their first cache line, and their
// last if it is another (the candidates' sweep reads every id to find its
// descriptor). A bucket's dozen ids often cross a line, and waiting for
// the second one held up the prefetches of the candidates behind it
// (1104 faces: -10% lookup time).
static inline __attribute__((always_inline)) void set_span(span *spans, int q, int32_t v, const int32_t *tids,
                                                             int bucket_cap) {
    int32_t lo = v >> SPAN_LEN_BITS, n = v & ((1 << SPAN_LEN_BITS) - 1);
    if (n > bucket_cap) {
        n = 0;
    }
    spans[q].lo = lo;
    spans[q].hi = lo + n;
    if (n > 0) {
        __builtin_prefetch(tids + lo);
        if (((uintptr_t)(tids + lo) >> 6) != ((uintptr_t)(tids + lo + n - 1) >> 6)) {
            __builtin_prefetch(tids + lo + n - 1);
        }
    }
}

// descend reads query q's slot v, read at key bit pos: a bucket's is noted
// (set_span); a child node's gives, in keys[q], the slot q reads next, which
// is asked for. It reports whether q goes on down.
static inline __attribute__((always_inline)) int descend(const tablecam_lsh_table *t, const int32_t *tslots,
                                                           const int32_t *tids, const uint8_t *tbits,
                                                           const uint64_t *query, int q, int32_t v, int pos,
                                                           int bucket_cap, uint32_t *keys, span *spans) {
    if (v >= 0) {
        set_span(spans, q, v, tids, bucket_cap);
        return 0;
    }
    keys[q] = (uint32_t)(~v) + key_bits(query, tbits + pos, t->split_bits);
    __builtin_prefetch(tslots + keys[q]);
    return 1;
}

// descriptor_id is the descriptor of a table's entry e, whose reference is
// e >> local_bits.
static inline __attribute__((always_inline)) int32_t descriptor_id(int32_t e, const int32_t *starts,
                                                                     int local_bits) {
    return starts[e >> local_bits] + (e & ((1 << local_bits) - 1));
}

// prefetch_candidates asks for the descriptors of a query's candidates.
static inline __attribute__((always_inline)) void prefetch_candidates(span s, const int32_t *tids,
                                                                        const uint64_t *index, const int32_t *starts,
                                                                        int local_bits) {
    for (int32_t k = s.lo; k < s.hi; k++) {
        __builtin_prefetch(index + 4 * (int64_t)descriptor_id(tids[k], starts, local_bits));
    }
}

// query_block looks up queries [b0, b1) in table t (see query_table).
static inline __attribute__((always_inline)) void query_block(const int32_t *tslots, const int32_t *tids,
                                                                const uint8_t *tbits, const tablecam_lsh_table *t,
                                                                const uint64_t *index, const int32_t *starts, int local_bits,
                                                                const uint64_t *queries, const int32_t *which, int b0,
                                                                int b1, int bucket_cap, tablecam_nearest *out,
                                                                uint32_t *keys, span *spans, int pext) {
    if (pext) {
#if defined(__x86_64__)
        root_keys_pext(t, queries, which + b0, b1 - b0, keys + b0);
#endif
    } else {
        for (int q = b0; q < b1; q++) {
            keys[q] = key_bits(queries + 4 * (int64_t)which[q], tbits, t->root_bits);
        }
    }
    // The buckets, one level of the trees at a time over all the block's
    // queries: the root slots, then the child nodes of those that have
    // them, each slot asked for a sweep before it is read. keys[q] becomes
    // the slot query q reads next.
    int32_t pending[QUERY_BLOCK];
    int np = 0;
    for (int q = b0; q < b1; q++) {
        if (q + AHEAD < b1) {
            __builtin_prefetch(tslots + keys[q + AHEAD]);
        }
        if (descend(t, tslots, tids, tbits, queries + 4 * (int64_t)which[q], q, tslots[keys[q]], t->root_bits,
                    bucket_cap, keys, spans)) {
            pending[np++] = q;
        }
    }
    for (int pos = t->root_bits + t->split_bits; np > 0; pos += t->split_bits) {
        int left = 0;
        for (int i = 0; i < np; i++) {
            int q = pending[i];
            if (descend(t, tslots, tids, tbits, queries + 4 * (int64_t)which[q], q, tslots[keys[q]], pos, bucket_cap,
                        keys, spans)) {
                pending[left++] = q;
            }
        }
        np = left;
    }
    // The distances to the candidates.
    for (int q = b0; q < b1 && q < b0 + AHEAD; q++) {
        prefetch_candidates(spans[q], tids, index, starts, local_bits);
    }
    for (int q = b0; q < b1; q++) {
        if (q + AHEAD < b1) {
            prefetch_candidates(spans[q + AHEAD], tids, index, starts, local_bits);
        }
        const uint64_t *d = queries + 4 * (int64_t)which[q];
        uint64_t d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
        tablecam_nearest *n = out + q;
        // offer, without branches: most candidates are near enough to
        // change the nearest or the second, and which does is not
        // predictable. Nearer of two is the lower (distance, id).
        uint64_t best = (uint64_t)(uint32_t)n->dist << 32 | (uint32_t)n->id;
        int32_t best_ref = n->ref, second = n->second;
        for (int32_t k = spans[q].lo; k < spans[q].hi; k++) {
            int32_t e = tids[k], ref = e >> local_bits, id = descriptor_id(e, starts, local_bits);
            const uint64_t *c = index + 4 * (int64_t)id;
            int32_t dist = __builtin_popcountll(d0 ^ c[0]) + __builtin_popcountll(d1 ^ c[1]) +
                           __builtin_popcountll(d2 ^ c[2]) + __builtin_popcountll(d3 ^ c[3]);
            uint64_t key = (uint64_t)(uint32_t)dist << 32 | (uint32_t)id;
            int closer = key < best;
            // The old best joins the others when a nearer one on another
            // reference takes its place (it is never farther than second).
            int32_t other = closer ? (int32_t)(best >> 32) : dist;
            int32_t kept = other < second ? other : second;
            second = ref == best_ref ? second : kept;
            best = closer ? key : best;
            best_ref = closer ? ref : best_ref;
        }
        n->id = (int32_t)(uint32_t)best;
        n->dist = (int32_t)(best >> 32);
        n->ref = best_ref;
        n->second = second;
    }
}

// query_table looks up the queries in table t, QUERY_BLOCK at a time: a
// block's slots, ids and candidates, asked for in one sweep, are still in
// the caches when the next sweep reads them (over all the queries at once,
// the ids asked for by the bucket sweep had left the caches before the
// distance sweep came to them).
static inline __attribute__((always_inline)) void query_table(const int32_t *slots, const int32_t *ids,
                                                                const uint8_t *bits, const tablecam_lsh_table *t,
                                                                const uint64_t *index, const int32_t *starts, int local_bits,
                                                                const uint64_t *queries, const int32_t *which, int nq,
                                                                int bucket_cap, tablecam_nearest *out, uint32_t *keys,
                                                                span *spans, int pext) {
    const int32_t *tslots = slots + t->slots, *tids = ids + t->ids;
    const uint8_t *tbits = bits + t->bits;
    for (int b0 = 0; b0 < nq; b0 += QUERY_BLOCK) {
        int b1 = b0 + QUERY_BLOCK < nq ? b0 + QUERY_BLOCK : nq;
        query_block(tslots, tids, tbits, t, index, starts, local_bits, queries, which, b0, b1, bucket_cap, out, keys, spans,
                    pext);
    }
}

#if defined(__x86_64__)
__attribute__((target("popcnt,bmi2"))) static void query_tables_bmi2(
    const int32_t *slots, const int32_t *ids, const uint8_t *bits,
    const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *starts, int local_bits,
    const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out, uint32_t *keys,
    span *spans) {
    for (int t = 0; t < ntables; t++) {
        query_table(slots, ids, bits, tables + t, index, starts, local_bits, queries, which, nq, bucket_cap, out, keys,
                    spans, 1);
    }
}
#endif

__attribute__((target("popcnt"))) static void query_tables_popcnt(
    const int32_t *slots, const int32_t *ids, const uint8_t *bits,
    const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *starts, int local_bits,
    const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out, uint32_t *keys,
    span *spans) {
    for (int t = 0; t < ntables; t++) {
        query_table(slots, ids, bits, tables + t, index, starts, local_bits, queries, which, nq, bucket_cap, out, keys,
                    spans, 0);
    }
}

static void query_tables(const int32_t *slots, const int32_t *ids, const uint8_t *bits,
                         const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *starts, int local_bits,
                         const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out,
                         uint32_t *keys, span *spans) {
    for (int t = 0; t < ntables; t++) {
        query_table(slots, ids, bits, tables + t, index, starts, local_bits, queries, which, nq, bucket_cap, out, keys,
                    spans, 0);
    }
}

void tablecam_lsh_query(const int32_t *slots, const int32_t *ids, const uint8_t *bits,
                        const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *starts, int local_bits,
                        const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out,
                        uint32_t *keys, int32_t *scratch, int portable) {
    span *spans = (span *)scratch;
    if (nq == 0 || ntables == 0) {
        return;
    }
    if (portable) {
        query_tables(slots, ids, bits, tables, ntables, index, starts, local_bits, queries, which, nq, bucket_cap, out,
                     keys, spans);
        return;
    }
#if defined(__x86_64__)
    if (__builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt")) {
        query_tables_bmi2(slots, ids, bits, tables, ntables, index, starts, local_bits, queries, which, nq, bucket_cap,
                          out, keys, spans);
        return;
    }
#endif
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("popcnt")) {
        query_tables_popcnt(slots, ids, bits, tables, ntables, index, starts, local_bits, queries, which, nq, bucket_cap,
                            out, keys, spans);
        return;
    }
#endif
    query_tables(slots, ids, bits, tables, ntables, index, starts, local_bits, queries, which, nq, bucket_cap, out, keys,
                 spans);
}
