// The sums of the covered-site naming (covered_name.go): over a window's
// visible pixels, the partial correlation of each site face with what
// shows needs Σt, Σt², Σo·t and Σt·m (t the face, o the window, m the mean
// site face), and each turn and shift the window's own Σo, Σo², Σm, Σm²,
// Σo·m. Read along rows of pixels (runs), eight at a time where AVX2 is
// there: each run's sums in single precision, as the Go loops they stand
// for, added up in double precision.

#include "covered_sums.h"

#include <immintrin.h>
#include <math.h>

// upper8 is a vector's upper eight floats (AVX-512F alone has no
// _mm512_extractf32x8_ps, a DQ instruction).
__attribute__((target("avx512f"))) static inline __m256 upper8(__m512 v) {
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

__attribute__((target("avx2,fma"))) static inline double hsum8(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
    return (double)_mm_cvtss_f32(s);
}

// The scalar tails below spell out which products are rounded on their own
// (product1) and which are fused with their addition (fused1), as GCC 12
// compiled window_sums_avx2's tail before it was spelled out (Σo·m fused,
// Σo² and Σm² not), so that window_sums2_avx2 can repeat it exactly
// whatever the compiler contracts.
__attribute__((target("avx2,fma"))) static inline float product1(float a, float b) {
    float p = a * b;
    __asm__("" : "+x"(p));
    return p;
}

__attribute__((target("avx2,fma"))) static inline float fused1(float a, float b, float acc) {
    return _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(acc)));
}

__attribute__((target("avx2,fma"))) static void window_sums_avx2(const float *o, const float *m,
                                                                  const tablecam_pixel_run *runs, int nruns,
                                                                  double *out) {
    double so = 0, soo = 0, sm = 0, smm = 0, som = 0;
    for (int r = 0; r < nruns; r++) {
        const float *a = o + runs[r].win, *b = m + runs[r].face;
        int n = runs[r].n, i = 0;
        __m256 vo = _mm256_setzero_ps(), voo = vo, vm = vo, vmm = vo, vom = vo;
        for (; i + 8 <= n; i += 8) {
            __m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i);
            vo = _mm256_add_ps(vo, x);
            voo = _mm256_fmadd_ps(x, x, voo);
            vm = _mm256_add_ps(vm, y);
            vmm = _mm256_fmadd_ps(y, y, vmm);
            vom = _mm256_fmadd_ps(x, y, vom);
        }
        float to = 0, too = 0, tm = 0, tmm = 0, tom = 0;
        for (; i < n; i++) {
            float x = a[i], y = b[i];
            to += x, too += product1(x, x), tm += y, tmm += product1(y, y), tom = fused1(x, y, tom);
        }
        if (n < 8) {
            // The vector sums are 0: 0 + x is x (the double sum, from +0, takes a −0 tail alike).
            so += to, soo += too, sm += tm, smm += tmm, som += tom;
            continue;
        }
        so += hsum8(vo) + to, soo += hsum8(voo) + too, sm += hsum8(vm) + tm, smm += hsum8(vmm) + tmm;
        som += hsum8(vom) + tom;
    }
    out[0] = so, out[1] = soo, out[2] = sm, out[3] = smm, out[4] = som;
}

static void window_sums_plain(const float *o, const float *m, const tablecam_pixel_run *runs, int nruns,
                              double *out) {
    double so = 0, soo = 0, sm = 0, smm = 0, som = 0;
    for (int r = 0; r < nruns; r++) {
        const float *a = o + runs[r].win, *b = m + runs[r].face;
        float to = 0, too = 0, tm = 0, tmm = 0, tom = 0;
        for (int i = 0; i < runs[r].n; i++) {
            float x = a[i], y = b[i];
            to += x, too += x * x, tm += y, tmm += y * y, tom += x * y;
        }
        so += to, soo += too, sm += tm, smm += tmm, som += tom;
    }
    out[0] = so, out[1] = soo, out[2] = sm, out[3] = smm, out[4] = som;
}

// window_sums2_avx2 is window_sums_avx2 for two mean faces (the two turns)
// at once: the window's own sums, shared, taken once, and each face's with
// the same operations in the same order, so that out[0…4] and out[5…9] are
// window_sums_avx2's for m0 and m1 to the last bit (TestWindowSumsBothTurns).
__attribute__((target("avx2,fma"))) static void window_sums2_avx2(const float *o, const float *m0, const float *m1,
                                                                   const tablecam_pixel_run *runs, int nruns,
                                                                   double *out) {
    double so = 0, soo = 0, sm0 = 0, smm0 = 0, som0 = 0, sm1 = 0, smm1 = 0, som1 = 0;
    for (int r = 0; r < nruns; r++) {
        const float *a = o + runs[r].win, *b = m0 + runs[r].face, *c = m1 + runs[r].face;
        int n = runs[r].n, i = 0;
        if (n < 8) {
            float to = 0, too = 0, tm0 = 0, tmm0 = 0, tom0 = 0, tm1 = 0, tmm1 = 0, tom1 = 0;
            for (; i < n; i++) {
                float x = a[i], y = b[i], z = c[i];
                to += x, too += product1(x, x), tm0 += y, tmm0 += product1(y, y), tom0 = fused1(x, y, tom0);
                tm1 += z, tmm1 += product1(z, z), tom1 = fused1(x, z, tom1);
            }
            so += to, soo += too, sm0 += tm0, smm0 += tmm0, som0 += tom0, sm1 += tm1, smm1 += tmm1, som1 += tom1;
            continue;
        }
        __m256 vo = _mm256_setzero_ps(), voo = vo, vm0 = vo, vmm0 = vo, vom0 = vo, vm1 = vo, vmm1 = vo, vom1 = vo;
        for (; i + 8 <= n; i += 8) {
            __m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i), z = _mm256_loadu_ps(c + i);
            vo = _mm256_add_ps(vo, x);
            voo = _mm256_fmadd_ps(x, x, voo);
            vm0 = _mm256_add_ps(vm0, y);
            vmm0 = _mm256_fmadd_ps(y, y, vmm0);
            vom0 = _mm256_fmadd_ps(x, y, vom0);
            vm1 = _mm256_add_ps(vm1, z);
            vmm1 = _mm256_fmadd_ps(z, z, vmm1);
            vom1 = _mm256_fmadd_ps(x, z, vom1);
        }
        float to = 0, too = 0, tm0 = 0, tmm0 = 0, tom0 = 0, tm1 = 0, tmm1 = 0, tom1 = 0;
        for (; i < n; i++) {
            float x = a[i], y = b[i], z = c[i];
            to += x, too += product1(x, x), tm0 += y, tmm0 += product1(y, y), tom0 = fused1(x, y, tom0);
            tm1 += z, tmm1 += product1(z, z), tom1 = fused1(x, z, tom1);
        }
        so += hsum8(vo) + to, soo += hsum8(voo) + too;
        sm0 += hsum8(vm0) + tm0, smm0 += hsum8(vmm0) + tmm0, som0 += hsum8(vom0) + tom0;
        sm1 += hsum8(vm1) + tm1, smm1 += hsum8(vmm1) + tmm1, som1 += hsum8(vom1) + tom1;
    }
    out[0] = so, out[1] = soo, out[2] = sm0, out[3] = smm0, out[4] = som0;
    out[5] = so, out[6] = soo, out[7] = sm1, out[8] = smm1, out[9] = som1;
}

