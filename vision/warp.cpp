// A perspective warp of 8-bit images: cv::warpPerspective's bilinear
// sampling (fixed-point maps with 1/32 pixel steps, cv::remap), with the
// source positions computed in single precision, eight pixels at a time (grey ones sixteen with AVX-512).
// OpenCV computes them in double precision one or two at a time, which
// costs more than the sampling itself; single precision is exact to a
// thousandth of a pixel over a camera frame, far below the 1/32 step.

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <immintrin.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include "warp.h"

namespace {

// Remap's fixed point: positions in 1/32 pixel.
const int interBits = 5;
const int interSize = 1 << interBits;

// outside is a position far outside any image, given to top-down pixels
// whose ray misses the camera image plane (at or behind the horizon).
const float outside = -(float)(1 << 20);

// clampFixed keeps positions (in 1/32 pixel) where their integer part fits a short.
inline float clampFixed(float v) { return std::min(std::max(v, -(float)(1 << 20)), (float)((1 << 20) - 1)); }

// RowMap is the inverse map along one top-down row: the source position of
// pixel x is ((x0 + m0·x)/w, (y0 + m3·x)/w) with w = w0 + m6·x, in single
// precision.
struct RowMap {
    float m0, m3, m6, x0, y0, w0;
    RowMap(const double *m, int row)
        : m0((float)m[0]), m3((float)m[3]), m6((float)m[6]),
          x0((float)(m[1] * row + m[2])), y0((float)(m[4] * row + m[5])), w0((float)(m[7] * row + m[8])) {}
};

// RowLanes is a RowMap eight pixels at a time: lanes gives, for the pixels
// x..x+7, w and the numerators of their source positions, with the same
// float arithmetic as the one-pixel paths (the compiler must not contract
// it into fused multiply-adds, hence no "fma" target).
struct RowLanes {
    __m256 vm0, vm3, vm6, vx0, vy0, vw0, step;
    __attribute__((target("avx2"))) explicit RowLanes(const RowMap &r)
        : vm0(_mm256_set1_ps(r.m0)), vm3(_mm256_set1_ps(r.m3)), vm6(_mm256_set1_ps(r.m6)),
          vx0(_mm256_set1_ps(r.x0)), vy0(_mm256_set1_ps(r.y0)), vw0(_mm256_set1_ps(r.w0)),
          step(_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)) {}
    __attribute__((target("avx2"))) inline void lanes(int x, __m256 &w, __m256 &nx, __m256 &ny) const {
        __m256 xs = _mm256_add_ps(_mm256_set1_ps((float)x), step);
        w = _mm256_add_ps(vw0, _mm256_mul_ps(vm6, xs));
        nx = _mm256_add_ps(vx0, _mm256_mul_ps(vm0, xs));
        ny = _mm256_add_ps(vy0, _mm256_mul_ps(vm3, xs));
    }
    // positions gives, for the pixels x..x+7, w and their source positions.
    __attribute__((target("avx2"))) inline void positions(int x, __m256 &w, __m256 &fx, __m256 &fy) const {
        __m256 nx, ny;
        lanes(x, w, nx, ny);
        const __m256 inv = _mm256_div_ps(_mm256_set1_ps(1), w);
        fx = _mm256_mul_ps(nx, inv);
        fy = _mm256_mul_ps(ny, inv);
    }
};

// positions writes the fixed-point source positions of the pixels from..n
// of one row: xy the integer parts (short pairs), frac the fractions
// (y*32+x).
void positions(const double *m, int row, int from, int n, short *xy, ushort *frac) {
    const RowMap r(m, row);
    for (int x = from; x < n; x++) {
        float xs = (float)x;
        float w = r.w0 + r.m6 * xs, fx = outside, fy = outside;
        if (w > 0) {
            float s = (float)interSize / w;
            fx = clampFixed((r.x0 + r.m0 * xs) * s);
            fy = clampFixed((r.y0 + r.m3 * xs) * s);
        }
        int X = cvRound(fx), Y = cvRound(fy);
        xy[2 * x] = (short)(X >> interBits);
        xy[2 * x + 1] = (short)(Y >> interBits);
        frac[x] = (ushort)((Y & (interSize - 1)) * interSize + (X & (interSize - 1)));
    }
}

// positionsAVX2 is positions eight pixels at a time, with the same float
// arithmetic (the compiler must not contract it into fused multiply-adds,
// hence no "fma" target).
__attribute__((target("avx2"))) void positionsAVX2(const double *m, int row, int n, short *xy, ushort *frac) {
    const RowLanes lanes{RowMap(m, row)};
    const __m256 size = _mm256_set1_ps((float)interSize), zero = _mm256_setzero_ps();
    const __m256 lo = _mm256_set1_ps(-(float)(1 << 20)), hi = _mm256_set1_ps((float)((1 << 20) - 1));
    const __m256 far = _mm256_set1_ps(outside);
    const __m256i fracMask = _mm256_set1_epi32(interSize - 1), lowHalf = _mm256_set1_epi32(0xffff);
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256 w, nx, ny;
        lanes.lanes(x, w, nx, ny);
        __m256 front = _mm256_cmp_ps(w, zero, _CMP_GT_OQ);
        __m256 s = _mm256_div_ps(size, w);
        __m256 fx = _mm256_mul_ps(nx, s);
        __m256 fy = _mm256_mul_ps(ny, s);
        fx = _mm256_blendv_ps(far, _mm256_min_ps(_mm256_max_ps(fx, lo), hi), front);
        fy = _mm256_blendv_ps(far, _mm256_min_ps(_mm256_max_ps(fy, lo), hi), front);
        __m256i X = _mm256_cvtps_epi32(fx), Y = _mm256_cvtps_epi32(fy);
        __m256i ix = _mm256_and_si256(_mm256_srai_epi32(X, interBits), lowHalf);
        __m256i iy = _mm256_slli_epi32(_mm256_srai_epi32(Y, interBits), 16);
        _mm256_storeu_si256((__m256i *)(xy + 2 * x), _mm256_or_si256(ix, iy));
        __m256i f = _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(Y, fracMask), interBits), _mm256_and_si256(X, fracMask));
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(f, f), 0xD8);
        _mm_storeu_si128((__m128i *)(frac + x), _mm256_castsi256_si128(packed));
    }
    positions(m, row, x, n, xy, frac); // the row's last pixels
}


