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
        const bool avx2 = simd && __builtin_cpu_supports("avx2");

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

        q.quad.resize((size_t)(tilesX + 1) * 256);
        const float invH = 1.0f / tileH;
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
