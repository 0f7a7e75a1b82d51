// Canny's edge detector on 8-bit grey images: exactly cv::Canny with a 3×3
// Sobel aperture and the L1 gradient, for a fraction of its cost on one
// core. OpenCV 4.6 suppresses non-maxima pixel by pixel wherever the
// gradient passes the low threshold (on a textured playmat, a large part of
// the image) and follows edges through a deque; here the suppression runs
// eight pixels at a time and the edges are followed through a vector.

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <immintrin.h>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <algorithm>
#include <vector>
#include "edges.h"

namespace {

// The map's marks, as in OpenCV: a pixel that may be on an edge, one that
// cannot, one that is.
const uchar maybeEdge = 0, notEdge = 1, edge = 2;

// tg22 is tan(22.5°) in 15-bit fixed point.
const int tg22 = 13573;

// suppressRow marks the pixels from..n of one row: notEdge unless the
// gradient magnitude passes low and is a maximum across the edge (and the
// mask, unless null, is not set); then edge when it passes high, maybeEdge
// otherwise. prev, cur and next are the magnitude rows above, at and below
// the row, each with a 0 on both sides.
void suppressRow(const int *prev, const int *cur, const int *next, const short *dx, const short *dy, const uchar *mask,
                 int from, int n, int low, int high, uchar *map) {
    for (int j = from; j < n; j++) {
        int m = cur[j];
        uchar mark = notEdge;
        if (m > low && !(mask && mask[j])) {
            int xs = dx[j], ys = dy[j];
            int x = std::abs(xs), y = std::abs(ys) << 15;
            int tg22x = x * tg22;
            bool peak;
            if (y < tg22x) {
                peak = m > cur[j - 1] && m >= cur[j + 1];
            } else if (y > tg22x + (x << 16)) {
                peak = m > prev[j] && m >= next[j];
            } else {
                int s = (xs ^ ys) < 0 ? -1 : 1;
                peak = m > prev[j - s] && m > next[j + s];
            }
            if (peak)
                mark = m > high ? edge : maybeEdge;
        }
        map[j] = mark;
    }
}

// suppressRowAVX2 is suppressRow eight pixels at a time.
__attribute__((target("avx2"))) void suppressRowAVX2(const int *prev, const int *cur, const int *next, const short *dx,
                                                     const short *dy, const uchar *mask, int n, int low, int high, uchar *map) {
    const __m256i vlow = _mm256_set1_epi32(low), vhigh = _mm256_set1_epi32(high), vtg22 = _mm256_set1_epi32(tg22);
    const __m256i one = _mm256_set1_epi32(notEdge), two = _mm256_set1_epi32(edge), zero = _mm256_setzero_si256();
    const __m256i ones = _mm256_set1_epi32(-1);
    int j = 0;
    for (; j + 8 <= n; j += 8) {
        __m256i m = _mm256_loadu_si256((const __m256i *)(cur + j));
        __m256i candidate = _mm256_cmpgt_epi32(m, vlow);
        if (mask) {
            __m256i masked = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(mask + j)));
            candidate = _mm256_andnot_si256(_mm256_cmpgt_epi32(masked, zero), candidate);
        }
        __m256i marks;
        if (_mm256_testz_si256(candidate, candidate)) {
            marks = one;
        } else {
            __m256i xs = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(dx + j)));
            __m256i ys = _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)(dy + j)));
            __m256i x = _mm256_abs_epi32(xs), y = _mm256_slli_epi32(_mm256_abs_epi32(ys), 15);
            __m256i tg22x = _mm256_mullo_epi32(x, vtg22);
            __m256i tg67x = _mm256_add_epi32(tg22x, _mm256_slli_epi32(x, 16));
            __m256i horizontal = _mm256_cmpgt_epi32(tg22x, y);
            __m256i vertical = _mm256_andnot_si256(horizontal, _mm256_cmpgt_epi32(y, tg67x));
            __m256i diagonal = _mm256_andnot_si256(_mm256_or_si256(horizontal, vertical), ones);
            // m > a is cmpgt(m, a); m >= a is not cmpgt(a, m).
            __m256i left = _mm256_loadu_si256((const __m256i *)(cur + j - 1));
            __m256i right = _mm256_loadu_si256((const __m256i *)(cur + j + 1));
            __m256i hpeak = _mm256_andnot_si256(_mm256_cmpgt_epi32(right, m), _mm256_cmpgt_epi32(m, left));
            __m256i up = _mm256_loadu_si256((const __m256i *)(prev + j));
            __m256i down = _mm256_loadu_si256((const __m256i *)(next + j));
            __m256i vpeak = _mm256_andnot_si256(_mm256_cmpgt_epi32(down, m), _mm256_cmpgt_epi32(m, up));
            // s = -1 where the signs differ: prev[j+1] and next[j-1]; else prev[j-1] and next[j+1].
            __m256i differ = _mm256_cmpgt_epi32(zero, _mm256_xor_si256(xs, ys));
            __m256i upS = _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)(prev + j - 1)),
                                             _mm256_loadu_si256((const __m256i *)(prev + j + 1)), differ);
            __m256i downS = _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)(next + j + 1)),
                                               _mm256_loadu_si256((const __m256i *)(next + j - 1)), differ);
            __m256i dpeak = _mm256_and_si256(_mm256_cmpgt_epi32(m, upS), _mm256_cmpgt_epi32(m, downS));
            __m256i peak = _mm256_or_si256(_mm256_and_si256(horizontal, hpeak),
                                           _mm256_or_si256(_mm256_and_si256(vertical, vpeak), _mm256_and_si256(diagonal, dpeak)));
            peak = _mm256_and_si256(peak, candidate);
            // peak: edge (2) above high, maybeEdge (0) otherwise; else notEdge (1).
            __m256i strong = _mm256_and_si256(_mm256_cmpgt_epi32(m, vhigh), two);
            marks = _mm256_blendv_epi8(one, strong, peak);
        }
        __m256i packed = _mm256_packs_epi32(marks, marks);
        packed = _mm256_packus_epi16(packed, packed);
        __m128i bytes = _mm_unpacklo_epi32(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
        _mm_storel_epi64((__m128i *)(map + j), bytes);
    }
    suppressRow(prev, cur, next, dx, dy, mask, j, n, low, high, map);
}

// magnitudeRow writes |dx| + |dy| of the pixels from..n of a row.
void magnitudeRow(const short *dx, const short *dy, int from, int n, int *mag) {
    for (int j = from; j < n; j++)
        mag[j] = std::abs((int)dx[j]) + std::abs((int)dy[j]);
}

// magnitudeRowAVX2 is magnitudeRow sixteen pixels at a time (a 3×3 Sobel
// derivative of 8-bit pixels is at most 1020 either way, so the sum fits
// 16 bits).
__attribute__((target("avx2"))) void magnitudeRowAVX2(const short *dx, const short *dy, int n, int *mag) {
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        __m256i sum = _mm256_add_epi16(_mm256_abs_epi16(_mm256_loadu_si256((const __m256i *)(dx + j))),
                                       _mm256_abs_epi16(_mm256_loadu_si256((const __m256i *)(dy + j))));
        _mm256_storeu_si256((__m256i *)(mag + j), _mm256_cvtepi16_epi32(_mm256_castsi256_si128(sum)));
        _mm256_storeu_si256((__m256i *)(mag + j + 8), _mm256_cvtepi16_epi32(_mm256_extracti128_si256(sum, 1)));
    }
    magnitudeRow(dx, dy, j, n, mag);
}

// edgeRow writes 255 where a row of the map marks an edge, 0 elsewhere.
void edgeRow(const uchar *map, int from, int n, uchar *out) {
    for (int j = from; j < n; j++)
        out[j] = map[j] == edge ? 255 : 0;
}

// edgeRowAVX2 is edgeRow 32 pixels at a time.
__attribute__((target("avx2"))) void edgeRowAVX2(const uchar *map, int n, uchar *out) {
    const __m256i two = _mm256_set1_epi8(edge);
    int j = 0;
    for (; j + 32 <= n; j += 32)
        _mm256_storeu_si256((__m256i *)(out + j), _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(map + j)), two));
    edgeRow(map, j, n, out);
}

