package calibration

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// bandedClothScene draws a 1280×720 frame of a dark mat, turned 24°, on a
// tablecloth of wide green bands whose direction lies 9° off the realm's
// columns; the grid is drawn in thin light lines and cards lie in four
// cells. The bands' edges are long straight Canny segments, many more than
// the grid's, and all about the columns' direction. It gives the frame and
// the true lattice.
func bandedClothScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(23, 23))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(215, 235, 220, 0), 720, 1280, gocv.MatTypeCV8UC3)
	// The bands run at 105° in the image (the columns at 114°), 14 px wide
	// every 34 px.
	const band = 105 * math.Pi / 180
	dx, dy := math.Cos(band), math.Sin(band)
	for s := -1400.0; s < 1400; s += 34 {
		cx, cy := 640-s*dy, 360+s*dx
		gocv.Line(&frame, image.Pt(int(cx-900*dx), int(cy-900*dy)), image.Pt(int(cx+900*dx), int(cy+900*dy)), color.RGBA{R: 90, G: 160, B: 40}, 14)
	}
	// The realm at 1.3 px a millimetre, turned about its centre.
	h, px := matOnTable(t, &frame, g, 1.3, -24*math.Pi/180, 620, 380, color.RGBA{R: 40, G: 12, B: 14})
	for _, gl := range innerLines(g) {
		gocv.Line(&frame, px(gl.p0.X, gl.p0.Y), px(gl.p1.X, gl.p1.Y), color.RGBA{R: 225, G: 220, B: 200}, 2)
	}
	cardsAt(&frame, px, rng, [][2]float64{{150, 187}, {250, 112}, {350, 37}, {450, 112}})
	return softened(t, frame, 23), h
}

// TestGridOnBandedCloth: on bandedClothScene the bands' edges take every
// lattice hypothesis of the edges' search, and the profile search's
// vanishing points follow the bands; read over the segments along thin
// drawn lines only (see onDrawnLine), the edges find the realm.
func TestGridOnBandedCloth(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := bandedClothScene(t, g)
	defer frame.Close()
	detectsWithin(t, frame, truth, g, 0.005)
}
