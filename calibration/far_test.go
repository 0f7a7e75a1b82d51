package calibration

import (
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// farScene draws a 1280×720 frame of a camera far from the table (a
// streamer's wide shot): a dark blue-grey mat, turned 30°, on a dark table,
// its realm at 0.55 px a millimetre (its long side about a fifth of the
// frame's width), the grid drawn in thin light lines, cards in four cells.
// It gives the frame and the true lattice.
func farScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(147, 147))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(28, 32, 34, 0), 720, 1280, gocv.MatTypeCV8UC3)
	h, px := matOnTable(t, &frame, g, 0.55, -30*math.Pi/180, 620, 380, color.RGBA{R: 52, G: 58, B: 68})
	for _, gl := range innerLines(g) {
		gocv.Line(&frame, px(gl.p0.X, gl.p0.Y), px(gl.p1.X, gl.p1.Y), color.RGBA{R: 150, G: 140, B: 110}, 1)
	}
	cardsAt(&frame, px, rng, [][2]float64{{50, 37}, {150, 187}, {350, 112}, {450, 262}})
	return softened(t, frame, 147), h
}

// TestFarRealmFound: on farScene the realm is narrower than any lattice
// the frame's own search believes (see plausible), and no realm is found
// there; searched again on the window round the mat's patch, enlarged
// (see detectFar), it must be found within 1% of its width.
func TestFarRealmFound(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := farScene(t, g)
	defer frame.Close()
	q := quadOfLattice(truth, g)
	if across := realmAcross(q); across >= minRealmAcross*float64(frame.Cols()) {
		t.Fatalf("the realm spans %.0f px: the test no longer draws a realm seen from afar", across)
	}
	win, ok := farWindow(frame)
	if !ok {
		t.Fatal("no window round the mat")
	}
	for _, p := range q {
		if p.X < float64(win.Min.X) || p.X > float64(win.Max.X) || p.Y < float64(win.Min.Y) || p.Y > float64(win.Max.Y) {
			t.Fatalf("window %v cuts the realm %v", win, q)
		}
	}
	detectsWithin(t, frame, truth, g, 0.01)
}
