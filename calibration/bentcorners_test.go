package calibration

import (
	"fmt"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestLensRoundTrip: distort undoes undistort across the frame, for barrel
// and pincushion lenses.
func TestLensRoundTrip(t *testing.T) {
	t.Parallel()
	for _, k := range []float64{-0.04, 0.04, 0.2} {
		l := lens{c: models.Point{X: 640, Y: 360}, hd: math.Hypot(640, 360), k: k}
		for _, p := range []models.Point{{X: 0, Y: 0}, {X: 1279, Y: 719}, {X: 640, Y: 360}, {X: 100, Y: 500}} {
			if q := l.distort(l.undistort(p)); dist(p, q) > 1e-6 {
				t.Errorf("k %.2f: %v → %v", k, p, q)
			}
		}
	}
}

// TestDetectStrongBarrel: a wide-angle lens (k1 0.06–0.1 of the half
// diagonal: a webcam's is about 0.04) bends the grid so much that the
// straight lattice that fits its lines best misses the realm's corners by
// 0.7–1.9% of its width; the corners are where the bowed border lines meet
// (onBentBorder).
func TestDetectStrongBarrel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed uint64
		k1   float64
	}{{9100, 0.1}, {9101, 0.1}, {9102, 0.08}, {9103, 0.06}, {9204, 0.06}, {9105, 0.1}} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: 8, rotDeg: 4, widthFrac: 0.7, lineMM: 0.8, borderMM: 1,
				contrast: 0.6, lightLines: true, cards: 6, noise: 3, jpegQuality: 85}
			frame, truth := s.render(t)
			defer frame.Close()
			hd := math.Hypot(float64(frame.Cols()), float64(frame.Rows())) / 2
			bent, bentTruth := barrel(t, frame, tc.k1, hd, truth)
			defer bent.Close()
			c, err := Detect(bent, Options{})
			if err != nil {
				t.Fatalf("k1 %.2f: %v", tc.k1, err)
			}
			e := cornerError(orientLike(c.Corners, bentTruth), bentTruth) / realmWidthPx(bentTruth)
			t.Logf("k1 %.2f: corner error %.2f%% of the realm's width", tc.k1, 100*e)
			// A straight lattice misses by 0.7–1.9%.
			if e > 0.003 {
				t.Errorf("k1 %.2f: corner error %.2f%% of the realm's width, want ≤ 0.3%%", tc.k1, 100*e)
			}
		})
	}
}

// TestOnBentBorderLeavesStraightGrid: on a frame without lens distortion
// no distortion straightens the lines better than none, and the corners
// stay where they are.
func TestOnBentBorderLeavesStraightGrid(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{9210, 9211} {
		s := scene{seed: seed, tiltDeg: 12, rotDeg: 2, widthFrac: 0.85, lineMM: 0.8, borderMM: 1,
			contrast: 0.6, cards: 6, noise: 3, jpegQuality: 85}
		frame, truth := s.render(t)
		gray, scale := workingGray(frame)
		frame.Close()
		rm, err := newRidgeMap(gray)
		gray.Close()
		if err != nil {
			t.Fatal(err)
		}
		g := models.DefaultRealm()
		var q [4]models.Point
		for i, p := range truth {
			q[i] = models.Point{X: p.X * scale, Y: p.Y * scale}
		}
		h, err := fitHomography(realmCorners(g), q[:])
		if err != nil {
			t.Fatal(err)
		}
		if hb, _, ok := onBentBorder(rm, h, g); ok {
			if e := cornerError(quadOfLattice(hb, g), quadOfLattice(h, g)); e > 1 {
				t.Errorf("seed %d: a straight grid's corners moved %.1f px", seed, e)
			}
		}
	}
}

// TestCurveEvidenceFindsBentBorder: the measure that keeps onBentBorder
// from moving a corner off its line (a border read off a card's edge): on
// a bent frame each border shows more clearly along the curve the true lens
// makes of the true lattice than along that curve moved 6 px across.
func TestCurveEvidenceFindsBentBorder(t *testing.T) {
	t.Parallel()
	s := scene{seed: 9100, tiltDeg: 8, rotDeg: 4, widthFrac: 0.7, lineMM: 0.8, borderMM: 1,
		contrast: 0.6, lightLines: true, cards: 6, noise: 3, jpegQuality: 85}
	frame, truth := s.render(t)
	defer frame.Close()
	hd := math.Hypot(float64(frame.Cols()), float64(frame.Rows())) / 2
	const k1 = 0.1
	bent, _ := barrel(t, frame, k1, hd, truth)
	defer bent.Close()
	gray, scale := workingGray(bent)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	// The truth corners are those of the undistorted frame: the lattice
	// there, at the working width.
	var q [4]models.Point
	for i, p := range truth {
		q[i] = models.Point{X: p.X * scale, Y: p.Y * scale}
	}
	g := models.DefaultRealm()
	hu, err := fitHomography(realmCorners(g), q[:])
	if err != nil {
		t.Fatal(err)
	}
	l := lens{c: models.Point{X: float64(rm.w-1) / 2, Y: float64(rm.h-1) / 2}, hd: math.Hypot(float64(rm.w), float64(rm.h)) / 2, k: k1}
	light := rm.lightGrid(hu, g)
	for i, gl := range borderLines(g) {
		on := rm.curveEvidence(hu, l, gl, light)
		for _, d := range []float64{-6, 6} {
			// Moved across the border: along y for south and north, x for east and west.
			off := homography{1, 0, d, 0, 1, 0, 0, 0, 1}
			if i%2 == 0 {
				off = homography{1, 0, 0, 0, 1, d, 0, 0, 1}
			}
			if moved := rm.curveEvidence(hu.Then(off), l, gl, light); moved > on-minBorderKeep {
				t.Errorf("border %d: %.2f on its curve, %.2f moved %+.0f px", i, on, moved, d)
			}
		}
	}
}
