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

// broadStripesScene draws a top-down 1280×720 frame of a mat painted in
// soft clouds of several colours, lying turned 8° on a table covered in
// broad diagonal stripes 25° off the mat's rows. The mat's grid is drawn
// in thin dark dashes, too short for the Hough segments, and cards lie in
// three cells. It gives the frame and the true lattice.
func broadStripesScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(17, 17))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(235, 235, 235, 0), 720, 1280, gocv.MatTypeCV8UC3)
	// Stripes 40 px apart across the frame, each 22 px wide, at -17°.
	dir := -17 * math.Pi / 180
	ux, uy := math.Cos(dir), math.Sin(dir)
	for k := -40; k <= 40; k++ {
		ox, oy := 640-40*float64(k)*uy, 360+40*float64(k)*ux
		a := image.Pt(int(ox-1600*ux), int(oy-1600*uy))
		b := image.Pt(int(ox+1600*ux), int(oy+1600*uy))
		gocv.Line(&frame, a, b, color.RGBA{R: 40, G: 40, B: 150}, 22)
	}
	h, px := matOnTable(t, &frame, g, 1.15, 8*math.Pi/180, 640, 360, color.RGBA{R: 170, G: 170, B: 220})
	// Clouds: big soft discs of several colours over the mat.
	clouds := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer clouds.Close()
	palette := []color.RGBA{{R: 200, G: 230, B: 80}, {R: 150, G: 90, B: 90}, {R: 120, G: 120, B: 240}, {R: 230, G: 200, B: 120}}
	for i := 0; i < 40; i++ {
		c := px(-40+rng.Float64()*(g.WidthMM()+80), -30+rng.Float64()*(g.HeightMM()+60))
		gocv.Circle(&clouds, c, 30+rng.IntN(50), palette[i%len(palette)], -1)
	}
	gocv.GaussianBlur(clouds, &clouds, image.Pt(0, 0), 25, 25, gocv.BorderReflect101)
	mask := gocv.NewMat()
	defer mask.Close()
	inMat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer inMat.Close()
	fillRealmRect(&inMat, px, -60, -50, g.WidthMM()+60, g.HeightMM()+50, color.RGBA{R: 255, G: 255, B: 255})
	gocv.CvtColor(inMat, &mask, gocv.ColorBGRToGray)
	blend := gocv.NewMat()
	defer blend.Close()
	gocv.AddWeighted(frame, 0.35, clouds, 1.3, 0, &blend)
	blend.CopyToWithMask(&frame, mask)
	drawDashedGrid(&frame, px, g, 6, 5, color.RGBA{R: 30, G: 30, B: 40})
	cardsAt(&frame, px, rng, [][2]float64{{150, 37}, {350, 187}, {450, 262}})
	return softened(t, frame, 17), h
}

// TestVanishingPairsPastStripes: on broadStripesScene the stripes' edges
// are nearly all of the frame's long straight lines, and the grid's
// dashes none: no vanishing pair guessed from them comes within a degree
// of the grid's directions. Guessed from the lines left once the stripes'
// direction is taken out (the mat's edges, the cards' sides), one pair
// lies within a degree of both.
func TestVanishingPairsPastStripes(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := broadStripesScene(t, g)
	defer frame.Close()
	gray, _ := workingGray(frame)
	defer gray.Close()
	rm, _, _ := frameMaps(t, frame)
	grid := [2]vec3{{truth[0], truth[3], truth[6]}, {truth[1], truth[4], truth[7]}}
	if off := bestPairOff(vanishingPairs(gray, rm, nil), grid); off < 1 {
		t.Fatalf("a pair guessed from all the frame's lines is %.2f° off the grid: the test no longer tests the stripes", off)
	}
	rm.pastDominant = true
	if off := bestPairOff(vanishingPairs(gray, rm, nil), grid); off > 1 {
		t.Errorf("the best pair guessed past the stripes is %.2f° off the grid, want ≤ 1°", off)
	}
}

// TestDashedGridOnBroadStripes: on broadStripesScene no search finds a
// lattice; the striped table's retry (see stripes.go) must find the realm.
func TestDashedGridOnBroadStripes(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := broadStripesScene(t, g)
	defer frame.Close()
	detectsWithin(t, frame, truth, g, 0.005)
}

// bestPairOff is the least, over pairs, of the larger of a pair's two
// directions' largest angle (degrees) from the grid's vanishing points,
// over a 1280×720 frame's corners and centre, in the order of the grid's
// directions that fits the pair better.
func bestPairOff(pairs []vpPair, grid [2]vec3) float64 {
	best := math.Inf(1)
	for _, p := range pairs {
		for _, dirs := range [2][2]vec3{{p.a, p.b}, {p.b, p.a}} {
			off := 0.0
			for _, pt := range []models.Point{{X: 0, Y: 0}, {X: 1280, Y: 0}, {X: 0, Y: 720}, {X: 1280, Y: 720}, {X: 640, Y: 360}} {
				for i, v := range dirs {
					off = math.Max(off, angleDiff(towards(v, pt), towards(grid[i], pt)))
				}
			}
			best = math.Min(best, off)
		}
	}
	return best * 180 / math.Pi
}
