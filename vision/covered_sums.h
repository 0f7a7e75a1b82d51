#ifndef TABLECAM_COVERED_SUMS_H
#define TABLECAM_COVERED_SUMS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A row's stretch of n pixel pairs: window pixels from win on, face
// pixels from face on (pixelRun in covered_name.go).
typedef struct {
    int32_t win, face, n;
} tablecam_pixel_run;

// tablecam_window_sums sums, over the runs, the window's pixels o and the
// mean face's m: out = Σo, Σo², Σm, Σm², Σo·m.
void tablecam_window_sums(const float *o, const float *m, const tablecam_pixel_run *runs, int nruns, double *out);

// tablecam_window_sums2 is tablecam_window_sums for two mean faces at once
// (out[0…4] for m0, out[5…9] for m1), the same sums to the last bit; it
// returns 0, and sums nothing, where the processor lacks AVX2 and FMA.
int tablecam_window_sums2(const float *o, const float *m0, const float *m1, const tablecam_pixel_run *runs, int nruns,
                          double *out);

// tablecam_face_sums sums, over the runs, for each of nfaces faces (face k's
// pixels begin at faces + which[k]*stride, or k*stride when which is
// null): out[4k…4k+3] = Σt, Σt², Σo·t, Σt·m.
void tablecam_face_sums(const float *o, const float *m, const float *faces, int64_t stride, const int32_t *which,
                        int nfaces, const tablecam_pixel_run *runs, int nruns, double *out);

// tablecam_face_sums_lanes is tablecam_face_sums for every face of
// nchunks chunks of sixteen, each chunk's faces side by side
// (tablecam_face_lanes; chunk c from lanes + c·chunk_stride on): out[4f…4f+3]
// for face f of them all (padding lanes included), the same sums to the last
// bit as tablecam_face_sums gives with AVX2. It returns 0, and sums nothing,
// where the processor lacks AVX-512.
int tablecam_face_sums_lanes(const float *o, const float *m, const float *lanes, int64_t chunk_stride, int nchunks,
                             const tablecam_pixel_run *runs, int nruns, double *out);

// tablecam_face_sums_packed is tablecam_face_sums_lanes for every face of
// nchunks chunks packed: pixel p's sixteen values of chunk c at
// packed + 16(p·nchunks + c), in IEEE half precision (which holds the
// faces' level-1 pixels, multiples of ¼ up to 255, exactly); the same sums
// to the last bit. It returns 0, and sums nothing, where the processor
// lacks AVX-512.
int tablecam_face_sums_packed(const float *o, const float *m, const uint16_t *packed, int nchunks,
                              const tablecam_pixel_run *runs, int nruns, double *out);

// tablecam_edge_sums reads the edges of a w × h grey image (edgeSums.read
// in covered_place.go) where hidden is zero. The image's grey steps across
// (dx: the level base pixels right less base pixels left, smoothed down by
// ¼ ½ ¼) and down (dy: the same turned), borders replicated, give a pixel's edge
// running down, min(max(|dx|−|dy|, 0)/full, 1), and across, min(max(|dy|−
// |dx|, 0)/full, 1), where full is share times the spread of the image's
// levels (5th to 95th percentile), at least min_step; a visible pixel counts
// 1. cols[2(y·w+x)] and the next value are the sums of column x's first y
// pixels ((h+1)·w pairs), rows[2(y(w+1)+x)] and the next those of row y's
// first x pixels (h·(w+1) pairs). scratch holds w·(2h + 1) floats. Where
// the processor has AVX-512 and plain is 0, sixteen pixels at a time, to
// the same sums.
void tablecam_edge_sums(const uint8_t *img, const uint8_t *hidden, int w, int h, int base, double share,
                        float min_step, float *cols, float *rows, float *scratch, int plain);

// tablecam_window_pixels reads a site window's grey bytes (w × h) into px
// as floats, and marks vis 1 where cover is zero, else 0.
void tablecam_window_pixels(const uint8_t *grey, const uint8_t *cover, int w, int h, float *px, uint8_t *vis);

// tablecam_window_halve averages px's 2×2 blocks (w × h, an odd last row or
// column dropped) into half, and marks vis_half 1 where all four of a
// block's pixels are visible (vis).
void tablecam_window_halve(const float *px, const uint8_t *vis, int w, int h, float *half, uint8_t *vis_half);

// A piece of a site's outline (outlinePiece in covered_place.go): along
// column at, rows from ≤ y < to, when end ≥ 0; else along row at, columns
// from ≤ x < to.
typedef struct {
    int32_t at, from, to;
    int8_t end, stub, side, pad;
} tablecam_outline_piece;

// tablecam_score_outline scores an outline's placements moved by (ix, iy)
// for ix0 ≤ ix ≤ ix1 and iy0 ≤ iy ≤ iy1 in steps of step, row by row of
// placements, into out: Σe − Σn/2 over its pieces (edgeSums.score), read
// from the sums of tablecam_edge_sums of a w × h region.
// Where the processor has AVX-512 and plain is 0, sixteen placements at a
// time, to the same scores.
void tablecam_score_outline(const float *cols, const float *rows, int w, int h, const tablecam_outline_piece *pieces,
                            int npieces, int ix0, int ix1, int iy0, int iy1, int step, double *out, int plain);

// tablecam_warp_affine writes cv::warpAffine(src, dst, m, (dw, dh),
// INTER_LINEAR | WARP_INVERSE_MAP, BORDER_CONSTANT, 0) of a grey image (sw ×
// sh, rows sstep bytes apart) to dst (dw × dh, rows dw bytes apart): the
// same fixed point, the same bytes. delta holds 2·dw ints.
void tablecam_warp_affine(const uint8_t *src, int sw, int sh, int64_t sstep, const double *m, uint8_t *dst, int dw,
                          int dh, int *delta);

#ifdef __cplusplus
}
#endif

#endif
