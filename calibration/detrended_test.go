package calibration

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// lineAndCloudSamples are pencil samples (see newPencilSamples) of a
// 1280×720 frame: faint lines, 90 px apart, at angle (radians) across
// the frame's middle, every 6 px along them, and a cloud of strong samples
// of either sign, as dense as a grained table's, in the frame's top-right
// and bottom-left corners (within 450 px of them).
func lineAndCloudSamples(angle float64, detrend bool) pencilSamples {
	rng := rand.New(rand.NewPCG(31, 31))
	ps := pencilSamples{centre: models.Point{X: 640, Y: 360}, span: 1280, detrend: detrend}
	add := func(x, y, r float64) {
		if x < 0 || y < 0 || x >= 1280 || y >= 720 {
			return
		}
		ps.a = append(ps.a, x-640)
		ps.b = append(ps.b, y-360)
		ps.r = append(ps.r, r)
		ps.light = append(ps.light, ps.lightOffset(r))
	}
	ux, uy := math.Cos(angle), math.Sin(angle)
	for k := -6; k <= 6; k++ {
		ox, oy := 640-90*float64(k)*uy, 360+90*float64(k)*ux
		for s := -800.0; s <= 800; s += 6 {
			add(ox+s*ux+rng.NormFloat64(), oy+s*uy+rng.NormFloat64(), 2.5+0.5*rng.Float64())
		}
	}
	for len(ps.r) < 30000 {
		x, y := 1280*rng.Float64(), 720*rng.Float64()
		if math.Hypot(x-1280, y) > 450 && math.Hypot(x, y-720) > 450 {
			continue
		}
		r := 2.5 + 0.5*rng.Float64()
		if rng.IntN(2) == 0 {
			r = -r
		}
		add(x, y, r)
	}
	return ps
}

// bestAlignment is the direction (radians, within 30° of around, by
// 0.5°) at which ps's samples line up best, at any inverse distance
// (by 0.2 of the largest, see refineVanishingPointOver).
func bestAlignment(ps pencilSamples, around float64) float64 {
	buf := ps.newAlignBuffers()
	kmax := 1.2 / ps.span
	best, bestA := math.Inf(-1), around
	for d := -30.0; d <= 30; d += 0.5 {
		a := around + d*math.Pi/180
		for k := -1.0; k <= 1.001; k += 0.2 {
			if e := ps.alignment(a, k*kmax, buf); e > best {
				best, bestA = e, a
			}
		}
	}
	return bestA
}

// TestDetrendedAlignment: faint lines across the middle of a frame whose
// two corners hold a grained table line up, as bins of the pencil's
// samples, less than the grain does along the frame's diagonal (its
// samples stacked into fewer bins); each bin taken less the mean of its
// neighbours (see detrendedEnergy), the lines' direction must win.
func TestDetrendedAlignment(t *testing.T) {
	t.Parallel()
	want := 115 * math.Pi / 180
	if got := bestAlignment(lineAndCloudSamples(want, false), want); angleDiff(got, want) < 5*math.Pi/180 {
		t.Fatalf("the bins' totals line up best at %.1f°, within 5° of the lines: the test no longer tests the trend", got*180/math.Pi)
	}
	if got := bestAlignment(lineAndCloudSamples(want, true), want); angleDiff(got, want) > 0.5*math.Pi/180 {
		t.Errorf("the detrended bins line up best at %.2f°, want within 0.5° of the lines' %.0f°", got*180/math.Pi, want*180/math.Pi)
	}
}