// loads reads eight unaligned 32-bit words at byte offsets from base. Plain
// loads: AVX2's gather instruction is slower on some processors (those with
// its microcode mitigation, and virtual ones) than the eight loads.
__attribute__((target("avx2"))) inline __m256i loads(const uchar *base, __m256i offsets) {
    alignas(32) int off[8];
    _mm256_store_si256((__m256i *)off, offsets);
    int w[8];
    for (int i = 0; i < 8; i++)
        std::memcpy(&w[i], base + off[i], 4);
    return _mm256_setr_epi32(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
}

// anyInside marks the lanes whose position has a neighbour inside src
// (-1 < x < cols, -1 < y < rows), in front of the horizon (w > 0).
__attribute__((target("avx2"))) inline __m256 anyInside(__m256 w, __m256 fx, __m256 fy, __m256 cols, __m256 rows) {
    const __m256 zero = _mm256_setzero_ps(), minusOne = _mm256_set1_ps(-1);
    __m256 in = _mm256_and_ps(_mm256_cmp_ps(w, zero, _CMP_GT_OQ), _mm256_and_ps(_mm256_cmp_ps(fx, minusOne, _CMP_GT_OQ), _mm256_cmp_ps(fx, cols, _CMP_LT_OQ)));
    return _mm256_and_ps(in, _mm256_and_ps(_mm256_cmp_ps(fy, minusOne, _CMP_GT_OQ), _mm256_cmp_ps(fy, rows, _CMP_LT_OQ)));
}

// grayRow samples the pixels from..n of one row of a one-channel warp:
// bilinear, black outside src.
void grayRow(const cv::Mat &src, const double *m, int row, int from, int n, uchar *out) {
    const RowMap r(m, row);
    const int cols = src.cols, rows = src.rows;
    for (int x = from; x < n; x++) {
        float xs = (float)x;
        float w = r.w0 + r.m6 * xs;
        if (!(w > 0)) {
            out[x] = 0;
            continue;
        }
        float inv = 1.f / w;
        float fx = (r.x0 + r.m0 * xs) * inv, fy = (r.y0 + r.m3 * xs) * inv;
        if (!(fx > -1 && fx < cols && fy > -1 && fy < rows)) {
            out[x] = 0;
            continue;
        }
        float flx = std::floor(fx), fly = std::floor(fy);
        int ix = (int)flx, iy = (int)fly;
        float ax = fx - flx, ay = fy - fly;
        auto at = [&](int cx, int cy) -> float {
            return (cx >= 0 && cx < cols && cy >= 0 && cy < rows) ? (float)src.ptr<uchar>(cy)[cx] : 0.f;
        };
        float top = at(ix, iy) + ax * (at(ix + 1, iy) - at(ix, iy));
        float bottom = at(ix, iy + 1) + ax * (at(ix + 1, iy + 1) - at(ix, iy + 1));
        out[x] = cv::saturate_cast<uchar>(top + ay * (bottom - top));
    }
}

// grayRowAVX2 is grayRow eight pixels at a time where all eight and their
// neighbours lie inside src, with the same float arithmetic.
__attribute__((target("avx2"))) void grayRowAVX2(const cv::Mat &src, const double *m, int row, int n, uchar *out) {
    const RowLanes lanes{RowMap(m, row)};
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    // Eight pixels take the fast way when every one's four neighbours are
    // inside src and the 4-byte loads stay inside it: 0 ≤ x ≤ cols-4 and
    // 0 ≤ y ≤ rows-2.
    const __m256 xmax = _mm256_set1_ps((float)(src.cols - 4)), ymax = _mm256_set1_ps((float)(src.rows - 2));
    const __m256i vstep = _mm256_set1_epi32((int)src.step), byte = _mm256_set1_epi32(0xff);
    const uchar *base = src.data;
    const __m256 cols = _mm256_set1_ps((float)src.cols), rows = _mm256_set1_ps((float)src.rows);
    int x = 0;
    // Each group's positions are worked out a group ahead (see grayRowVBMI).
    __m256 nextW, nextX, nextY;
    lanes.positions(0, nextW, nextX, nextY);
    while (x + 8 <= n) {
        const __m256 w = nextW, fx = nextX, fy = nextY;
        lanes.positions(x + 8, nextW, nextX, nextY);
        __m256 flx = _mm256_floor_ps(fx), fly = _mm256_floor_ps(fy);
        __m256 ok = _mm256_and_ps(_mm256_cmp_ps(w, zero, _CMP_GT_OQ),
                                  _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(flx, zero, _CMP_GE_OQ), _mm256_cmp_ps(flx, xmax, _CMP_LE_OQ)),
                                                _mm256_and_ps(_mm256_cmp_ps(fly, zero, _CMP_GE_OQ), _mm256_cmp_ps(fly, ymax, _CMP_LE_OQ))));
        if (_mm256_movemask_ps(ok) != 0xff) {
            if (_mm256_movemask_ps(anyInside(w, fx, fy, cols, rows)) == 0)
            std::memset(out + x, 0, 8); // all eight outside src: black
            else
                grayRow(src, m, row, x, x + 8, out);
            x += 8;
            continue;
        }
        __m256i ix = _mm256_cvttps_epi32(flx), iy = _mm256_cvttps_epi32(fly);
        __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(iy, vstep), ix);
        __m256i upper = loads(base, off);
        __m256i lower = loads(base, _mm256_add_epi32(off, vstep));
        __m256 p00 = _mm256_cvtepi32_ps(_mm256_and_si256(upper, byte));
        __m256 p01 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(upper, 8), byte));
        __m256 p10 = _mm256_cvtepi32_ps(_mm256_and_si256(lower, byte));
        __m256 p11 = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(lower, 8), byte));
        __m256 ax = _mm256_sub_ps(fx, flx), ay = _mm256_sub_ps(fy, fly);
        __m256 top = _mm256_add_ps(p00, _mm256_mul_ps(ax, _mm256_sub_ps(p01, p00)));
        __m256 bottom = _mm256_add_ps(p10, _mm256_mul_ps(ax, _mm256_sub_ps(p11, p10)));
        __m256 v = _mm256_add_ps(top, _mm256_mul_ps(ay, _mm256_sub_ps(bottom, top)));
        __m256i vi = _mm256_cvtps_epi32(v); // 0..255 already
        __m256i packed = _mm256_packus_epi32(vi, vi);          // 16-bit, lanes [0..3,0..3 | 4..7,4..7]
        packed = _mm256_packus_epi16(packed, packed);            // 8-bit
        __m128i bytes = _mm_unpacklo_epi32(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
        _mm_storel_epi64((__m128i *)(out + x), bytes);
        x += 8;
    }
    grayRow(src, m, row, x, n, out);
}

