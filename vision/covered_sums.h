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

// tablecam_face_sums sums, over the runs, for each of nfaces faces (face k's
// pixels begin at faces + which[k]*stride, or k*stride when which is
// null): out[4k…4k+3] = Σt, Σt², Σo·t, Σt·m.
void tablecam_face_sums(const float *o, const float *m, const float *faces, int64_t stride, const int32_t *which,
                        int nfaces, const tablecam_pixel_run *runs, int nruns, double *out);

// tablecam_edge_sums reads a region's edges (edgeSums.read in
// covered_place.go) from its smoothed grey steps across (dx) and down (dy),
// w × h values, where hidden is zero: a pixel's edge running down is
// min(max(|dx|−|dy|, 0)·inv, 1), across min(max(|dy|−|dx|, 0)·inv, 1),
// and it counts 1 when visible. cols[2((y·w)+x)] and the next value are the
// sums of column x's first y pixels ((h+1)·w pairs), rows[2(y(w+1)+x)] and
// the next those of row y's first x pixels (h·(w+1) pairs).
void tablecam_edge_sums(const float *dx, const float *dy, const uint8_t *hidden, int w, int h, float inv, float *cols,
                        float *rows);

#ifdef __cplusplus
}
#endif

#endif