__attribute__((target("avx2,fma"))) static void face_sums_avx2(const float *o, const float *m, const float *t,
                                                                const tablecam_pixel_run *runs, int nruns,
                                                                double *out) {
    double st = 0, stt = 0, sot = 0, stm = 0;
    for (int r = 0; r < nruns; r++) {
        const float *a = o + runs[r].win, *b = t + runs[r].face, *c = m + runs[r].face;
        int n = runs[r].n, i = 0;
        __m256 vt = _mm256_setzero_ps(), vtt = vt, vot = vt, vtm = vt;
        for (; i + 8 <= n; i += 8) {
            __m256 x = _mm256_loadu_ps(a + i), y = _mm256_loadu_ps(b + i), z = _mm256_loadu_ps(c + i);
            vt = _mm256_add_ps(vt, y);
            vtt = _mm256_fmadd_ps(y, y, vtt);
            vot = _mm256_fmadd_ps(x, y, vot);
            vtm = _mm256_fmadd_ps(y, z, vtm);
        }
        float tt = 0, ttt = 0, tot = 0, ttm = 0;
        for (; i < n; i++) {
            float x = a[i], y = b[i], z = c[i];
            tt += y, ttt += y * y, tot += x * y, ttm += y * z;
        }
        if (n < 8) {
            st += tt, stt += ttt, sot += tot, stm += ttm; // as in window_sums_avx2
            continue;
        }
        st += hsum8(vt) + tt, stt += hsum8(vtt) + ttt, sot += hsum8(vot) + tot, stm += hsum8(vtm) + ttm;
    }
    out[0] = st, out[1] = stt, out[2] = sot, out[3] = stm;
}

static void face_sums_plain(const float *o, const float *m, const float *t, const tablecam_pixel_run *runs,
                            int nruns, double *out) {
    double st = 0, stt = 0, sot = 0, stm = 0;
    for (int r = 0; r < nruns; r++) {
        const float *a = o + runs[r].win, *b = t + runs[r].face, *c = m + runs[r].face;
        float tt = 0, ttt = 0, tot = 0, ttm = 0;
        for (int i = 0; i < runs[r].n; i++) {
            float x = a[i], y = b[i], z = c[i];
            tt += y, ttt += y * y, tot += x * y, ttm += y * z;
        }
        st += tt, stt += ttt, sot += tot, stm += ttm;
    }
    out[0] = st, out[1] = stt, out[2] = sot, out[3] = stm;
}

void tablecam_window_sums(const float *o, const float *m, const tablecam_pixel_run *runs, int nruns, double *out) {
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        window_sums_avx2(o, m, runs, nruns, out);
    } else {
        window_sums_plain(o, m, runs, nruns, out);
    }
}

int tablecam_window_sums2(const float *o, const float *m0, const float *m1, const tablecam_pixel_run *runs, int nruns,
                          double *out) {
    if (!(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
        return 0;
    }
    window_sums2_avx2(o, m0, m1, runs, nruns, out);
    return 1;
}

void tablecam_face_sums(const float *o, const float *m, const float *faces, int64_t stride, const int32_t *which,
                        int nfaces, const tablecam_pixel_run *runs, int nruns, double *out) {
    int simd = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    for (int k = 0; k < nfaces; k++) {
        const float *t = faces + (which ? (int64_t)which[k] : (int64_t)k) * stride;
        if (simd) {
            face_sums_avx2(o, m, t, runs, nruns, out + 4 * k);
        } else {
            face_sums_plain(o, m, t, runs, nruns, out + 4 * k);
        }
    }
}

// product is a·b rounded on its own, as the scalar tails of face_sums_avx2
// round it: the compiler may not fuse it into a following addition.
__attribute__((target("avx512f"))) static inline __m512 product(__m512 a, __m512 b) {
    __m512 p = _mm512_mul_ps(a, b);
    __asm__("" : "+v"(p));
    return p;
}

// The level-1 faces side by side: faces in lanes instead of pixels. Most
// runs beside a unit are shorter than a vector (half of them under eight
// pixels at level 1), so face_sums_avx2 spends its time on scalar tails and
// horizontal sums. Here sixteen faces lie in a vector's lanes, each pixel's
// sixteen values together (tablecam_face_lanes), and every lane repeats one
// face's arithmetic in face_sums_avx2 operation for operation: the vector
// part's eight partial sums (pixels 8j + l), added up as hsum8 adds them,
// the tail's sums pixel by pixel, and each run's sum added in double
// precision, run after run. So the sums are those of face_sums_avx2, to the
// last bit (TestFaceLanesAsFaceSums).
// lane_at is a pixel's sixteen face values: read from floats (lanes), or
// from half-precision floats (packed; the faces' level-1 pixels are
// averages of four bytes, multiples of ¼ up to 255, ten significant bits
// at most: half precision holds them exactly).
__attribute__((target("avx512f"), always_inline)) static inline __m512 lane_at(const float *lanes,
                                                                                const uint16_t *packed, int64_t i) {
    if (packed) {
        return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(packed + i)));
    }
    return _mm512_loadu_ps(lanes + i);
}