// thickRow writes 255 where a row of the map or its eight neighbours marks
// an edge (the edges dilated by a 3×3 square), 0 elsewhere; above, row and
// below are map rows, each with a border pixel on either side.
void thickRow(const uchar *above, const uchar *row, const uchar *below, int from, int n, uchar *out) {
    for (int j = from; j < n; j++) {
        bool on = false;
        for (int k = -1; k <= 1; k++)
            on = on || above[j + k] == edge || row[j + k] == edge || below[j + k] == edge;
        out[j] = on ? 255 : 0;
    }
}

// thickRowAVX2 is thickRow 32 pixels at a time. Of the marks (0, 1, 2)
// only an edge's has bit 1 set, so the marks are ORed as they are, down the
// three rows into column (with a border pixel on either side, n+2 bytes)
// and then across.
__attribute__((target("avx2"))) void thickRowAVX2(const uchar *above, const uchar *row, const uchar *below, int n, uchar *column,
                                                  uchar *out) {
    int j = -1;
    for (; j + 32 <= n + 1; j += 32)
        _mm256_storeu_si256((__m256i *)(column + 1 + j),
                            _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(above + j)), _mm256_loadu_si256((const __m256i *)(row + j))),
                                            _mm256_loadu_si256((const __m256i *)(below + j))));
    for (; j <= n; j++)
        column[1 + j] = above[j] | row[j] | below[j];
    const __m256i two = _mm256_set1_epi8(edge);
    const uchar *c = column + 1;
    j = 0;
    for (; j + 32 <= n; j += 32) {
        __m256i on = _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256((const __m256i *)(c + j - 1)), _mm256_loadu_si256((const __m256i *)(c + j))),
                                     _mm256_loadu_si256((const __m256i *)(c + j + 1)));
        _mm256_storeu_si256((__m256i *)(out + j), _mm256_cmpeq_epi8(_mm256_and_si256(on, two), two));
    }
    thickRow(above, row, below, j, n, out);
}

// The blurred front end: GaussianBlur(src, 5×5, σ from the size, replicated
// border) and the 3×3 Sobel derivatives of that, row by row, without the
// blurred image or the derivative images. OpenCV's 8-bit 5×5 Gaussian is
// bit-exact fixed point: the weights 1 4 6 4 1 (/16) both ways, summed
// exactly and rounded half up, (S + 128) >> 8.

// blurColumns writes the vertical 1 4 6 4 1 sums of five rows into v[0..n),
// as 16-bit (at most 4080).
void blurColumns(const uchar *r0, const uchar *r1, const uchar *r2, const uchar *r3, const uchar *r4, int from, int n, ushort *v) {
    for (int x = from; x < n; x++)
        v[x] = (ushort)(r0[x] + 4 * r1[x] + 6 * r2[x] + 4 * r3[x] + r4[x]);
}

__attribute__((target("avx2"))) void blurColumnsAVX2(const uchar *r0, const uchar *r1, const uchar *r2, const uchar *r3,
                                                     const uchar *r4, int n, ushort *v) {
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r0 + x)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r1 + x)));
        __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r2 + x)));
        __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r3 + x)));
        __m256i e = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r4 + x)));
        __m256i sum = _mm256_add_epi16(_mm256_add_epi16(a, e), _mm256_slli_epi16(_mm256_add_epi16(b, d), 2));
        sum = _mm256_add_epi16(sum, _mm256_mullo_epi16(c, _mm256_set1_epi16(6)));
        _mm256_storeu_si256((__m256i *)(v + x), sum);
    }
    blurColumns(r0, r1, r2, r3, r4, x, n, v);
}

// blurRow writes the blurred pixels from..n of a row from its vertical sums
// v, which hold two replicated sums on either side (v[-2..n+2)).
void blurRow(const ushort *v, int from, int n, uchar *out) {
    for (int x = from; x < n; x++) {
        unsigned sum = v[x - 2] + 4u * v[x - 1] + 6u * v[x] + 4u * v[x + 1] + v[x + 2];
        out[x] = (uchar)((sum + 128) >> 8);
    }
}

// blurRowAVX2 is blurRow sixteen pixels at a time: the sums reach 65280,
// past a signed 16-bit lane but not an unsigned one.
__attribute__((target("avx2"))) void blurRowAVX2(const ushort *v, int n, uchar *out) {
    const __m256i half = _mm256_set1_epi16(128), six = _mm256_set1_epi16(6);
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(v + x - 2)), b = _mm256_loadu_si256((const __m256i *)(v + x - 1));
        __m256i c = _mm256_loadu_si256((const __m256i *)(v + x)), d = _mm256_loadu_si256((const __m256i *)(v + x + 1));
        __m256i e = _mm256_loadu_si256((const __m256i *)(v + x + 2));
        __m256i sum = _mm256_add_epi16(_mm256_add_epi16(a, e), _mm256_slli_epi16(_mm256_add_epi16(b, d), 2));
        sum = _mm256_add_epi16(sum, _mm256_mullo_epi16(c, six));
        __m256i r = _mm256_srli_epi16(_mm256_add_epi16(sum, half), 8);
        __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(r, r), 0xD8);
        _mm_storeu_si128((__m128i *)(out + x), _mm256_castsi256_si128(packed));
    }
    blurRow(v, x, n, out);
}

// sobelRow writes the 3×3 Sobel derivatives and their L1 magnitude of the
// pixels from..n of a row, from the rows above (a), at (b) and below (c),
// each holding a replicated pixel on either side (a[-1..n+1)).
void sobelRow(const uchar *a, const uchar *b, const uchar *c, int from, int n, short *dx, short *dy, int *mag) {
    for (int x = from; x < n; x++) {
        int gx = (a[x + 1] - a[x - 1]) + 2 * (b[x + 1] - b[x - 1]) + (c[x + 1] - c[x - 1]);
        int gy = (c[x - 1] - a[x - 1]) + 2 * (c[x] - a[x]) + (c[x + 1] - a[x + 1]);
        dx[x] = (short)gx;
        dy[x] = (short)gy;
        mag[x] = std::abs(gx) + std::abs(gy);
    }
}

// widen loads sixteen pixels as 16-bit lanes.
__attribute__((target("avx2"))) inline __m256i widen(const uchar *p) { return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)); }

// sobelRowAVX2 is sobelRow sixteen pixels at a time.
__attribute__((target("avx2"))) void sobelRowAVX2(const uchar *a, const uchar *b, const uchar *c, int n, short *dx, short *dy, int *mag) {
    auto load = widen;
    int x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i al = load(a + x - 1), am = load(a + x), ar = load(a + x + 1);
        __m256i bl = load(b + x - 1), br = load(b + x + 1);
        __m256i cl = load(c + x - 1), cm = load(c + x), cr = load(c + x + 1);
        __m256i gx = _mm256_add_epi16(_mm256_add_epi16(_mm256_sub_epi16(ar, al), _mm256_sub_epi16(cr, cl)),
                                      _mm256_slli_epi16(_mm256_sub_epi16(br, bl), 1));
        __m256i gy = _mm256_add_epi16(_mm256_add_epi16(_mm256_sub_epi16(cl, al), _mm256_sub_epi16(cr, ar)),
                                      _mm256_slli_epi16(_mm256_sub_epi16(cm, am), 1));
        _mm256_storeu_si256((__m256i *)(dx + x), gx);
        _mm256_storeu_si256((__m256i *)(dy + x), gy);
        __m256i sum = _mm256_add_epi16(_mm256_abs_epi16(gx), _mm256_abs_epi16(gy));
        _mm256_storeu_si256((__m256i *)(mag + x), _mm256_cvtepi16_epi32(_mm256_castsi256_si128(sum)));
        _mm256_storeu_si256((__m256i *)(mag + x + 8), _mm256_cvtepi16_epi32(_mm256_extracti128_si256(sum, 1)));
    }
    sobelRow(a, b, c, x, n, dx, dy, mag);
}


// The AVX-512 kernels: each is its AVX2 kernel twice as wide (16 magnitudes,
// 32 derivatives or sums, 64 marks at a time), with the same arithmetic,
// its rest done by the plain kernel.
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

