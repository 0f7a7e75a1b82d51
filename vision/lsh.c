// Hash-table lookups of many descriptors at once (see lshIndex.queryBatch).
//
// Nearly all of a lookup's time goes into waiting for memory: a query's
// root slot, then its bucket's bounds, then the bucket's descriptor ids,
// then the candidates' descriptors, each read depending on the one before
// and each likely to miss the caches (the index is megabytes). So each
// table is read in four sweeps over all the queries, every sweep's reads
// independent of one another and asked for ahead of need (prefetched), so
// that many are under way at a time: the root keys, the buckets, the
// buckets' bounds, and last the distances to the candidates.

#include "lsh.h"

#define AHEAD 16 // queries between asking for a read and needing it

static inline uint32_t key_bits(const uint64_t *d, const uint8_t *bits, int n) {
    uint32_t k = 0;
    for (int i = 0; i < n; i++) {
        unsigned b = bits[i];
        k |= (uint32_t)((d[b >> 6] >> (b & 63)) & 1) << i;
    }
    return k;
}

// offer and matters are nearest.offer and nearest.matters (lsh.go).
static inline void offer(tablecam_nearest *n, int32_t id, int32_t ref, int32_t dist) {
    int closer = dist < n->dist || (dist == n->dist && id < n->id);
    if (ref == n->ref) {
        if (closer) {
            n->id = id;
            n->dist = dist;
        }
    } else if (closer) {
        if (n->ref >= 0) {
            n->second = n->dist;
        }
        n->id = id;
        n->ref = ref;
        n->dist = dist;
    } else if (dist < n->second) {
        n->second = dist;
    }
}

typedef struct {
    int32_t lo, hi;
} span;

static inline __attribute__((always_inline)) void query_table(const int32_t *slots, const int32_t *offsets,
                                                                const int32_t *ids, const uint8_t *bits,
                                                                const tablecam_lsh_table *t, const uint64_t *index,
                                                                const int32_t *owner, const uint64_t *queries,
                                                                const int32_t *which, int nq, int bucket_cap,
                                                                tablecam_nearest *out, uint32_t *keys, span *spans) {
    const int32_t *tslots = slots + t->slots, *toffsets = offsets + t->offsets, *tids = ids + t->ids;
    const uint8_t *tbits = bits + t->bits;
    for (int q = 0; q < nq; q++) {
        keys[q] = key_bits(queries + 4 * (int64_t)which[q], tbits, t->root_bits);
    }
    // The buckets: the root slot, then down the child nodes.
    for (int q = 0; q < nq; q++) {
        if (q + AHEAD < nq) {
            __builtin_prefetch(tslots + keys[q + AHEAD]);
        }
        int32_t v = tslots[keys[q]];
        for (int pos = t->root_bits; v < 0; pos += t->split_bits) {
            v = tslots[~v + (int32_t)key_bits(queries + 4 * (int64_t)which[q], tbits + pos, t->split_bits)];
        }
        keys[q] = (uint32_t)v;
    }
    // The buckets' bounds; a bucket over the cap is passed over.
    for (int q = 0; q < nq; q++) {
        if (q + AHEAD < nq) {
            __builtin_prefetch(toffsets + keys[q + AHEAD]);
        }
        int32_t b = (int32_t)keys[q], lo = toffsets[b], hi = toffsets[b + 1];
        if (hi - lo > bucket_cap) {
            hi = lo;
        }
        spans[q].lo = lo;
        spans[q].hi = hi;
        if (hi > lo) {
            __builtin_prefetch(tids + lo);
        }
    }
    // The distances to the candidates.
    for (int q = 0; q < nq; q++) {
        if (q + AHEAD < nq) {
            span s = spans[q + AHEAD];
            for (int32_t k = s.lo; k < s.hi; k++) {
                __builtin_prefetch(index + 4 * (int64_t)tids[k]);
            }
        }
        const uint64_t *d = queries + 4 * (int64_t)which[q];
        uint64_t d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];
        tablecam_nearest *n = out + q;
        for (int32_t k = spans[q].lo; k < spans[q].hi; k++) {
            int32_t id = tids[k];
            const uint64_t *c = index + 4 * (int64_t)id;
            int32_t dist = __builtin_popcountll(d0 ^ c[0]) + __builtin_popcountll(d1 ^ c[1]) +
                           __builtin_popcountll(d2 ^ c[2]) + __builtin_popcountll(d3 ^ c[3]);
            if (dist <= n->dist || dist < n->second) {
                offer(n, id, owner[id], dist);
            }
        }
    }
}

__attribute__((target("popcnt"))) static void query_tables_popcnt(
    const int32_t *slots, const int32_t *offsets, const int32_t *ids, const uint8_t *bits,
    const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *owner,
    const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out, uint32_t *keys,
    span *spans) {
    for (int t = 0; t < ntables; t++) {
        query_table(slots, offsets, ids, bits, tables + t, index, owner, queries, which, nq, bucket_cap, out, keys,
                    spans);
    }
}

static void query_tables(const int32_t *slots, const int32_t *offsets, const int32_t *ids, const uint8_t *bits,
                         const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *owner,
                         const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out,
                         uint32_t *keys, span *spans) {
    for (int t = 0; t < ntables; t++) {
        query_table(slots, offsets, ids, bits, tables + t, index, owner, queries, which, nq, bucket_cap, out, keys,
                    spans);
    }
}

void tablecam_lsh_query(const int32_t *slots, const int32_t *offsets, const int32_t *ids, const uint8_t *bits,
                        const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *owner,
                        const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out,
                        uint32_t *keys, int32_t *scratch) {
    span *spans = (span *)scratch;
    if (nq == 0 || ntables == 0) {
        return;
    }
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("popcnt")) {
        query_tables_popcnt(slots, offsets, ids, bits, tables, ntables, index, owner, queries, which, nq, bucket_cap,
                            out, keys, spans);
    } else
#endif
    {
        query_tables(slots, offsets, ids, bits, tables, ntables, index, owner, queries, which, nq, bucket_cap, out,
                     keys, spans);
    }
}