// lanes_run adds one run's sums for sixteen faces to acc (Σt, Σt², Σo·t,
// Σt·m, each as two halves of eight lanes in double precision): window
// pixels a, mean face z, pixel i's face values at element i·step of lanes
// or packed.
__attribute__((target("avx512f"), always_inline)) static inline void lanes_run(const float *a, const float *z,
                                                                                const float *lanes,
                                                                                const uint16_t *packed, int64_t step,
                                                                                int n, __m512d acc[4][2]) {
    int nv = n / 8;
    __m512 rt = _mm512_setzero_ps(), rtt = rt, rot = rt, rtm = rt;
    if (nv > 0) {
        // Lane l's partial sums of the vector part, as face_sums_avx2's lane l.
        __m512 pt[8], ptt[8], pot[8], ptm[8];
        for (int l = 0; l < 8; l++) {
            __m512 vt = _mm512_setzero_ps(), vtt = vt, vot = vt, vtm = vt;
            for (int j = 0; j < nv; j++) {
                int i = 8 * j + l;
                __m512 y = lane_at(lanes, packed, step * i), x = _mm512_set1_ps(a[i]), w = _mm512_set1_ps(z[i]);
                vt = _mm512_add_ps(vt, y);
                vtt = _mm512_fmadd_ps(y, y, vtt);
                vot = _mm512_fmadd_ps(x, y, vot);
                vtm = _mm512_fmadd_ps(y, w, vtm);
            }
            pt[l] = vt, ptt[l] = vtt, pot[l] = vot, ptm[l] = vtm;
        }
        // hsum8: ((p0 + p4) + (p2 + p6)) + ((p1 + p5) + (p3 + p7)).
#define TABLECAM_HSUM8(p)                                                                                           \
    _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(p[0], p[4]), _mm512_add_ps(p[2], p[6])),                                \
                  _mm512_add_ps(_mm512_add_ps(p[1], p[5]), _mm512_add_ps(p[3], p[7])))
        rt = TABLECAM_HSUM8(pt), rtt = TABLECAM_HSUM8(ptt), rot = TABLECAM_HSUM8(pot), rtm = TABLECAM_HSUM8(ptm);
#undef TABLECAM_HSUM8
    }
    __m512 tt = _mm512_setzero_ps(), ttt = tt, tot = tt, ttm = tt;
    for (int i = 8 * nv; i < n; i++) {
        __m512 y = lane_at(lanes, packed, step * i), x = _mm512_set1_ps(a[i]), w = _mm512_set1_ps(z[i]);
        tt = _mm512_add_ps(tt, y);
        ttt = _mm512_add_ps(ttt, product(y, y));
        tot = _mm512_add_ps(tot, product(x, y));
        ttm = _mm512_add_ps(ttm, product(y, w));
    }
    // acc += (double)hsum + (double)tail, each half of the lanes; a run
    // shorter than eight pixels has no vector part, and +0 + x is x (a −0
    // tail turned +0 adds to acc, never −0, alike).
#define TABLECAM_ADD_RUN(acc, v, tl)                                                                                \
    for (int h = 0; h < 2; h++) {                                                                                     \
        __m256 vh = h ? upper8(v) : _mm512_castps512_ps256(v);                                                        \
        __m256 th = h ? upper8(tl) : _mm512_castps512_ps256(tl);                                                      \
        acc[h] = _mm512_add_pd(acc[h], nv > 0 ? _mm512_add_pd(_mm512_cvtps_pd(vh), _mm512_cvtps_pd(th))               \
                                              : _mm512_cvtps_pd(th));                                                \
    }
    TABLECAM_ADD_RUN(acc[0], rt, tt)
    TABLECAM_ADD_RUN(acc[1], rtt, ttt)
    TABLECAM_ADD_RUN(acc[2], rot, tot)
    TABLECAM_ADD_RUN(acc[3], rtm, ttm)
#undef TABLECAM_ADD_RUN
}

// lanes_out writes a chunk's sums: out[4f…4f+3] for its face f.
__attribute__((target("avx512f"))) static void lanes_out(__m512d acc[4][2], double *out) {
    double sums[4][16];
    for (int k = 0; k < 4; k++) {
        for (int h = 0; h < 2; h++) {
            _mm512_storeu_pd(&sums[k][8 * h], acc[k][h]);
        }
    }
    for (int f = 0; f < 16; f++) {
        for (int k = 0; k < 4; k++) {
            out[4 * f + k] = sums[k][f];
        }
    }
}

__attribute__((target("avx512f"))) static void face_sums_lanes_avx512(const float *o, const float *m,
                                                                      const float *lanes, int64_t chunk_stride,
                                                                      int nchunks, const tablecam_pixel_run *runs,
                                                                      int nruns, double *out) {
    for (int c = 0; c < nchunks; c++) {
        const float *base = lanes + (int64_t)c * chunk_stride;
        __m512d acc[4][2];
        for (int k = 0; k < 4; k++) {
            acc[k][0] = acc[k][1] = _mm512_setzero_pd();
        }
        for (int r = 0; r < nruns; r++) {
            lanes_run(o + runs[r].win, m + runs[r].face, base + 16 * (int64_t)runs[r].face, 0, 16, runs[r].n, acc);
        }
        lanes_out(acc, out + 64 * (int64_t)c);
    }
}

int tablecam_face_sums_lanes(const float *o, const float *m, const float *lanes, int64_t chunk_stride, int nchunks,
                             const tablecam_pixel_run *runs, int nruns, double *out) {
    if (!__builtin_cpu_supports("avx512f")) {
        return 0;
    }
    face_sums_lanes_avx512(o, m, lanes, chunk_stride, nchunks, runs, nruns, out);
    return 1;
}

