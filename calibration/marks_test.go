package calibration

import (
	"fmt"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestDetectDottedMat: a mat that marks the cells' corners with dots only,
// no lines, with cards over some of them, a tilted camera and a lens's
// barrel distortion: the realm is read off the dots.
func TestDetectDottedMat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed  uint64
		tilt  float64
		k1    float64
		light bool
	}{
		{9200, 10, 0, true},
		{9201, 25, 0.04, false},
		{9202, 18, 0.06, true},
		{9204, 22, 0.03, false},
		{9205, 14, 0, false},
	} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: tc.tilt, rotDeg: 3, widthFrac: 0.8, contrast: 0.8, lightLines: tc.light,
				cards: 7, noise: 3, jpegQuality: 80, dots: true}
			detectsWithin1Percent(t, s, tc.k1)
		})
	}
}

// BenchmarkDetectMarks is the cost of reading a realm off its corner marks
// (run only when no lines are found), on a dotted mat at the working size.
func BenchmarkDetectMarks(b *testing.B) {
	s := scene{seed: 9200, tiltDeg: 10, rotDeg: 3, widthFrac: 0.8, contrast: 0.8, lightLines: true,
		cards: 7, noise: 3, jpegQuality: 80, dots: true}
	rm := ridgeMapOf(b, s)
	g := models.DefaultRealm()
	for b.Loop() {
		if _, _, ok := detectMarks(rm, g); !ok {
			b.Fatal("no realm")
		}
	}
}

// TestDetectCrossedMat: mats that mark the cells' corners with small
// crosses (a T along the realm's border, an L at its corners) or draw the
// grid as dashes that cross at the corners, with cards over some of them,
// a tilted camera and a lens's barrel distortion: the realm is read off the
// junctions of thin lines at its corners.
func TestDetectCrossedMat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed   uint64
		tilt   float64
		rot    float64
		k1     float64
		light  bool
		dashed bool
	}{
		{9301, 24, -4, 0.04, true, false},
		{9302, 18, 8, 0.02, false, false},
		{9306, 26, 1, 0.03, true, false},
		{9304, 28, -6, 0.03, true, true},
		{9307, 16, -2, 0.02, true, true},
	} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: tc.tilt, rotDeg: tc.rot, widthFrac: 0.7, contrast: 0.75, lightLines: tc.light,
				lineMM: 0.75, cards: 9, noise: 3, blur: true, jpegQuality: 75, crosses: !tc.dashed, dashed: tc.dashed}
			detectsWithin1Percent(t, s, tc.k1)
		})
	}
}

// BenchmarkFindJunctions is the cost of finding the junctions of thin lines
// (a mat's corner crosses, and card art's) in a frame at the working size.
func BenchmarkFindJunctions(b *testing.B) {
	s := scene{seed: 9302, tiltDeg: 18, rotDeg: 8, widthFrac: 0.7, contrast: 0.75, lineMM: 0.75,
		cards: 9, noise: 3, blur: true, jpegQuality: 75, crosses: true}
	rm := ridgeMapOf(b, s)
	for b.Loop() {
		if len(rm.findJunctions()) == 0 {
			b.Fatal("no junctions")
		}
	}
}

// detectsWithin1Percent renders scene s, bent by a barrel lens of strength k1
// when k1 > 0, and checks that Detect finds its realm within 1% of the
// realm's width.
func detectsWithin1Percent(t *testing.T, s scene, k1 float64) {
	t.Helper()
	frame, truth := s.render(t)
	if k1 > 0 {
		bent, bentTruth := barrel(t, frame, k1, 0.8*float64(frame.Cols()), truth)
		frame.Close()
		frame, truth = bent, bentTruth
	}
	defer frame.Close()
	c, err := Detect(frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, c.Corners, truth)
	}
}

// ridgeMapOf renders scene s and returns its ridge map at the working size.
func ridgeMapOf(b *testing.B, s scene) *ridgeMap {
	b.Helper()
	frame, _ := s.render(b)
	defer frame.Close()
	gray, _ := workingGray(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		b.Fatal(err)
	}
	return rm
}
