package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// grainy adds a camera sensor's grain to a frame (each pixel's channels
// moved by up to ±amp, from rng so that the scene is the same on every
// run) and compresses it as a webcam's JPEG would at the given quality.
func grainy(t *testing.T, frame *gocv.Mat, rng *rand.Rand, amp, quality int) {
	t.Helper()
	pix, err := frame.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pix {
		pix[i] = uint8(min(255, max(0, int(p)+rng.IntN(2*amp+1)-amp)))
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *frame, []int{gocv.IMWriteJpegQuality, quality})
	if err != nil {
		t.Fatal(err)
	}
	defer buf.Close()
	decoded, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil {
		t.Fatal(err)
	}
	frame.Close()
	*frame = decoded
}

// sitesAndUnits gives the catalog's sites and its standard cards (units,
// artifacts, auras, magics), in the catalog's order.
func sitesAndUnits(cat *models.Catalog) (sites, units []*models.Card) {
	for _, c := range cat.Cards() {
		switch kindOf(c) {
		case models.KindSite:
			sites = append(sites, c)
		case models.KindStandard:
			units = append(units, c)
		}
	}
	return sites, units
}

// shrunkCorners is tiltedCorners shrunk f times about a point near the
// frame's middle: the same realm seen by a camera further away.
func shrunkCorners(f float64) models.Quad {
	var corners models.Quad
	for i, p := range tiltedCorners {
		corners[i] = models.Point{X: 640 + (p.X-640)*f, Y: 385 + (p.Y-385)*f}
	}
	return corners
}

// TestFarGrainyRealm: a camera far from the table (the realm at about
// 0.6 px/mm), soft and grainy, sees cards each alone on a plain dark mat,
// some turned a little, one a quarter. Few of their keypoints survive, and
// the top-down image enlarges the camera's grain twice: the outline
// search's edges of each card break up (see outline_soft.go). Each card is
// to be found where it lies, named rightly when named, and nothing reported
// where no card lies.
func TestFarGrainyRealm(t *testing.T) {
	cat := devCatalog(t)
	sites, units := sitesAndUnits(cat)
	if len(sites) < 3 || len(units) < 3 {
		t.Skip("the catalog has too few sites or units")
	}
	at := [...]struct {
		x, y   float64
		rot    models.Rotation
		jitter float64
	}{
		{50, 37.5, 0, 3}, {250, 37.5, 180, -4}, {450, 112.5, 90, 2},
		{150, 187.5, 0, -2}, {350, 262.5, 180, 5}, {450, 262.5, 0, 0},
	}
	var place []placement
	for i, p := range at {
		c := sites[i/2]
		if i%2 == 1 {
			c = units[i/2]
		}
		place = append(place, placement{slug: c.Slug, x: p.x, y: p.y, rot: p.rot, jitter: p.jitter})
	}
	corners := shrunkCorners(0.35)
	// A plain dark cloth with faint lines.
	sc := renderSceneOn(t, cat, place, corners, func(mat *gocv.Mat, w, h int) {
		*mat = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(58, 48, 42, 0), h, w, gocv.MatTypeCV8UC3)
		drawSceneGrid(mat, color.RGBA{95, 110, 120, 0}, 4)
	})
	defer sc.frame.Close()
	gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), 1.6, 1.6, gocv.BorderReplicate)
	grainy(t, &sc.frame, rand.New(rand.NewPCG(21, 5)), 20, 60)
	a := newTestAnalyzer(t, cat)
	obs := analyzeScene(t, a, sc)
	if s := cameraScale(corners, models.DefaultRealm()); s > 0.7 || a.reader == nil || a.reader.opts.pxPerMM() != lowReadScale {
		t.Fatalf("the realm shows at %.2f px/mm, not read at %g px/mm: not the far camera the test is about", s, lowReadScale)
	}
	found, named := foundWhereLaid(t, cat, obs, place, corners, 15)
	t.Logf("found %d of %d cards where they lie, %d named", found, len(place), named)
	if found < 4 {
		t.Errorf("found %d of %d cards where they lie; want 4 or more", found, len(place))
	}
}
