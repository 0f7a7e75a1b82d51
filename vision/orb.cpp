// Frame keypoints and descriptors exactly as cv::ORB (FAST scores, WTA_K 2)
// finds them, found faster, and described only when asked.
//
// cv::ORB runs FAST at its threshold on every pyramid level and keeps the
// corners with the highest scores, a quota per level. A corner's FAST score
// does not depend on the threshold, and neither does whether a corner
// scoring at least T survives non-maximum suppression (a neighbour that
// suppresses it scores higher still). So when FAST at a higher threshold T
// yields a level's quota, the corners ORB keeps are exactly those it yields:
// most of a busy frame's corners score low, and FAST at T costs a fraction.
// T is the last frame's boundary score less a little; a level that falls
// short is looked at again at the detector's own threshold. The corners
// kept are put in a fixed order (level, row, column), so the result does
// not depend on T. Where the processor has AVX-512, FAST is our own
// (cornersAVX512): scores 64 pixels at a time, skipping groups of pixels
// that cannot hold a corner at T, and looking again at the detector's
// threshold only in the groups skipped; and so are the pyramid's resize
// (resizeAVX512) and blur (blurTileAVX512), with OpenCV's arithmetic.
//
// Finding the corners and describing them are apart: a frame's matching
// needs the descriptors of a fraction of its corners (see matchFrame), and
// a corner's orientation and descriptor are most of its cost. Asked for,
// they are cv::ORB's, computed with the same arithmetic, eight sample points
// at a time where the processor has AVX2 (cv::ORB computes them one point at
// a time, and that was a third of its cost), and with AVX-512's byte
// permutes the samples are read out of registers holding the patch's rows
// (describeVBMI). The blur the descriptors read is made then too, by
// tiles, around the keypoints described (blurAround): a third of a frame's
// level is never read.

#include <opencv2/core.hpp>
#include <opencv2/features2d.hpp>
#include <opencv2/imgproc.hpp>
#include <immintrin.h>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>
#include "orb.h"

