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

// paintedBandsScene draws a 1280×720 frame of a mat painted in three wavy
// bands (green hills, sand, a greyish lavender sky), turned 8° and filling
// the frame, its grid drawn in thin blue lines about as light in grey as
// the bands (three grey levels lighter than the green, three to five darker
// than the sky and the sand), with cards in three cells. It gives the frame
// and the true lattice.
func paintedBandsScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(23, 23))
	green := color.RGBA{R: 100, G: 142, B: 92} // grey 124
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(green.B), float64(green.G), float64(green.R), 0), 720, 1280, gocv.MatTypeCV8UC3)
	h, px := matOnTable(t, &frame, g, 1.3, 8*math.Pi/180, 640, 360, green)
	// The bands' edges wave across the realm, a band every 130 mm or so,
	// never along a grid line.
	band := func(y0, amp, phase float64, c color.RGBA) {
		var pts []image.Point
		for x := -400.0; x <= g.WidthMM()+400; x += 10 {
			pts = append(pts, px(x, y0+amp*math.Sin(x/70+phase)))
		}
		pts = append(pts, px(g.WidthMM()+400, g.HeightMM()+400), px(-400, g.HeightMM()+400))
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.FillPoly(&frame, pv, c)
		pv.Close()
	}
	band(100, 25, 0, color.RGBA{R: 165, G: 122, B: 95})  // sand, grey 132
	band(215, 20, 2, color.RGBA{R: 124, G: 126, B: 165}) // sky, grey 130
	blue := color.RGBA{R: 85, G: 132, B: 215}            // grey 127
	for _, gl := range innerLines(g) {
		p0, p1 := px(gl.p0.X, gl.p0.Y), px(gl.p1.X, gl.p1.Y)
		gocv.Line(&frame, p0, p1, blue, 1)
	}
	cardsAt(&frame, px, rng, [][2]float64{{150, 112}, {350, 37}, {450, 262}})
	return softened(t, frame, 23), h
}

// TestIsoluminantGridInColour: on paintedBandsScene the grey frame shows
// the grid's lines a few levels from the cloth at most, and of either
// polarity from band to band, and no search on it finds a realm; in the
// blue–yellow opponent channel the lines are one clear colour over every
// band, and Detect must find the realm there (see chroma.go).
func TestIsoluminantGridInColour(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := paintedBandsScene(t, g)
	defer frame.Close()
	if h, _, _, err := detectStraight(frame, g); err == nil {
		t.Fatalf("the grey frame's search found a realm (%v): the test no longer tests the colour retry", quadOfLattice(h, g))
	}
	detectsWithin(t, frame, truth, g, 0.005)
}