// The packed faces are read run by run, every chunk's sums of a run before
// the next run's (up to 32 chunks at a time): a run's values of all chunks
// lie together, read in one stream, half the bytes of floats. Each chunk's
// sums are added run after run as face_sums_lanes_avx512 adds them, so
// they are the same.
__attribute__((target("avx512f"))) static void face_sums_packed_avx512(const float *o, const float *m,
                                                                       const uint16_t *packed, int nchunks,
                                                                       const tablecam_pixel_run *runs, int nruns,
                                                                       double *out) {
    enum { group = 32 };
    __m512d acc[group][4][2];
    int64_t step = 16 * (int64_t)nchunks;
    for (int c0 = 0; c0 < nchunks; c0 += group) {
        int g = nchunks - c0 < group ? nchunks - c0 : group;
        for (int c = 0; c < g; c++) {
            for (int k = 0; k < 4; k++) {
                acc[c][k][0] = acc[c][k][1] = _mm512_setzero_pd();
            }
        }
        for (int r = 0; r < nruns; r++) {
            const uint16_t *t = packed + step * (int64_t)runs[r].face + 16 * (int64_t)c0;
            for (int c = 0; c < g; c++) {
                lanes_run(o + runs[r].win, m + runs[r].face, 0, t + 16 * (int64_t)c, step, runs[r].n, acc[c]);
            }
        }
        for (int c = 0; c < g; c++) {
            lanes_out(acc[c], out + 64 * (int64_t)(c0 + c));
        }
    }
}

int tablecam_face_sums_packed(const float *o, const float *m, const uint16_t *packed, int nchunks,
                              const tablecam_pixel_run *runs, int nruns, double *out) {
    if (!__builtin_cpu_supports("avx512f")) {
        return 0;
    }
    face_sums_packed_avx512(o, m, packed, nchunks, runs, nruns, out);
    return 1;
}

static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

// spread is the spread of an image's levels, 5th to 95th percentile (n > 0).
// edge_pixel gives the vertical and horizontal edge strength (0..1) of
// pixel x of a row (at, between up and down; vy its smoothed vertical
// steps), from the steps base pixels either way; inv is 1 over the
// strength counted as a whole edge. (Every product is by a power of two
// or stands alone, so that where the compiler fuses them the sums are the
// same.)
static inline void edge_pixel(const uint8_t *up, const uint8_t *at, const uint8_t *down, const float *vy, int x, int w,
                              int base, float inv, float *ev, float *eh) {
    int l = clamp(x - base, 0, w - 1), r = clamp(x + base, 0, w - 1);
    float gx = 0.25f * (float)((int)up[r] - (int)up[l]) + 0.5f * (float)((int)at[r] - (int)at[l]) +
               0.25f * (float)((int)down[r] - (int)down[l]);
    float gy = 0.25f * vy[clamp(x - 1, 0, w - 1)] + 0.5f * vy[x] + 0.25f * vy[clamp(x + 1, 0, w - 1)];
    float ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
    float d = ax - ay;
    float v = d > 0 ? d * inv : 0, h = d < 0 ? -d * inv : 0;
    *ev = v < 1 ? v : 1;
    *eh = h < 1 ? h : 1;
}

static int spread(const uint8_t *img, int n) {
    int hist[256] = {0};
    for (int i = 0; i < n; i++) {
        hist[img[i]]++;
    }
    int lo = -1, hi = -1, seen = 0;
    for (int v = 0; v < 256; v++) {
        seen += hist[v];
        if (lo < 0 && seen >= n * 5 / 100) {
            lo = v;
        }
        if (hi < 0 && seen >= n * 95 / 100) {
            hi = v;
        }
    }
    return hi - lo;
}

static void edge_sums_plain(const uint8_t *img, const uint8_t *hidden, int w, int h, int base, double share,
                            float min_step, float *cols, float *rows, float *scratch) {
    float full = (float)(share * (double)spread(img, w * h));
    if (full < min_step) {
        full = min_step;
    }
    float inv = 1 / full;
    float *vy = scratch; // a row's steps down
    for (int x = 0; x < 2 * w; x++) {
        cols[x] = 0;
    }
    for (int y = 0; y < h; y++) {
        const uint8_t *up = img + (int64_t)clamp(y - 1, 0, h - 1) * w, *at = img + (int64_t)y * w,
                      *down = img + (int64_t)clamp(y + 1, 0, h - 1) * w;
        const uint8_t *up2 = img + (int64_t)clamp(y - base, 0, h - 1) * w,
                      *down2 = img + (int64_t)clamp(y + base, 0, h - 1) * w;
        for (int x = 0; x < w; x++) {
            vy[x] = (float)((int)down2[x] - (int)up2[x]);
        }
        const uint8_t *hid = hidden + (int64_t)y * w;
        const float *above = cols + 2 * (int64_t)y * w;
        float *below = cols + 2 * (int64_t)(y + 1) * w;
        float *row = rows + 2 * (int64_t)y * (w + 1);
        float re = 0, rn = 0;
        row[0] = 0, row[1] = 0;
        for (int x = 0; x < w; x++) {
            float ev = 0, eh = 0, n = 0;
            if (hid[x] == 0) {
                edge_pixel(up, at, down, vy, x, w, base, inv, &ev, &eh);
                n = 1;
            }
            below[2 * x] = above[2 * x] + ev;
            below[2 * x + 1] = above[2 * x + 1] + n;
            re += eh, rn += n;
            row[2 * x + 2] = re, row[2 * x + 3] = rn;
        }
    }
}