namespace {

struct frameORB {
    int nfeatures, nlevels, patch, threshold;
    float scale;
    std::vector<int> quota, last;
    // Per level, the share of the last image's corners kept that lay in
    // its first rows (see cornersAVX512).
    std::vector<float> firstShare;
    // How many levels cornersAVX512 looked at again at the detector's
    // threshold: a quarter of the way down, and whole.
    long long lookedAgain[2] = {0, 0};
    std::vector<int> umax;
    std::vector<cv::Point> pattern;
    std::vector<float> patternX, patternY; // the pattern as floats, for describeAVX2
    // For describeVBMI: the pattern's distinct points as floats (the
    // pattern's 512 hold some 280, padded to a multiple of 64 with the
    // centre), and per group of 64 tests, each test's first and second
    // point among them (testPoint, see pickSamples).
    std::vector<float> pointX, pointY;
    std::vector<uchar> testPoint;            // 4 groups × (first 64, second 64): a point's place, mod 256
    std::vector<unsigned long long> testIn; // 4 groups × (first, second) × (points 128–255, points 256 on)
    // Per row v of the circular patch, byte weights over the 32 bytes from
    // its column −halfPatch: u, and v, inside the patch (|u| ≤ umax[v]),
    // and 0 outside; for angleAVX2.
    std::vector<signed char> weightU, weightV;
    bool simd;
    bool wide;        // AVX-512 (F and BW)
    bool wideCorners; // the corners are found by cornersAVX512 (with VBMI2)
    std::vector<uchar> marks;   // cornersAVX512's corner marks, a level's
    std::vector<uchar> skipped; // its groups marked 0 unseen, by row
    std::vector<uchar> packed;  // cornerMarksAVX512's candidates of a row
    std::vector<std::pair<__mmask64, int>> packedGroups; // (candidates, group)
    std::vector<int> groupStart;         // suppressRow's groups: first column
    std::vector<__mmask64> groupInside; // and pixels of their own
    std::vector<float> gauss;    // cv::ORB's blur kernel, 7 taps
    std::vector<float> blurRows; // blurTileAVX512's row pass
    // Per level, when its blur is made by tiles (lazyBlur), the tile grid
    // and the tiles blurred so far.
    bool lazyBlur;
    std::vector<cv::Size> blurTiles;
    std::vector<std::vector<uchar>> blurDone;
    std::vector<uint16_t> resizeRows; // resizeAVX512's rows blended across
    bool vbmi;                        // resizeAVX512 may run
    bool describeVBMI;                // describeVBMI may run
    std::vector<cv::Mat> levels, bordered, blurred;
    std::vector<float> inverseScale; // per level, 1 / scale^level as cv::ORB computes it
    std::vector<cv::KeyPoint> kps; // the last image's, angles not yet known
    std::vector<cv::KeyPoint> levelKps; // detectLevel's corners of a level
    std::vector<cv::Point2f> levelPts; // each one's position on its level
};

// randomPattern is cv::ORB's sampling pattern for patches other than 31
// pixels: point pairs drawn from a generator with a fixed seed.
std::vector<cv::Point> randomPattern(int patch, int n) {
    std::vector<cv::Point> p(n);
    cv::RNG rng(0x34985739);
    for (int i = 0; i < n; i++) {
        p[i].x = rng.uniform(-patch / 2, patch / 2 + 1);
        p[i].y = rng.uniform(-patch / 2, patch / 2 + 1);
    }
    return p;
}

// samplePlace gives where a keypoint's descriptor tests are read, as
// cv::ORB reads them: its centre on its blurred pyramid level, that level's
// row step, and the cosine and sine of its angle (in double precision,
// rounded to float).
inline void samplePlace(const frameORB *o, const cv::KeyPoint &k, const uchar *&center, int &step, float &a, float &b) {
    const cv::Mat &img = o->blurred[k.octave];
    step = (int)img.step;
    float scale = o->inverseScale[k.octave];
    float angle = k.angle * (float)(CV_PI / 180.f);
    a = (float)cos(angle);
    b = (float)sin(angle);
    center = &img.at<uchar>(cvRound(k.pt.y * scale), cvRound(k.pt.x * scale));
}

// describe computes cv::ORB's descriptor (2-point tests, 32 bytes) of a
// keypoint on its blurred pyramid level into d.
void describe(const frameORB *o, const cv::KeyPoint &k, uchar *d) {
    const uchar *center;
    int step;
    float a, b;
    samplePlace(o, k, center, step, a, b);
    const cv::Point *p = &o->pattern[0];
    for (int i = 0; i < 32; ++i, p += 16) {
        int val = 0;
        for (int bit = 0; bit < 8; bit++) {
            const cv::Point &p0 = p[2 * bit], &p1 = p[2 * bit + 1];
            float x0 = p0.x * a - p0.y * b, y0 = p0.x * b + p0.y * a;
            float x1 = p1.x * a - p1.y * b, y1 = p1.x * b + p1.y * a;
            int t0 = center[cvRound(y0) * step + cvRound(x0)];
            int t1 = center[cvRound(y1) * step + cvRound(x1)];
            val |= (t0 < t1) << bit;
        }
        d[i] = (uchar)val;
    }
}

// quotas is cv::ORB's share of the features per pyramid level.
std::vector<int> quotas(int nfeatures, float scaleFactor, int nlevels) {
    std::vector<int> n(nlevels);
    float factor = (float)(1.0 / scaleFactor);
    float desired = nfeatures * (1 - factor) / (1 - (float)std::pow((double)factor, (double)nlevels));
    int sum = 0;
    for (int l = 0; l < nlevels - 1; l++) {
        n[l] = cvRound(desired);
        sum += n[l];
        desired *= factor;
    }
    n[nlevels - 1] = std::max(nfeatures - sum, 0);
    return n;
}

// rowEnds is cv::ORB's circular patch: the end of each row.
std::vector<int> rowEnds(int halfPatch) {
    std::vector<int> umax(halfPatch + 2);
    int v, v0, vmax = cvFloor(halfPatch * std::sqrt(2.f) / 2 + 1);
    int vmin = cvCeil(halfPatch * std::sqrt(2.f) / 2);
    for (v = 0; v <= vmax; ++v)
        umax[v] = cvRound(std::sqrt((double)halfPatch * halfPatch - v * v));
    for (v = halfPatch, v0 = 0; v >= vmin; --v) {
        while (umax[v0] == umax[v0 + 1])
            ++v0;
        umax[v] = v0;
        ++v0;
    }
    return umax;
}

// angle is cv::ORB's intensity-centroid orientation of a keypoint.
float angle(const cv::Mat &img, cv::Point2f pt, const std::vector<int> &umax, int halfK) {
    int step = (int)img.step1();
    const uchar *center = &img.at<uchar>(cvRound(pt.y), cvRound(pt.x));
    int m01 = 0, m10 = 0;
    for (int u = -halfK; u <= halfK; ++u)
        m10 += u * center[u];
    for (int v = 1; v <= halfK; ++v) {
        int vsum = 0;
        int d = umax[v];
        for (int u = -d; u <= d; ++u) {
            int plus = center[u + v * step], minus = center[u - v * step];
            vsum += plus - minus;
            m10 += u * (plus + minus);
        }
        m01 += v * vsum;
    }
    return cv::fastAtan2((float)m01, (float)m10);
}

// angleWeights fills the byte weights angleAVX2 multiplies rows with.
void angleWeights(frameORB *o) {
    int half = o->patch / 2;
    o->weightU.assign(32 * (half + 1), 0);
    o->weightV.assign(32 * (half + 1), 0);
    for (int v = 0; v <= half; v++)
        for (int u = -o->umax[v]; u <= o->umax[v]; u++) {
            o->weightU[32 * v + u + half] = (signed char)u;
            o->weightV[32 * v + u + half] = (signed char)v;
        }
}

// angleAVX2 is angle a row of the patch at a time: the same integer sums
// (so the same angle), as byte products. It reads 32 bytes from each row's
// first patch column, past the patch's end: keypoints lie at least a patch
// from the image's edges, and the image is continuous (the bytes read past
// a row's end are the next row's).
__attribute__((target("avx2"))) float angleAVX2(const frameORB *o, const cv::Mat &img, cv::Point2f pt) {
    int half = o->patch / 2;
    int step = (int)img.step1();
    const uchar *center = &img.at<uchar>(cvRound(pt.y), cvRound(pt.x));
    const signed char *wu = o->weightU.data(), *wv = o->weightV.data();
    const __m256i ones = _mm256_set1_epi16(1);
    __m256i row = _mm256_loadu_si256((const __m256i *)(center - half));
    // Pairs of byte products summed into 16 bits (at most 2·255·15), then
    // pairs of those into 32.
    __m256i m10 = _mm256_madd_epi16(_mm256_maddubs_epi16(row, _mm256_loadu_si256((const __m256i *)wu)), ones);
    __m256i m01 = _mm256_setzero_si256();
    for (int v = 1; v <= half; v++) {
        __m256i plus = _mm256_loadu_si256((const __m256i *)(center + v * step - half));
        __m256i minus = _mm256_loadu_si256((const __m256i *)(center - v * step - half));
        __m256i u = _mm256_loadu_si256((const __m256i *)(wu + 32 * v)), w = _mm256_loadu_si256((const __m256i *)(wv + 32 * v));
        m10 = _mm256_add_epi32(m10, _mm256_madd_epi16(_mm256_maddubs_epi16(plus, u), ones));
        m10 = _mm256_add_epi32(m10, _mm256_madd_epi16(_mm256_maddubs_epi16(minus, u), ones));
        m01 = _mm256_add_epi32(m01, _mm256_madd_epi16(_mm256_maddubs_epi16(plus, w), ones));
        m01 = _mm256_sub_epi32(m01, _mm256_madd_epi16(_mm256_maddubs_epi16(minus, w), ones));
    }
    alignas(32) int a[8], b[8];
    _mm256_store_si256((__m256i *)a, m10);
    _mm256_store_si256((__m256i *)b, m01);
    int s10 = 0, s01 = 0;
    for (int i = 0; i < 8; i++) {
        s10 += a[i];
        s01 += b[i];
    }
    return cv::fastAtan2((float)s01, (float)s10);
}

// FAST's circle of 16 pixels around a corner candidate, as cv::FAST
// reads it: (x, y) offsets, in order round the circle.
const int circle16[16][2] = {{0, 3}, {1, 3}, {2, 2}, {3, 1}, {3, 0}, {3, -1}, {2, -2}, {1, -3},
                             {0, -3}, {-1, -3}, {-2, -2}, {-3, -1}, {-3, 0}, {-3, 1}, {-2, 2}, {-1, 3}};

// arcBound gives, per byte lane, over the 16 arcs of 9 contiguous circle
// pixels (c[k] for circle pixel k), the largest of the arcs' least values
// (brightest set) or the least of their largest (darkest unset): how far
// the brightest arc lies above a value, or the darkest below it. The arcs
// from k − 1 and from k share the 8 pixels from k, for odd k: their
// bounds are in(those 8, across(c[k − 1], c[k + 8])), and those 8 are
// built of odd-started pairs and fours. The loops are unrolled so that the
// partial arcs stay in registers.
template <bool brightest>
__attribute__((target("avx512f,avx512bw"))) inline __m512i arcIn(__m512i a, __m512i b) {
    return brightest ? _mm512_min_epu8(a, b) : _mm512_max_epu8(a, b);
}
template <bool brightest>
__attribute__((target("avx512f,avx512bw"))) inline __m512i arcBound(const __m512i *c) {
    const auto in = arcIn<brightest>, across = arcIn<!brightest>;
    __m512i m2[8], m4[8]; // m2[i], m4[i]: the 2 and 4 pixels from 2i + 1
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        m2[i] = in(c[2 * i + 1], c[(2 * i + 2) & 15]);
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++)
        m4[i] = in(m2[i], m2[(i + 1) & 7]);
    __m512i best = in(in(m4[0], m4[2]), across(c[0], c[9]));
#pragma GCC unroll 8
    for (int i = 1; i < 8; i++)
        best = across(best, in(in(m4[i], m4[(i + 2) & 7]), across(c[2 * i], c[(2 * i + 9) & 15])));
    return best;
}

// suppressStart readies suppressRow for a level: its groups' first
// columns and pixels.
void suppressStart(frameORB *o, int cols, int border) {
    const int x0 = border - 1, x1 = cols - border + 1, groups = (x1 - x0 + 63) / 64;
    // Per group, its first column and its pixels not in the group before,
    // inside the border.
    o->groupStart.resize(groups);
    o->groupInside.resize(groups);
    for (int g = 0; g < groups; g++) {
        const int xs = std::min(x0 + 64 * g, x1 - 64);
        const int from = std::max(x0 + 64 * g, border) - xs, to = std::min(xs + 64, cols - border) - xs;
        o->groupStart[g] = xs;
        o->groupInside[g] = to <= from ? 0 : (to == 64 ? ~(__mmask64)0 : ((__mmask64)1 << to) - 1) & ~(((__mmask64)1 << from) - 1);
    }
}