// With AVX-512, sixteen pixels at a time, and without a load per pixel:
// the top-down view magnifies the camera frame a little, so sixteen
// neighbouring pixels of a row sample a small window of the frame, a few
// rows high and less than 64 bytes wide. The window's rows are 64-byte
// loads, and each pixel's four neighbours are picked out of them with a byte
// permute (VBMI) per pair of rows: four rows for most groups; five, zeros outside the
// frame, for groups at the frame's edge and those whose rows slope more
// (so that these take the same way). Groups whose window is larger (a
// frame turned far from the view's rows) take a load per pixel and row
// when all sixteen lie inside the frame, else the one-pixel path; groups
// wholly outside the frame are black.

// RowLanes16 is a RowMap sixteen pixels at a time: positions gives, for
// the pixels x..x+15, w and their source positions, with the one-pixel
// paths' float arithmetic, explicitly rounded so that it cannot be fused.
struct RowLanes16 {
    __m512 vm0, vm3, vm6, vx0, vy0, vw0, step;
    __attribute__((target("avx512f"))) explicit RowLanes16(const RowMap &r)
        : vm0(_mm512_set1_ps(r.m0)), vm3(_mm512_set1_ps(r.m3)), vm6(_mm512_set1_ps(r.m6)),
          vx0(_mm512_set1_ps(r.x0)), vy0(_mm512_set1_ps(r.y0)), vw0(_mm512_set1_ps(r.w0)),
          step(_mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)) {}
    __attribute__((target("avx512f"))) inline void positions(int x, __m512 &w, __m512 &fx, __m512 &fy) const {
        const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
        const __m512 xs = _mm512_add_round_ps(_mm512_set1_ps((float)x), step, rn);
        w = _mm512_add_round_ps(vw0, _mm512_mul_round_ps(vm6, xs, rn), rn);
        const __m512 nx = _mm512_add_round_ps(vx0, _mm512_mul_round_ps(vm0, xs, rn), rn);
        const __m512 ny = _mm512_add_round_ps(vy0, _mm512_mul_round_ps(vm3, xs, rn), rn);
        const __m512 inv = _mm512_div_round_ps(_mm512_set1_ps(1), w, rn);
        fx = _mm512_mul_round_ps(nx, inv, rn);
        fy = _mm512_mul_round_ps(ny, inv, rn);
    }
};

// windowRows is the number of rows of a grayRowVBMI window: a pixel's upper
// neighbours lie on its first four.
const int windowRows = 5;

// neighbours16 gives, for 16 lanes, the four neighbours of column dx
// (0..62) of window row dy (0..pairs-1) of the rows w[0..pairs]: p00, p01
// on row dy, p10, p11 on the row below. One permute per pair of rows picks
// all four at once, as the bytes of a lane: dx and dx + 1 of the pair's
// first row and (64 on) of its second.
template <int pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline void neighbours16(const __m512i *w, __m512i dx, __m512i dy, __m512 &p00, __m512 &p01,
                                                                               __m512 &p10, __m512 &p11) {
    // The lane's bytes: dx, dx + 64, dx + 1, dx + 65 (dx < 256: no carries).
    const __m512i twice = _mm512_or_si512(dx, _mm512_slli_epi32(dx, 8));
    const __m512i at = _mm512_add_epi32(_mm512_or_si512(twice, _mm512_slli_epi32(twice, 16)), _mm512_set1_epi32(0x41014000));
    __m512i v = _mm512_permutex2var_epi8(w[0], at, w[1]);
#pragma GCC unroll 4
    for (int k = 1; k < pairs; k++)
        v = _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(dy, _mm512_set1_epi32(k)), _mm512_permutex2var_epi8(w[k], at, w[k + 1]));
    const __m512i byte = _mm512_set1_epi32(0xff);
    p00 = _mm512_cvtepi32_ps(_mm512_and_si512(v, byte));
    p10 = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v, 8), byte));
    p01 = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(v, 16), byte));
    p11 = _mm512_cvtepi32_ps(_mm512_srli_epi32(v, 24));
}

// windowRow loads 64 bytes of row y of src from column x, zeros outside src.
__attribute__((target("avx512f,avx512bw"))) inline __m512i windowRow(const cv::Mat &src, int x, int y) {
    if (y < 0 || y >= src.rows)
        return _mm512_setzero_si512();
    const uchar *p = src.ptr<uchar>(y) + x;
    if (x >= 0 && x + 64 <= src.cols)
        return _mm512_loadu_si512((const void *)p);
    // (Masked-off bytes are not read: no fault outside the row.)
    const int from = std::max(0, -x), to = std::min(64, src.cols - x);
    const __mmask64 in = (to >= 64 ? ~0ULL : (1ULL << to) - 1) & ~((1ULL << from) - 1);
    return _mm512_maskz_loadu_epi8(in, (const void *)p);
}

// pairs16 reads sixteen 16-bit words (a pixel and its right neighbour) at
// byte offsets from base, a plain load each (see loads).
__attribute__((target("avx512f"))) inline __m512i pairs16(const uchar *base, __m512i offsets) {
    alignas(64) int off[16];
    _mm512_store_si512((void *)off, offsets);
    alignas(64) int w[16];
    for (int i = 0; i < 16; i++) {
        unsigned short v;
        std::memcpy(&v, base + off[i], 2);
        w[i] = v;
    }
    return _mm512_load_si512((const void *)w);
}

// endsMin is the lesser of lanes 0 and 15: along a row of the top-down
// image, on either side of the horizon, a source position's column and
// row each run one way (a perspective map), so that these are the least
// of the sixteen. Where rounding breaks that by a pixel, some lane lies
// below it, which the window check catches: the group takes the slower
// way, with the same result.
__attribute__((target("avx512f"))) inline int endsMin(__m512i v) {
    const int first = _mm_cvtsi128_si32(_mm512_castsi512_si128(v));
    const int last = _mm_extract_epi32(_mm512_extracti32x4_epi32(v, 3), 3);
    return std::min(first, last);
}

