package calibration

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// framedCrossesMat draws, under lattice h, a mat whose cells' corners are
// marked by thin crosses (a T along the realm's border, an L at its
// corners) and whose realm is framed by a line printed 2 mm outside it,
// which runs through the border's marks; it returns the ridge map of the
// blurred, noisy grey frame.
func framedCrossesMat(t *testing.T, h homography, g models.RealmGeometry) *ridgeMap {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(150, 150, 150, 0), 720, 1280, gocv.MatTypeCV8U)
	defer img.Close()
	ink := color.RGBA{60, 60, 60, 255}
	pt := func(p models.Point) image.Point { return image.Pt(int(p.X+0.5), int(p.Y+0.5)) }
	const armMM, frameMM = 12.0, 2.0
	for _, c := range realmLatticePoints(g) {
		for _, d := range [4][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			// No arm outward from the realm.
			if n := (models.Point{X: c.X + d[0]*g.CellWidthMM, Y: c.Y + d[1]*g.CellHeightMM}); n.X < 0 || n.Y < 0 || n.X > g.WidthMM() || n.Y > g.HeightMM() {
				continue
			}
			gocv.Line(&img, pt(h.Apply(c)), pt(h.Apply(models.Point{X: c.X + armMM*d[0], Y: c.Y + armMM*d[1]})), ink, 1)
		}
	}
	frame := []models.Point{{X: -frameMM, Y: -frameMM}, {X: g.WidthMM() + frameMM, Y: -frameMM}, {X: g.WidthMM() + frameMM, Y: g.HeightMM() + frameMM}, {X: -frameMM, Y: g.HeightMM() + frameMM}}
	for i := range frame {
		gocv.Line(&img, pt(h.Apply(frame[i])), pt(h.Apply(frame[(i+1)%4])), ink, 2)
	}
	pix, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range pix {
		pix[i] = uint8(max(0, min(255, float64(pix[i])+rng.NormFloat64()*3)))
	}
	gocv.GaussianBlur(img, &img, image.Pt(5, 5), 1.2, 1.2, gocv.BorderReplicate)
	rm, err := newRidgeMap(img)
	if err != nil {
		t.Fatal(err)
	}
	return rm
}

// realmLatticePoints are the realm's 6×5 cell corners in millimetres.
func realmLatticePoints(g models.RealmGeometry) []models.Point {
	var out []models.Point
	for i := 0; i <= models.Columns; i++ {
		for j := 0; j <= models.Rows; j++ {
			out = append(out, models.Point{X: float64(i) * g.CellWidthMM, Y: float64(j) * g.CellHeightMM})
		}
	}
	return out
}

// TestMarksLookAlike: the marks of a framed mat of crosses do not all look
// alike (the frame runs through the border's T's and L's), but those
// inside the realm do, and they are believed; the same lattice moved half a
// cell, onto plain mat, is not.
func TestMarksLookAlike(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	h, err := fitHomography(realmCorners(g), []models.Point{{X: 230, Y: 610}, {X: 1060, Y: 600}, {X: 950, Y: 170}, {X: 330, Y: 180}})
	if err != nil {
		t.Fatal(err)
	}
	rm := framedCrossesMat(t, h, g)
	at := func(off models.Point) (src, dst []models.Point) {
		for _, p := range realmLatticePoints(g) {
			src = append(src, p)
			dst = append(dst, h.Apply(models.Point{X: p.X + off.X, Y: p.Y + off.Y}))
		}
		return src, dst
	}
	src, dst := at(models.Point{})
	if rm.alikeMarks(dst, minMarkCorners) {
		t.Fatal("set-up: the framed border's marks look like the crosses inside; the test would check nothing")
	}
	if !rm.marksLookAlike(src, dst, g) {
		t.Error("the crosses inside the realm were not seen to look alike")
	}
	if src, dst := at(models.Point{X: g.CellWidthMM / 2, Y: g.CellHeightMM / 2}); rm.marksLookAlike(src, dst, g) {
		t.Error("plain mat half a cell off the marks was taken for prints of one mark")
	}
}