AVX512 void suppressRowAVX512(const int *prev, const int *cur, const int *next, const short *dx, const short *dy,
                              const uchar *mask, int n, int low, int high, uchar *map) {
    const __m512i vlow = _mm512_set1_epi32(low), vhigh = _mm512_set1_epi32(high), vtg22 = _mm512_set1_epi32(tg22);
    const __m512i zero = _mm512_setzero_si512();
    const __m128i ones = _mm_set1_epi8(notEdge), twos = _mm_set1_epi8(edge), zeros = _mm_setzero_si128();
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        __m512i m = _mm512_loadu_si512((const void *)(cur + j));
        __mmask16 candidate = _mm512_cmpgt_epi32_mask(m, vlow);
        if (mask)
            candidate = _mm512_mask_cmpeq_epi32_mask(candidate, _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(mask + j))), zero);
        if (!candidate) {
            _mm_storeu_si128((__m128i *)(map + j), ones);
            continue;
        }
        __m512i xs = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(dx + j)));
        __m512i ys = _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)(dy + j)));
        __m512i x = _mm512_abs_epi32(xs), y = _mm512_slli_epi32(_mm512_abs_epi32(ys), 15);
        __m512i tg22x = _mm512_mullo_epi32(x, vtg22);
        __m512i tg67x = _mm512_add_epi32(tg22x, _mm512_slli_epi32(x, 16));
        __mmask16 horizontal = _mm512_cmpgt_epi32_mask(tg22x, y);
        __mmask16 vertical = _mm512_mask_cmpgt_epi32_mask((__mmask16)~horizontal, y, tg67x);
        __mmask16 diagonal = (__mmask16)~(horizontal | vertical);
        // m > a is cmpgt(m, a); m >= a is not cmpgt(a, m).
        __mmask16 hpeak = _mm512_cmpgt_epi32_mask(m, _mm512_loadu_si512((const void *)(cur + j - 1))) &
                          (__mmask16)~_mm512_cmpgt_epi32_mask(_mm512_loadu_si512((const void *)(cur + j + 1)), m);
        __mmask16 vpeak = _mm512_cmpgt_epi32_mask(m, _mm512_loadu_si512((const void *)(prev + j))) &
                          (__mmask16)~_mm512_cmpgt_epi32_mask(_mm512_loadu_si512((const void *)(next + j)), m);
        // Where the signs differ: prev[j+1] and next[j-1]; else prev[j-1] and next[j+1].
        __mmask16 differ = _mm512_cmplt_epi32_mask(_mm512_xor_si512(xs, ys), zero);
        __m512i upS = _mm512_mask_blend_epi32(differ, _mm512_loadu_si512((const void *)(prev + j - 1)), _mm512_loadu_si512((const void *)(prev + j + 1)));
        __m512i downS = _mm512_mask_blend_epi32(differ, _mm512_loadu_si512((const void *)(next + j + 1)), _mm512_loadu_si512((const void *)(next + j - 1)));
        __mmask16 dpeak = _mm512_cmpgt_epi32_mask(m, upS) & _mm512_cmpgt_epi32_mask(m, downS);
        __mmask16 peak = candidate & ((horizontal & hpeak) | (vertical & vpeak) | (diagonal & dpeak));
        __mmask16 strong = _mm512_cmpgt_epi32_mask(m, vhigh);
        // peak: edge (2) above high, maybeEdge (0) otherwise; else notEdge (1).
        __m128i marks = _mm_mask_mov_epi8(ones, peak, zeros);
        marks = _mm_mask_mov_epi8(marks, peak & strong, twos);
        _mm_storeu_si128((__m128i *)(map + j), marks);
    }
    suppressRow(prev, cur, next, dx, dy, mask, j, n, low, high, map);
}

AVX512 void magnitudeRowAVX512(const short *dx, const short *dy, int n, int *mag) {
    int j = 0;
    for (; j + 32 <= n; j += 32) {
        __m512i sum = _mm512_add_epi16(_mm512_abs_epi16(_mm512_loadu_si512((const void *)(dx + j))),
                                       _mm512_abs_epi16(_mm512_loadu_si512((const void *)(dy + j))));
        _mm512_storeu_si512((void *)(mag + j), _mm512_cvtepi16_epi32(_mm512_castsi512_si256(sum)));
        _mm512_storeu_si512((void *)(mag + j + 16), _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(sum, 1)));
    }
    magnitudeRow(dx, dy, j, n, mag);
}

AVX512 void edgeRowAVX512(const uchar *map, int n, uchar *out) {
    const __m512i two = _mm512_set1_epi8(edge);
    int j = 0;
    for (; j + 64 <= n; j += 64)
        _mm512_storeu_si512((void *)(out + j), _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(map + j)), two)));
    edgeRow(map, j, n, out);
}

AVX512 void thickRowAVX512(const uchar *above, const uchar *row, const uchar *below, int n, uchar *column, uchar *out) {
    int j = -1;
    for (; j + 64 <= n + 1; j += 64)
        _mm512_storeu_si512((void *)(column + 1 + j),
                            _mm512_or_si512(_mm512_or_si512(_mm512_loadu_si512((const void *)(above + j)), _mm512_loadu_si512((const void *)(row + j))),
                                            _mm512_loadu_si512((const void *)(below + j))));
    if (j <= n && n + 2 >= 64) // the last 64 again, ending at the border pixel
        _mm512_storeu_si512((void *)(column + n + 2 - 64),
                            _mm512_or_si512(_mm512_or_si512(_mm512_loadu_si512((const void *)(above + n + 1 - 64)), _mm512_loadu_si512((const void *)(row + n + 1 - 64))),
                                            _mm512_loadu_si512((const void *)(below + n + 1 - 64))));
    else
        for (; j <= n; j++)
            column[1 + j] = above[j] | row[j] | below[j];
    const __m512i two = _mm512_set1_epi8(edge);
    const uchar *c = column + 1;
    if (n < 64) {
        thickRow(above, row, below, 0, n, out);
        return;
    }
    // Whole vectors, the last one ending at the row's end (what it does
    // again comes out the same).
    for (int j = 0;; j = std::min(j + 64, n - 64)) {
        __m512i on = _mm512_or_si512(_mm512_or_si512(_mm512_loadu_si512((const void *)(c + j - 1)), _mm512_loadu_si512((const void *)(c + j))),
                                     _mm512_loadu_si512((const void *)(c + j + 1)));
        _mm512_storeu_si512((void *)(out + j), _mm512_movm_epi8(_mm512_test_epi8_mask(on, two)));
        if (j == n - 64)
            break;
    }
}

AVX512 inline __m512i widen512(const uchar *p) { return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p)); }

AVX512 void blurColumnsAVX512(const uchar *r0, const uchar *r1, const uchar *r2, const uchar *r3, const uchar *r4, int n, ushort *v) {
    const __m512i six = _mm512_set1_epi16(6);
    if (n < 32) {
        blurColumns(r0, r1, r2, r3, r4, 0, n, v);
        return;
    }
    // Whole vectors, the last one ending at the row's end (what it does
    // again comes out the same).
    for (int x = 0;; x = std::min(x + 32, n - 32)) {
        __m512i a = widen512(r0 + x), b = widen512(r1 + x), c = widen512(r2 + x), d = widen512(r3 + x), e = widen512(r4 + x);
        __m512i sum = _mm512_add_epi16(_mm512_add_epi16(a, e), _mm512_slli_epi16(_mm512_add_epi16(b, d), 2));
        sum = _mm512_add_epi16(sum, _mm512_mullo_epi16(c, six));
        _mm512_storeu_si512((void *)(v + x), sum);
        if (x == n - 32)
            break;
    }
}

AVX512 void blurRowAVX512(const ushort *v, int n, uchar *out) {
    const __m512i half = _mm512_set1_epi16(128), six = _mm512_set1_epi16(6);
    if (n < 32) {
        blurRow(v, 0, n, out);
        return;
    }
    // Whole vectors, the last one ending at the row's end (what it does
    // again comes out the same).
    for (int x = 0;; x = std::min(x + 32, n - 32)) {
        __m512i a = _mm512_loadu_si512((const void *)(v + x - 2)), b = _mm512_loadu_si512((const void *)(v + x - 1));
        __m512i c = _mm512_loadu_si512((const void *)(v + x)), d = _mm512_loadu_si512((const void *)(v + x + 1));
        __m512i e = _mm512_loadu_si512((const void *)(v + x + 2));
        __m512i sum = _mm512_add_epi16(_mm512_add_epi16(a, e), _mm512_slli_epi16(_mm512_add_epi16(b, d), 2));
        sum = _mm512_add_epi16(sum, _mm512_mullo_epi16(c, six));
        _mm256_storeu_si256((__m256i *)(out + x), _mm512_cvtepi16_epi8(_mm512_srli_epi16(_mm512_add_epi16(sum, half), 8)));
        if (x == n - 32)
            break;
    }
}