// edge_sums_avx512 is edge_sums_plain sixteen pixels at a time where a
// pixel's neighbours base pixels either way lie in its row (the pixels
// nearer the left and right borders, which read replicated ones, pixel by
// pixel as there), and with its running sums along the rows taken four rows
// side by side after the whole image's edges: each row's sums still add
// its pixels one after the other, in single precision. The steps are exact
// (bytes' differences, weighed by ¼ and ½, summed), and the strengths one
// rounded product each, so every sum is edge_sums_plain's to the last bit
// (TestEdgeSumsAsPlain). scratch holds w·(2h + 1) floats.
__attribute__((target("avx512f,avx512bw,avx512vl"))) static void edge_sums_avx512(const uint8_t *img, const uint8_t *hidden, int w,
                                                                          int h, int base, double share, float min_step,
                                                                          float *cols, float *rows, float *scratch) {
    float full = (float)(share * (double)spread(img, w * h));
    if (full < min_step) {
        full = min_step;
    }
    float inv = 1 / full;
    float *vy = scratch;                      // a row's steps down
    float *across = scratch + w;              // every pixel's edge running across
    float *seen = scratch + w + (int64_t)w * h; // and 1 where it is visible
    for (int x = 0; x < 2 * w; x++) {
        cols[x] = 0;
    }
    const __m512 quarter = _mm512_set1_ps(0.25f), half = _mm512_set1_ps(0.5f), vinv = _mm512_set1_ps(inv),
                 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1);
    const __m512i pairs_lo = _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0),
                  pairs_hi = _mm512_set_epi32(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8);
    // Pixels x0 ≤ x < x1 read no replicated neighbour.
    int x0 = base > 1 ? base : 1, x1 = w - x0;
    for (int y = 0; y < h; y++) {
        const uint8_t *up = img + (int64_t)clamp(y - 1, 0, h - 1) * w, *at = img + (int64_t)y * w,
                      *down = img + (int64_t)clamp(y + 1, 0, h - 1) * w;
        const uint8_t *up2 = img + (int64_t)clamp(y - base, 0, h - 1) * w,
                      *down2 = img + (int64_t)clamp(y + base, 0, h - 1) * w;
        int i = 0;
        for (; i + 16 <= w; i += 16) {
            __m512i a = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(down2 + i))),
                    b = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(up2 + i)));
            _mm512_storeu_ps(vy + i, _mm512_cvtepi32_ps(_mm512_sub_epi32(a, b)));
        }
        for (; i < w; i++) {
            vy[i] = (float)((int)down2[i] - (int)up2[i]);
        }
        const uint8_t *hid = hidden + (int64_t)y * w;
        const float *above = cols + 2 * (int64_t)y * w;
        float *below = cols + 2 * (int64_t)(y + 1) * w;
        float *eh_row = across + (int64_t)y * w, *n_row = seen + (int64_t)y * w;
        for (int x = 0; x < w;) {
            if (x >= x0 && x < x1 && x1 - x0 >= 16) {
                // Sixteen pixels at once; the last sixteen end at x1,
                // reading some again (to the same values).
                x = x + 16 <= x1 ? x : x1 - 16;
#define TABLECAM_STEP(row) \
    _mm512_sub_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(row + x + base)))), \
                  _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(row + x - base)))))
                __m512 gx = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(quarter, TABLECAM_STEP(up)), _mm512_mul_ps(half, TABLECAM_STEP(at))),
                                          _mm512_mul_ps(quarter, TABLECAM_STEP(down)));
#undef TABLECAM_STEP
                __m512 gy = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(quarter, _mm512_loadu_ps(vy + x - 1)),
                                                        _mm512_mul_ps(half, _mm512_loadu_ps(vy + x))),
                                          _mm512_mul_ps(quarter, _mm512_loadu_ps(vy + x + 1)));
                __m512 d = _mm512_sub_ps(_mm512_abs_ps(gx), _mm512_abs_ps(gy));
                __mmask16 vis = _mm_testn_epi8_mask(_mm_loadu_si128((const __m128i *)(hid + x)),
                                                    _mm_set1_epi8(-1));
                __m512 ev = _mm512_maskz_min_ps(vis, _mm512_mul_ps(_mm512_max_ps(d, zero), vinv), one);
                __m512 eh = _mm512_maskz_min_ps(vis, _mm512_mul_ps(_mm512_max_ps(_mm512_sub_ps(zero, d), zero), vinv), one);
                __m512 n = _mm512_maskz_mov_ps(vis, one);
                _mm512_storeu_ps(eh_row + x, eh);
                _mm512_storeu_ps(n_row + x, n);
                __m512 lo = _mm512_permutex2var_ps(ev, pairs_lo, n), hi = _mm512_permutex2var_ps(ev, pairs_hi, n);
                _mm512_storeu_ps(below + 2 * x, _mm512_add_ps(_mm512_loadu_ps(above + 2 * x), lo));
                _mm512_storeu_ps(below + 2 * x + 16, _mm512_add_ps(_mm512_loadu_ps(above + 2 * x + 16), hi));
                x += 16;
                continue;
            }
            // One pixel, as edge_sums_plain reads it.
            float ev = 0, eh = 0, n = 0;
            if (hid[x] == 0) {
                edge_pixel(up, at, down, vy, x, w, base, inv, &ev, &eh);
                n = 1;
            }
            below[2 * x] = above[2 * x] + ev;
            below[2 * x + 1] = above[2 * x + 1] + n;
            eh_row[x] = eh, n_row[x] = n;
            x++;
        }
    }
    // The running sums along the rows, four rows side by side.
    int y = 0;
    for (; y + 4 <= h; y += 4) {
        // (Sums in variables of their own: kept in registers.)
        float re0 = 0, re1 = 0, re2 = 0, re3 = 0, rn0 = 0, rn1 = 0, rn2 = 0, rn3 = 0;
        float *r0 = rows + 2 * (int64_t)y * (w + 1), *r1 = r0 + 2 * (w + 1), *r2 = r1 + 2 * (w + 1),
              *r3 = r2 + 2 * (w + 1);
        r0[0] = r0[1] = r1[0] = r1[1] = r2[0] = r2[1] = r3[0] = r3[1] = 0;
        const float *e0 = across + (int64_t)y * w, *e1 = e0 + w, *e2 = e1 + w, *e3 = e2 + w;
        const float *n0 = seen + (int64_t)y * w, *n1 = n0 + w, *n2 = n1 + w, *n3 = n2 + w;
        for (int x = 0; x < w; x++) {
            re0 += e0[x], rn0 += n0[x], re1 += e1[x], rn1 += n1[x];
            re2 += e2[x], rn2 += n2[x], re3 += e3[x], rn3 += n3[x];
            r0[2 * x + 2] = re0, r0[2 * x + 3] = rn0, r1[2 * x + 2] = re1, r1[2 * x + 3] = rn1;
            r2[2 * x + 2] = re2, r2[2 * x + 3] = rn2, r3[2 * x + 2] = re3, r3[2 * x + 3] = rn3;
        }
    }
    for (; y < h; y++) {
        float re = 0, rn = 0, *row = rows + 2 * (int64_t)y * (w + 1);
        const float *e = across + (int64_t)y * w, *n = seen + (int64_t)y * w;
        row[0] = 0, row[1] = 0;
        for (int x = 0; x < w; x++) {
            re += e[x], rn += n[x];
            row[2 * x + 2] = re, row[2 * x + 3] = rn;
        }
    }
}

