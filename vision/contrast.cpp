// Contrast-limited adaptive histogram equalisation of 8-bit grey images:
// exactly cv::CLAHE's result (OpenCV 4.6, CV_8UC1), for a fraction of its
// cost on one core. OpenCV copies the image into a bigger one whenever its
// size is not a multiple of the tile grid (reflected rows and columns, whose
// pixels count in the last tiles' histograms), then looks up four tile
// tables per pixel and blends them. Here the reflected pixels are counted
// where they lie, without the copy; and the four tables that apply between
// two tile centres are interleaved, byte by byte, into one table of 32-bit
// words, so that one load gives a pixel all four values, eight pixels at a
// time.

#include <opencv2/core.hpp>
#include <immintrin.h>
#include <algorithm>
#include <cstring>
#include <vector>
#include "contrast.h"

namespace {

// equalizer keeps the buffers of one equalisation for the next.
struct equalizer {
    std::vector<int> hist;          // tiles × 256 counts, then the clipped histogram
    unsigned sub[4][256];           // one tile's four partial histograms
    std::vector<uchar> lut;         // tiles × 256, as OpenCV's
    std::vector<unsigned> quad;     // (tilesX+1) × 256 interleaved tables for one band of rows
    std::vector<int> column;        // per column: its table pair's offset into quad
    std::vector<float> xa, xa1;     // per column: the weights of the right and the left tile
    std::vector<int> starts;        // the columns where a pair of tiles begins, and the row's end
};

// countTile adds the pixels of one tile (columns x0..x0+tileW of the rows
// y0..y1, those at and past cols mirrored back, those at and past rows too)
// to its histogram h. Runs of one grey level, common on a plain mat and in
// the black outside the camera's view, would make each count wait for the
// one before: the counts go to four histograms in turn, added up at the
// end.
void countTile(const cv::Mat &src, int x0, int tileW, int y0, int y1, unsigned (*sub)[256], int *h) {
    const int cols = src.cols, rows = src.rows;
    std::memset(sub, 0, 4 * 256 * sizeof(unsigned));
    const int x1 = std::min(x0 + tileW, cols);
    for (int y = y0; y < y1; y++) {
        const uchar *row = src.ptr<uchar>(y < rows ? y : cv::borderInterpolate(y, rows, cv::BORDER_REFLECT_101));
        int x = x0;
        // 32 pixels of one grey level (the black outside the camera's
        // view, a glare, a plain mat) are counted at once.
        for (; x + 32 <= x1; x += 32) {
            uint64_t w[4];
            std::memcpy(w, row + x, sizeof w);
            const uint64_t same = (uint64_t)row[x] * 0x0101010101010101ull;
            if (((w[0] ^ same) | (w[1] ^ same) | (w[2] ^ same) | (w[3] ^ same)) == 0) {
                sub[0][row[x]] += 32;
                continue;
            }
            for (int k = x; k < x + 32; k += 4) {
                sub[0][row[k]]++;
                sub[1][row[k + 1]]++;
                sub[2][row[k + 2]]++;
                sub[3][row[k + 3]]++;
            }
        }
        for (; x + 4 <= x1; x += 4) {
            sub[0][row[x]]++;
            sub[1][row[x + 1]]++;
            sub[2][row[x + 2]]++;
            sub[3][row[x + 3]]++;
        }
        for (; x < x1; x++)
            sub[0][row[x]]++;
        for (x = std::max(x0, cols); x < x0 + tileW; x++)
            sub[0][row[cv::borderInterpolate(x, cols, cv::BORDER_REFLECT_101)]]++;
    }
    for (int v = 0; v < 256; v++)
        h[v] = (int)(sub[0][v] + sub[1][v] + sub[2][v] + sub[3][v]);
}

// tableOf clips one tile's histogram and turns it into its lookup table, as
// OpenCV's CLAHE does.
void tableOf(int *h, int clipLimit, float lutScale, uchar *lut) {
    if (clipLimit > 0) {
        int clipped = 0;
        for (int i = 0; i < 256; i++) {
            if (h[i] > clipLimit) {
                clipped += h[i] - clipLimit;
                h[i] = clipLimit;
            }
        }
        const int batch = clipped / 256;
        int residual = clipped - batch * 256;
        for (int i = 0; i < 256; i++)
            h[i] += batch;
        if (residual != 0) {
            const int step = std::max(256 / residual, 1);
            for (int i = 0; i < 256 && residual > 0; i += step, residual--)
                h[i]++;
        }
    }
    int sum = 0;
    for (int i = 0; i < 256; i++) {
        sum += h[i];
        lut[i] = cv::saturate_cast<uchar>(sum * lutScale);
    }
}

// blendRow equalises the pixels from..n of one row: w holds a pixel's four
// table values (upper-left, upper-right, lower-left, lower-right tile).
void blendRow(const uchar *src, const unsigned *quad, const int *column, const float *xa, const float *xa1, float ya,
              float ya1, int from, int n, uchar *out) {
    for (int x = from; x < n; x++) {
        const unsigned w = quad[column[x] + src[x]];
        const float ul = (float)(w & 0xff), ur = (float)((w >> 8) & 0xff), ll = (float)((w >> 16) & 0xff), lr = (float)(w >> 24);
        const float res = (ul * xa1[x] + ur * xa[x]) * ya1 + (ll * xa1[x] + lr * xa[x]) * ya;
        out[x] = cv::saturate_cast<uchar>(res);
    }
}

// blendRowAVX2 is blendRow eight pixels at a time, with the same float
// arithmetic (the compiler must not contract it into fused multiply-adds,
// hence no "fma" target).
__attribute__((target("avx2"))) void blendRowAVX2(const uchar *src, const unsigned *quad, const int *column, const float *xa,
                                                  const float *xa1, float ya, float ya1, int n, uchar *out) {
    const __m256 vya = _mm256_set1_ps(ya), vya1 = _mm256_set1_ps(ya1);
    const __m256i byte = _mm256_set1_epi32(0xff);
    int x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(src + x)));
        __m256i idx = _mm256_add_epi32(v, _mm256_loadu_si256((const __m256i *)(column + x)));
        alignas(32) int at[8];
        _mm256_store_si256((__m256i *)at, idx);
        __m256i w = _mm256_setr_epi32((int)quad[at[0]], (int)quad[at[1]], (int)quad[at[2]], (int)quad[at[3]],
                                      (int)quad[at[4]], (int)quad[at[5]], (int)quad[at[6]], (int)quad[at[7]]);
        __m256 ul = _mm256_cvtepi32_ps(_mm256_and_si256(w, byte));
        __m256 ur = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(w, 8), byte));
        __m256 ll = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(w, 16), byte));
        __m256 lr = _mm256_cvtepi32_ps(_mm256_srli_epi32(w, 24));
        __m256 a = _mm256_loadu_ps(xa + x), a1 = _mm256_loadu_ps(xa1 + x);
        __m256 upper = _mm256_add_ps(_mm256_mul_ps(ul, a1), _mm256_mul_ps(ur, a));
        __m256 lower = _mm256_add_ps(_mm256_mul_ps(ll, a1), _mm256_mul_ps(lr, a));
        __m256 res = _mm256_add_ps(_mm256_mul_ps(upper, vya1), _mm256_mul_ps(lower, vya));
        __m256i r = _mm256_cvtps_epi32(res); // 0..255 already
        __m256i packed = _mm256_packus_epi32(r, r);
        packed = _mm256_packus_epi16(packed, packed);
        __m128i bytes = _mm_unpacklo_epi32(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
        _mm_storel_epi64((__m128i *)(out + x), bytes);
    }
    blendRow(src, quad, column, xa, xa1, ya, ya1, x, n, out);
}