AVX512 void sobelRowAVX512(const uchar *a, const uchar *b, const uchar *c, int n, short *dx, short *dy, int *mag) {
    if (n < 32) {
        sobelRow(a, b, c, 0, n, dx, dy, mag);
        return;
    }
    // Whole vectors, the last one ending at the row's end (what it does
    // again comes out the same).
    for (int x = 0;; x = std::min(x + 32, n - 32)) {
        __m512i al = widen512(a + x - 1), am = widen512(a + x), ar = widen512(a + x + 1);
        __m512i bl = widen512(b + x - 1), br = widen512(b + x + 1);
        __m512i cl = widen512(c + x - 1), cm = widen512(c + x), cr = widen512(c + x + 1);
        __m512i gx = _mm512_add_epi16(_mm512_add_epi16(_mm512_sub_epi16(ar, al), _mm512_sub_epi16(cr, cl)),
                                      _mm512_slli_epi16(_mm512_sub_epi16(br, bl), 1));
        __m512i gy = _mm512_add_epi16(_mm512_add_epi16(_mm512_sub_epi16(cl, al), _mm512_sub_epi16(cr, ar)),
                                      _mm512_slli_epi16(_mm512_sub_epi16(cm, am), 1));
        _mm512_storeu_si512((void *)(dx + x), gx);
        _mm512_storeu_si512((void *)(dy + x), gy);
        __m512i sum = _mm512_add_epi16(_mm512_abs_epi16(gx), _mm512_abs_epi16(gy));
        _mm512_storeu_si512((void *)(mag + x), _mm512_cvtepi16_epi32(_mm512_castsi512_si256(sum)));
        _mm512_storeu_si512((void *)(mag + x + 16), _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(sum, 1)));
        if (x == n - 32)
            break;
    }
}

// pushEdges pushes onto stack, in order, the pixels from..to of a map row
// marked edge.
void pushEdges(uchar *row, int from, int to, std::vector<uchar *> &stack) {
    for (uchar *e = row + from, *end = row + to; (e = (uchar *)std::memchr(e, edge, end - e)) != nullptr; e++)
        stack.push_back(e);
}

// pushEdgesAVX512 is pushEdges 64 pixels at a time.
AVX512 void pushEdgesAVX512(uchar *row, int from, int to, std::vector<uchar *> &stack) {
    const __m512i marked = _mm512_set1_epi8(edge);
    for (int x = from; x < to; x += 64) {
        const __mmask64 in = to - x >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (to - x)) - 1);
        for (__mmask64 m = _mm512_mask_cmpeq_epi8_mask(in, _mm512_maskz_loadu_epi8(in, row + x), marked); m; m &= m - 1)
            stack.push_back(row + x + __builtin_ctzll(m));
    }
}

// vectors is how wide the kernels run: the plain ones, AVX2 or AVX-512.
enum vectors { plain = 0, avx2 = 1, avx512 = 2 };