// suppressRow finds the corners at t (vt) of row y of a level marked by
// cornerMarksAVX512 (rows y − 1 to y + 1, with a threshold at most t; the
// groups of cols pixels from border − 1) that survive non-maximum
// suppression, without those within border pixels of its edges, into out
// (x, y, score), and returns their number. A corner survives when its
// score is above each of its 8 neighbours' (cv::FAST compares with the
// neighbours that are corners at t, the others counting 0: the same, since
// a neighbour that is no corner scores below t).
__attribute__((target("avx512f,avx512bw"))) inline int suppressRow(const frameORB *o, int cols, int groups, int y, __m512i vt, std::vector<cv::KeyPoint> &out) {
    const uchar *up = o->marks.data() + (size_t)(y - 1) * cols, *at = up + cols, *down = at + cols;
    const uchar *skipped = o->skipped.data() + (size_t)y * groups;
    const int *groupStart = o->groupStart.data();
    const __mmask64 *groupInside = o->groupInside.data();
    const size_t before = out.size();
    // (The groups not skipped, 64 at a time.)
    for (int g64 = 0; g64 < groups; g64 += 64) {
        const int ng = std::min(64, groups - g64);
        const __mmask64 those = ng == 64 ? ~(__mmask64)0 : ((__mmask64)1 << ng) - 1;
        __mmask64 todo = _mm512_testn_epi8_mask(_mm512_maskz_loadu_epi8(those, skipped + g64), _mm512_set1_epi8(-1)) & those;
        for (; todo; todo &= todo - 1) {
            const int g = g64 + __builtin_ctzll(todo);
            const int x = groupStart[g];
            __m512i c = _mm512_loadu_si512(at + x);
            __mmask64 keep = _mm512_mask_cmpgt_epu8_mask(groupInside[g], c, vt);
            if (keep == 0)
                continue;
            keep &= _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(at + x - 1)) & _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(at + x + 1));
            keep &= _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(up + x - 1)) & _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(up + x)) &
                    _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(up + x + 1));
            keep &= _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(down + x - 1)) & _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(down + x)) &
                    _mm512_cmpgt_epu8_mask(c, _mm512_loadu_si512(down + x + 1));
            while (keep) {
                const int b = __builtin_ctzll(keep);
                keep &= keep - 1;
                out.emplace_back((float)(x + b), (float)y, 7.f, -1.f, (float)(at[x + b] - 1));
            }
        }
    }
    return (int)(out.size() - before);
}

// cornerMarksAVX512 marks pixels of a level with their FAST score plus 1
// (see markGroup), for the rows ya..yb (of those from y0 marked; at least
// 3 pixels from the level's edges) and the columns x0..x1 (as far from
// them, x1 − x0 ≥ 64), in groups of 64 columns from x0 (the last one
// ending at x1, overlapping the one before). A group whose pixels cannot
// be corners at t is marked 0 and noted in o->skipped (1); when again is
// set, only the groups skipped before are looked at. In the other groups,
// the pixels that cannot be corners at the detector's own threshold are
// marked 0 too, and a group without a corner at that threshold is noted
// 2. Then the corners at t that survive suppression in the rows whose
// neighbours are marked now (ya − 1, when past y0, to yb − 2) are added to
// corners (suppressRow), and their number returned.
//
// A pixel is a FAST corner at threshold t when 9 contiguous pixels of its
// circle are all darker than it by more than t, or all brighter: when A or
// B, the largest over the arcs of 9 of the smallest difference over the
// arc (darker, brighter; negative differences as 0), is above t; and
// cv::FAST's score (cornerScore) is then max(A, B) − 1. So the mark is
// max(A, B). A pixel cannot be a corner at t without two circle pixels a
// quarter turn apart both darker, or both brighter, by more than t (every
// arc of 9 holds such a pair): a pixel without one is marked 0, which is as
// good as its mark (at most t) for corners at t or above, and a group
// without one is skipped. Such candidates are a fifth of a busy group's
// pixels: a row's are packed together, their circles with them (VBMI2's
// byte compress), their marks computed 64 at a time, and spread back to
// their places.
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) int cornerMarksAVX512(frameORB *o, const cv::Mat &img, int t, int x0, int x1, int y0, int ya, int yb, bool again, std::vector<cv::KeyPoint> &corners) {
    const int step = (int)img.step, cols = img.cols, groups = (x1 - x0 + 63) / 64;
    int offset[16];
    for (int k = 0; k < 16; k++)
        offset[k] = circle16[k][0] + circle16[k][1] * step;
    const __m512i vt = _mm512_set1_epi8((char)t), vown = _mm512_set1_epi8((char)o->threshold);
    // A row's candidates: the pixels, then their circles' 16, a lane of
    // stride bytes each; then their marks. (Lanes past a row's candidates
    // hold what an earlier row left: their marks are not read.)
    const size_t stride = 64 * ((size_t)groups + 1);
    o->packed.resize(18 * stride);
    o->packedGroups.resize(groups);
    uchar *packed = o->packed.data(), *packedMarks = packed + 17 * stride;
    std::pair<__mmask64, int> *packedGroups = o->packedGroups.data(); // (candidates, xs)
    int kept = 0;
    for (int y = ya; y < yb; y++) {
        const uchar *row = img.ptr<uchar>(y);
        uchar *out = o->marks.data() + (size_t)y * cols;
        uchar *skipped = o->skipped.data() + (size_t)y * groups;
        int n = 0, ng = 0;
        for (int g = 0; g < groups; g++) {
            if (again && skipped[g] != 1)
                continue;
            int xs = std::min(x0 + 64 * g, x1 - 64);
            const uchar *p = row + xs;
            // (c − v > t when c > v + t, v − c > t when c < v − t; saturated,
            // these hold for no c where they should not.)
            const __m512i v = _mm512_loadu_si512(p);
            __m512i c4[4];
            __mmask64 dark[4], bright[4];
#pragma GCC unroll 4
            for (int q = 0; q < 4; q++) {
                c4[q] = _mm512_loadu_si512(p + offset[4 * q]);
                dark[q] = _mm512_cmplt_epu8_mask(c4[q], _mm512_subs_epu8(v, vt));
                bright[q] = _mm512_cmpgt_epu8_mask(c4[q], _mm512_adds_epu8(v, vt));
            }
            // (Two neighbours of four a quarter turn apart: one of 0 and 2
            // and one of 1 and 3.)
            __mmask64 maybe = ((dark[0] | dark[2]) & (dark[1] | dark[3])) | ((bright[0] | bright[2]) & (bright[1] | bright[3]));
            skipped[g] = maybe == 0;
            if (maybe == 0) {
                _mm512_storeu_si512(out + xs, _mm512_setzero_si512());
                continue;
            }
            if (t != o->threshold) {
#pragma GCC unroll 4
                for (int q = 0; q < 4; q++) {
                    dark[q] = _mm512_cmplt_epu8_mask(c4[q], _mm512_subs_epu8(v, vown));
                    bright[q] = _mm512_cmpgt_epu8_mask(c4[q], _mm512_adds_epu8(v, vown));
                }
                maybe = ((dark[0] | dark[2]) & (dark[1] | dark[3])) | ((bright[0] | bright[2]) & (bright[1] | bright[3]));
            }
            packedGroups[ng++] = std::make_pair(maybe, g);
            _mm512_storeu_si512(packed + n, _mm512_maskz_compress_epi8(maybe, v));
#pragma GCC unroll 16
            for (int k = 0; k < 16; k++)
                _mm512_storeu_si512(packed + (k + 1) * stride + n, _mm512_maskz_compress_epi8(maybe, _mm512_loadu_si512(p + offset[k])));
            n += __builtin_popcountll(maybe);
        }
        // The largest over the arcs of the least of (c − v, 0) over an arc
        // is (the largest over the arcs of the arc's least c) − v, or 0;
        // and so for v − c.
        for (int i = 0; i < n; i += 64) {
            const __m512i v = _mm512_loadu_si512(packed + i);
            __m512i c[16];
#pragma GCC unroll 16
            for (int k = 0; k < 16; k++)
                c[k] = _mm512_loadu_si512(packed + (k + 1) * stride + i);
            const __m512i brighter = _mm512_subs_epu8(arcBound<true>(c), v), darker = _mm512_subs_epu8(v, arcBound<false>(c));
            _mm512_storeu_si512(packedMarks + i, _mm512_max_epu8(darker, brighter));
        }
        for (int j = 0, at = 0; j < ng; j++) {
            const __mmask64 m = packedGroups[j].first;
            const int g = packedGroups[j].second;
            const __m512i marks = _mm512_maskz_expand_epi8(m, _mm512_loadu_si512(packedMarks + at));
            _mm512_storeu_si512(out + std::min(x0 + 64 * g, x1 - 64), marks);
            if (_mm512_cmpgt_epu8_mask(marks, vown) == 0)
                skipped[g] = 2;
            at += __builtin_popcountll(m);
        }
    }
    for (int y = std::max(ya - 1, y0 + 1); y < yb - 1; y++)
        kept += suppressRow(o, cols, groups, y, vt, corners);
    return kept;
}

