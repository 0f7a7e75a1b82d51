package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGuidedFitNeedsShareOfPairs checks that a guided fit is named only
// when it holds a good share of its pairs: guided matches all lie within
// guidedRadiusMM of where the outline puts them, so pairs matched by chance
// give a fit near the outline guidedMinInliers inliers once there are
// enough of them.
func TestGuidedFitNeedsShareOfPairs(t *testing.T) {
	const w, h = 176, 126 // a site's face at 2 px/mm
	radius := guidedRadiusMM * 2.0
	x := &catalogIndex{refs: []reference{{Slug: "site", W: w, H: h}}}
	// The outline puts the face at (300, 200) in the top-down image.
	const offX, offY = 300.0, 200.0
	chance := func(rng *rand.Rand, n int) []pointPair {
		out := make([]pointPair, n)
		for i := range out {
			rx, ry := rng.Float64()*w, rng.Float64()*h
			r, a := radius*math.Sqrt(rng.Float64()), rng.Float64()*2*math.Pi
			out[i] = pointPair{rx, ry, rx + offX + r*math.Cos(a), ry + offY + r*math.Sin(a)}
		}
		return out
	}
	// A hash-table pair matched by chance lies anywhere on the face.
	anywhere := func(rng *rand.Rand, n int) []pointPair {
		out := make([]pointPair, n)
		for i := range out {
			out[i] = pointPair{rng.Float64() * w, rng.Float64() * h, offX + rng.Float64()*w, offY + rng.Float64()*h}
		}
		return out
	}
	seen := func(rng *rand.Rand, n int) []pointPair {
		out := make([]pointPair, n)
		for i := range out {
			rx, ry := rng.Float64()*w, rng.Float64()*h
			out[i] = pointPair{rx, ry, rx + offX + rng.NormFloat64(), ry + offY + rng.NormFloat64()}
		}
		return out
	}
	tests := []struct {
		name      string
		pairs     func(*rand.Rand) []pointPair
		fromLSH   int
		wantNamed bool
	}{
		{"noise matched near the outline", func(r *rand.Rand) []pointPair { return chance(r, 80) }, 6, false},
		{"noise, some from the hash tables", func(r *rand.Rand) []pointPair { return append(anywhere(r, 28), chance(r, 50)...) }, 28, false},
		{"the card seen, blurred", func(r *rand.Rand) []pointPair { return append(seen(r, 16), chance(r, 14)...) }, 6, true},
		{"the card seen well", func(r *rand.Rand) []pointPair { return append(seen(r, 30), chance(r, 8)...) }, 20, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range uint64(20) {
				pairs := tc.pairs(rand.New(rand.NewPCG(seed, 1)))
				if !tc.wantNamed {
					// What makes this case: the chance pairs alone reach the
					// inliers a guided fit needs.
					params := ransacParams{threshold: inlierThreshold, minScale: regionMinScale, maxScale: regionMaxScale, iterations: ransacRounds}
					if _, _, n := ransacSimilarity(pairs, params, rand.New(rand.NewPCG(2, 3))); n < guidedMinInliers {
						t.Fatalf("seed %d: chance pairs fit %d inliers, fewer than guidedMinInliers %d: the case does not test the share", seed, n, guidedMinInliers)
					}
				}
				best, _, named := x.fitRegion([]int{0}, map[int][]pointPair{0: pairs}, map[int]int{0: tc.fromLSH}, rand.New(rand.NewPCG(2, 3)))
				if named != tc.wantNamed {
					t.Errorf("seed %d: named %v (%d inliers of %d pairs), want %v", seed, named, best.inliers, len(pairs), tc.wantNamed)
				}
			}
		})
	}
}
