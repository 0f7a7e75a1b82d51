package calibration

import (
	"fmt"
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
	return farSceneAt(t, g, 0.55, -30*math.Pi/180, 620, 380)
}

// farSceneAt is farScene with the realm at pxPerMM, turned by turn
// (radians), centred on cx, cy.
func farSceneAt(t *testing.T, g models.RealmGeometry, pxPerMM, turn, cx, cy float64) (gocv.Mat, homography) {
	t.Helper()
	rng := rand.New(rand.NewPCG(147, 147))
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(28, 32, 34, 0), 720, 1280, gocv.MatTypeCV8UC3)
	h, px := matOnTable(t, &frame, g, pxPerMM, turn, cx, cy, color.RGBA{R: 52, G: 58, B: 68})
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
	wins := farWindows(frame)
	if len(wins) == 0 {
		t.Fatal("no window round the mat")
	}
	win := wins[0]
	for _, p := range q {
		if p.X < float64(win.Min.X) || p.X > float64(win.Max.X) || p.Y < float64(win.Min.Y) || p.Y > float64(win.Max.Y) {
			t.Fatalf("window %v cuts the realm %v", win, q)
		}
	}
	detectsWithin(t, frame, truth, g, 0.01)
}

// TestFarTallMatWindow: seen from afar, a mat turned near a quarter turn
// stands taller than wide in the frame. A window of the frame's shape
// round it would be almost as wide as the frame, enlarging it too little
// to bring the realm to the size the search expects (and is refused for
// that, see farMaxWindow); the window cut to the mat's own shape (see
// farWindows) enlarges it about twice, and there the realm must be found
// within 1% of its width. The window is searched by detectGrid alone, to
// keep the test quick: Detect's whole chain of retries, on the frame and
// on the window, is TestFarRealmFound's part.
func TestFarTallMatWindow(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := farSceneAt(t, g, 0.6, 80*math.Pi/180, 640, 360)
	defer frame.Close()
	q := quadOfLattice(truth, g)
	if across := realmAcross(q); across >= minRealmAcross*float64(frame.Cols()) {
		t.Fatalf("the realm spans %.0f px: the test no longer draws a realm seen from afar", across)
	}
	h, _, ok := detectFar(frame, g, func(crop gocv.Mat, share float64) (homography, float64, error) {
		return detectGrid(crop, g, share)
	})
	if !ok {
		t.Fatal("no realm found in the window round the mat")
	}
	got := quadOfLattice(h, g)
	if e := cornerError(orientLike(got, q), q) / realmWidthPx(q); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, got, q)
	}
}

// TestFarShortSegmentsLastTry: a realm seen from afar whose lines, even
// enlarged in the window round the mat, break into pieces shorter than
// the search's usual least segment (blurred, broken by cards) is found
// only on the far camera's last try, reading shorter segments (see
// detectFar). First the pieces themselves: a grid drawn in dashes 38 px
// long, 22 px apart, on a frame of the working width gives no lattice
// on segments of segmentShare, and the true one on those of
// farSegmentShare. Then the last try: on a mat seen from afar whose realm
// the window's search finds only on the shorter segments (the search
// given here stands for those lines, finding nothing on the usual ones),
// the realm must be found within 1% of its width, though it is of a size
// the frame's own search believes (see takenFromWindow).
func TestFarShortSegmentsLastTry(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()

	dashed := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(28, 32, 34, 0), 720, workWidth, gocv.MatTypeCV8UC3)
	truth, px := matOnTable(t, &dashed, g, 1.6, 0.3, 640, 360, color.RGBA{R: 34, G: 32, B: 28})
	drawDashedGrid(&dashed, px, g, 24, 14, color.RGBA{R: 150, G: 140, B: 110})
	dashed = softened(t, dashed, 5)
	defer dashed.Close()
	gray, _ := workingGray(dashed)
	defer gray.Close()
	em, err := newEdgeMap(gray, cannyLow, cannyHigh)
	if err != nil {
		t.Fatal(err)
	}
	want := quadOfLattice(truth, g)
	th := cannyThresholds{cannyLow, cannyHigh, minGridScore}
	if _, err := gridCandidates(em, gray, g, th, nil, segmentShare); err == nil {
		t.Fatal("a lattice found on the usual segments: the dashes no longer stand for lines broken shorter than them")
	}
	readings, err := gridCandidates(em, gray, g, th, nil, farSegmentShare)
	if err != nil {
		t.Fatalf("no lattice on the shorter segments: %v", err)
	}
	best := math.Inf(1)
	for _, fits := range readings {
		for _, f := range fits {
			best = math.Min(best, cornerError(orientLike(quadOfLattice(f.h, g), want), want)/realmWidthPx(want))
		}
	}
	if best > 0.01 {
		t.Errorf("best lattice on the shorter segments %.2f%% of the realm's width off, want ≤ 1%%", 100*best)
	}

	frame, far := farSceneAt(t, g, 0.75, -20*math.Pi/180, 640, 360)
	defer frame.Close()
	q := quadOfLattice(far, g)
	if across := realmAcross(q); across < minRealmAcross*float64(frame.Cols()) || q.Area() < minRealmArea*float64(frame.Cols()*frame.Rows()) {
		t.Fatalf("the realm spans %.0f px: the test no longer draws a realm of a size the frame's search believes", across)
	}
	h, _, ok := detectFar(frame, g, func(crop gocv.Mat, share float64) (homography, float64, error) {
		if share >= segmentShare {
			return homography{}, 0, fmt.Errorf("lines broken shorter than the usual segments: %w", ErrNotFound)
		}
		return detectGrid(crop, g, share)
	})
	if !ok {
		t.Fatal("no realm found on the last try")
	}
	got := quadOfLattice(h, g)
	if e := cornerError(orientLike(got, q), q) / realmWidthPx(q); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, got, q)
	}
}
