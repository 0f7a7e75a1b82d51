package calibration

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestSettleOnSides starts from the true realm of bundled stills moved by
// one cell along either axis: settleOnSides must move it back, and must
// leave the true realm where it is.
func TestSettleOnSides(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0001", "0037", "0099"} {
		truth, rm := stillRidgeMap(t, dir, name)
		want, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		tol := 0.01 * realmWidthPx(truth.Corners)
		if e := cornerError(quadOfLattice(settleOnSides(rm, want, g), g), truth.Corners); e > tol {
			t.Errorf("%s: the true realm was moved %.1f px", name, e)
		}
		for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			shifted := shiftedBy(want, g, s[0], s[1])
			if !plausible(shifted, g, float64(rm.w), float64(rm.h)) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%v", name, s), func(t *testing.T) {
				got := settleOnSides(rm, shifted, g)
				if e := cornerError(orientLike(quadOfLattice(got, g), truth.Corners), truth.Corners); e > tol {
					t.Errorf("still %.1f px off the true realm (advantage of the move back %.2f)", e, rm.shiftAdvantage(shifted, g, -s[0], -s[1]))
				}
			})
		}
	}
}

// coverWithArm paints a skin-coloured arm, soft at its edges and shaded in
// broad bands across it, over the quadrilateral poly (realm millimetres
// under h) of an 8-bit BGR frame, and gives the frame as a JPEG stores it
// (the caller closes it).
func coverWithArm(tb testing.TB, frame *gocv.Mat, h homography, poly []models.Point) gocv.Mat {
	tb.Helper()
	var pts []image.Point
	for _, p := range poly {
		q := h.Apply(p)
		pts = append(pts, image.Pt(int(q.X), int(q.Y)))
	}
	mask := gocv.NewMatWithSize(frame.Rows(), frame.Cols(), gocv.MatTypeCV8UC3)
	defer mask.Close()
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	gocv.FillPoly(&mask, pv, color.RGBA{255, 255, 255, 255})
	gocv.GaussianBlur(mask, &mask, image.Pt(0, 0), 4, 4, gocv.BorderReflect)
	fp, err := frame.DataPtrUint8()
	if err != nil {
		tb.Fatal(err)
	}
	mp, err := mask.DataPtrUint8()
	if err != nil {
		tb.Fatal(err)
	}
	skin := [3]float64{105, 140, 190} // BGR
	for i := range fp {
		x := i / 3 % frame.Cols()
		a := float64(mp[i]) / 255
		shade := float64(uint8(skin[i%3] * (0.75 + 0.25*math.Sin(float64(x)/40))))
		fp[i] = uint8(float64(fp[i])*(1-a) + shade*a)
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *frame, []int{gocv.IMWriteJpegQuality, 90})
	if err != nil {
		tb.Fatal(err)
	}
	defer buf.Close()
	covered, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil {
		tb.Fatal(err)
	}
	return covered
}

// detectUnderArm covers the named bundled still with an arm (a polygon in
// realm millimetres) and runs Detect on it. A realm found more than 1% of
// its width off the truth fails the test; found reports whether Detect
// found one at all.
func detectUnderArm(t *testing.T, dir, name string, arm []models.Point) (found bool) {
	t.Helper()
	truth, frame := readStill(t, dir, name)
	defer frame.Close()
	h, err := fitHomography(realmCorners(models.DefaultRealm()), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	covered := coverWithArm(t, &frame, h, arm)
	defer covered.Close()
	c, err := Detect(covered, Options{South: southOf(truth.NorthAtBottom)})
	if err != nil {
		t.Logf("not found: %v", err)
		return false
	}
	if e := cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners); e > 0.01 {
		t.Errorf("a wrong realm: corner error %.1f%% of its width (found %v, want %v)", 100*e, fmtQuad(c.Corners), fmtQuad(truth.Corners))
	}
	return true
}

// TestDetectArmOverBorderColumn covers a bundled still's west column (its
// border line and most of its cells' sides) with an arm reaching in from
// the far side: the edges and the line profiles both see the grid equally
// well a column east, where the lattice's new border runs over the mat's
// empty margin. Detect must find the true realm, not the one a column off.
func TestDetectArmOverBorderColumn(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	cw, ch, hh := g.CellWidthMM, g.CellHeightMM, g.HeightMM()
	if !detectUnderArm(t, dir, "0069", []models.Point{{X: -40, Y: 0.8 * ch}, {X: cw + 15, Y: 0.8 * ch}, {X: cw + 25, Y: hh + 400}, {X: -50, Y: hh + 400}}) {
		t.Error("no realm")
	}
}

// TestEndsAtBorder reads bundled stills whose grid is plain: the true
// realm shows on its sides and ends at its border, while the same lattice
// a cell off, or at half the spacing along both axes (the cells' shape
// kept, every other line empty), does not.
func TestEndsAtBorder(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0001", "0037", "0099"} {
		truth, rm := stillRidgeMap(t, dir, name)
		want, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		if !rm.endsAtBorder(want, g) {
			t.Errorf("%s: the true realm does not end at its border", name)
		}
		for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if rm.endsAtBorder(shiftedBy(want, g, s[0], s[1]), g) {
				t.Errorf("%s: the realm moved by %v cells ends at its border", name, s)
			}
		}
		half := homography{0.5, 0, 0, 0, 0.5, 0, 0, 0, 1}.Then(want)
		if rm.endsAtBorder(half, g) {
			t.Errorf("%s: the lattice of half the spacing ends at its border", name)
		}
	}
}

// TestDetectFaintGridEndsAtBorder reads a bundled still whose grid lines
// are faint and half under cards: their ridge score is under what the
// profile search believes alone, and Canny finds too few of their edges to
// confirm them, but the grid shows on most cell sides and ends at the
// realm's border. Detect must find the realm.
func TestDetectFaintGridEndsAtBorder(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	truth, frame := readStill(t, dir, "0026")
	defer frame.Close()
	c, err := Detect(frame, Options{South: southOf(truth.NorthAtBottom)})
	if err != nil {
		t.Fatalf("no realm: %v", err)
	}
	if e := cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners); e > 0.01 {
		t.Errorf("a wrong realm: corner error %.1f%% of its width (found %v, want %v)", 100*e, fmtQuad(c.Corners), fmtQuad(truth.Corners))
	}
}