// firstRows is where cornersAVX512 guesses whether a level of rows rows
// will fall short, a quarter of the way down its corners' rows (border
// pixels from its edges): the rows above it.
inline int firstRows(int rows, int border) {
    const int y0 = border - 1, y1 = rows - border + 1;
    return y0 + (y1 - y0) / 4;
}

// cornersAVX512 finds a level's corners at threshold t or above as cv::FAST
// with non-maximum suppression finds them, without those within border
// pixels of its edges, row by row (x, y, score): at least want of them, or
// all those at the detector's own threshold. The corners are marked 64
// pixels at a time (cornerMarksAVX512) skipping groups that cannot hold
// one at t, and again at the detector's threshold only in those groups
// when t finds too few.
//
// Whether t finds too few is guessed a quarter of the way down (l's
// level, firstRows): when the corners found so far are fewer than half
// those the last image's share of its kept corners there (firstShare)
// calls for (so never where it kept none there), the rows marked so far
// are looked at again at once, and the rest at the detector's threshold
// (a quarter of the rows marked twice, instead of all). The guess only
// picks the work: a level that still falls short is looked at again
// whole. The level must be continuous, and wider and taller than
// 2·border + 64.
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) void cornersAVX512(frameORB *o, const cv::Mat &img, int l, int t, int border, int want, std::vector<cv::KeyPoint> &out) {
    const int cols = img.cols, rows = img.rows;
    // Marks one pixel beyond the corners' area, for their neighbours.
    const int x0 = border - 1, x1 = cols - border + 1, y0 = border - 1, y1 = rows - border + 1;
    o->marks.resize((size_t)cols * rows);
    o->skipped.assign((size_t)rows * ((x1 - x0 + 63) / 64), 1);
    suppressStart(o, cols, border);
    const size_t first = out.size();
    const int yc = firstRows(img.rows, border);
    int n = cornerMarksAVX512(o, img, t, x0, x1, y0, y0, yc, false, out);
    if (t != o->threshold && want > 0 && n < 0.5f * want * o->firstShare[l]) {
        o->lookedAgain[0]++;
        out.resize(first);
        t = o->threshold;
        n = cornerMarksAVX512(o, img, t, x0, x1, y0, y0, yc, true, out);
    }
    n += cornerMarksAVX512(o, img, t, x0, x1, y0, yc, y1, false, out);
    if (n < want && t != o->threshold) {
        o->lookedAgain[1]++;
        out.resize(first);
        t = o->threshold;
        n = cornerMarksAVX512(o, img, t, x0, x1, y0, y0, y1, true, out);
    }
}

// blurGroupAVX512 is the row pass of blurTileAVX512 for the 16 pixels from
// xs of a row (at least 3 from the row's ends; it reads in[xs − 3 ..
// xs + 18]): each input pixel is made a float once, and the sums read it
// shifted across two registers.
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) inline __m512 blurGroupAVX512(const uchar *in, const __m512 *kv, int xs) {
    const int r = 3;
    __m512i lo = _mm512_castps_si512(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(in + xs - r)))));
    __m512i hi = _mm512_castps_si512(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8((1 << (2 * r)) - 1, in + xs + 16 - r))));
    __m512 sum = _mm512_fmadd_ps(_mm512_castsi512_ps(lo), kv[0], _mm512_setzero_ps());
    sum = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 1)), kv[1], sum);
    sum = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 2)), kv[2], sum);
    sum = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 3)), kv[3], sum);
    sum = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 4)), kv[4], sum);
    sum = _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 5)), kv[5], sum);
    return _mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_alignr_epi32(hi, lo, 6)), kv[6], sum);
}

// blurTileW and blurTileH are the size of the tiles a level is blurred in,
// as descriptors ask for them (see blurAround).
const int blurTileW = 64, blurTileH = 32;

// startBlur readies level l's blurred image for blurTileAVX512's blur,
// tile by tile as descriptors need it (blurAround): the 3 pixels next to
// its edges are the level's grey, and no tile is blurred yet. A level too
// small to blur is copied whole: it holds no keypoint (they lie a patch
// from its edges).
void startBlur(frameORB *o, int l) {
    const cv::Mat &src = o->levels[l];
    cv::Mat &dst = o->blurred[l];
    const int rows = src.rows, cols = src.cols, r = 3;
    std::vector<uchar> &done = o->blurDone[l];
    if (rows < 2 * r + 1 || cols < 2 * r + 16) {
        src.copyTo(dst);
        done.assign(1, 1);
        o->blurTiles[l] = cv::Size(1, 1);
        return;
    }
    dst.create(src.size(), CV_8U);
    for (int y = 0; y < rows; y++) {
        if (y < r || y >= rows - r) {
            std::copy(src.ptr<uchar>(y), src.ptr<uchar>(y) + cols, dst.ptr<uchar>(y));
            continue;
        }
        std::copy(src.ptr<uchar>(y), src.ptr<uchar>(y) + r, dst.ptr<uchar>(y));
        std::copy(src.ptr<uchar>(y) + cols - r, src.ptr<uchar>(y) + cols, dst.ptr<uchar>(y) + cols - r);
    }
    o->blurTiles[l] = cv::Size((cols + blurTileW - 1) / blurTileW, (rows + blurTileH - 1) / blurTileH);
    done.assign((size_t)o->blurTiles[l].area(), 0);
}