// With AVX-512's byte permutes (VBMI) a 256-entry table fits four
// registers, and 64 pixels look up a table in three instructions; a
// segment of a row between two tile centres blends the same four tables,
// 64 pixels at a time.

// lookup64 gives table[v] for 64 bytes v, the table in four registers.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline __m512i lookup64(const __m512i *t, __m512i v) {
    const __m512i lo = _mm512_permutex2var_epi8(t[0], v, t[1]); // entries 0..127 (bit 6 picks t[1])
    const __m512i hi = _mm512_permutex2var_epi8(t[2], v, t[3]); // 128..255
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi);
}

// blend16 equalises sixteen pixels (group g of a 64-pixel block) with the
// same float arithmetic as blendRow: explicitly rounded operations, which
// the compiler cannot contract into fused multiply-adds. It gives their
// grey levels in 32-bit lanes (0 where k leaves the group out).
template <int g>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))) inline __m512i blend16(__m512i ul, __m512i ur, __m512i ll, __m512i lr, const float *xa,
                                                                                        const float *xa1, __m512 ya, __m512 ya1, __mmask64 k) {
    const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const __mmask16 kg = (__mmask16)(k >> (16 * g));
    if (!kg)
        return _mm512_setzero_si512();
    const __m512 a = _mm512_maskz_loadu_ps(kg, xa + 16 * g), a1 = _mm512_maskz_loadu_ps(kg, xa1 + 16 * g);
    // (Bytes 16g.. to the low bytes of 32-bit lanes, the others 0: one
    // permute.)
    const __m512i spread = _mm512_add_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32(16 * g));
    const __mmask64 low = 0x1111111111111111ull;
    const __m512 fu = _mm512_cvtepi32_ps(_mm512_maskz_permutexvar_epi8(low, spread, ul));
    const __m512 fr = _mm512_cvtepi32_ps(_mm512_maskz_permutexvar_epi8(low, spread, ur));
    const __m512 fl = _mm512_cvtepi32_ps(_mm512_maskz_permutexvar_epi8(low, spread, ll));
    const __m512 fw = _mm512_cvtepi32_ps(_mm512_maskz_permutexvar_epi8(low, spread, lr));
    const __m512 upper = _mm512_add_round_ps(_mm512_mul_round_ps(fu, a1, rn), _mm512_mul_round_ps(fr, a, rn), rn);
    const __m512 lower = _mm512_add_round_ps(_mm512_mul_round_ps(fl, a1, rn), _mm512_mul_round_ps(fw, a, rn), rn);
    const __m512 res = _mm512_add_round_ps(_mm512_mul_round_ps(upper, ya1, rn), _mm512_mul_round_ps(lower, ya, rn), rn);
    return _mm512_cvtps_epi32(res); // 0..255 already
}