// grayRowVBMI is grayRow sixteen pixels at a time, with the same float
// arithmetic, explicitly rounded so that it cannot be fused.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))) void grayRowVBMI(const cv::Mat &src, const double *m, int row, int n, uchar *out) {
    const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const RowLanes16 lanes{RowMap(m, row)};
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1), minusOne = _mm512_set1_ps(-1);
    const int cols = src.cols, rows = src.rows;
    const __m512 fcols = _mm512_set1_ps((float)cols), frows = _mm512_set1_ps((float)rows);
    const __m512i widest = _mm512_set1_epi32(62), highest = _mm512_set1_epi32(windowRows - 2);
    // A lane's four neighbours are inside src when 0 ≤ x ≤ cols-2 and 0 ≤ y ≤ rows-2.
    const __m512 xmax = _mm512_set1_ps((float)(cols - 2)), ymax = _mm512_set1_ps((float)(rows - 2));
    const bool windows = cols >= 64 && rows >= 4;
    int x = 0;
    // Each group's positions are worked out a group ahead: their division
    // then runs while the group before is sampled, not before its own
    // loads can start (the same arithmetic; past the row's end, unused).
    __m512 nextW, nextX, nextY;
    lanes.positions(0, nextW, nextX, nextY);
    for (; x + 16 <= n; x += 16) {
        const __m512 w = nextW, fx = nextX, fy = nextY;
        lanes.positions(x + 16, nextW, nextX, nextY);
        // The lanes with a neighbour inside src, in front of the horizon; the others are black.
        const __mmask16 lit = _mm512_cmp_ps_mask(w, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(fx, minusOne, _CMP_GT_OQ) &
                              _mm512_cmp_ps_mask(fx, fcols, _CMP_LT_OQ) & _mm512_cmp_ps_mask(fy, minusOne, _CMP_GT_OQ) &
                              _mm512_cmp_ps_mask(fy, frows, _CMP_LT_OQ);
        if (lit == 0) {
            std::memset(out + x, 0, 16);
            continue;
        }
        const __m512 flx = _mm512_roundscale_ps(fx, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512 fly = _mm512_roundscale_ps(fy, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512 ax = _mm512_sub_round_ps(fx, flx, rn), ay = _mm512_sub_round_ps(fy, fly, rn);
        const __m512i ix = _mm512_cvttps_epi32(flx), iy = _mm512_cvttps_epi32(fly);
        __m512 p00, p01, p10, p11;
        // Most groups lie inside src, their window four rows high: four
        // plain loads, and a permute per row.
        const __mmask16 inside = _mm512_cmp_ps_mask(flx, zero, _CMP_GE_OQ) & _mm512_cmp_ps_mask(flx, xmax, _CMP_LE_OQ) &
                                 _mm512_cmp_ps_mask(fly, zero, _CMP_GE_OQ) & _mm512_cmp_ps_mask(fly, ymax, _CMP_LE_OQ);
        int x0 = 0, y0 = 0;
        __m512i dx, dy;
        if (lit == 0xffff && inside == 0xffff && windows &&
            (dx = _mm512_sub_epi32(ix, _mm512_set1_epi32(x0 = std::min(endsMin(ix), cols - 64))),
             dy = _mm512_sub_epi32(iy, _mm512_set1_epi32(y0 = std::min(endsMin(iy), rows - 4))),
             (_mm512_cmpgt_epu32_mask(dx, widest) | _mm512_cmpgt_epu32_mask(dy, _mm512_set1_epi32(2))) == 0)) {
            __m512i win[4];
#pragma GCC unroll 4
            for (int k = 0; k < 4; k++)
                win[k] = _mm512_loadu_si512((const void *)(src.ptr<uchar>(y0 + k) + x0));
            // The next top-down rows read the row below this window first
            // (see colorRowVBMI).
            if (y0 + 4 < rows) {
                const char *p = (const char *)(src.ptr<uchar>(y0 + 4) + x0);
                _mm_prefetch(p, _MM_HINT_T0);
                _mm_prefetch(p + 63, _MM_HINT_T0);
            }
            neighbours16<3>(win, dx, dy, p00, p01, p10, p11);
        } else {
            // The others: a window of five rows, zeros outside src, from
            // the lit lanes' least row and column.
            x0 = _mm512_mask_reduce_min_epi32(lit, ix), y0 = _mm512_mask_reduce_min_epi32(lit, iy);
            dx = _mm512_sub_epi32(ix, _mm512_set1_epi32(x0)), dy = _mm512_sub_epi32(iy, _mm512_set1_epi32(y0));
            if ((_mm512_mask_cmpgt_epu32_mask(lit, dx, widest) | _mm512_mask_cmpgt_epu32_mask(lit, dy, highest)) == 0) {
                __m512i win[windowRows];
#pragma GCC unroll 5
                for (int k = 0; k < windowRows; k++)
                    win[k] = windowRow(src, x0, y0 + k);
                neighbours16<windowRows - 1>(win, dx, dy, p00, p01, p10, p11);
            } else if (lit == 0xffff && inside == 0xffff) {
                // A frame turned far from the view's rows: the sixteen
                // pixels lie on more rows than a window holds, each with
                // its neighbours inside src: a load per pixel and row.
                const __m512i off = _mm512_add_epi32(_mm512_mullo_epi32(iy, _mm512_set1_epi32((int)src.step)), ix);
                const __m512i upper = pairs16(src.data, off), lower = pairs16(src.data + src.step, off);
                const __m512i byte = _mm512_set1_epi32(0xff);
                p00 = _mm512_cvtepi32_ps(_mm512_and_si512(upper, byte)), p01 = _mm512_cvtepi32_ps(_mm512_srli_epi32(upper, 8));
                p10 = _mm512_cvtepi32_ps(_mm512_and_si512(lower, byte)), p11 = _mm512_cvtepi32_ps(_mm512_srli_epi32(lower, 8));
            } else {
                grayRow(src, m, row, x, x + 16, out);
                continue;
            }
        }
        const __m512 top = _mm512_add_round_ps(p00, _mm512_mul_round_ps(ax, _mm512_sub_round_ps(p01, p00, rn), rn), rn);
        const __m512 bottom = _mm512_add_round_ps(p10, _mm512_mul_round_ps(ax, _mm512_sub_round_ps(p11, p10, rn), rn), rn);
        const __m512 v = _mm512_add_round_ps(top, _mm512_mul_round_ps(ay, _mm512_sub_round_ps(bottom, top, rn), rn), rn);
        _mm_storeu_si128((__m128i *)(out + x), _mm512_maskz_cvtusepi32_epi8(lit, _mm512_cvtps_epi32(v))); // 0..255 already
    }
    grayRow(src, m, row, x, n, out);
}

// colorRow samples the pixels from..n of one row of a three-channel warp:
// bilinear, black outside src.
void colorRow(const cv::Mat &src, const double *m, int row, int from, int n, uchar *out) {
    const RowMap r(m, row);
    const int cols = src.cols, rows = src.rows;
    for (int x = from; x < n; x++) {
        uchar *o = out + 3 * x;
        float xs = (float)x;
        float w = r.w0 + r.m6 * xs;
        float inv = 1.f / w;
        float fx = (r.x0 + r.m0 * xs) * inv, fy = (r.y0 + r.m3 * xs) * inv;
        if (!(w > 0) || !(fx > -1 && fx < cols && fy > -1 && fy < rows)) {
            o[0] = o[1] = o[2] = 0;
            continue;
        }
        float flx = std::floor(fx), fly = std::floor(fy);
        int ix = (int)flx, iy = (int)fly;
        float ax = fx - flx, ay = fy - fly;
        for (int c = 0; c < 3; c++) {
            auto at = [&](int cx, int cy) -> float {
                return (cx >= 0 && cx < cols && cy >= 0 && cy < rows) ? (float)src.ptr<uchar>(cy)[3 * cx + c] : 0.f;
            };
            float top = at(ix, iy) + ax * (at(ix + 1, iy) - at(ix, iy));
            float bottom = at(ix, iy + 1) + ax * (at(ix + 1, iy + 1) - at(ix, iy + 1));
            o[c] = cv::saturate_cast<uchar>(top + ay * (bottom - top));
        }
    }
}

// colorRowAVX2 is colorRow (from from on) eight pixels at a time where all eight and
// their neighbours lie inside src, with the same float arithmetic. A pixel
// and its right neighbour are one 8-byte load (6 bytes used) in each of the
// two rows; the lanes are worked in the order 0 1 4 5 2 3 6 7 that
// unpacking two such loads per 128-bit half gives, and put back in order
// before eight BGR pixels are stored as 24 bytes.
__attribute__((target("avx2"))) void colorRowAVX2(const cv::Mat &src, const double *m, int row, int from, int n, uchar *out) {
    const RowLanes lanes{RowMap(m, row)};
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1);
    // The 8-byte loads of a pixel and its right neighbour reach two bytes
    // into the pixel after that: 0 ≤ x ≤ cols-3 and 0 ≤ y ≤ rows-2 keep
    // them inside src.
    const __m256 xmax = _mm256_set1_ps((float)(src.cols - 3)), ymax = _mm256_set1_ps((float)(src.rows - 2));
    const __m256i vstep = _mm256_set1_epi32((int)src.step), three = _mm256_set1_epi32(3);
    const uchar *base = src.data;
    const size_t step = src.step;
    const __m256 cols = _mm256_set1_ps((float)src.cols), rows = _mm256_set1_ps((float)src.rows);
    // Lane order of the unpacked loads, and back (the same permutation).
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    // For channel c, from two pixels' 8-byte words in a 128-bit half: the
    // pixel's byte c and its neighbour's (c+3) of each, as 32-bit lanes
    // [p0, p1, q0, q1] (0x80: zero).
    __m256i pick[3];
    for (int c = 0; c < 3; c++) {
        const char z = (char)0x80, a = (char)c, b = (char)(8 + c), d = (char)(c + 3), e = (char)(8 + c + 3);
        pick[c] = _mm256_setr_epi8(a, z, z, z, b, z, z, z, d, z, z, z, e, z, z, z, a, z, z, z, b, z, z, z, d, z, z, z, e, z, z, z);
    }
    // Four BGR0 words per 128-bit half into 12 bytes.
    const __m256i compact = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12,
                                             13, 14, -1, -1, -1, -1);
    alignas(32) int off[8];
    alignas(32) unsigned long long up[8], down[8];
    int x = from;
    // Each group's positions are worked out a group ahead (see grayRowVBMI).
    __m256 nextW, nextX, nextY;
    lanes.positions(from, nextW, nextX, nextY);
    while (x + 8 <= n) {
        const __m256 w = nextW, fx = nextX, fy = nextY;
        lanes.positions(x + 8, nextW, nextX, nextY);
        __m256 flx = _mm256_floor_ps(fx), fly = _mm256_floor_ps(fy);
        __m256 ok = _mm256_and_ps(_mm256_cmp_ps(w, zero, _CMP_GT_OQ),
                                  _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(flx, zero, _CMP_GE_OQ), _mm256_cmp_ps(flx, xmax, _CMP_LE_OQ)),
                                                _mm256_and_ps(_mm256_cmp_ps(fly, zero, _CMP_GE_OQ), _mm256_cmp_ps(fly, ymax, _CMP_LE_OQ))));
        if (_mm256_movemask_ps(ok) != 0xff) {
            if (_mm256_movemask_ps(anyInside(w, fx, fy, cols, rows)) == 0)
                std::memset(out + 3 * x, 0, 24); // all eight outside src: black
            else
                colorRow(src, m, row, x, x + 8, out);
            x += 8;
            continue;
        }
        __m256i ix = _mm256_cvttps_epi32(flx), iy = _mm256_cvttps_epi32(fly);
        _mm256_store_si256((__m256i *)off, _mm256_add_epi32(_mm256_mullo_epi32(iy, vstep), _mm256_mullo_epi32(ix, three)));