// vectorsUpTo is the widest vectors this processor runs, up to width (0
// plain, 1 AVX2, 2 AVX-512).
inline vectors vectorsUpTo(int width) {
    if (width >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
        return avx512;
    if (width >= 1 && __builtin_cpu_supports("avx2"))
        return avx2;
    return plain;
}

// Row kernels at a width.
void suppressAt(vectors w, const int *prev, const int *cur, const int *next, const short *dx, const short *dy, const uchar *mask, int n,
                int low, int high, uchar *map) {
    if (w == avx512)
        suppressRowAVX512(prev, cur, next, dx, dy, mask, n, low, high, map);
    else if (w == avx2)
        suppressRowAVX2(prev, cur, next, dx, dy, mask, n, low, high, map);
    else
        suppressRow(prev, cur, next, dx, dy, mask, 0, n, low, high, map);
}

void magnitudeAt(vectors w, const short *dx, const short *dy, int n, int *mag) {
    if (w == avx512)
        magnitudeRowAVX512(dx, dy, n, mag);
    else if (w == avx2)
        magnitudeRowAVX2(dx, dy, n, mag);
    else
        magnitudeRow(dx, dy, 0, n, mag);
}

void edgeAt(vectors w, const uchar *map, int n, uchar *out) {
    if (w == avx512)
        edgeRowAVX512(map, n, out);
    else if (w == avx2)
        edgeRowAVX2(map, n, out);
    else
        edgeRow(map, 0, n, out);
}

void thickAt(vectors w, const uchar *above, const uchar *row, const uchar *below, int n, uchar *column, uchar *out) {
    if (w == avx512)
        thickRowAVX512(above, row, below, n, column, out);
    else if (w == avx2)
        thickRowAVX2(above, row, below, n, column, out);
    else
        thickRow(above, row, below, 0, n, out);
}

void blurColumnsAt(vectors w, const uchar *r0, const uchar *r1, const uchar *r2, const uchar *r3, const uchar *r4, int n, ushort *v) {
    if (w == avx512)
        blurColumnsAVX512(r0, r1, r2, r3, r4, n, v);
    else if (w == avx2)
        blurColumnsAVX2(r0, r1, r2, r3, r4, n, v);
    else
        blurColumns(r0, r1, r2, r3, r4, 0, n, v);
}

void blurRowAt(vectors w, const ushort *v, int n, uchar *out) {
    if (w == avx512)
        blurRowAVX512(v, n, out);
    else if (w == avx2)
        blurRowAVX2(v, n, out);
    else
        blurRow(v, 0, n, out);
}

void sobelAt(vectors w, const uchar *a, const uchar *b, const uchar *c, int n, short *dx, short *dy, int *mag) {
    if (w == avx512)
        sobelRowAVX512(a, b, c, n, dx, dy, mag);
    else if (w == avx2)
        sobelRowAVX2(a, b, c, n, dx, dy, mag);
    else
        sobelRow(a, b, c, 0, n, dx, dy, mag);
}

// polygonRows holds, for each row y of an image that a convex polygon
// spans (from y0), the pixels of the row whose centres lie in the polygon:
// lo..hi, empty when hi < lo. of finds them side by side, each side walked
// down the rows it spans, rather than row by row through all the sides.
struct polygonRows {
    int y0 = 0;
    std::vector<int> lo, hi;
    std::vector<double> l, h; // the bounds of each row, before rounding
    // of finds the rows of an image rows high for the polygon of n corners
    // xy (x, y pairs).
    void of(const double *xy, int n, int rows);
    // at gives row y's pixels, empty beyond the rows held.
    void at(int y, int &from, int &to) const {
        if (y < y0 || y >= y0 + (int)lo.size()) {
            from = 1, to = 0;
            return;
        }
        from = lo[y - y0], to = hi[y - y0];
    }
};

void polygonRows::of(const double *xy, int n, int rows) {
    double minY = HUGE_VAL, maxY = -HUGE_VAL;
    for (int k = 0; k < n; k++) {
        minY = std::min(minY, xy[2 * k + 1]);
        maxY = std::max(maxY, xy[2 * k + 1]);
    }
    lo.clear(), hi.clear();
    y0 = 0;
    if (!(minY <= maxY))
        return;
    y0 = (int)std::max(std::ceil(minY), 0.0);
    const int y1 = (int)std::min(std::floor(maxY), (double)rows - 1); // the last row
    if (y1 < y0)
        return;
    const int m = y1 - y0 + 1;
    l.assign(m, HUGE_VAL);
    h.assign(m, -HUGE_VAL);
    for (int k = 0; k < n; k++) {
        const int next = k + 1 < n ? k + 1 : 0;
        const double ax = xy[2 * k], ay = xy[2 * k + 1], bx = xy[2 * next], by = xy[2 * next + 1];
        // The rows y with (y - ay)·(y - by) ≤ 0: those the side spans,
        // its ends included.
        const int from = (int)std::max(std::ceil(std::min(ay, by)), (double)y0);
        const int to = (int)std::min(std::floor(std::max(ay, by)), (double)y1);
        for (int y = from; y <= to; y++) {
            double xl, xh;
            if (ay == by) {
                xl = std::min(ax, bx);
                xh = std::max(ax, bx);
            } else {
                const double x = ax + (y - ay) * (bx - ax) / (by - ay);
                xl = xh = x;
            }
            l[y - y0] = std::min(l[y - y0], xl);
            h[y - y0] = std::max(h[y - y0], xh);
        }
    }
    lo.resize(m);
    hi.resize(m);
    for (int i = 0; i < m; i++) {
        if (l[i] > h[i]) {
            lo[i] = 1, hi[i] = 0;
            continue;
        }
        lo[i] = (int)std::max(std::ceil(l[i]), -1.0);
        hi[i] = (int)std::min(std::floor(h[i]), 1e9);
    }
}

// edgeDetector keeps the buffers of one Canny pass for the next, so that
// megabytes are not allocated, and paged in, anew for every frame.
struct edgeDetector {
    cv::Mat dx, dy;
    std::vector<int> ring;
    std::vector<uchar> map;
    std::vector<uchar *> stack;
    std::vector<uchar> column;
    // The edge pixels marked with their directions, their derivatives and
    // marks (tablecam_mark_directions).
    std::vector<int> listed, gx, gy;
    std::vector<uchar> codes; // a row of the thickened edges, down the rows
    // The blurred front end's rows: vertical sums, four blurred rows and two
    // rows of derivatives.
    std::vector<ushort> columns;
    std::vector<uchar> blurred;
    std::vector<short> derivatives;
    // A row's stretches open to edges, and the hidden ones cut out of it.
    std::vector<std::pair<int, int>> spans, cut;
    polygonRows withinRows;
    std::vector<polygonRows> hiddenRows;
    // The outline search's contours: the edge map with a border when it
    // has no room for one, a contour's points and the rectangles kept.
    cv::Mat padded;
    std::vector<cv::Point> points;
    std::vector<tablecam_rect> rects;
};


// openSpans lists in spans the stretches [x0, x1) of row y (cols wide)
// whose pixels' centres lie within the polygon whose rows are within (the
// whole row when it is null) and in none of the hidden quads (their rows).
void openSpans(int y, int cols, const polygonRows *within, const std::vector<polygonRows> &hidden,
               std::vector<std::pair<int, int>> &cut, std::vector<std::pair<int, int>> &spans) {
    spans.clear();
    int from = 0, to = cols - 1;
    if (within) {
        int lo, hi;
        within->at(y, lo, hi);
        from = std::max(from, lo);
        to = std::min(to, hi);
    }
    if (from > to)
        return;
    cut.clear();
    for (const auto &q : hidden) {
        int lo, hi;
        q.at(y, lo, hi);
        if (lo <= hi && hi >= from && lo <= to)
            cut.push_back({lo, hi});
    }
    std::sort(cut.begin(), cut.end());
    int x = from;
    for (const auto &c : cut) {
        if (c.first > x)
            spans.push_back({x, std::min(c.first, to + 1)});
        x = std::max(x, c.second + 1);
        if (x > to)
            break;
    }
    if (x <= to)
        spans.push_back({x, to + 1});
}

// follow marks the edges of an image of rows×cols pixels in dst (255 on an
// edge), as cv::Canny does from its derivatives: gradient(i, mag) gives row
// i's derivatives (dx, dy) and writes its L1 magnitude to mag; it is called
// for the rows in order, and row i's derivatives must stay valid until
// row i+1's are asked for.
template <class Gradient>
void follow(edgeDetector &d, int rows, int cols, const cv::Mat &mask, const double *within, int nWithin, const double *hidden, int nHidden,
            int low, int high, bool thick, vectors w, Gradient gradient, cv::Mat &dst, cv::Mat *thickToo) {
    // Three magnitude rows, each with a 0 on both sides; the rows above
    // the first and below the last are 0.
    const int width = cols + 2;
    std::vector<int> &ring = d.ring;
    ring.assign(3 * width, 0);
    int *prev = ring.data() + 1, *cur = prev + width, *next = cur + width;
    std::pair<const short *, const short *> curGrad, nextGrad = gradient(0, next);

    // The map has a border of notEdge all round: the rows above and below
    // here, each row (its ends too) as it comes.
    const int mapstep = cols + 2;
    std::vector<uchar> &map = d.map;
    map.resize((size_t)(rows + 2) * mapstep);
    std::memset(map.data(), notEdge, mapstep);
    std::memset(map.data() + (size_t)(rows + 1) * mapstep, notEdge, mapstep);
    std::vector<uchar *> &stack = d.stack;
    stack.clear();
    d.column.resize(cols + 2);
    // The rows of the polygons that bound where edges are marked.
    if (nWithin > 0)
        d.withinRows.of(within, nWithin, rows);
    d.hiddenRows.resize(nHidden);
    for (int q = 0; q < nHidden; q++)
        d.hiddenRows[q].of(hidden + 8 * q, 4, rows);
    for (int i = 0; i < rows; i++) {
        std::swap(prev, cur);
        std::swap(cur, next);
        curGrad = nextGrad;
        if (i + 1 < rows)
            nextGrad = gradient(i + 1, next);
        else
            std::fill(next, next + cols, 0);
        uchar *row = map.data() + (size_t)(i + 1) * mapstep + 1;
        const uchar *masked = mask.empty() ? nullptr : mask.ptr<uchar>(i);
        const short *dx = curGrad.first, *dy = curGrad.second;
        if (nWithin == 0 && nHidden == 0)
            d.spans.assign(1, {0, cols});
        else
            openSpans(i, cols, nWithin > 0 ? &d.withinRows : nullptr, d.hiddenRows, d.cut, d.spans);
        // Outside the spans the map stays notEdge.
        std::memset(row - 1, notEdge, mapstep);
        for (const auto &s : d.spans) {
            const int x = s.first, n = s.second - s.first;
            // Whole vectors, the last one ending at the span's end (the
            // marks it writes twice are the same).
            auto suppress = [&](int x, int n) {
                suppressAt(w, prev + x, cur + x, next + x, dx + x, dy + x, masked ? masked + x : nullptr, n, low, high, row + x);
            };
            if (n < 16 || n % 16 == 0) {
                suppress(x, n);
            } else {
                suppress(x, n - n % 16);
                suppress(s.second - 16, 16);
            }
            if (w == avx512)
                pushEdgesAVX512(row, x, s.second, stack);
            else
                pushEdges(row, x, s.second, stack);
        }
    }

    // Hysteresis: edges grow through the pixels that may be on one.
    while (!stack.empty()) {
        uchar *m = stack.back();
        stack.pop_back();
        const ptrdiff_t around[8] = {-mapstep - 1, -mapstep, -mapstep + 1, -1, 1, mapstep - 1, mapstep, mapstep + 1};
        for (ptrdiff_t d : around) {
            if (m[d] == maybeEdge) {
                m[d] = edge;
                stack.push_back(m + d);
            }
        }
    }

    for (int i = 0; i < rows; i++) {
        const uchar *row = map.data() + (size_t)(i + 1) * mapstep + 1;
        if (thickToo)
            thickAt(w, row - mapstep, row, row + mapstep, cols, d.column.data(), thickToo->ptr<uchar>(i));
        if (thick)
            thickAt(w, row - mapstep, row, row + mapstep, cols, d.column.data(), dst.ptr<uchar>(i));
        else
            edgeAt(w, row, cols, dst.ptr<uchar>(i));
    }
}

// The contour search: Suzuki and Abe's border following, as OpenCV 4's
// cvFindContours runs it for RETR_LIST and CHAIN_APPROX_SIMPLE (its
// scanner and icvFetchContour, step for step: the same contours, with the
// same points, found in the same order), without its sequences and memory
// storage: each contour's points are handed over in one reused vector,
// and the scan skips runs of equal pixels 64 at a time.

// The map's pixels once thresholded, as in OpenCV: 0, 1 (not followed
// yet), and the marks of followed borders. A map of 0 and 255 only is
// followed as it is, 255 (-1) standing for 1 (the argument one below).
const schar borderMark = 2, rightBorderMark = (schar)(2 | -128);

// contourSteps are the offsets, in pixels, to a pixel's neighbours in
// OpenCV's chain-code order (right, then anticlockwise), twice over.
struct contourSteps {
    int delta[16];
    explicit contourSteps(int step) {
        const int d[8] = {1, -step + 1, -step, -step - 1, -1, step - 1, step, step + 1};
        for (int i = 0; i < 16; i++)
            delta[i] = d[i % 8];
    }
};

const cv::Point chainDelta[8] = {{1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}, {1, 1}};

// followBorder follows the border that starts at i0 (pixel pt), an outer
// border or a hole's, marking it, and lists its points in pts: those where
// the border turns (icvFetchContour with CHAIN_APPROX_SIMPLE).
void followBorder(schar *i0, const contourSteps &steps, cv::Point pt, bool hole, schar one, std::vector<cv::Point> &pts) {
    const int *deltas = steps.delta;
    pts.clear();
    int s, s_end;
    s_end = s = hole ? 0 : 4;
    schar *i1;
    do {
        s = (s - 1) & 7;
        i1 = i0 + deltas[s];
    } while (*i1 == 0 && s != s_end);
    if (s == s_end) { // a single pixel
        *i0 = rightBorderMark;
        pts.push_back(pt);
        return;
    }
    schar *i3 = i0, *i4 = nullptr;
    int prev_s = s ^ 4;
    for (;;) {
        s_end = s;
        while (s < 15) {
            i4 = i3 + deltas[++s];
            if (*i4 != 0)
                break;
        }
        s &= 7;
        // The "right" bound.
        if ((unsigned)(s - 1) < (unsigned)s_end)
            *i3 = rightBorderMark;
        else if (*i3 == one)
            *i3 = borderMark;
        if (s != prev_s) {
            pts.push_back(pt);
            prev_s = s;
        }
        pt.x += chainDelta[s].x;
        pt.y += chainDelta[s].y;
        if (i4 == i0 && i3 == i1)
            break;
        i3 = i4;
        s = (s + 4) & 7;
    }
}

// A border starts where the scan meets, after a pixel of 0, a pixel of 1
// (an outer border, not followed yet), or after a pixel of 1 or of
// borderMark (on a border not followed as a right one), a 0 (a hole's).
// Wherever else two pixels in a row differ, OpenCV's scanner moves on.
inline bool startsBorder(schar before, schar p, schar one) { return (before == 0 && p == one) || (p == 0 && (before == one || before == borderMark)); }

// nextStart gives the first x in [x, width) of row where a border starts
// (width when none does).
int nextStart(const schar *row, int x, int width, schar one) {
    for (; x < width && !startsBorder(row[x - 1], row[x], one); x++)
        ;
    return x;
}

AVX512 int nextStartAVX512(const schar *row, int x, int width, schar notFollowed) {
    const __m512i one = _mm512_set1_epi8(notFollowed), mark = _mm512_set1_epi8(borderMark);
    for (; x < width; x += 64) {
        // The last vector is cut short at width.
        const __mmask64 in = width - x >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (width - x)) - 1);
        const __m512i p = _mm512_maskz_loadu_epi8(in, row + x), before = _mm512_maskz_loadu_epi8(in, row + x - 1);
        const __mmask64 pZero = _mm512_testn_epi8_mask(p, p), beforeZero = _mm512_testn_epi8_mask(before, before);
        const __mmask64 starts = in & ((beforeZero & _mm512_cmpeq_epi8_mask(p, one)) |
                                       (pZero & (_mm512_cmpeq_epi8_mask(before, one) | _mm512_cmpeq_epi8_mask(before, mark))));
        if (starts)
            return x + (int)__builtin_ctzll(starts);
    }
    return width;
}

