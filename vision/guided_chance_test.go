package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// guidedScene draws pair lists for a site's face at 2 px/mm that an outline
// puts at (300, 200) in the top-down image.
type guidedScene struct{ w, h, radius float64 }

func newGuidedScene() guidedScene { return guidedScene{176, 126, guidedRadiusMM * 2.0} }

// chance gives n guided pairs matched by chance: each within the guided
// radius of where the outline puts its keypoint.
func (s guidedScene) chance(rng *rand.Rand, n int) []pointPair {
	out := make([]pointPair, n)
	for i := range out {
		rx, ry := rng.Float64()*s.w, rng.Float64()*s.h
		r, a := s.radius*math.Sqrt(rng.Float64()), rng.Float64()*2*math.Pi
		out[i] = pointPair{rx, ry, rx + 300 + r*math.Cos(a), ry + 200 + r*math.Sin(a)}
	}
	return out
}

// anywhere gives n hash-table pairs matched by chance: anywhere on the face.
func (s guidedScene) anywhere(rng *rand.Rand, n int) []pointPair {
	out := make([]pointPair, n)
	for i := range out {
		out[i] = pointPair{rng.Float64() * s.w, rng.Float64() * s.h, 300 + rng.Float64()*s.w, 200 + rng.Float64()*s.h}
	}
	return out
}

// seen gives n pairs of the card itself, a pixel off.
func (s guidedScene) seen(rng *rand.Rand, n int) []pointPair {
	out := make([]pointPair, n)
	for i := range out {
		rx, ry := rng.Float64()*s.w, rng.Float64()*s.h
		out[i] = pointPair{rx, ry, rx + 300 + rng.NormFloat64(), ry + 200 + rng.NormFloat64()}
	}
	return out
}

// TestGuidedFitBeyondChance checks that a guided fit is named only when
// chance would hardly give it its inliers: guided matches all lie within
// guidedRadiusMM of where the outline puts them, so pairs matched by
// chance give a fit near the outline guidedMinInliers inliers, and half
// of 26-30 of them, while a card seen blurred, its pairs mixed with chance
// ones, is named.
func TestGuidedFitBeyondChance(t *testing.T) {
	s := newGuidedScene()
	x := &catalogIndex{refs: []reference{{Slug: "site", W: int(s.w), H: int(s.h)}}}
	params := ransacParams{threshold: inlierThreshold, minScale: regionMinScale, maxScale: regionMaxScale, iterations: ransacRounds}
	tests := []struct {
		name      string
		pairs     func(*rand.Rand) []pointPair
		fromLSH   int
		wantNamed bool
	}{
		{"noise matched near the outline", func(r *rand.Rand) []pointPair { return s.chance(r, 80) }, 6, false},
		{"noise, some from the hash tables", func(r *rand.Rand) []pointPair { return append(s.anywhere(r, 28), s.chance(r, 50)...) }, 28, false},
		{"26 pairs of noise", func(r *rand.Rand) []pointPair { return s.chance(r, 26) }, 0, false},
		{"30 pairs of noise", func(r *rand.Rand) []pointPair { return s.chance(r, 30) }, 2, false},
		{"the card seen, blurred", func(r *rand.Rand) []pointPair { return append(s.seen(r, 16), s.chance(r, 14)...) }, 6, true},
		{"the card seen blurred, few pairs", func(r *rand.Rand) []pointPair { return append(s.seen(r, 14), s.chance(r, 7)...) }, 4, true},
		{"the card seen well", func(r *rand.Rand) []pointPair { return append(s.seen(r, 30), s.chance(r, 8)...) }, 20, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reach := 0 // draws whose chance pairs alone reach guidedMinInliers
			for seed := range uint64(40) {
				pairs := tc.pairs(rand.New(rand.NewPCG(seed, 1)))
				if !tc.wantNamed {
					if _, _, n := ransacSimilarity(pairs, params, rand.New(rand.NewPCG(2, 3))); n >= guidedMinInliers {
						reach++
					}
				}
				best, _, named := x.fitRegion([]int{0}, map[int][]pointPair{0: pairs}, map[int]int{0: tc.fromLSH}, s.radius, rand.New(rand.NewPCG(2, 3)))
				if named != tc.wantNamed {
					t.Errorf("seed %d: named %v (%d inliers of %d pairs), want %v", seed, named, best.inliers, len(pairs), tc.wantNamed)
				}
			}
			// What makes the case: chance pairs alone reach the inliers a
			// guided fit needs.
			if !tc.wantNamed && reach == 0 {
				t.Fatalf("chance pairs never fit guidedMinInliers %d: the case does not test the chance model", guidedMinInliers)
			}
		})
	}
}

// TestGuidedChanceBoundsRANSAC checks the chance model against the real
// RANSAC: guided pairs matched by chance, put through ransacSimilarity,
// pass guidedByChance no more often than guidedChance says (it bounds
// that chance: they pass a fifth to a thirtieth as often).
func TestGuidedChanceBoundsRANSAC(t *testing.T) {
	s := newGuidedScene()
	params := ransacParams{threshold: inlierThreshold, minScale: regionMinScale, maxScale: regionMaxScale, iterations: ransacRounds}
	const draws = 400
	for _, n := range []int{16, 20, 26, 30, 40, 52, 78} {
		passed, reached := 0, 0
		for seed := range uint64(draws) {
			pairs := s.chance(rand.New(rand.NewPCG(seed, uint64(n))), n)
			sim, _, k := ransacSimilarity(pairs, params, rand.New(rand.NewPCG(2, 3)))
			if k < guidedMinInliers {
				continue
			}
			reached++
			if !guidedByChance(k, n, 0, sim.scale(), s.radius, int(s.w), int(s.h), 1) {
				passed++
			}
		}
		if float64(passed) > guidedChance*draws {
			t.Errorf("%d chance pairs: %d of %d fits pass the chance model (%d reach guidedMinInliers), want at most %.0f", n, passed, draws, reached, guidedChance*draws)
		}
	}
}

// TestBinomialSumTail checks the tail of a sum of two binomial counts
// against the sums worked out by hand.
func TestBinomialSumTail(t *testing.T) {
	for _, tc := range []struct {
		n1     int
		p1     float64
		n2     int
		p2     float64
		k      int
		want   float64
		within float64
	}{
		{2, 0.5, 0, 0.1, 1, 0.75, 1e-12},
		{2, 0.5, 1, 0.5, 3, 0.125, 1e-12},
		{3, 0.25, 2, 0.1, 2, 1 - (27.0/64)*0.81 - (27.0/64)*0.18 - (27.0/64)*0.81, 1e-12},
		{24, 0.25, 0, 0, 15, 1.11652e-4, 1e-9}, // the tail of Bin(24, ¼) from 15
		{200, 0.25, 50, 0.002, 0, 1, 0},        // nothing to reach
		{200, 0.25, 50, 0.002, 251, 0, 0},      // beyond the trials
		{400, 0.25, 0, 0, 300, 0, 1e-60},       // far out, no underflow trouble
	} {
		if got := binomialSumTail(tc.n1, tc.p1, tc.n2, tc.p2, tc.k); math.Abs(got-tc.want) > tc.within {
			t.Errorf("binomialSumTail(%d, %g, %d, %g, %d) = %g, want %g", tc.n1, tc.p1, tc.n2, tc.p2, tc.k, got, tc.want)
		}
	}
}