#pragma GCC unroll 8
        for (int i = 0; i < 8; i++) {
            std::memcpy(&up[i], base + off[i], 8);
            std::memcpy(&down[i], base + off[i] + step, 8);
        }
        const __m256i upLo = _mm256_load_si256((const __m256i *)up), upHi = _mm256_load_si256((const __m256i *)(up + 4));
        const __m256i downLo = _mm256_load_si256((const __m256i *)down), downHi = _mm256_load_si256((const __m256i *)(down + 4));
        const __m256 ax = _mm256_permutevar8x32_ps(_mm256_sub_ps(fx, flx), order);
        const __m256 ay = _mm256_permutevar8x32_ps(_mm256_sub_ps(fy, fly), order);
        __m256i packed = _mm256_setzero_si256();
#pragma GCC unroll 3
        for (int c = 0; c < 3; c++) {
            const __m256i u0 = _mm256_shuffle_epi8(upLo, pick[c]), u1 = _mm256_shuffle_epi8(upHi, pick[c]);
            const __m256i d0 = _mm256_shuffle_epi8(downLo, pick[c]), d1 = _mm256_shuffle_epi8(downHi, pick[c]);
            __m256 p00 = _mm256_cvtepi32_ps(_mm256_unpacklo_epi64(u0, u1));
            __m256 p01 = _mm256_cvtepi32_ps(_mm256_unpackhi_epi64(u0, u1));
            __m256 p10 = _mm256_cvtepi32_ps(_mm256_unpacklo_epi64(d0, d1));
            __m256 p11 = _mm256_cvtepi32_ps(_mm256_unpackhi_epi64(d0, d1));
            __m256 top = _mm256_add_ps(p00, _mm256_mul_ps(ax, _mm256_sub_ps(p01, p00)));
            __m256 bottom = _mm256_add_ps(p10, _mm256_mul_ps(ax, _mm256_sub_ps(p11, p10)));
            __m256 v = _mm256_add_ps(top, _mm256_mul_ps(ay, _mm256_sub_ps(bottom, top)));
            packed = _mm256_or_si256(packed, _mm256_slli_epi32(_mm256_cvtps_epi32(v), 8 * c));
        }
        packed = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(packed, order), compact);
        uchar *o = out + 3 * x;
        if (x + 8 + 2 <= n) { // the second 16-byte store's last 4 bytes land on the next pixels, written after
            _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(packed));
            _mm_storeu_si128((__m128i *)(o + 12), _mm256_extracti128_si256(packed, 1));
        } else {
            alignas(32) uchar bytes[32];
            _mm256_store_si256((__m256i *)bytes, packed);
            std::memcpy(o, bytes, 12);
            std::memcpy(o + 12, bytes + 16, 12);
        }
        x += 8;
    }
    colorRow(src, m, row, x, n, out);
}