void tablecam_edge_sums(const uint8_t *img, const uint8_t *hidden, int w, int h, int base, double share,
                        float min_step, float *cols, float *rows, float *scratch, int plain) {
    if (!plain && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl")) {
        edge_sums_avx512(img, hidden, w, h, base, share, min_step, cols, rows, scratch);
    } else {
        edge_sums_plain(img, hidden, w, h, base, share, min_step, cols, rows, scratch);
    }
}

static void score_outline_plain(const float *cols, const float *rows, int w, int h, const tablecam_outline_piece *pieces,
                                int npieces, int ix0, int ix1, int iy0, int iy1, int step, double *out) {
    int k = 0;
    for (int iy = iy0; iy <= iy1; iy += step) {
        for (int ix = ix0; ix <= ix1; ix += step) {
            float sum_e = 0, sum_n = 0;
            for (int i = 0; i < npieces; i++) {
                const tablecam_outline_piece *g = &pieces[i];
                float e = 0, n = 0;
                if (g->end >= 0) {
                    int x = g->at + ix, y0 = g->from + iy, y1 = g->to + iy;
                    y0 = y0 > 0 ? y0 : 0;
                    y1 = y1 < h ? y1 : h;
                    if (x >= 0 && x < w && y1 > y0) {
                        const float *a = cols + 2 * ((int64_t)y0 * w + x), *b = cols + 2 * ((int64_t)y1 * w + x);
                        e = b[0] - a[0], n = b[1] - a[1];
                    }
                } else {
                    int y = g->at + iy, x0 = g->from + ix, x1 = g->to + ix;
                    x0 = x0 > 0 ? x0 : 0;
                    x1 = x1 < w ? x1 : w;
                    if (y >= 0 && y < h && x1 > x0) {
                        const float *r = rows + 2 * (int64_t)y * (w + 1);
                        e = r[2 * x1] - r[2 * x0], n = r[2 * x1 + 1] - r[2 * x0 + 1];
                    }
                }
                sum_e += e;
                sum_n += n;
            }
            out[k++] = (double)(sum_e - sum_n / 2);
        }
    }
}

// score_outline_avx512 is score_outline_plain for sixteen placements of a
// row of the grid at once, one in each lane: a piece's sums are gathered
// for all sixteen, a lane whose piece lies off the region adds 0, and each
// lane adds its pieces in their order, in single precision, so that every
// score is score_outline_plain's to the last bit (TestScoreOutlineAsPlain).
__attribute__((target("avx512f"))) static void score_outline_avx512(const float *cols, const float *rows, int w, int h,
                                                                     const tablecam_outline_piece *pieces, int npieces,
                                                                     int ix0, int ix1, int iy0, int iy1, int step,
                                                                     double *out) {
    int nx = (ix1 - ix0) / step + 1;
    const __m512i iota = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i lanes_step = _mm512_mullo_epi32(iota, _mm512_set1_epi32(step)), one = _mm512_set1_epi32(1);
    const __m512i zero_i = _mm512_setzero_si512(), width = _mm512_set1_epi32(w);
    const __m512 half = _mm512_set1_ps(0.5f);
    int k = 0;
    for (int iy = iy0; iy <= iy1; iy += step) {
        for (int kx = 0; kx < nx; kx += 16) {
            int lanes = nx - kx < 16 ? nx - kx : 16;
            __mmask16 live = (__mmask16)((1u << lanes) - 1);
            __m512i ix = _mm512_add_epi32(_mm512_set1_epi32(ix0 + kx * step), lanes_step);
            __m512 sum_e = _mm512_setzero_ps(), sum_n = sum_e;
            for (int i = 0; i < npieces; i++) {
                const tablecam_outline_piece *g = &pieces[i];
                __m512 e, n;
                if (g->end >= 0) {
                    int y0 = g->from + iy, y1 = g->to + iy;
                    y0 = y0 > 0 ? y0 : 0;
                    y1 = y1 < h ? y1 : h;
                    if (y1 <= y0) {
                        continue; // 0 in every lane
                    }
                    __m512i x = _mm512_add_epi32(ix, _mm512_set1_epi32(g->at));
                    __mmask16 in = _mm512_mask_cmpge_epi32_mask(live, x, zero_i) & _mm512_cmplt_epi32_mask(x, width);
                    if (!in) {
                        continue;
                    }
                    __m512i at = _mm512_slli_epi32(x, 1);
                    const float *a = cols + 2 * (int64_t)y0 * w, *b = cols + 2 * (int64_t)y1 * w;
                    __m512 z = _mm512_setzero_ps();
                    e = _mm512_sub_ps(_mm512_mask_i32gather_ps(z, in, at, b, 4), _mm512_mask_i32gather_ps(z, in, at, a, 4));
                    __m512i at1 = _mm512_add_epi32(at, one);
                    n = _mm512_sub_ps(_mm512_mask_i32gather_ps(z, in, at1, b, 4), _mm512_mask_i32gather_ps(z, in, at1, a, 4));
                    e = _mm512_maskz_mov_ps(in, e), n = _mm512_maskz_mov_ps(in, n);
                } else {
                    int y = g->at + iy;
                    if (y < 0 || y >= h) {
                        continue;
                    }
                    __m512i x0 = _mm512_max_epi32(_mm512_add_epi32(ix, _mm512_set1_epi32(g->from)), zero_i);
                    __m512i x1 = _mm512_min_epi32(_mm512_add_epi32(ix, _mm512_set1_epi32(g->to)), width);
                    __mmask16 in = _mm512_mask_cmpgt_epi32_mask(live, x1, x0);
                    if (!in) {
                        continue;
                    }
                    const float *r = rows + 2 * (int64_t)y * (w + 1);
                    __m512i a0 = _mm512_slli_epi32(x0, 1), a1 = _mm512_slli_epi32(x1, 1);
                    __m512 z = _mm512_setzero_ps();
                    e = _mm512_sub_ps(_mm512_mask_i32gather_ps(z, in, a1, r, 4), _mm512_mask_i32gather_ps(z, in, a0, r, 4));
                    n = _mm512_sub_ps(_mm512_mask_i32gather_ps(z, in, _mm512_add_epi32(a1, one), r, 4),
                                      _mm512_mask_i32gather_ps(z, in, _mm512_add_epi32(a0, one), r, 4));
                    e = _mm512_maskz_mov_ps(in, e), n = _mm512_maskz_mov_ps(in, n);
                }
                sum_e = _mm512_add_ps(sum_e, e);
                sum_n = _mm512_add_ps(sum_n, n);
            }
            __m512 sc = _mm512_sub_ps(sum_e, _mm512_mul_ps(sum_n, half)); // sum_n / 2, exactly
            double lo[8], hi[8];
            _mm512_storeu_pd(lo, _mm512_cvtps_pd(_mm512_castps512_ps256(sc)));
            _mm512_storeu_pd(hi, _mm512_cvtps_pd(upper8(sc)));
            for (int l = 0; l < lanes; l++) {
                out[k + kx + l] = l < 8 ? lo[l] : hi[l - 8];
            }
        }
        k += nx;
    }
}

