package vision

// #include "ransac.h"
import "C"

import (
	"math"
	"math/rand/v2"
	"unsafe"
)

// similarity maps reference face pixels to top-down pixels by a turn, a
// uniform scale and a shift: x' = a·x − b·y + tx, y' = b·x + a·y + ty. In the
// top-down image every card lies flat at a known scale, so four degrees of
// freedom are all a card's placement has; fitting no more keeps a card with
// few visible keypoints (a site under a unit) from fitting noise.
type similarity struct{ A, B, Tx, Ty float64 }

func (s similarity) apply(x, y float64) (float64, float64) {
	return s.A*x - s.B*y + s.Tx, s.B*x + s.A*y + s.Ty
}

// scale is the size ratio; angle the clockwise turn in degrees (image y down).
func (s similarity) scale() float64 { return math.Hypot(s.A, s.B) }
func (s similarity) angle() float64 { return math.Atan2(s.B, s.A) * 180 / math.Pi }

// pointPair is one keypoint match: a reference face point and a top-down point.
type pointPair struct{ rx, ry, fx, fy float64 }

// similarityFrom2 solves the similarity through two pairs.
func similarityFrom2(p, q pointPair) (similarity, bool) {
	dx, dy := q.rx-p.rx, q.ry-p.ry
	ex, ey := q.fx-p.fx, q.fy-p.fy
	d := dx*dx + dy*dy
	if d < 1e-6 {
		return similarity{}, false
	}
	a := (dx*ex + dy*ey) / d
	b := (dx*ey - dy*ex) / d
	return similarity{A: a, B: b, Tx: p.fx - (a*p.rx - b*p.ry), Ty: p.fy - (b*p.rx + a*p.ry)}, true
}

// fitSimilarity is the least-squares similarity through the pairs.
func fitSimilarity(pairs []pointPair) (similarity, bool) {
	n := float64(len(pairs))
	if n < 2 {
		return similarity{}, false
	}
	var mrx, mry, mfx, mfy float64
	for _, p := range pairs {
		mrx += p.rx / n
		mry += p.ry / n
		mfx += p.fx / n
		mfy += p.fy / n
	}
	var sxx, sab, sba float64
	for _, p := range pairs {
		rx, ry, fx, fy := p.rx-mrx, p.ry-mry, p.fx-mfx, p.fy-mfy
		sxx += rx*rx + ry*ry
		sab += rx*fx + ry*fy
		sba += rx*fy - ry*fx
	}
	if sxx < 1e-6 {
		return similarity{}, false
	}
	a, b := sab/sxx, sba/sxx
	return similarity{A: a, B: b, Tx: mfx - (a*mrx - b*mry), Ty: mfy - (b*mrx + a*mry)}, true
}

// ransacParams bound a similarity search.
type ransacParams struct {
	threshold          float64 // inlier reprojection error, pixels
	minScale, maxScale float64
	iterations         int
}

// ransacSimilarity finds the similarity with most inliers among the pairs,
// considering only scales in range, refines it on its inliers, and returns
// it with the inlier flags.
func ransacSimilarity(pairs []pointPair, p ransacParams, rng *rand.Rand) (similarity, []bool, int) {
	return ransacSimilarityWith(pairs, p, rng, false)
}

// ransacSimilarityWith is ransacSimilarity, its draws weighed by ransac.c's
// code any processor runs when portable is set (for tests: the fast code
// finds the same).
func ransacSimilarityWith(pairs []pointPair, p ransacParams, rng *rand.Rand, portable bool) (similarity, []bool, int) {
	n := len(pairs)
	if n < 3 {
		return similarity{}, nil, 0
	}
	t2 := p.threshold * p.threshold
	count := func(s similarity, flags []bool) int {
		c := 0
		for i, q := range pairs {
			x, y := s.apply(q.rx, q.ry)
			in := (x-q.fx)*(x-q.fx)+(y-q.fy)*(y-q.fy) <= t2
			if flags != nil {
				flags[i] = in
			}
			if in {
				c++
			}
		}
		return c
	}
	best, bestN := bestDraw(pairs, ransacDraws(n, p.iterations, rng), p, portable)
	if bestN < 3 {
		return similarity{}, nil, 0
	}
	flags := make([]bool, n)
	// Refine twice on the inliers; keep the refinement only if it stays in range.
	for k := 0; k < 2; k++ {
		count(best, flags)
		var in []pointPair
		for i, f := range flags {
			if f {
				in = append(in, pairs[i])
			}
		}
		s, ok := fitSimilarity(in)
		if !ok || s.scale() < p.minScale || s.scale() > p.maxScale {
			break
		}
		if c := count(s, nil); c >= bestN {
			best, bestN = s, c
		}
	}
	bestN = count(best, flags)
	return best, flags, bestN
}

// ransacDraws lists the pairs of pairs a RANSAC search over n pairs tries,
// two numbers a draw: iterations draws at random (a pair drawn twice is
// skipped), or every pair of them when there are no more (a card barely
// seen), so that whether the card is found does not depend on the draw.
func ransacDraws(n, iterations int, rng *rand.Rand) []int32 {
	if n*(n-1)/2 <= iterations {
		out := make([]int32, 0, n*(n-1))
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				out = append(out, int32(i), int32(j))
			}
		}
		return out
	}
	out := make([]int32, 0, 2*iterations)
	for it := 0; it < iterations; it++ {
		if i, j := rng.IntN(n), rng.IntN(n); i != j {
			out = append(out, int32(i), int32(j))
		}
	}
	return out
}

// bestDraw is the similarity through the two pairs of one of the draws
// (see ransacDraws) that has a scale in range and maps most pairs within
// the threshold, the first such, and their count (0: none has a scale in
// range). The draws are weighed in C (ransac.c): nearly all of a fit's
// time is this count, draw after draw.
func bestDraw(pairs []pointPair, draws []int32, p ransacParams, portable bool) (similarity, int) {
	if len(draws) == 0 {
		return similarity{}, 0
	}
	var best [4]C.double
	soa := make([]float64, 4*len(pairs))
	k := 0
	if portable {
		k = 1
	}
	// (The scale bounds are checked squared: the root costs as much as
	// the rest of a draw that fails there.)
	n := C.tablecam_ransac_draws((*C.double)(unsafe.Pointer(&pairs[0])), C.int(len(pairs)), (*C.int32_t)(unsafe.Pointer(&draws[0])),
		C.int(len(draws)/2), C.double(p.threshold*p.threshold), C.double(p.minScale*p.minScale), C.double(p.maxScale*p.maxScale),
		&best[0], (*C.double)(unsafe.Pointer(&soa[0])), C.int(k))
	return similarity{A: float64(best[0]), B: float64(best[1]), Tx: float64(best[2]), Ty: float64(best[3])}, int(n)
}