// colorRowVBMI is colorRow sixteen pixels at a time, with the same float
// arithmetic (explicitly rounded, so that it cannot be fused), and without
// a load per pixel, as grayRowVBMI: the sixteen pixels' neighbours lie in
// a window of the frame's rows, 128 bytes (42 pixels) wide, and two byte
// permutes (VBMI) per row pick out every lane's pixel and right neighbour
// in all three channels; each lane then keeps its two rows. At the
// frame's edge the window holds zeros outside the frame (as colorRow
// reads it there). A group whose window is wider, or more than
// colorWindowRows rows high (a frame turned far from the view's rows),
// takes colorRowAVX2's way, with the same result.
const int colorWindowRows = 8;

// byteRange marks the bytes from..to (from inclusive; either may lie
// outside 0..64) of a 64-byte register.
__attribute__((target("avx512bw"))) inline __mmask64 byteRange(int from, int to) {
    from = std::max(from, 0), to = std::min(to, 64);
    if (from >= to)
        return 0;
    const __mmask64 below = to >= 64 ? ~0ULL : (1ULL << to) - 1;
    return below & ~((1ULL << from) - 1);
}

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))) void colorRowVBMI(const cv::Mat &src, const double *m, int row, int n, uchar *out) {
    const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const RowLanes16 lanes{RowMap(m, row)};
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1);
    const int cols = src.cols, rows = src.rows;
    // A lane's four neighbours are inside src when 0 ≤ x ≤ cols-2 and 0 ≤ y ≤ rows-2.
    const __m512 xmax = _mm512_set1_ps((float)(cols - 2)), ymax = _mm512_set1_ps((float)(rows - 2));
    // A window's 128 bytes from pixel x0 hold pixels x0..x0+41 whole: a
    // lane's pixel and its right neighbour when dx ≤ 40.
    const __m512i widest = _mm512_set1_epi32(40), byte = _mm512_set1_epi32(0xff), spread = _mm512_set1_epi32(0x01010101);
    const __m512 minusOne = _mm512_set1_ps(-1), fcols = _mm512_set1_ps((float)cols), frows = _mm512_set1_ps((float)rows);
    // Per lane, at byte t = 3·dx of a row's window: the pixel's and its
    // neighbour's blue and green (t, t+3, t+1, t+4), and red (t+2, t+5).
    const __m512i blueGreen = _mm512_set1_epi32(0x04010300), red = _mm512_set1_epi32(0x0502);
    // Sixteen BGR0 words into 48 bytes.
    alignas(64) uchar pack[64];
    for (int i = 0; i < 64; i++)
        pack[i] = (uchar)(i < 48 ? i / 3 * 4 + i % 3 : 0);
    const __m512i compact = _mm512_load_si512((const void *)pack);
    const bool windows = cols >= 43 && rows >= 2;
    int x = 0;
    // Each group's positions are worked out a group ahead (see grayRowVBMI).
    __m512 nextW, nextX, nextY;
    lanes.positions(0, nextW, nextX, nextY);
    for (; x + 16 <= n; x += 16) {
        const __m512 w = nextW, fx = nextX, fy = nextY;
        lanes.positions(x + 16, nextW, nextX, nextY);
        const __m512 flx = _mm512_roundscale_ps(fx, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __m512 fly = _mm512_roundscale_ps(fy, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        const __mmask16 inside = _mm512_cmp_ps_mask(w, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(flx, zero, _CMP_GE_OQ) &
                                 _mm512_cmp_ps_mask(flx, xmax, _CMP_LE_OQ) & _mm512_cmp_ps_mask(fly, zero, _CMP_GE_OQ) &
                                 _mm512_cmp_ps_mask(fly, ymax, _CMP_LE_OQ);
        if (!windows) {
            colorRowAVX2(src, m, row, x, x + 16, out);
            continue;
        }
        // A group at the frame's edge (some lane's neighbours outside it)
        // reads a window with zeros outside the frame, as colorRow reads
        // them; its lanes without a neighbour inside the frame (or behind
        // the horizon) are black.
        const bool edge = inside != 0xffff;
        __mmask16 lit = 0xffff;
        if (edge) {
            lit = _mm512_cmp_ps_mask(w, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(fx, minusOne, _CMP_GT_OQ) & _mm512_cmp_ps_mask(fx, fcols, _CMP_LT_OQ) &
                  _mm512_cmp_ps_mask(fy, minusOne, _CMP_GT_OQ) & _mm512_cmp_ps_mask(fy, frows, _CMP_LT_OQ);
            if (lit == 0) {
                std::memset(out + 3 * x, 0, 48);
                continue;
            }
        }
        const __m512i ix = _mm512_cvttps_epi32(flx), iy = _mm512_cvttps_epi32(fly);
        const int x0 = edge ? _mm512_mask_reduce_min_epi32(lit, ix) : std::min(endsMin(ix), cols - 43);
        const int y0 = edge ? _mm512_mask_reduce_min_epi32(lit, iy) : endsMin(iy);
        const __m512i dx = _mm512_sub_epi32(ix, _mm512_set1_epi32(x0)), dy = _mm512_sub_epi32(iy, _mm512_set1_epi32(y0));
        // (Unsigned: a lane left of x0 or above y0 is out of bounds too.)
        const int high = _mm512_mask_reduce_max_epu32(lit, dy) + 2;
        if (_mm512_mask_cmpgt_epu32_mask(lit, dx, widest) != 0 || high > colorWindowRows) {
            colorRowAVX2(src, m, row, x, x + 16, out);
            continue;
        }
        const __m512i t = _mm512_mullo_epi32(_mm512_add_epi32(dx, _mm512_add_epi32(dx, dx)), spread);
        const __m512i atBG = _mm512_add_epi32(t, blueGreen), atR = _mm512_add_epi32(t, red);
        __m512i upBG = _mm512_setzero_si512(), upR = upBG, downBG = upBG, downR = upBG;
        // At the edge, the window's bytes inside the frame's rows: from
        // and to, of the 128 from pixel x0 (which may be −1).
        const int from = std::max(0, -3 * x0), to = std::min(128, 3 * (cols - x0));
        const __mmask64 loIn = byteRange(from, to), hiIn = byteRange(from - 64, to - 64);
        for (int k = 0; k < high; k++) {
            const uchar *p = src.ptr<uchar>(std::min(std::max(y0 + k, 0), rows - 1)) + 3 * x0;
            __m512i lo, hi;
            if (!edge) {
                lo = _mm512_loadu_si512((const void *)p), hi = _mm512_loadu_si512((const void *)(p + 64));
            } else if (y0 + k < 0 || y0 + k >= rows) {
                lo = hi = _mm512_setzero_si512();
            } else {
                // (Masked-off bytes are not read: no fault outside the row.)
                lo = _mm512_maskz_loadu_epi8(loIn, (const void *)p), hi = _mm512_maskz_loadu_epi8(hiIn, (const void *)(p + 64));
            }
            const __m512i bg = _mm512_permutex2var_epi8(lo, atBG, hi), rr = _mm512_permutex2var_epi8(lo, atR, hi);
            const __mmask16 up = _mm512_cmpeq_epi32_mask(dy, _mm512_set1_epi32(k));
            const __mmask16 down = _mm512_cmpeq_epi32_mask(dy, _mm512_set1_epi32(k - 1));
            upBG = _mm512_mask_mov_epi32(upBG, up, bg), upR = _mm512_mask_mov_epi32(upR, up, rr);
            downBG = _mm512_mask_mov_epi32(downBG, down, bg), downR = _mm512_mask_mov_epi32(downR, down, rr);
        }
        // The next top-down row reads the rows below this window first:
        // the camera frame is megabytes, mostly out of the caches by now.
        for (int k = 0; k < 2 && y0 + high + k < rows; k++) {
            const char *p = (const char *)(src.ptr<uchar>(y0 + high + k) + 3 * x0);
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p + 64, _MM_HINT_T0);
            _mm_prefetch(p + 127, _MM_HINT_T0);
        }
        const __m512 ax = _mm512_sub_round_ps(fx, flx, rn), ay = _mm512_sub_round_ps(fy, fly, rn);
        // Channel c's neighbours: its pixel at bits 0 and its right neighbour
        // at bits 8 of the 16-bit half of bg (blue low, green high) or rr.
        __m512i packed = _mm512_setzero_si512();
#pragma GCC unroll 3
        for (int c = 0; c < 3; c++) {
            const __m512i u = c == 2 ? upR : c == 1 ? _mm512_srli_epi32(upBG, 16) : upBG;
            const __m512i d = c == 2 ? downR : c == 1 ? _mm512_srli_epi32(downBG, 16) : downBG;
            const __m512 p00 = _mm512_cvtepi32_ps(_mm512_and_si512(u, byte));
            const __m512 p01 = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(u, 8), byte));
            const __m512 p10 = _mm512_cvtepi32_ps(_mm512_and_si512(d, byte));
            const __m512 p11 = _mm512_cvtepi32_ps(_mm512_and_si512(_mm512_srli_epi32(d, 8), byte));
            const __m512 top = _mm512_add_round_ps(p00, _mm512_mul_round_ps(ax, _mm512_sub_round_ps(p01, p00, rn), rn), rn);
            const __m512 bottom = _mm512_add_round_ps(p10, _mm512_mul_round_ps(ax, _mm512_sub_round_ps(p11, p10, rn), rn), rn);
            const __m512 v = _mm512_add_round_ps(top, _mm512_mul_round_ps(ay, _mm512_sub_round_ps(bottom, top, rn), rn), rn);
            packed = _mm512_or_si512(packed, _mm512_slli_epi32(_mm512_cvtps_epi32(v), 8 * c)); // 0..255 already
        }
        packed = _mm512_maskz_mov_epi32(lit, packed);
        _mm512_mask_storeu_epi8((void *)(out + 3 * x), (1ULL << 48) - 1, _mm512_permutexvar_epi8(compact, packed));
    }
    colorRowAVX2(src, m, row, x, n, out);
}