// findContours hands each contour of the 8-bit map img (whose border, a
// pixel all round, it clears, and which it thresholds, unless it holds
// only 0 and 255 (edgesOnly), and marks) to found,
// as its points (offset by a pixel: in the map within the border), in the
// order OpenCV's scanner finds them (cv::findContours lists them the other
// way round).
template <class Found>
void findContours(edgeDetector &d, cv::Mat &img, bool edgesOnly, Found found) {
    const int rows = img.rows, cols = img.cols;
    if (rows < 3 || cols < 3) {
        img.setTo(0);
        return;
    }
    // A border of 0, and every other pixel 0 or 1 (cvStartFindContours).
    img.row(0).setTo(0);
    img.row(rows - 1).setTo(0);
    img.col(0).setTo(0);
    img.col(cols - 1).setTo(0);
    schar one = -1; // 255
    if (!edgesOnly) {
        cv::threshold(img, img, 0, 1, cv::THRESH_BINARY);
        one = 1;
    }
    const bool wide = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    const int step = (int)img.step;
    const contourSteps steps(step);
    const int width = cols - 1, height = rows - 1; // the last column and row left out
    std::vector<cv::Point> &pts = d.points;
    for (int y = 1; y < height; y++) {
        schar *row = img.ptr<schar>(y);
        for (int x = 1;; x++) {
            x = wide ? nextStartAVX512(row, x, width, one) : nextStart(row, x, width, one);
            if (x >= width)
                break;
            const bool hole = row[x] == 0; // else an outer border
            followBorder(row + x - hole, steps, cv::Point(x - hole - 1, y - 1), hole, one, pts);
            found((const std::vector<cv::Point> &)pts);
        }
    }
}

// Edge directions, for the side search (outline_sides.go): each edge
// pixel of a thin edge map marked with the direction of the gradient of
// the blurred image there, in 256 steps of a whole turn (its mark never 0:
// step 0 is taken for 1), exactly as vision's dirCode(dirStep(gx, gy))
// gives it from the 3×3 Sobel derivatives: the same double arithmetic in
// the same order (a fast arctangent), the branches taken by blends.

const double quarterPi = M_PI / 4, halfPi = M_PI / 2, twoPi = 2 * M_PI;

// dirCode is the mark of the gradient (gx, gy); 1 when there is none.
// Compiled for the plain processor: no fused multiply-adds.
uchar dirCode(int gx, int gy) {
    if (gx == 0 && gy == 0)
        return 1;
    const double x = gx, y = gy, ax = std::fabs(x), ay = std::fabs(y);
    double a;
    if (ax >= ay) {
        const double z = ay / ax;
        a = z * (quarterPi + 0.273 * (1 - z));
    } else {
        const double z = ax / ay;
        a = halfPi - z * (quarterPi + 0.273 * (1 - z));
    }
    if (x < 0)
        a = M_PI - a;
    if (y < 0)
        a = twoPi - a;
    const double v = a * 256 / twoPi; // at least 0
    double r = std::trunc(v);
    if (v - r >= 0.5) // rounded half away from zero, as Go's math.Round
        r += 1;
    const int s = (int)r & 255;
    return s == 0 ? 1 : (uchar)s;
}

void dirCodes(const int *gx, const int *gy, int from, int n, uchar *out) {
    for (int k = from; k < n; k++)
        out[k] = dirCode(gx[k], gy[k]);
}

// dirCodesAVX512 is dirCodes eight at a time. Each product and sum is
// rounded on its own, as in Go (fp-contract off: no fused multiply-adds).
__attribute__((target("avx512f,avx512bw,avx512vl"), optimize("fp-contract=off"))) void dirCodesAVX512(const int *gx, const int *gy, int n,
                                                                                                              uchar *out) {
    const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1), half = _mm512_set1_pd(0.5);
    const __m512d qpi = _mm512_set1_pd(quarterPi), hpi = _mm512_set1_pd(halfPi), pi = _mm512_set1_pd(M_PI), tpi = _mm512_set1_pd(twoPi);
    const __m512d c273 = _mm512_set1_pd(0.273), steps = _mm512_set1_pd(256);
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        const __m256i ix = _mm256_loadu_si256((const __m256i *)(gx + k)), iy = _mm256_loadu_si256((const __m256i *)(gy + k));
        const __m512d x = _mm512_cvtepi32_pd(ix), y = _mm512_cvtepi32_pd(iy);
        const __m512d ax = _mm512_abs_pd(x), ay = _mm512_abs_pd(y);
        const __mmask8 wide = _mm512_cmp_pd_mask(ax, ay, _CMP_GE_OQ);
        // z: ay/ax where ax >= ay, else ax/ay.
        const __m512d z = _mm512_div_pd(_mm512_min_pd(ax, ay), _mm512_max_pd(ax, ay));
        const __m512d t = _mm512_mul_pd(z, _mm512_add_pd(qpi, _mm512_mul_pd(c273, _mm512_sub_pd(one, z))));
        __m512d a = _mm512_mask_blend_pd(wide, _mm512_sub_pd(hpi, t), t);
        a = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, zero, _CMP_LT_OQ), a, _mm512_sub_pd(pi, a));
        a = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(y, zero, _CMP_LT_OQ), a, _mm512_sub_pd(tpi, a));
        const __m512d v = _mm512_div_pd(_mm512_mul_pd(a, steps), tpi);
        __m512d r = _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        r = _mm512_mask_add_pd(r, _mm512_cmp_pd_mask(_mm512_sub_pd(v, r), half, _CMP_GE_OQ), r, one);
        __m256i s = _mm256_and_si256(_mm512_cvttpd_epi32(r), _mm256_set1_epi32(255));
        // No direction (0, 0: z is NaN there) and step 0 both mark 1.
        const __mmask8 none = _mm256_cmpeq_epi32_mask(_mm256_or_si256(ix, iy), _mm256_setzero_si256()) |
                              _mm256_cmpeq_epi32_mask(s, _mm256_setzero_si256());
        s = _mm256_mask_mov_epi32(s, none, _mm256_set1_epi32(1));
        _mm_storel_epi64((__m128i *)(out + k), _mm256_cvtepi32_epi8(s));
    }
    dirCodes(gx, gy, k, n, out);
}