// blurTileAVX512 is cv::ORB's blur of a pyramid level (GaussianBlur, 7×7,
// σ 2, in single precision: a row pass and a symmetric column pass, each
// product added with one rounding, the sum rounded to the nearest grey
// level, half to even), 16 pixels at a time, into dst, for the pixels of
// tile (tx, ty) at least 3 from the level's edges (those its 7×7 window
// holds). Each pixel's sums are the same whatever tile it is blurred in;
// the 16-pixel groups at a tile's right end may overlap the next tile,
// where they write what its own blur would.
__attribute__((target("avx512f,avx512bw,avx512vl,fma"))) void blurTileAVX512(frameORB *o, const cv::Mat &src, cv::Mat &dst, int tx, int ty) {
    const int rows = src.rows, cols = src.cols, r = 3;
    const int x0 = std::max(r, tx * blurTileW), x1 = std::min(cols - r, (tx + 1) * blurTileW);
    const int y0 = std::max(r, ty * blurTileH), y1 = std::min(rows - r, (ty + 1) * blurTileH);
    if (x0 >= x1 || y0 >= y1)
        return;
    int xs[(blurTileW + 15) / 16], groups = 0;
    for (int x = x0; x < x1; x += 16)
        xs[groups++] = std::min(x, cols - r - 16);
    const float *k = o->gauss.data();
    __m512 kv[2 * r + 1];
    for (int i = 0; i <= 2 * r; i++)
        kv[i] = _mm512_set1_ps(k[i]);
    // The row pass over the tile's rows and r more above and below it.
    const int stride = 16 * groups;
    o->blurRows.resize((size_t)(blurTileH + 2 * r) * stride);
    float *rowPass = o->blurRows.data();
    for (int y = y0 - r; y < y1 + r; y++)
        for (int g = 0; g < groups; g++)
            _mm512_storeu_ps(rowPass + (size_t)(y - y0 + r) * stride + 16 * g, blurGroupAVX512(src.ptr<uchar>(y), kv, xs[g]));
    for (int y = y0; y < y1; y++) {
        const float *row = rowPass + (size_t)(y - y0 + r) * stride;
        uchar *out = dst.ptr<uchar>(y);
        for (int g = 0; g < groups; g++) {
            const float *at = row + 16 * g;
            __m512 sum = _mm512_mul_ps(_mm512_loadu_ps(at), kv[r]);
            sum = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(at - stride), _mm512_loadu_ps(at + stride)), kv[r + 1], sum);
            sum = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(at - 2 * stride), _mm512_loadu_ps(at + 2 * stride)), kv[r + 2], sum);
            sum = _mm512_fmadd_ps(_mm512_add_ps(_mm512_loadu_ps(at - 3 * stride), _mm512_loadu_ps(at + 3 * stride)), kv[r + 3], sum);
            _mm_storeu_si128((__m128i *)(out + xs[g]), _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(sum)));
        }
    }
}

// blurAround blurs the tiles of level l not blurred yet that hold the
// pixels x0..x1, y0..y1 (inclusive; clamped to the level).
void blurAround(frameORB *o, int l, int x0, int y0, int x1, int y1) {
    const cv::Size tiles = o->blurTiles[l];
    const int tx0 = std::max(0, x0) / blurTileW, tx1 = std::min(tiles.width - 1, std::max(0, x1) / blurTileW);
    const int ty0 = std::max(0, y0) / blurTileH, ty1 = std::min(tiles.height - 1, std::max(0, y1) / blurTileH);
    uchar *done = o->blurDone[l].data();
    for (int ty = ty0; ty <= ty1; ty++)
        for (int tx = tx0; tx <= tx1; tx++)
            if (!done[ty * tiles.width + tx]) {
                done[ty * tiles.width + tx] = 1;
                blurTileAVX512(o, o->levels[l], o->blurred[l], tx, ty);
            }
}

// resizeAxis is where cv::resize (INTER_LINEAR_EXACT) reads a destination
// pixel along one axis, src pixels shrunk or grown to dst: the first of the
// two source pixels it blends (at) and the second's weight (of 256), as
// OpenCV computes them (in double precision, the weight rounded half to
// even); past the source's ends, its end pixel, whole.
struct resizeAxis {
    std::vector<int> at, weight;
    resizeAxis(int src, int dst) : at(dst), weight(dst) {
        const double scale = 1.0 / ((double)dst / src);
        for (int v = 0; v < dst; v++) {
            double p = scale * ((double)v + 0.5);
            p -= 0.5; // (two roundings, as OpenCV's: no fused multiply-add)
            int i = (int)std::floor(p);
            if (i < 0) {
                at[v] = 0, weight[v] = 0;
            } else if (i >= src - 1) {
                at[v] = src - 1, weight[v] = 0;
            } else {
                at[v] = i, weight[v] = (int)std::nearbyint((p - i) * 256);
            }
        }
    }
};

// resizeRowAVX512 is resizeAVX512's blend across a source row of cols
// pixels into dw 16-bit ones, per group of 32 (see resizeAVX512).
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void resizeRowAVX512(const uchar *in, int cols, int dw, const int *base, const uchar *first,
                                                                              const uchar *second, const uint16_t *w0, const uint16_t *w1, uint16_t *out) {
    const __mmask64 even = 0x5555555555555555ull; // the low bytes of 16-bit lanes
    for (int g = 0; g < (dw + 31) / 32; g++) {
        int x0 = std::min(32 * g, dw - 32), n = std::min(64, cols - base[g]);
        __m512i window = _mm512_maskz_loadu_epi8(n >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << n) - 1), in + base[g]);
        __m512i p = _mm512_maskz_permutexvar_epi8(even, _mm512_loadu_si512(first + 64 * g), window);
        __m512i q = _mm512_maskz_permutexvar_epi8(even, _mm512_loadu_si512(second + 64 * g), window);
        __m512i a = _mm512_loadu_si512(w0 + 32 * g), b = _mm512_loadu_si512(w1 + 32 * g);
        _mm512_storeu_si512(out + x0, _mm512_add_epi16(_mm512_mullo_epi16(p, a), _mm512_mullo_epi16(q, b)));
    }
}

// resizeAVX512 is cv::resize with INTER_LINEAR_EXACT of a grey image into
// dst (of the size given; each output pixel within a window of 64 source
// pixels per 32 output, as when shrinking to no less than half): the
// source row blended across in 16-bit fixed point (weights of 256), then
// two such rows blended down in 32 bits and rounded, 32 (across) and 16
// (down) pixels at a time. It returns false, doing nothing, where a
// window is too wide.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) bool resizeAVX512(frameORB *o, const cv::Mat &src, cv::Mat &dst, cv::Size size) {
    const int dw = size.width, dh = size.height, groups = (dw + 31) / 32;
    if (dw < 32 || src.cols < 2 || src.rows < 2)
        return false;
    resizeAxis ax(src.cols, dw), ay(src.rows, dh);
    // Per group of 32 output pixels (the last overlapping the one before):
    // the window's first source pixel, the two pixels' places in it (even
    // bytes), and their weights.
    std::vector<int> base(groups);
    std::vector<uchar> first(64 * (size_t)groups), second(64 * (size_t)groups);
    std::vector<uint16_t> w0(32 * (size_t)groups), w1(32 * (size_t)groups);
    for (int g = 0; g < groups; g++) {
        int x0 = std::min(32 * g, dw - 32);
        base[g] = ax.at[x0];
        for (int i = 0; i < 32; i++) {
            int x = x0 + i, d = ax.at[x] - base[g];
            int next = ax.weight[x] > 0 ? d + 1 : d;
            if (next > 63)
                return false;
            first[64 * g + 2 * i] = (uchar)d;
            second[64 * g + 2 * i] = (uchar)next;
            w0[32 * g + i] = (uint16_t)(256 - ax.weight[x]);
            w1[32 * g + i] = (uint16_t)ax.weight[x];
        }
    }
    dst.create(size, CV_8U);
    o->resizeRows.resize(2 * (size_t)dw + 32);
    uint16_t *rows[2] = {o->resizeRows.data(), o->resizeRows.data() + dw};
    int rowOf[2] = {-1, -1};
    for (int y = 0; y < dh; y++) {
        int sy = ay.at[y], sy1 = ay.weight[y] > 0 ? sy + 1 : sy;
        uint16_t *h[2];
        for (int k = 0; k < 2; k++) {
            int want = k == 0 ? sy : sy1;
            int slot = rowOf[0] == want ? 0 : rowOf[1] == want ? 1 : -1;
            if (slot < 0) {
                // Keep the other row the pair needs.
                slot = (rowOf[0] == sy || rowOf[0] == sy1) ? 1 : 0;
                resizeRowAVX512(src.ptr<uchar>(want), src.cols, dw, base.data(), first.data(), second.data(), w0.data(), w1.data(), rows[slot]);
                rowOf[slot] = want;
            }
            h[k] = rows[slot];
        }
        const __m512i c0 = _mm512_set1_epi32(256 - ay.weight[y]), c1 = _mm512_set1_epi32(ay.weight[y]), half = _mm512_set1_epi32(1 << 15);
        uchar *out = dst.ptr<uchar>(y);
        for (int x = 0; x < dw; x += 16) {
            int xs = std::min(x, dw - 16);
            __m512i a = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(h[0] + xs)));
            __m512i b = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(h[1] + xs)));
            __m512i v = _mm512_add_epi32(_mm512_add_epi32(_mm512_mullo_epi32(a, c0), _mm512_mullo_epi32(b, c1)), half);
            _mm_storeu_si128((__m128i *)(out + xs), _mm512_cvtepi32_epi8(_mm512_srli_epi32(v, 16)));
        }
    }
    return true;
}