// OpenCV's BGR to grey of 8-bit pixels (cv::cvtColor, COLOR_BGR2GRAY):
// fixed point, (3735·B + 19235·G + 9798·R + 2^14) >> 15.
const int grayB = 3735, grayG = 19235, grayR = 9798, grayShift = 15;

// grayRowOf writes the grey of the BGR pixels from..n of a row.
void grayRowOf(const uchar *bgr, int from, int n, uchar *out) {
    for (int i = from; i < n; i++)
        out[i] = (uchar)((grayB * bgr[3 * i] + grayG * bgr[3 * i + 1] + grayR * bgr[3 * i + 2] + (1 << (grayShift - 1))) >> grayShift);
}

// grayRowOfVBMI is grayRowOf 64 pixels at a time: their 192 bytes are
// parted into channels by byte permutes (VBMI), and the sums made in
// 32-bit lanes from 16-bit pairs (B, G) and (R, 1).
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void grayRowOfVBMI(const uchar *bgr, int n, uchar *out) {
    alignas(64) uchar idx[3][64];
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 64; i++)
            idx[c][i] = (uchar)(3 * i + c); // below 128: the first two registers; else the third (the low 6 bits)
    __m512i at[3];
    __mmask64 third[3];
    for (int c = 0; c < 3; c++) {
        at[c] = _mm512_load_si512((const void *)idx[c]);
        third[c] = _mm512_movepi8_mask(at[c]); // 3i + c ≥ 128
    }
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi16(1);
    const __m512i bg = _mm512_set1_epi32(grayB | grayG << 16), r1 = _mm512_set1_epi32(grayR | (1 << (grayShift - 1)) << 16);
    int x = 0;
    for (; x + 64 <= n; x += 64) {
        const uchar *p = bgr + 3 * x;
        const __m512i a = _mm512_loadu_si512((const void *)p), b = _mm512_loadu_si512((const void *)(p + 64)),
                      c = _mm512_loadu_si512((const void *)(p + 128));
        __m512i ch[3];
#pragma GCC unroll 3
        for (int k = 0; k < 3; k++)
            ch[k] = _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(a, at[k], b), third[k], at[k], c);
        __m512i words[2];
