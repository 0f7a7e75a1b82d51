// RANSAC's draws of a similarity, weighed (see ransacSimilarity in
// similarity.go). Nearly all of a fit's time is in counting, for each
// draw, the pairs it maps near their top-down points; with AVX-512 eight
// pairs are counted at a time. Every product and sum is rounded on its own,
// in the order the Go code writes it (no fused multiply-adds), so that each
// draw counts what the Go code would count (TestRansacDrawsPortable).

#include "ransac.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#ifdef __clang__
#pragma clang fp contract(off)
#endif
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

// count_above counts the pairs (the columns rx, ry, fx, fy) that the
// similarity maps within sqrt(t2) of their top-down points, when that is
// above least; least or less otherwise: it stops once the pairs left
// cannot lift the count above least.
static int count_above(const double *rx, const double *ry, const double *fx, const double *fy, int n, double a,
                       double b, double tx, double ty, double t2, int least) {
    int c = 0;
    for (int i = 0; i < n; i++) {
        if (c + n - i <= least) {
            return c;
        }
        double x = a * rx[i] - b * ry[i] + tx, y = b * rx[i] + a * ry[i] + ty;
        if ((x - fx[i]) * (x - fx[i]) + (y - fy[i]) * (y - fy[i]) <= t2) {
            c++;
        }
    }
    return c;
}

#if defined(__x86_64__)
// count_above_avx512 is count_above eight pairs at a time (it looks at
// whether to stop every eight: it returns least or less all the same).
__attribute__((target("avx512f"))) static int count_above_avx512(const double *rx, const double *ry, const double *fx,
                                                                  const double *fy, int n, double a, double b,
                                                                  double tx, double ty, double t2, int least) {
    const __m512d va = _mm512_set1_pd(a), vb = _mm512_set1_pd(b), vtx = _mm512_set1_pd(tx),
                  vty = _mm512_set1_pd(ty), vt2 = _mm512_set1_pd(t2);
    int c = 0;
    for (int i = 0; i < n; i += 8) {
        if (c + n - i <= least) {
            return c;
        }
        __mmask8 m = n - i >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (n - i)) - 1);
        __m512d x0 = _mm512_maskz_loadu_pd(m, rx + i), y0 = _mm512_maskz_loadu_pd(m, ry + i);
        __m512d x = _mm512_add_pd(_mm512_sub_pd(_mm512_mul_pd(va, x0), _mm512_mul_pd(vb, y0)), vtx);
        __m512d y = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(vb, x0), _mm512_mul_pd(va, y0)), vty);
        __m512d ex = _mm512_sub_pd(x, _mm512_maskz_loadu_pd(m, fx + i));
        __m512d ey = _mm512_sub_pd(y, _mm512_maskz_loadu_pd(m, fy + i));
        __m512d d = _mm512_add_pd(_mm512_mul_pd(ex, ex), _mm512_mul_pd(ey, ey));
        c += __builtin_popcount(_mm512_mask_cmp_pd_mask(m, d, vt2, _CMP_LE_OQ));
    }
    return c;
}
#endif

int tablecam_ransac_draws(const double *pairs, int n, const int32_t *draws, int ndraws, double t2, double min_s2,
                          double max_s2, double *best, double *soa, int portable) {
    double *rx = soa, *ry = soa + n, *fx = soa + 2 * n, *fy = soa + 3 * n;
    for (int i = 0; i < n; i++) {
        rx[i] = pairs[4 * i];
        ry[i] = pairs[4 * i + 1];
        fx[i] = pairs[4 * i + 2];
        fy[i] = pairs[4 * i + 3];
    }
    int wide = 0;
#if defined(__x86_64__)
    wide = !portable && __builtin_cpu_supports("avx512f");
#endif
    int best_n = 0;
    for (int k = 0; k < ndraws; k++) {
        int i = draws[2 * k], j = draws[2 * k + 1];
        // The similarity through pairs i and j (similarityFrom2).
        double dx = rx[j] - rx[i], dy = ry[j] - ry[i];
        double ex = fx[j] - fx[i], ey = fy[j] - fy[i];
        double d = dx * dx + dy * dy;
        if (d < 1e-6) {
            continue;
        }
        double a = (dx * ex + dy * ey) / d;
        double b = (dx * ey - dy * ex) / d;
        double s2 = a * a + b * b;
        if (s2 < min_s2 || s2 > max_s2) {
            continue;
        }
        double tx = fx[i] - (a * rx[i] - b * ry[i]), ty = fy[i] - (b * rx[i] + a * ry[i]);
        int c;
#if defined(__x86_64__)
        if (wide) {
            c = count_above_avx512(rx, ry, fx, fy, n, a, b, tx, ty, t2, best_n);
        } else
#endif
        {
            c = count_above(rx, ry, fx, fy, n, a, b, tx, ty, t2, best_n);
        }
        if (c > best_n) {
            best_n = c;
            best[0] = a;
            best[1] = b;
            best[2] = tx;
            best[3] = ty;
        }
    }
    return best_n;
}

#pragma GCC pop_options