void tablecam_score_outline(const float *cols, const float *rows, int w, int h, const tablecam_outline_piece *pieces,
                            int npieces, int ix0, int ix1, int iy0, int iy1, int step, double *out, int plain) {
    if (!plain && __builtin_cpu_supports("avx512f")) {
        score_outline_avx512(cols, rows, w, h, pieces, npieces, ix0, ix1, iy0, iy1, step, out);
    } else {
        score_outline_plain(cols, rows, w, h, pieces, npieces, ix0, ix1, iy0, iy1, step, out);
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) static int64_t window_pixels_avx512(const uint8_t *grey,
                                                                                          const uint8_t *cover, int64_t n,
                                                                                          float *px, uint8_t *vis) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i g = _mm_loadu_si128((const __m128i *)(grey + i)), c = _mm_loadu_si128((const __m128i *)(cover + i));
        _mm512_storeu_ps(px + i, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(g)));
        _mm_storeu_si128((__m128i *)(vis + i), _mm_maskz_set1_epi8(_mm_testn_epi8_mask(c, c), 1));
    }
    return i;
}

void tablecam_window_pixels(const uint8_t *grey, const uint8_t *cover, int w, int h, float *px, uint8_t *vis) {
    int64_t n = (int64_t)w * h, i = 0;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")) {
        i = window_pixels_avx512(grey, cover, n, px, vis); // the same values, sixteen at a time
    }
    for (; i < n; i++) {
        px[i] = (float)grey[i];
        vis[i] = cover[i] == 0;
    }
}

void tablecam_window_halve(const float *px, const uint8_t *vis, int w, int h, float *half, uint8_t *vis_half) {
    int hw = w / 2, hh = h / 2;
    for (int y = 0; y < hh; y++) {
        const float *a = px + 2 * (int64_t)y * w, *b = a + w;
        const uint8_t *va = vis + 2 * (int64_t)y * w, *vb = va + w;
        float *out = half + (int64_t)y * hw;
        uint8_t *vout = vis_half + (int64_t)y * hw;
        for (int x = 0; x < hw; x++) {
            out[x] = (a[2 * x] + a[2 * x + 1] + b[2 * x] + b[2 * x + 1]) / 4;
            vout[x] = va[2 * x] & va[2 * x + 1] & vb[2 * x] & vb[2 * x + 1];
        }
    }
}

// warp_affine_row_avx512 warps a row of tablecam_warp_affine sixteen pixels
// at a time, as far as every pixel of a group reads its four neighbours
// inside the image (the rest, pixel by pixel there): the same positions,
// weights and sums in 32-bit lanes, each pixel's neighbours gathered as
// two 32-bit words, from x on. It gives where it stopped: the row's end,
// or a group that reads a neighbour off the image.
__attribute__((target("avx512f,avx512bw"))) static int warp_affine_row_avx512(const uint8_t *src, int sw, int sh,
                                                                            int64_t sstep, const int *adelta,
                                                                            const int *bdelta, int x0, int y0,
                                                                            uint8_t *out, int x, int dw) {
    const __m512i vx0 = _mm512_set1_epi32(x0), vy0 = _mm512_set1_epi32(y0), low5 = _mm512_set1_epi32(31),
                  tab = _mm512_set1_epi32(32), half = _mm512_set1_epi32(1 << 14), step = _mm512_set1_epi32((int)sstep),
                  width1 = _mm512_set1_epi32(sw > 1 ? sw - 1 : 0), height1 = _mm512_set1_epi32(sh > 1 ? sh - 1 : 0),
                  bytes = _mm512_set1_epi32(0xff);
    // The last word read (a neighbour's, three bytes on) must lie in the image.
    const int64_t total = sstep * (int64_t)(sh - 1) + sw;
    if (sstep > 0x7fff || total > 0x7fffffff) {
        return 0;
    }
    for (; x + 16 <= dw; x += 16) {
        __m512i X = _mm512_srai_epi32(_mm512_add_epi32(vx0, _mm512_loadu_si512(adelta + x)), 5);
        __m512i Y = _mm512_srai_epi32(_mm512_add_epi32(vy0, _mm512_loadu_si512(bdelta + x)), 5);
        __m512i sx = _mm512_srai_epi32(X, 5), sy = _mm512_srai_epi32(Y, 5);
        __mmask16 in = _mm512_cmplt_epu32_mask(sx, width1) & _mm512_cmplt_epu32_mask(sy, height1);
        if (in != 0xffff) {
            break;
        }
        __m512i at = _mm512_add_epi32(_mm512_mullo_epi32(sy, step), sx);
        if ((int64_t)_mm512_reduce_max_epi32(at) + sstep + 4 > total) {
            break; // a word would reach past the image's end
        }
        __m512i fx = _mm512_and_si512(X, low5), fy = _mm512_and_si512(Y, low5);
        __m512i gx = _mm512_sub_epi32(tab, fx), gy = _mm512_sub_epi32(tab, fy);
        __m512i w0 = _mm512_slli_epi32(_mm512_mullo_epi32(gx, gy), 5), w1 = _mm512_slli_epi32(_mm512_mullo_epi32(fx, gy), 5);
        __m512i w2 = _mm512_slli_epi32(_mm512_mullo_epi32(gx, fy), 5), w3 = _mm512_slli_epi32(_mm512_mullo_epi32(fx, fy), 5);
        __m512i top = _mm512_i32gather_epi32(at, (const void *)src, 1);
        __m512i bot = _mm512_i32gather_epi32(_mm512_add_epi32(at, step), (const void *)src, 1);
        __m512i s00 = _mm512_and_si512(top, bytes), s01 = _mm512_and_si512(_mm512_srli_epi32(top, 8), bytes);
        __m512i s10 = _mm512_and_si512(bot, bytes), s11 = _mm512_and_si512(_mm512_srli_epi32(bot, 8), bytes);
        __m512i v = _mm512_add_epi32(_mm512_add_epi32(_mm512_mullo_epi32(s00, w0), _mm512_mullo_epi32(s01, w1)),
                                     _mm512_add_epi32(_mm512_mullo_epi32(s10, w2), _mm512_mullo_epi32(s11, w3)));
        v = _mm512_srai_epi32(_mm512_add_epi32(v, half), 15);
        _mm_storeu_si128((__m128i *)(out + x), _mm512_cvtusepi32_epi8(v));
    }
    return x;
}