// detectLevel finds a level's corners as cv::ORB keeps them.
void detectLevel(frameORB *o, const cv::Mat &img, int l, std::vector<cv::KeyPoint> &out, std::vector<cv::Point2f> &levelPts) {
    std::vector<cv::KeyPoint> &kps = o->levelKps;
    kps.clear();
    int want = o->quota[l];
    int t = std::max(o->threshold, o->last[l] - 2);
    // (The loads around a 64-pixel group stay inside the image; 3 pixels
    // beyond the corners' area for the circle, one for the neighbours.)
    if (o->wideCorners && img.isContinuous() && o->patch >= 4 && img.cols > 2 * o->patch + 64 && img.rows > 2 * o->patch + 64) {
        cornersAVX512(o, img, l, t, o->patch, want, kps);
    } else {
        for (;;) {
            cv::FAST(img, kps, t, true);
            cv::KeyPointsFilter::runByImageBorder(kps, img.size(), o->patch);
            if ((int)kps.size() >= want || t == o->threshold)
                break;
            t = o->threshold;
        }
    }
    // cv::KeyPointsFilter::retainBest's choice (every corner scoring at
    // least the want-th best score), left in FAST's order: row by row.
    float boundary = o->threshold;
    if (want == 0) {
        kps.clear(); // (the levels before keep their positions in levelPts)
    } else if ((int)kps.size() >= want) {
        // (FAST scores are whole numbers, 0 to 254: the want-th best is
        // found by counting.)
        int count[256] = {0};
        for (const cv::KeyPoint &k : kps)
            count[std::min(std::max((int)k.response, 0), 255)]++;
        int score = 255;
        for (int above = count[255]; above < want; above += count[--score])
            ;
        boundary = (float)score;
        kps.erase(std::remove_if(kps.begin(), kps.end(), [boundary](const cv::KeyPoint &k) { return k.response < boundary; }), kps.end());
    }
    o->last[l] = (int)boundary;
    if (!kps.empty()) {
        // (For cornersAVX512's guess.)
        const float yc = (float)firstRows(img.rows, o->patch);
        size_t top = 0;
        for (const cv::KeyPoint &k : kps)
            top += k.pt.y < yc;
        o->firstShare[l] = (float)top / (float)kps.size();
    }
    auto rowByRow = [](const cv::KeyPoint &a, const cv::KeyPoint &b) {
        if (a.pt.y != b.pt.y)
            return a.pt.y < b.pt.y;
        return a.pt.x < b.pt.x;
    };
    if (!std::is_sorted(kps.begin(), kps.end(), rowByRow))
        std::sort(kps.begin(), kps.end(), rowByRow);
    float s = (float)std::pow((double)o->scale, (double)l);
    for (auto &k : kps) {
        k.octave = l;
        k.size = o->patch * s;
        levelPts.push_back(k.pt);
        k.pt *= s;
        out.push_back(k);
    }
}

// orient gives a keypoint cv::ORB's angle, read on its (unblurred) level
// at pt, its position there.
void orient(const frameORB *o, cv::KeyPoint &k, cv::Point2f pt) {
    const cv::Mat &img = o->levels[k.octave];
    k.angle = o->simd && img.isContinuous() ? angleAVX2(o, img, pt) : angle(img, pt, o->umax, o->patch / 2);
}

// describeAVX2 is describe eight sample points at a time, with the same
// float arithmetic (products rounded, then summed; rounding half to even).
__attribute__((target("avx2"))) void describeAVX2(const frameORB *o, const cv::KeyPoint &k, uchar *d) {
    alignas(32) int offsets[512];
    const float *px = o->patternX.data(), *py = o->patternY.data();
    const uchar *center;
    int step;
    float a, b;
    samplePlace(o, k, center, step, a, b);
    const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
    const __m256i vstep = _mm256_set1_epi32(step);
    for (int i = 0; i < 512; i += 8) {
        __m256 x = _mm256_loadu_ps(px + i), y = _mm256_loadu_ps(py + i);
        __m256 rx = _mm256_sub_ps(_mm256_mul_ps(x, va), _mm256_mul_ps(y, vb));
        __m256 ry = _mm256_add_ps(_mm256_mul_ps(x, vb), _mm256_mul_ps(y, va));
        __m256i off = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_cvtps_epi32(ry), vstep), _mm256_cvtps_epi32(rx));
        _mm256_store_si256((__m256i *)(offsets + i), off);
    }
    // (Loading the samples one by one is faster than gathering them.)
    // Test k compares first[k] with second[k]; it is bit k%8 of byte
    // k/8, so 32 tests at a time give 4 bytes, little-endian.
    alignas(32) uchar first[256], second[256];
    for (int k = 0; k < 256; k++) {
        first[k] = center[offsets[2 * k]];
        second[k] = center[offsets[2 * k + 1]];
    }
    const __m256i sign = _mm256_set1_epi8((char)0x80); // unsigned order as signed
    for (int k = 0; k < 256; k += 32) {
        __m256i a = _mm256_xor_si256(_mm256_load_si256((const __m256i *)(first + k)), sign);
        __m256i b = _mm256_xor_si256(_mm256_load_si256((const __m256i *)(second + k)), sign);
        uint32_t bits = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(b, a));
        for (int i = 0; i < 4; i++)
            d[k / 8 + i] = (uchar)(bits >> (8 * i));
    }
}

// With AVX-512's byte permutes (VBMI), a keypoint's tests read its patch
// out of registers: the rows of the blurred level around it, 32 bytes
// each from its column −reach, fill windowRows/4 pairs of registers (four
// rows, 128 bytes, to a pair), and 64 tests at a time pick their samples
// with one permute per pair, the pair chosen by the sample's row.

// describeReach is how far from a keypoint its turned tests reach, in
// pixels, for describeVBMI: half the patch times √2, rounded up.
inline int describeReach(int patch) { return (int)std::ceil((patch / 2) * std::sqrt(2.0)); }