// blendSegmentVBMI equalises the pixels from..to of one row, which all lie
// between the same two tile centres: tables holds their four tables
// (upper-left, upper-right, lower-left, lower-right).
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))) void blendSegmentVBMI(const uchar *src, const uchar *const *tables, const float *xa,
                                                                                      const float *xa1, float ya, float ya1, int from, int to, uchar *out) {
    __m512i t[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t[i][j] = _mm512_loadu_si512((const void *)(tables[i] + 64 * j));
    const __m512 vya = _mm512_set1_ps(ya), vya1 = _mm512_set1_ps(ya1);
    // The low bytes of the 32-bit lanes of two registers, in order.
    const __m512i lowBytes = _mm512_set_epi8(124, 120, 116, 112, 108, 104, 100, 96, 92, 88, 84, 80, 76, 72, 68, 64, 60, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0,
                                             124, 120, 116, 112, 108, 104, 100, 96, 92, 88, 84, 80, 76, 72, 68, 64, 60, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0);
    for (int x = from; x < to; x += 64) {
        const int n = std::min(64, to - x);
        const __mmask64 k = n == 64 ? ~0ULL : (1ULL << n) - 1;
        const __m512i v = _mm512_maskz_loadu_epi8(k, src + x);
        const __m512i ul = lookup64(t[0], v), ur = lookup64(t[1], v), ll = lookup64(t[2], v), lr = lookup64(t[3], v);
        const __m512i r0 = blend16<0>(ul, ur, ll, lr, xa + x, xa1 + x, vya, vya1, k);
        const __m512i r1 = blend16<1>(ul, ur, ll, lr, xa + x, xa1 + x, vya, vya1, k);
        const __m512i r2 = blend16<2>(ul, ur, ll, lr, xa + x, xa1 + x, vya, vya1, k);
        const __m512i r3 = blend16<3>(ul, ur, ll, lr, xa + x, xa1 + x, vya, vya1, k);
        const __m512i bytes = _mm512_mask_blend_epi8(0xffffffff00000000ull, _mm512_permutex2var_epi8(r0, lowBytes, r1), _mm512_permutex2var_epi8(r2, lowBytes, r3));
        _mm512_mask_storeu_epi8(out + x, k, bytes);
    }
}

} // namespace