// dirCodesAVX2 is dirCodes four at a time.
__attribute__((target("avx2,sse4.1"), optimize("fp-contract=off"))) void dirCodesAVX2(const int *gx, const int *gy, int n, uchar *out) {
    const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1), half = _mm256_set1_pd(0.5);
    const __m256d qpi = _mm256_set1_pd(quarterPi), hpi = _mm256_set1_pd(halfPi), pi = _mm256_set1_pd(M_PI), tpi = _mm256_set1_pd(twoPi);
    const __m256d c273 = _mm256_set1_pd(0.273), steps = _mm256_set1_pd(256);
    const __m256d sign = _mm256_set1_pd(-0.0);
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        const __m128i ix = _mm_loadu_si128((const __m128i *)(gx + k)), iy = _mm_loadu_si128((const __m128i *)(gy + k));
        const __m256d x = _mm256_cvtepi32_pd(ix), y = _mm256_cvtepi32_pd(iy);
        const __m256d ax = _mm256_andnot_pd(sign, x), ay = _mm256_andnot_pd(sign, y);
        const __m256d wide = _mm256_cmp_pd(ax, ay, _CMP_GE_OQ);
        const __m256d z = _mm256_div_pd(_mm256_min_pd(ax, ay), _mm256_max_pd(ax, ay));
        const __m256d t = _mm256_mul_pd(z, _mm256_add_pd(qpi, _mm256_mul_pd(c273, _mm256_sub_pd(one, z))));
        __m256d a = _mm256_blendv_pd(_mm256_sub_pd(hpi, t), t, wide);
        a = _mm256_blendv_pd(a, _mm256_sub_pd(pi, a), _mm256_cmp_pd(x, zero, _CMP_LT_OQ));
        a = _mm256_blendv_pd(a, _mm256_sub_pd(tpi, a), _mm256_cmp_pd(y, zero, _CMP_LT_OQ));
        const __m256d v = _mm256_div_pd(_mm256_mul_pd(a, steps), tpi);
        __m256d r = _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        r = _mm256_add_pd(r, _mm256_and_pd(_mm256_cmp_pd(_mm256_sub_pd(v, r), half, _CMP_GE_OQ), one));
        __m128i s = _mm_and_si128(_mm256_cvttpd_epi32(r), _mm_set1_epi32(255));
        const __m128i none = _mm_or_si128(_mm_cmpeq_epi32(_mm_or_si128(ix, iy), _mm_setzero_si128()), _mm_cmpeq_epi32(s, _mm_setzero_si128()));
        s = _mm_blendv_epi8(s, _mm_set1_epi32(1), none);
        const __m128i bytes = _mm_shuffle_epi8(s, _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
        const int packed = _mm_cvtsi128_si32(bytes);
        std::memcpy(out + k, &packed, 4);
    }
    dirCodes(gx, gy, k, n, out);
}

void dirCodesAt(vectors w, const int *gx, const int *gy, int n, uchar *out) {
    if (w == avx512)
        dirCodesAVX512(gx, gy, n, out);
    else if (w == avx2)
        dirCodesAVX2(gx, gy, n, out);
    else
        dirCodes(gx, gy, 0, n, out);
}

// listRowAVX512 lists the pixels of a row (cols wide, its ends 0) that are
// not 0 (base + x), 64 at a time.
AVX512 void listRowAVX512(const uchar *row, int cols, int base, std::vector<int> &listed) {
    for (int x = 0; x < cols; x += 64) {
        const __mmask64 in = cols - x >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << (cols - x)) - 1);
        const __m512i p = _mm512_maskz_loadu_epi8(in, row + x);
        for (__mmask64 m = _mm512_test_epi8_mask(p, p); m; m &= m - 1)
            listed.push_back(base + x + __builtin_ctzll(m));
    }
}

// listEdges lists in listed the pixels (y·cols + x) of an 8-bit edge map
// that are not 0, row by row, less those of its first and last rows and
// columns, which it clears.
void listEdges(cv::Mat &edges, vectors w, std::vector<int> &listed) {
    listed.clear();
    const int rows = edges.rows, cols = edges.cols;
    if (rows == 0 || cols == 0)
        return;
    edges.row(0).setTo(0);
    edges.row(rows - 1).setTo(0);
    for (int y = 1; y < rows - 1; y++) {
        uchar *row = edges.ptr<uchar>(y);
        row[0] = row[cols - 1] = 0;
        const int base = y * cols;
        if (w == avx512) {
            listRowAVX512(row, cols, base, listed);
            continue;
        }
        for (int x = 1; x < cols - 1; x++)
            if (row[x])
                listed.push_back(base + x);
    }
}

} // namespace