// windowRows is the number of rows describeVBMI holds, a multiple of four:
// 2·reach + 1 and the rest of the last pair.
inline int windowRows(int patch) { return (2 * describeReach(patch) + 1 + 3) / 4 * 4; }

// sampleIndexes gives the places of 16 pattern points (px, py), turned by
// the angle of cosine a and sine b as describeAVX2 turns them, in the
// window: (row + reach)·32 + column + reach (reach33 is reach·33).
__attribute__((target("avx512f,avx512bw"))) inline __m512i sampleIndexes(const float *px, const float *py, __m512 a, __m512 b, __m512i reach33) {
    // (Each product rounded, as cv::ORB's: explicit rounding keeps the
    // compiler from fusing a product into the sum.)
    const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    __m512 x = _mm512_loadu_ps(px), y = _mm512_loadu_ps(py);
    __m512 rx = _mm512_sub_round_ps(_mm512_mul_round_ps(x, a, rn), _mm512_mul_round_ps(y, b, rn), rn);
    __m512 ry = _mm512_add_round_ps(_mm512_mul_round_ps(x, b, rn), _mm512_mul_round_ps(y, a, rn), rn);
    return _mm512_add_epi32(_mm512_add_epi32(_mm512_slli_epi32(_mm512_cvtps_epi32(ry), 5), _mm512_cvtps_epi32(rx)), reach33);
}

// samples64 gives the samples of 64 pattern points (px, py) from the
// window's pairs of registers (at most 8). A place's low 7 bits pick its
// byte in a pair, which the next 3 pick: the places are packed into 16
// bits, then their low bytes and their high ones apart, and the pair is
// chosen bit by bit.
template <int pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline __m512i samples64(const float *px, const float *py, __m512 a, __m512 b, __m512i reach33,
                                                                                 const __m512i (*window)[2]) {
    static_assert(pairs >= 1 && pairs <= 8, "a place's pair is 3 bits");
    __m512i i[4];
    for (int q = 0; q < 4; q++)
        i[q] = sampleIndexes(px + 16 * q, py + 16 * q, a, b, reach33);
    // The even 16-bit words of two registers, in order; then the even
    // bytes, and the odd ones.
    const __m512i words = _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i w0 = _mm512_permutex2var_epi16(i[0], words, i[1]), w1 = _mm512_permutex2var_epi16(i[2], words, i[3]);
    const __m512i even = _mm512_set_epi8(126, 124, 122, 120, 118, 116, 114, 112, 110, 108, 106, 104, 102, 100, 98, 96, 94, 92, 90, 88, 86, 84, 82, 80, 78, 76, 74, 72, 70, 68, 66, 64, 62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i at = _mm512_permutex2var_epi8(w0, even, w1);
    const __m512i high = _mm512_permutex2var_epi8(w0, _mm512_add_epi8(even, _mm512_set1_epi8(1)), w1);
    const __mmask64 bit0 = _mm512_movepi8_mask(at), bit1 = _mm512_test_epi8_mask(high, _mm512_set1_epi8(1)),
                    bit2 = _mm512_test_epi8_mask(high, _mm512_set1_epi8(2));
    // (The permutes read the low 7 bits of each place.)
    __m512i v[8];
    for (int p = 0; p < 8; p++)
        v[p] = p < pairs ? _mm512_permutex2var_epi8(window[p][0], at, window[p][1]) : v[pairs - 1];
    const __m512i v01 = _mm512_mask_blend_epi8(bit0, v[0], v[1]), v23 = _mm512_mask_blend_epi8(bit0, v[2], v[3]);
    const __m512i v45 = _mm512_mask_blend_epi8(bit0, v[4], v[5]), v67 = _mm512_mask_blend_epi8(bit0, v[6], v[7]);
    return _mm512_mask_blend_epi8(bit2, _mm512_mask_blend_epi8(bit1, v01, v23), _mm512_mask_blend_epi8(bit1, v45, v67));
}

// pickSamples gives, for 64 tests, the samples of their first (or their
// second) points out of the samples of the pattern's distinct points,
// held in five registers: at, a point's place mod 256 (the permutes read
// its low 7 or 6 bits), and in, the tests whose point is one of 128–255
// and those whose is one of 256 on.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) inline __m512i pickSamples(const __m512i *s, __m512i at, const unsigned long long *in) {
    __m512i v = _mm512_permutex2var_epi8(s[0], at, s[1]);
    v = _mm512_mask_mov_epi8(v, in[0], _mm512_permutex2var_epi8(s[2], at, s[3]));
    return _mm512_mask_permutexvar_epi8(v, in[1], at, s[4]);
}

// describeWindow is describe with describeAVX2's arithmetic, the samples
// read out of registers (see describeReach), 64 at a time: those of the
// pattern's distinct points, then the tests' picked from them.
template <int pairs>
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void describeWindow(const frameORB *o, const cv::KeyPoint &k, uchar *d) {
    const uchar *center;
    int step;
    float a, b;
    samplePlace(o, k, center, step, a, b);
    const int reach = describeReach(o->patch);
    __m512i window[pairs][2];
    const uchar *first = center - reach * step - reach;
    for (int p = 0; p < pairs; p++)
        for (int h = 0; h < 2; h++) {
            const uchar *row = first + (4 * p + 2 * h) * step;
            __m512i w = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)row));
            window[p][h] = _mm512_inserti64x4(w, _mm256_loadu_si256((const __m256i *)(row + step)), 1);
        }
    const __m512 va = _mm512_set1_ps(a), vb = _mm512_set1_ps(b);
    const __m512i reach33 = _mm512_set1_epi32(33 * reach);
    __m512i samples[5];
    for (int i = 0; i < 5; i++)
        samples[i] = samples64<pairs>(&o->pointX[64 * i], &o->pointY[64 * i], va, vb, reach33, window);
    const uchar *at = o->testPoint.data();
    const unsigned long long *in = o->testIn.data();
    for (int t = 0; t < 256; t += 64, at += 128, in += 4) {
        const __m512i p = pickSamples(samples, _mm512_loadu_si512(at), in);
        const __m512i q = pickSamples(samples, _mm512_loadu_si512(at + 64), in + 2);
        const uint64_t bits = _mm512_cmplt_epu8_mask(p, q);
        std::memcpy(d + t / 8, &bits, 8);
    }
}

// describeVBMI is describeWindow for the detector's patch, which must be
// one describeWindows handles.
void describeVBMI(const frameORB *o, const cv::KeyPoint &k, uchar *d) {
    switch (windowRows(o->patch) / 4) {
    case 7:
        describeWindow<7>(o, k, d);
        return;
    case 8:
        describeWindow<8>(o, k, d);
        return;
    default:
        describeWindow<6>(o, k, d);
    }
}

// distinctPoints lists the pattern's distinct points for describeWindow,
// and each test's two among them; it leaves describeVBMI off where they
// do not fit five registers.
void distinctPoints(frameORB *o) {
    std::vector<int> place(o->pattern.size());
    for (size_t i = 0; i < o->pattern.size(); i++) {
        const cv::Point &p = o->pattern[i];
        size_t j = 0;
        while (j < o->pointX.size() && (o->pointX[j] != (float)p.x || o->pointY[j] != (float)p.y))
            j++;
        if (j == o->pointX.size()) {
            o->pointX.push_back((float)p.x);
            o->pointY.push_back((float)p.y);
        }
        place[i] = (int)j;
    }
    if (o->pointX.size() > 320 || o->pattern.size() != 512) {
        o->describeVBMI = false;
        return;
    }
    o->pointX.resize(320, 0.f);
    o->pointY.resize(320, 0.f);
    o->testPoint.assign(512, 0);
    o->testIn.assign(16, 0);
    for (int t = 0; t < 256; t++)
        for (int side = 0; side < 2; side++) {
            const int j = place[2 * t + side], g = t / 64, bit = t % 64;
            o->testPoint[128 * g + 64 * side + bit] = (uchar)(j & 255);
            if (j >= 128 && j < 256)
                o->testIn[4 * g + 2 * side] |= 1ull << bit;
            if (j >= 256)
                o->testIn[4 * g + 2 * side + 1] |= 1ull << bit;
        }
}