extern "C" {

tablecam_equalizer tablecam_equalizer_new(void) { return new equalizer; }

void tablecam_equalizer_close(tablecam_equalizer e) { delete (equalizer *)e; }

// tablecam_clahe writes cv::createCLAHE(clip, Size(tilesX, tilesY))->apply(src)
// to dst. It returns 0, or -1 when OpenCV fails.
int tablecam_clahe(tablecam_equalizer e, void *srcp, void *dstp, int tilesX, int tilesY, double clip, int simd) {
    try {
        equalizer &q = *(equalizer *)e;
        const cv::Mat &src = *(cv::Mat *)srcp;
        cv::Mat &dst = *(cv::Mat *)dstp;
        CV_Assert(src.type() == CV_8UC1 && tilesX > 0 && tilesY > 0);
        CV_Assert(src.data != dst.data || src.empty());
        const int rows = src.rows, cols = src.cols;
        dst.create(rows, cols, CV_8UC1);
        if (rows == 0 || cols == 0)
            return 0;
        const bool avx2 = simd > 0 && __builtin_cpu_supports("avx2");

        // OpenCV's tiles: when the size is not a multiple of the grid, the
        // image is extended by tilesX - cols%tilesX columns and tilesY -
        // rows%tilesY rows (a whole tile's worth where that is 0), mirrored.
        int extCols = cols, extRows = rows;
        if (cols % tilesX != 0 || rows % tilesY != 0) {
            extCols = cols + tilesX - cols % tilesX;
            extRows = rows + tilesY - rows % tilesY;
        }
        const int tileW = extCols / tilesX, tileH = extRows / tilesY;
        const int tiles = tilesX * tilesY;
        const float lutScale = 255.0f / (float)(tileW * tileH);
        int clipLimit = 0;
        if (clip > 0) {
            clipLimit = (int)(clip * (tileW * tileH) / 256);
            clipLimit = std::max(clipLimit, 1);
        }

        q.hist.resize((size_t)tiles * 256);
        for (int ty = 0; ty < tilesY; ty++)
            for (int tx = 0; tx < tilesX; tx++)
                countTile(src, tx * tileW, tileW, ty * tileH, (ty + 1) * tileH, q.sub, q.hist.data() + (size_t)256 * (ty * tilesX + tx));
        q.lut.resize((size_t)tiles * 256);
        for (int t = 0; t < tiles; t++)
            tableOf(q.hist.data() + 256 * t, clipLimit, lutScale, q.lut.data() + 256 * t);

        // Each column's pair of tiles (OpenCV's tx1 + 1: 0 for the left
        // half of the first tile) and weights.
        q.column.resize(cols);
        q.xa.resize(cols);
        q.xa1.resize(cols);
        const float invW = 1.0f / tileW;
        for (int x = 0; x < cols; x++) {
            const float txf = x * invW - 0.5f;
            const int tx1 = cvFloor(txf);
            q.xa[x] = txf - tx1;
            q.xa1[x] = 1.0f - q.xa[x];
            q.column[x] = 256 * (tx1 + 1);
        }

        const float invH = 1.0f / tileH;
        if (simd > 1 && __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")) {
            // The row's segments between tile centres: the columns of one
            // pair of tiles.
            std::vector<int> &starts = q.starts;
            starts.clear();
            for (int x = 0; x < cols; x++)
                if (x == 0 || q.column[x] != q.column[x - 1])
                    starts.push_back(x);
            starts.push_back(cols);
            for (int y = 0; y < rows; y++) {
                const float tyf = y * invH - 0.5f;
                const int ty1 = cvFloor(tyf);
                const float ya = tyf - ty1, ya1 = 1.0f - ya;
                const uchar *upper = q.lut.data() + 256 * tilesX * std::max(ty1, 0);
                const uchar *lower = q.lut.data() + 256 * tilesX * std::min(ty1 + 1, tilesY - 1);
                for (size_t i = 0; i + 1 < starts.size(); i++) {
                    const int p = q.column[starts[i]] / 256;
                    const int left = 256 * std::max(p - 1, 0), right = 256 * std::min(p, tilesX - 1);
                    const uchar *tables[4] = {upper + left, upper + right, lower + left, lower + right};
                    blendSegmentVBMI(src.ptr<uchar>(y), tables, q.xa.data(), q.xa1.data(), ya, ya1, starts[i], starts[i + 1], dst.ptr<uchar>(y));
                }
            }
            return 0;
        }

        q.quad.resize((size_t)(tilesX + 1) * 256);
        int band = -2;
        for (int y = 0; y < rows; y++) {
            const float tyf = y * invH - 0.5f;
            const int ty1 = cvFloor(tyf);
            const float ya = tyf - ty1, ya1 = 1.0f - ya;
            if (ty1 != band) {
                // The interleaved tables of this band of rows: for each
                // pair of neighbouring tiles, upper-left, upper-right,
                // lower-left and lower-right values in one word.
                band = ty1;
                const uchar *upper = q.lut.data() + 256 * tilesX * std::max(ty1, 0);
                const uchar *lower = q.lut.data() + 256 * tilesX * std::min(ty1 + 1, tilesY - 1);
                for (int p = 0; p <= tilesX; p++) {
                    const int left = 256 * std::max(p - 1, 0), right = 256 * std::min(p, tilesX - 1);
                    unsigned *w = q.quad.data() + 256 * p;
                    for (int v = 0; v < 256; v++)
                        w[v] = (unsigned)upper[left + v] | (unsigned)upper[right + v] << 8 | (unsigned)lower[left + v] << 16 |
                               (unsigned)lower[right + v] << 24;
                }
            }
            if (avx2)
                blendRowAVX2(src.ptr<uchar>(y), q.quad.data(), q.column.data(), q.xa.data(), q.xa1.data(), ya, ya1, cols, dst.ptr<uchar>(y));
            else
                blendRow(src.ptr<uchar>(y), q.quad.data(), q.column.data(), q.xa.data(), q.xa1.data(), ya, ya1, 0, cols, dst.ptr<uchar>(y));
        }
        return 0;
    } catch (const cv::Exception &) {
        return -1;
    }
}

} // extern "C"
