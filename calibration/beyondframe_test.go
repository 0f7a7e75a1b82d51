package calibration

import (
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// dottedMatScene draws a 1280×720 frame of a dark mat on a grey table, its
// grid drawn in light dots (too short for the Hough segments, so the line
// profiles find it), the realm at 1.6 px a millimetre turned turn radians
// about the frame point (cx, cy), and a site-sized card centred on each of
// cards (realm millimetres). It gives the frame and the true lattice.
func dottedMatScene(t *testing.T, g models.RealmGeometry, turn, cx, cy float64, cards [][2]float64) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 21))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 125, 130, 0), 720, 1280, gocv.MatTypeCV8UC3)
	h, px := matOnTable(t, &frame, g, 1.6, turn, cx, cy, color.RGBA{R: 45, G: 30, B: 70})
	const spacing = 9.0 // mm between the dots' centres
	for _, gl := range innerLines(g) {
		dx, dy := gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y
		l := math.Hypot(dx, dy)
		for s := 0.0; s <= l; s += spacing {
			gocv.Circle(&frame, px(gl.p0.X+dx*s/l, gl.p0.Y+dy*s/l), 2, color.RGBA{R: 200, G: 200, B: 215}, -1)
		}
	}
	cardsAt(&frame, px, rng, cards)
	return softened(t, frame, 21), h
}

// cutCornerScene is a dottedMatScene whose realm, turned 6°, has its
// north-east corner a third of a row above the frame's top edge, as a
// webcam that cuts off a corner of the mat sees it; cards lie in three
// cells.
func cutCornerScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	return dottedMatScene(t, g, -6*math.Pi/180, 640, 240, [][2]float64{{150, 37}, {250, 112}, {350, 262}})
}

// TestRealmCornerOutsideFrame: the realm of cutCornerScene has a corner
// outside the frame; the rest of its grid shows clearly and ends at its
// border where the frame shows it. Detect must find it (see beyondFrame).
func TestRealmCornerOutsideFrame(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := cutCornerScene(t, g)
	defer frame.Close()
	if insideFrame(truth, g, 1280, 720) {
		t.Fatalf("the realm %v lies inside the frame: the test no longer tests a corner outside it", quadOfLattice(truth, g))
	}
	detectsWithin(t, frame, truth, g, 0.005)
}

// TestShiftedLatticeBeyondFrame: of the realm of cutCornerScene and the
// lattices one cell over from it along either axis (each with part of its
// grid outside the frame, or a line over the bare mat), endsAtSeenBorder
// must believe the realm only.
func TestShiftedLatticeBeyondFrame(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := cutCornerScene(t, g)
	defer frame.Close()
	rm, _, _ := frameMaps(t, frame)
	if !rm.endsAtSeenBorder(truth, g) {
		t.Errorf("the realm %v not believed", quadOfLattice(truth, g))
	}
	for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if hs := shiftedBy(truth, g, s[0], s[1]); rm.endsAtSeenBorder(hs, g) {
			t.Errorf("the lattice moved by %v cells believed: %v", s, quadOfLattice(hs, g))
		}
	}
}

// TestLatticeOffFrameOverHiddenBorder: a dottedMatScene whose realm lies
// whole in the frame, its north border just below the frame's top edge, a
// row of cards lying across its south border. The lattice a row north has
// its north row outside the frame and gains, in the frame, only the south
// border, which the cards hide: only that hidden line would tell it from
// the realm, and endsAtSeenBorder must not believe it.
func TestLatticeOffFrameOverHiddenBorder(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	var row [][2]float64
	for x := 50.0; x < g.WidthMM(); x += g.CellWidthMM {
		row = append(row, [2]float64{x, 0})
	}
	frame, truth := dottedMatScene(t, g, 0, 640, 260, row)
	defer frame.Close()
	north := shiftedBy(truth, g, 0, 1)
	if !insideFrame(truth, g, 1280, 720) || insideFrame(north, g, 1280, 720) {
		t.Fatalf("the realm %v must lie in the frame and the lattice a row north %v not", quadOfLattice(truth, g), quadOfLattice(north, g))
	}
	rm, _, _ := frameMaps(t, frame)
	if rm.endsAtSeenBorder(north, g) {
		t.Errorf("the lattice a row north believed: %v", quadOfLattice(north, g))
	}
}