extern "C" {

// tablecam_blur writes cv::GaussianBlur(src, Size(5, 5), 0, 0,
// BORDER_REPLICATE) of an 8-bit grey image to dst: the blur the Canny
// above reads (blurColumns, blurRow), row by row, with vector
// instructions up to width. It returns 0, or -1 when OpenCV fails.
int tablecam_blur(void *srcp, void *dstp, int width) {
    try {
        const cv::Mat &src = *(cv::Mat *)srcp;
        cv::Mat &dst = *(cv::Mat *)dstp;
        CV_Assert(src.type() == CV_8UC1 && src.data != dst.data);
        const int rows = src.rows, cols = src.cols;
        dst.create(rows, cols, CV_8UC1);
        if (rows == 0 || cols == 0)
            return 0;
        const vectors w = vectorsUpTo(width);
        // The vertical sums with two replicated on either side.
        std::vector<ushort> columns(cols + 4);
        ushort *v = columns.data() + 2;
        auto at = [&](int r) { return src.ptr<uchar>(std::min(std::max(r, 0), rows - 1)); };
        for (int j = 0; j < rows; j++) {
            blurColumnsAt(w, at(j - 2), at(j - 1), at(j), at(j + 1), at(j + 2), cols, v);
            v[-2] = v[-1] = v[0];
            v[cols] = v[cols + 1] = v[cols - 1];
            blurRowAt(w, v, cols, dst.ptr<uchar>(j));
        }
        return 0;
    } catch (const cv::Exception &) {
        return -1;
    }
}

tablecam_edges tablecam_edges_new(void) { return new edgeDetector; }

// tablecam_mark_directions marks each pixel of the 8-bit edge map edgesp
// that is not 0 with its direction in the 8-bit image greyp of its size
// (the image the edges were found on, blurred): dirCode of its 3×3 Sobel
// derivatives there; it clears the map's first and last rows and columns.
// It gives the pixels marked (y·cols + x, row by row): n of them, valid
// until the next call. It uses vector instructions up to width (the same
// marks at every width). It returns NULL with n = -1 when OpenCV fails.
const int *tablecam_mark_directions(tablecam_edges e, void *edgesp, void *greyp, int width, int *n) {
    try {
        edgeDetector &d = *(edgeDetector *)e;
        cv::Mat &edges = *(cv::Mat *)edgesp;
        const cv::Mat &grey = *(cv::Mat *)greyp;
        CV_Assert(edges.type() == CV_8UC1 && grey.type() == CV_8UC1 && edges.size() == grey.size() && edges.isContinuous());
        const vectors w = vectorsUpTo(width);
        listEdges(edges, w, d.listed);
        const int m = (int)d.listed.size(), cols = edges.cols;
        d.gx.resize(m);
        d.gy.resize(m);
        d.codes.resize(m);
        const uchar *g = grey.data;
        const size_t step = grey.step;
        for (int k = 0; k < m; k++) {
            const int i = d.listed[k], y = i / cols, x = i - y * cols;
            const uchar *a = g + (y - 1) * step + x, *b = a + step, *c = b + step;
            d.gx[k] = (a[1] - a[-1]) + 2 * (b[1] - b[-1]) + (c[1] - c[-1]);
            d.gy[k] = (c[-1] - a[-1]) + 2 * (c[0] - a[0]) + (c[1] - a[1]);
        }
        dirCodesAt(w, d.gx.data(), d.gy.data(), m, d.codes.data());
        uchar *p = edges.data;
        for (int k = 0; k < m; k++)
            p[d.listed[k]] = d.codes[k];
        *n = m;
        return d.listed.data();
    } catch (const cv::Exception &) {
        *n = -1;
        return nullptr;
    }
}

// tablecam_dir_codes writes the direction marks (dirCode) of n gradients,
// with vector instructions up to width.
void tablecam_dir_codes(const int *gx, const int *gy, int n, int width, unsigned char *out) { dirCodesAt(vectorsUpTo(width), gx, gy, n, out); }

void tablecam_edges_close(tablecam_edges e) { delete (edgeDetector *)e; }


// tablecam_canny writes cv::Canny(src, dst, low, high, 3, false) to dst:
// 255 on edges, 0 elsewhere; where mask (unless empty) is set, no edge is
// marked or followed. With blur set, it writes the edges of
// cv::GaussianBlur(src, Size(5, 5), 0, 0, BORDER_REPLICATE) instead; with
// thick set, the edges dilated by a 3×3 square (cv::dilate with a 3×3
// MORPH_RECT). No edge is marked or followed either at a pixel whose
// centre lies outside the convex polygon within (nWithin corners, x and y;
// none: the whole image) or inside one of the convex hidden quads
// (nHidden, eight numbers each). Unless they are null, thickp gets the
// edges dilated (as thick makes dst) besides dst, and, with blur set,
// blurredp the blurred image. It returns 0, or -1 when OpenCV fails.
int tablecam_canny(tablecam_edges e, void *srcp, void *maskp, void *dstp, int low, int high, int blur, int thick, int width,
                   const double *within, int nWithin, const double *hidden, int nHidden, void *thickp, void *blurredp) {
    try {
        edgeDetector &d = *(edgeDetector *)e;
        const cv::Mat &src = *(cv::Mat *)srcp;
        const cv::Mat &mask = *(cv::Mat *)maskp;
        CV_Assert(mask.empty() || (mask.type() == CV_8UC1 && mask.size() == src.size()));
        cv::Mat &dst = *(cv::Mat *)dstp;
        CV_Assert(src.type() == CV_8UC1);
        if (low > high)
            std::swap(low, high);
        const int rows = src.rows, cols = src.cols;
        dst.create(rows, cols, CV_8UC1);
        cv::Mat *thickToo = (cv::Mat *)thickp, *blurredOut = blur ? (cv::Mat *)blurredp : nullptr;
        if (thickToo)
            thickToo->create(rows, cols, CV_8UC1);
        if (blurredOut)
            blurredOut->create(rows, cols, CV_8UC1);
        if (rows == 0 || cols == 0)
            return 0;
        const vectors w = vectorsUpTo(width);
        if (!blur) {
            cv::Mat &dx = d.dx, &dy = d.dy;
            cv::Sobel(src, dx, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
            cv::Sobel(src, dy, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
            follow(d, rows, cols, mask, within, nWithin, hidden, nHidden, low, high, thick, w, [&](int i, int *mag) {
                magnitudeAt(w, dx.ptr<short>(i), dy.ptr<short>(i), cols, mag);
                return std::make_pair((const short *)dx.ptr<short>(i), (const short *)dy.ptr<short>(i));
            }, dst, thickToo);
            return 0;
        }

        // Blurred rows as they are needed, four kept (row j in slot j%4),
        // each with one replicated pixel on either side; the vertical sums
        // with two.
        const int bstep = cols + 2;
        d.columns.resize(cols + 4);
        d.blurred.resize((size_t)4 * bstep);
        d.derivatives.resize((size_t)4 * cols);
        int held[4] = {-1, -1, -1, -1};
        auto blurred = [&](int j) -> const uchar * {
            j = std::min(std::max(j, 0), rows - 1);
            uchar *b = d.blurred.data() + (size_t)(j % 4) * bstep + 1;
            if (held[j % 4] == j)
                return b;
            held[j % 4] = j;
            auto at = [&](int r) { return src.ptr<uchar>(std::min(std::max(r, 0), rows - 1)); };
            ushort *v = d.columns.data() + 2;
            blurColumnsAt(w, at(j - 2), at(j - 1), at(j), at(j + 1), at(j + 2), cols, v);
            v[-2] = v[-1] = v[0];
            v[cols] = v[cols + 1] = v[cols - 1];
            blurRowAt(w, v, cols, b);
            b[-1] = b[0];
            b[cols] = b[cols - 1];
            if (blurredOut)
                std::memcpy(blurredOut->ptr<uchar>(j), b, cols);
            return b;
        };
        follow(d, rows, cols, mask, within, nWithin, hidden, nHidden, low, high, thick, w, [&](int i, int *mag) {
            short *dx = d.derivatives.data() + (size_t)(i % 2) * 2 * cols, *dy = dx + cols;
            const uchar *a = blurred(i - 1), *b = blurred(i), *c = blurred(i + 1);
            sobelAt(w, a, b, c, cols, dx, dy, mag);
            return std::make_pair((const short *)dx, (const short *)dy);
        }, dst, thickToo);
        return 0;
    } catch (const cv::Exception &) {
        return -1;
    }
}

// tablecam_filled_rects finds the contours of an 8-bit edge map as
// cv::findContours(edges, contours, RETR_LIST, CHAIN_APPROX_SIMPLE) lists
// them and gives, in that order, the minimum-area rectangles of those whose
// area (cv::contourArea) is at least minArea and at least fill times their
// rectangle's (its sides rounded to whole pixels): n of them, valid until
// the next call. With edgesOnly set, the map must hold only 0 and 255 (an
// edge map's): it is followed without thresholding it first. It returns
// NULL with n = -1 when OpenCV fails.
//
// The contours are followed as OpenCV follows them (see findContours), in
// place when the map lies inside a bigger image with a pixel of room all
// round (a region of it): the map and that border are overwritten (the
// scan marks what it has followed). Otherwise the map is copied with a
// border first, as cv::findContours copies it.
const tablecam_rect *tablecam_filled_rects(tablecam_edges e, void *edgesp, double minArea, double fill, int edgesOnly, int *n) {
    try {
        edgeDetector &d = *(edgeDetector *)e;
        cv::Mat edges = *(cv::Mat *)edgesp;
        CV_Assert(edges.type() == CV_8UC1);
        d.rects.clear();
        *n = 0;
        if (edges.empty())
            return d.rects.data();
        cv::Size whole;
        cv::Point at;
        edges.locateROI(whole, at);
        cv::Mat scanned;
        if (at.x >= 1 && at.y >= 1 && at.x + edges.cols + 1 <= whole.width && at.y + edges.rows + 1 <= whole.height) {
            scanned = edges;
            scanned.adjustROI(1, 1, 1, 1);
        } else {
            cv::copyMakeBorder(edges, d.padded, 1, 1, 1, 1, cv::BORDER_CONSTANT | cv::BORDER_ISOLATED, cv::Scalar(0));
            scanned = d.padded;
        }
        findContours(d, scanned, edgesOnly != 0, [&](const std::vector<cv::Point> &pts) {
            // The polygon lies within its points' bounding box: one
            // smaller than minArea holds less.
            int x0 = pts[0].x, x1 = x0, y0 = pts[0].y, y1 = y0;
            for (const auto &p : pts) {
                x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
                y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
            }
            if ((double)(x1 - x0) * (double)(y1 - y0) < minArea)
                return;
            const double area = cv::contourArea(pts);
            if (area < minArea)
                return;
            const cv::RotatedRect rr = cv::minAreaRect(pts);
            tablecam_rect r;
            r.width = (int)lroundf(rr.size.width);
            r.height = (int)lroundf(rr.size.height);
            if (area < fill * (double)std::min(r.width, r.height) * (double)std::max(r.width, r.height))
                return;
            cv::Point2f corners[4];
            rr.points(corners);
            for (int i = 0; i < 4; i++) {
                r.x[i] = (int)lroundf(corners[i].x);
                r.y[i] = (int)lroundf(corners[i].y);
            }
            r.cx = (int)lroundf(rr.center.x);
            r.cy = (int)lroundf(rr.center.y);
            d.rects.push_back(r);
        });
        // cv::findContours lists the contours last found first.
        std::reverse(d.rects.begin(), d.rects.end());
        *n = (int)d.rects.size();
        return d.rects.data();
    } catch (const cv::Exception &) {
        *n = -1;
        return nullptr;
    }
}

} // extern "C"
