#ifndef TABLECAM_LSH_H
#define TABLECAM_LSH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// One hash table of an lshIndex, as offsets into the index's flat arrays.
// Its slots are a tree's: a slot < 0 is ~(the first slot of a child node),
// one >= 0 a bucket, as where its descriptor ids lie in the table's ids:
// the first one's place << 5 | their count.
typedef struct {
    int64_t slots, ids, bits; // where its parts begin
    int32_t root_bits;                 // key bits read by the root node
    int32_t split_bits;                // key bits read by each child node
    // root_mask marks the root key's bits in each word of a descriptor:
    // the key is the marked bits of word 0, then of word 1, and so on.
    uint64_t root_mask[4];
} tablecam_lsh_table;

// The nearest indexed descriptor to one query (id −1: none) and the
// distance to the nearest on any other reference (256: none).
typedef struct {
    int32_t id, ref, dist, second;
} tablecam_nearest;

// tablecam_lsh_query offers each of queries[which[q]] the indexed
// descriptors sharing a bucket with it in the tables given (a table's
// entry is a descriptor's reference r << local_bits | its place among r's
// descriptors, which begin at starts[r]), keeping the
// nearest in out[q] (which holds what earlier tables found, or none); keys
// and scratch hold nq and 2nq numbers. portable, when not 0, keeps to the
// code any processor runs (the fast code finds the same).
void tablecam_lsh_query(const int32_t *slots, const int32_t *ids, const uint8_t *bits,
                        const tablecam_lsh_table *tables, int ntables, const uint64_t *index, const int32_t *starts,
                        int local_bits, const uint64_t *queries, const int32_t *which, int nq, int bucket_cap, tablecam_nearest *out,
                        uint32_t *keys, int32_t *scratch, int portable);

#ifdef __cplusplus
}
#endif

#endif
