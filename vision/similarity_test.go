package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bestDrawGo is bestDraw as plain Go: the reference ransac.c's code must
// agree with, draw for draw.
func bestDrawGo(pairs []pointPair, draws []int32, p ransacParams) (similarity, int) {
	n := len(pairs)
	t2 := p.threshold * p.threshold
	minS2, maxS2 := p.minScale*p.minScale, p.maxScale*p.maxScale
	var best similarity
	bestN := 0
	for k := 0; k+1 < len(draws); k += 2 {
		s, ok := similarityFrom2(pairs[draws[k]], pairs[draws[k+1]])
		if !ok {
			continue
		}
		if s2 := s.A*s.A + s.B*s.B; s2 < minS2 || s2 > maxS2 {
			continue
		}
		c := 0
		for i, q := range pairs {
			if c+n-i <= bestN {
				break
			}
			x, y := s.apply(q.rx, q.ry)
			if (x-q.fx)*(x-q.fx)+(y-q.fy)*(y-q.fy) <= t2 {
				c++
			}
		}
		if c > bestN {
			best, bestN = s, c
		}
	}
	return best, bestN
}

// TestRansacDrawsPortable checks that ransac.c weighs RANSAC's draws as
// the Go reference does, with its fast code and its portable code: the
// same best draw, bit for bit, and the same count, over sets of pairs from
// a few to hundreds, with a card's inliers among chance matches, pairs on
// the threshold's edge and pairs at one place; and the same count for one
// draw whose every other pair lies within a rounding error of the
// threshold (a product and a sum fused into one rounding would move some
// of them across).
func TestRansacDrawsPortable(t *testing.T) {
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	rng := rand.New(rand.NewPCG(3, 9))
	for trial := 0; trial < 100; trial++ {
		pairs := []pointPair{{10, 20, 500 + rng.Float64(), 300 + rng.Float64()}, {110, 170, 0, 0}}
		turn := rng.Float64() * 2 * math.Pi
		pairs[1].fx, pairs[1].fy = pairs[0].fx+183*math.Cos(turn), pairs[0].fy+183*math.Sin(turn)
		s, _ := similarityFrom2(pairs[0], pairs[1])
		for range 200 {
			rx, ry := 126*rng.Float64(), 176*rng.Float64()
			x, y := s.apply(rx, ry)
			a := rng.Float64() * 2 * math.Pi
			pairs = append(pairs, pointPair{rx, ry, x + inlierThreshold*math.Cos(a), y + inlierThreshold*math.Sin(a)})
		}
		draws := []int32{0, 1}
		_, wantN := bestDrawGo(pairs, draws, params)
		for _, portable := range []bool{false, true} {
			if _, gotN := bestDraw(pairs, draws, params, portable); gotN != wantN {
				t.Fatalf("trial %d at the threshold, portable %v: %d pairs within it, want %d", trial, portable, gotN, wantN)
			}
		}
	}
	for trial := 0; trial < 300; trial++ {
		n := 3 + rng.IntN(300)
		if trial%3 == 0 {
			n = 3 + rng.IntN(30) // every pair drawn
		}
		turn := rng.Float64() * 2 * math.Pi
		scale := 0.7 + 0.7*rng.Float64()
		truth := similarity{A: scale * math.Cos(turn), B: scale * math.Sin(turn), Tx: 1300 * rng.Float64(), Ty: 900 * rng.Float64()}
		share := rng.Float64()
		pairs := make([]pointPair, n)
		for i := range pairs {
			rx, ry := 126*rng.Float64(), 176*rng.Float64()
			fx, fy := truth.apply(rx, ry)
			switch r := rng.Float64(); {
			case r < share:
				fx += rng.NormFloat64() * 2
				fy += rng.NormFloat64() * 2
			case r < share+0.05:
				// On the threshold's edge.
				a := rng.Float64() * 2 * math.Pi
				fx += inlierThreshold * math.Cos(a)
				fy += inlierThreshold * math.Sin(a)
			case r < share+0.1 && i > 0:
				// At the same place as another pair.
				rx, ry, fx, fy = pairs[i-1].rx, pairs[i-1].ry, pairs[i-1].fx, pairs[i-1].fy
			default:
				fx, fy = 1360*rng.Float64(), 960*rng.Float64()
			}
			pairs[i] = pointPair{rx, ry, fx, fy}
		}
		draws := ransacDraws(n, params.iterations, rng)
		want, wantN := bestDrawGo(pairs, draws, params)
		for _, portable := range []bool{false, true} {
			got, gotN := bestDraw(pairs, draws, params, portable)
			if got != want || gotN != wantN {
				t.Fatalf("trial %d (%d pairs), portable %v: best draw %+v with %d, want %+v with %d", trial, n, portable, got, gotN, want, wantN)
			}
		}
	}
}