// cv_round is cvRound (saturate_cast<int> of a double): to the nearest,
// halves to even, as the processor rounds by default.
static inline int cv_round(double v) { return (int)lrint(v); }

void tablecam_warp_affine(const uint8_t *src, int sw, int sh, int64_t sstep, const double *m, uint8_t *dst, int dw,
                          int dh, int *delta) {
    // cv::warpAffine's fixed point: positions in 1/1024 pixel (AB_BITS),
    // rounded to 1/32 (INTER_BITS) with a half of that added.
    enum { ab_bits = 10, inter_bits = 5, tab = 1 << inter_bits };
    const int ab_scale = 1 << ab_bits, round_delta = ab_scale / tab / 2;
    int *adelta = delta, *bdelta = delta + dw;
    for (int x = 0; x < dw; x++) {
        adelta[x] = cv_round(m[0] * x * ab_scale);
        bdelta[x] = cv_round(m[3] * x * ab_scale);
    }
    const unsigned width1 = sw > 1 ? (unsigned)(sw - 1) : 0, height1 = sh > 1 ? (unsigned)(sh - 1) : 0;
    const int wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    for (int y = 0; y < dh; y++) {
        const int x0 = cv_round((m[1] * y + m[2]) * ab_scale) + round_delta;
        const int y0 = cv_round((m[4] * y + m[5]) * ab_scale) + round_delta;
        uint8_t *out = dst + (int64_t)y * dw;
        for (int x = 0, vec = 0; x < dw; x++) {
            if (wide && x >= vec) {
                // Sixteen at a time from x on, as far as they can go; the
                // next sixteen one by one, below, when that stops short.
                x = warp_affine_row_avx512(src, sw, sh, sstep, adelta, bdelta, x0, y0, out, x, dw);
                vec = x + 16;
                if (x >= dw) {
                    break;
                }
            }
            const int X = (x0 + adelta[x]) >> (ab_bits - inter_bits), Y = (y0 + bdelta[x]) >> (ab_bits - inter_bits);
            int sx = X >> inter_bits, sy = Y >> inter_bits;
            sx = sx < -32768 ? -32768 : sx > 32767 ? 32767 : sx; // saturate_cast<short>
            sy = sy < -32768 ? -32768 : sy > 32767 ? 32767 : sy;
            const int fx = X & (tab - 1), fy = Y & (tab - 1);
            // The bilinear weights in 1/32768 (INTER_REMAP_COEF_BITS):
            // products of multiples of 1/32, exact. (OpenCV's table holds
            // 32767 and a 1 for fx = fy = 0, where 32768 does not fit a
            // short: the sum rounds the same, its remainder lying half way.)
            const int w0 = (tab - fx) * (tab - fy) * 32, w1 = fx * (tab - fy) * 32, w2 = (tab - fx) * fy * 32,
                      w3 = fx * fy * 32;
            int v;
            if ((unsigned)sx < width1 && (unsigned)sy < height1) {
                const uint8_t *s0 = src + (int64_t)sy * sstep + sx;
                v = s0[0] * w0 + s0[1] * w1 + s0[sstep] * w2 + s0[sstep + 1] * w3;
            } else if (sx >= sw || sx + 1 < 0 || sy >= sh || sy + 1 < 0) {
                out[x] = 0; // the border's constant
                continue;
            } else {
                // A neighbour off the image reads the border's 0.
                const int in0x = sx >= 0, in1x = sx + 1 < sw, in0y = sy >= 0, in1y = sy + 1 < sh;
                const int v0 = in0x && in0y ? src[(int64_t)sy * sstep + sx] : 0;
                const int v1 = in1x && in0y ? src[(int64_t)sy * sstep + sx + 1] : 0;
                const int v2 = in0x && in1y ? src[(int64_t)(sy + 1) * sstep + sx] : 0;
                const int v3 = in1x && in1y ? src[(int64_t)(sy + 1) * sstep + sx + 1] : 0;
                v = v0 * w0 + v1 * w1 + v2 * w2 + v3 * w3;
            }
            v = (v + (1 << 14)) >> 15;
            out[x] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    }
}