#pragma GCC unroll 2
        for (int h = 0; h < 2; h++) {
            const __m512i B = h ? _mm512_unpackhi_epi8(ch[0], zero) : _mm512_unpacklo_epi8(ch[0], zero);
            const __m512i G = h ? _mm512_unpackhi_epi8(ch[1], zero) : _mm512_unpacklo_epi8(ch[1], zero);
            const __m512i R = h ? _mm512_unpackhi_epi8(ch[2], zero) : _mm512_unpacklo_epi8(ch[2], zero);
            const __m512i lo = _mm512_srli_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(B, G), bg),
                                                                  _mm512_madd_epi16(_mm512_unpacklo_epi16(R, one), r1)), grayShift);
            const __m512i hi = _mm512_srli_epi32(_mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(B, G), bg),
                                                                  _mm512_madd_epi16(_mm512_unpackhi_epi16(R, one), r1)), grayShift);
            words[h] = _mm512_packus_epi32(lo, hi);
        }
        _mm512_storeu_si512((void *)(out + x), _mm512_packus_epi16(words[0], words[1]));
    }
    grayRowOf(bgr, x, n, out);
}

} // namespace

extern "C" {

// tablecam_warp_perspective makes dst (width×height, src's type) with
// dst(x, y) = src(inverse·(x, y, 1)), bilinear, black outside src.
// It returns 0, or -1 when OpenCV fails.
int tablecam_warp_perspective(void *src, void *dst, const double *inverse, int width, int height, int simd) {
    try {
        const cv::Mat &in = *(cv::Mat *)src;
        cv::Mat &out = *(cv::Mat *)dst;
        out.create(height, width, in.type());
        const bool avx2 = simd > 0 && __builtin_cpu_supports("avx2");
        const bool vbmi = simd > 1 && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
        if (in.type() == CV_8UC1) {
            for (int y = 0; y < height; y++) {
                if (vbmi)
                    grayRowVBMI(in, inverse, y, width, out.ptr<uchar>(y));
                else if (avx2)
                    grayRowAVX2(in, inverse, y, width, out.ptr<uchar>(y));
                else
                    grayRow(in, inverse, y, 0, width, out.ptr<uchar>(y));
            }
            return 0;
        }
        if (in.type() == CV_8UC3) {
            for (int y = 0; y < height; y++) {
                if (vbmi)
                    colorRowVBMI(in, inverse, y, width, out.ptr<uchar>(y));
                else if (avx2)
                    colorRowAVX2(in, inverse, y, 0, width, out.ptr<uchar>(y));
                else
                    colorRow(in, inverse, y, 0, width, out.ptr<uchar>(y));
            }
            return 0;
        }
        // Rows in blocks whose maps stay in the cache.
        const int block = std::max(1, std::min(height, 16384 / std::max(width, 1)));
        cv::Mat xy(block, width, CV_16SC2), frac(block, width, CV_16UC1);
        for (int y = 0; y < height; y += block) {
            int rows = std::min(block, height - y);
            for (int r = 0; r < rows; r++) {
                if (avx2)
                    positionsAVX2(inverse, y + r, width, xy.ptr<short>(r), frac.ptr<ushort>(r));
                else
                    positions(inverse, y + r, 0, width, xy.ptr<short>(r), frac.ptr<ushort>(r));
            }
            cv::Mat part = out.rowRange(y, y + rows);
            cv::remap(in, part, xy.rowRange(0, rows), frac.rowRange(0, rows), cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar());
        }
        return 0;
    } catch (const cv::Exception &) {
        return -1;
    }
}

// tablecam_gray_region makes dst a one-channel image of src's size and
// writes the grey of src's pixels x..x+w, y..y+h into it: exactly
// cv::cvtColor(BGR2GRAY) on that region (see grayRow; the rest of dst is
// left as it was), with vector instructions up to simd. It returns 0, or
// -1 when OpenCV fails.
int tablecam_gray_region(void *src, void *dst, int x, int y, int w, int h, int simd) {
    try {
        const cv::Mat &in = *(cv::Mat *)src;
        cv::Mat &out = *(cv::Mat *)dst;
        CV_Assert(in.type() == CV_8UC3 && in.data != out.data);
        out.create(in.size(), CV_8UC1);
        if (w <= 0 || h <= 0)
            return 0;
        CV_Assert(x >= 0 && y >= 0 && x + w <= in.cols && y + h <= in.rows);
        const bool vbmi = simd > 1 && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw");
        for (int r = y; r < y + h; r++) {
            const uchar *bgr = in.ptr<uchar>(r) + 3 * x;
            uchar *g = out.ptr<uchar>(r) + x;
            if (vbmi)
                grayRowOfVBMI(bgr, w, g);
            else
                grayRowOf(bgr, 0, w, g);
        }
        return 0;
    } catch (const cv::Exception &) {
        return -1;
    }
}

} // extern "C"
