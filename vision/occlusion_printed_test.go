package vision

import (
	"image"
	"image/color"
	"testing"

	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// TestSkinTonedArtUnderPrintedGrid paints a mat whose art is green over
// the realm's south rows and a tan sky over its north ones and beyond the
// north border, the realm's grid printed over both in thin dark lines: the
// sky is skin-toned, and not the mat's commonest colour, and reaches the
// realm's edge like an arm. The lines showing through it make it art (see
// clearPrintedOver); the same sky without the lines is taken for a hand,
// which is what the test rests on. An arm reaching in over the green art,
// hiding the lines beneath it, is a hand.
func TestSkinTonedArtUnderPrintedGrid(t *testing.T) {
	geo, w, h, at, coarse := straightDownRealm(t)
	sky := color.RGBA{215, 170, 130, 0}
	skin := color.RGBA{225, 172, 140, 0}
	lines := color.RGBA{25, 25, 25, 0}
	mat := func(frame *gocv.Mat, printed bool) {
		gocv.Rectangle(frame, image.Rectangle{Min: image.Pt(0, 0), Max: image.Pt(w, at(0, geo.HeightMM()-1.6*geo.CellHeightMM).Y)}, sky, -1)
		if !printed {
			return
		}
		for c := 0; c <= models.Columns; c++ {
			x := float64(c) * geo.CellWidthMM
			gocv.Line(frame, at(x, 0), at(x, geo.HeightMM()), lines, 2)
		}
		for r := 0; r <= models.Rows; r++ {
			y := float64(r) * geo.CellHeightMM
			gocv.Line(frame, at(0, y), at(geo.WidthMM(), y), lines, 2)
		}
	}
	checkPaintedHands(t, w, h, coarse, color.RGBA{60, 110, 60, 0}, []paintedHand{
		{"a tan sky behind the printed grid", func(frame *gocv.Mat) { mat(frame, true) }, false},
		{"the tan sky without the grid", func(frame *gocv.Mat) { mat(frame, false) }, true},
		{"an arm over the green art", func(frame *gocv.Mat) {
			mat(frame, true)
			gocv.Rectangle(frame, image.Rectangle{Min: at(180, 90), Max: at(250, -straightDownMarginMM)}, skin, -1)
			gocv.Circle(frame, at(215, 100), 45, skin, -1)
		}, true},
	})
}

// straightDownMarginMM is the mat beyond the realm that straightDownRealm's
// camera sees on every side.
const straightDownMarginMM = 100.0

// straightDownRealm is a camera looking straight down at a realm of the
// default size at 1 px/mm, straightDownMarginMM of mat round it: the
// frame's size, the frame pixel of realm millimetre (x, y) (y north), and
// the hand tests' half-resolution view.
func straightDownRealm(t *testing.T) (geo models.RealmGeometry, w, h int, at func(x, y float64) image.Point, coarse *view) {
	t.Helper()
	const marginMM = straightDownMarginMM
	geo = models.DefaultRealm()
	w, h = int(geo.WidthMM()+2*marginMM), int(geo.HeightMM()+2*marginMM)
	at = func(x, y float64) image.Point {
		return image.Pt(int(marginMM+x), int(marginMM+geo.HeightMM()-y))
	}
	corners := models.Quad{}
	for i, p := range []image.Point{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())} {
		corners[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	v, err := newView(corners, geo, w, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return geo, w, h, at, v.scaled(0.5)
}

// paintedHand is a mat painted on a straightDownRealm frame, and whether
// a hand lies on it.
type paintedHand struct {
	what  string
	paint func(frame *gocv.Mat)
	hand  bool
}

// checkPaintedHands paints each case on a w×h frame of colour ground and
// checks the hand test on it (coarse: straightDownRealm's view).
func checkPaintedHands(t *testing.T, w, h int, coarse *view, ground color.RGBA, cases []paintedHand) {
	t.Helper()
	for _, tc := range cases {
		frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(ground.B), float64(ground.G), float64(ground.R), 0), h, w, gocv.MatTypeCV8UC3)
		tc.paint(&frame)
		top := coarse.warp(frame)
		if got := handCovers(top, coarse, nil); got != tc.hand {
			t.Errorf("%s: hand %v, want %v", tc.what, got, tc.hand)
		}
		top.Close()
		frame.Close()
	}
}