// describeWindows reports whether describeVBMI handles a patch: one whose
// window rows fit 6 to 8 pairs of registers, and whose keypoints, a patch
// from the level's edges, have the window's rows and 32 columns from
// −reach inside the level.
inline bool describeWindows(int patch) {
    const int reach = describeReach(patch), rows = windowRows(patch);
    return rows >= 24 && rows <= 32 && reach < 32 && patch >= rows - reach && patch + 32 - reach <= patch + patch;
}

} // namespace

extern "C" {

tablecam_orb tablecam_orb_new(int nfeatures, float scaleFactor, int nlevels, int patch, int threshold, int simd) {
    frameORB *o = new frameORB;
    o->nfeatures = nfeatures;
    o->nlevels = nlevels;
    o->patch = patch;
    o->threshold = threshold;
    o->scale = scaleFactor;
    o->quota = quotas(nfeatures, scaleFactor, nlevels);
    o->last.assign(nlevels, 0);
    o->firstShare.assign(nlevels, 0.25f);
    o->umax = rowEnds(patch / 2);
    o->pattern = randomPattern(patch, 512);
    for (size_t i = 0; i < o->pattern.size(); i++) {
        const cv::Point &p = o->pattern[i];
        o->patternX.push_back((float)p.x);
        o->patternY.push_back((float)p.y);
    }
    // (angleAVX2 reads a row of the patch in 32 bytes.)
    o->simd = simd > 0 && __builtin_cpu_supports("avx2") && patch / 2 <= 15;
    o->wide = simd > 1 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    o->wideCorners = o->wide && __builtin_cpu_supports("avx512vbmi2");
    o->vbmi = o->wide && __builtin_cpu_supports("avx512vbmi");
    o->describeVBMI = o->vbmi && describeWindows(patch);
    distinctPoints(o);
    angleWeights(o);
    cv::Mat gauss = cv::getGaussianKernel(7, 2, CV_32F);
    o->gauss.assign(gauss.ptr<float>(), gauss.ptr<float>() + 7);
    for (int l = 0; l < nlevels; l++)
        o->inverseScale.push_back(1.f / (float)std::pow((double)o->scale, (double)l));
    o->levels.resize(nlevels);
    o->bordered.resize(nlevels);
    o->blurred.resize(nlevels);
    o->lazyBlur = o->wide && patch >= 11;
    o->blurTiles.resize(nlevels);
    o->blurDone.resize(nlevels);
    return o;
}

void tablecam_orb_close(tablecam_orb o) { delete (frameORB *)o; }

// tablecam_orb_looked_again writes how many pyramid levels the detector
// has looked at again at its own threshold (see cornersAVX512): a quarter
// of the way down, and whole. It returns 0 where the corners are not
// found by cornersAVX512.
int tablecam_orb_looked_again(tablecam_orb h, long long *early, long long *whole) {
    frameORB *o = (frameORB *)h;
    *early = o->lookedAgain[0];
    *whole = o->lookedAgain[1];
    return o->wideCorners;
}

// tablecam_orb_detect finds the keypoints of a grey image and writes them
// (rows x, y at the image's scale, CV_32F); it returns their
// number, or -1 on an OpenCV error. tablecam_orb_describe describes them.
// The detector keeps a reference to the image until the next one.
int tablecam_orb_detect(tablecam_orb h, void *grayp, void *pointsp) {
    frameORB *o = (frameORB *)h;
    const cv::Mat &gray = *(cv::Mat *)grayp;
    cv::Mat &points = *(cv::Mat *)pointsp;
    try {
        std::vector<cv::KeyPoint> &kps = o->kps;
        kps.clear();
        o->levelPts.clear();
        // As cv::ORB: each level is the one before it resized.
        o->levels[0] = gray;
        for (int l = 0; l < o->nlevels; l++) {
            if (l > 0) {
                float s = (float)std::pow((double)o->scale, (double)l);
                cv::Size sz(cvRound(gray.cols / s), cvRound(gray.rows / s));
                if (!o->vbmi || !resizeAVX512(o, o->levels[l - 1], o->levels[l], sz))
                    cv::resize(o->levels[l - 1], o->levels[l], sz, 0, 0, cv::INTER_LINEAR_EXACT);
            }
            detectLevel(o, o->levels[l], l, kps, o->levelPts);
        }
        // cv::ORB blurs each level in place inside its bordered pyramid,
        // where OpenCV's Gaussian blur takes its floating-point path (its
        // fixed-point one, for whole images, rounds a few pixels the other
        // way): so here too.
        for (int l = 0; l < o->nlevels; l++) {
            // (With a patch of 11 or more pixels, the tests read 3 or more
            // from the edges.)
            if (o->lazyBlur) {
                startBlur(o, l);
                continue;
            }
            const int border = 4;
            cv::copyMakeBorder(o->levels[l], o->bordered[l], border, border, border, border, cv::BORDER_REFLECT_101);
            o->blurred[l] = o->bordered[l](cv::Rect(border, border, o->levels[l].cols, o->levels[l].rows));
            cv::GaussianBlur(o->blurred[l], o->blurred[l], cv::Size(7, 7), 2, 2, cv::BORDER_REFLECT_101);
        }
        points.create((int)kps.size(), 2, CV_32F);
        for (size_t i = 0; i < kps.size(); i++) {
            points.at<float>((int)i, 0) = kps[i].pt.x;
            points.at<float>((int)i, 1) = kps[i].pt.y;
        }
        return (int)kps.size();
    } catch (const cv::Exception &) {
        return -1;
    }
}

// tablecam_orb_describe writes the descriptors of the last image's
// keypoints ids[0..n) (each below the number tablecam_orb_detect returned)
// into out, 32 bytes each, in the order asked. It allocates nothing and
// cannot fail.
void tablecam_orb_describe(tablecam_orb h, const int *ids, int n, unsigned char *out) {
    frameORB *o = (frameORB *)h;
    for (int i = 0; i < n; i++) {
        cv::KeyPoint k = o->kps[ids[i]];
        if (o->lazyBlur) {
            // The pixels the tests read: within reach of the keypoint, and
            // describeWindow's rows and 32 columns from −reach.
            const float scale = o->inverseScale[k.octave];
            const int x = cvRound(k.pt.x * scale), y = cvRound(k.pt.y * scale), reach = describeReach(o->patch);
            blurAround(o, k.octave, x - reach, y - reach, x + std::max(reach, 31 - reach), y + std::max(reach, windowRows(o->patch) - 1 - reach));
        }
        orient(o, k, o->levelPts[ids[i]]);
        if (o->describeVBMI)
            describeVBMI(o, k, out + 32 * (size_t)i);
        else if (o->simd)
            describeAVX2(o, k, out + 32 * (size_t)i);
        else
            describe(o, k, out + 32 * (size_t)i);
    }
}

} // extern "C"
