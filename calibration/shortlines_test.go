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

// stripedTableScene draws a top-down 1280×720 frame (a pixel a millimetre)
// of a mat with light grid lines on a table striped with light lines at
// the realm's row spacing, parallel to its rows, running on from the
// realm's rows; the mat's margin north of the realm is narrower than a
// row. An arm lies over the realm's south row and the south half of the
// row above, leaving column A's line in view, and two cards cover column
// sides in the second row: the lattice two rows north, whose outer rows
// lie on the stripes and over the table, shows more drawn lines than any
// lattice a row nearer the realm. It gives the frame and the true lattice.
func stripedTableScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	const x0, y0 = 390, 630 // the realm's A1 corner
	w, hh := int(g.WidthMM()), int(g.HeightMM())
	ch := int(g.CellHeightMM)
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(170, 185, 200, 0), 720, 1280, gocv.MatTypeCV8UC3)
	stripe := color.RGBA{R: 235, G: 225, B: 215}
	for y := y0 % ch; y < 720; y += ch {
		gocv.Line(&frame, image.Pt(0, y), image.Pt(1280, y), stripe, 3)
	}
	gocv.Rectangle(&frame, image.Rect(x0-30, y0-hh-18, x0+w+30, y0+40), color.RGBA{R: 150, G: 125, B: 95}, -1)
	drawTopDownGrid(&frame, g, x0, y0, color.RGBA{R: 225, G: 215, B: 190}, 3)
	skin := color.RGBA{R: 215, G: 170, B: 140}
	gocv.Rectangle(&frame, image.Rect(x0+40, y0-ch-ch/2, 1280, 720), skin, -1)
	cw := int(g.CellWidthMM)
	for _, i := range []int{1, 2} {
		gocv.Rectangle(&frame, image.Rect(x0+i*cw-30, y0-2*ch+5, x0+i*cw+30, y0-ch-5), color.RGBA{R: 60, G: 50, B: 70}, -1)
	}
	return softened(t, frame, 7), topDownLattice(t, g, x0, y0)
}

// drawTopDownGrid draws the realm's lines on a top-down frame of a pixel a
// millimetre, its A1 corner at x0, y0 (north up), thick pixels wide.
func drawTopDownGrid(frame *gocv.Mat, g models.RealmGeometry, x0, y0 int, line color.RGBA, thick int) {
	w, hh := int(g.WidthMM()), int(g.HeightMM())
	for i := 0; i <= models.Columns; i++ {
		x := x0 + i*int(g.CellWidthMM)
		gocv.Line(frame, image.Pt(x, y0), image.Pt(x, y0-hh), line, thick)
	}
	for j := 0; j <= models.Rows; j++ {
		y := y0 - j*int(g.CellHeightMM)
		gocv.Line(frame, image.Pt(x0, y), image.Pt(x0+w, y), line, thick)
	}
}

// softened gives frame blurred as a camera's lens blurs it, with noise
// drawn from seed, and closes frame.
func softened(t *testing.T, frame gocv.Mat, seed uint64) gocv.Mat {
	t.Helper()
	blurred := gocv.NewMat()
	gocv.GaussianBlur(frame, &blurred, image.Pt(0, 0), 1.2, 1.2, gocv.BorderReflect101)
	frame.Close()
	addNoise(t, &blurred, rand.New(rand.NewPCG(seed, seed)), 3)
	return blurred
}

// topDownLattice is the lattice of the realm drawn on a top-down frame of
// a pixel a millimetre, its A1 corner at x0, y0 (north up).
func topDownLattice(t *testing.T, g models.RealmGeometry, x0, y0 float64) homography {
	t.Helper()
	w, hh := g.WidthMM(), g.HeightMM()
	h, err := fitHomography(realmCorners(g), []models.Point{{X: x0, Y: y0}, {X: x0 + w, Y: y0}, {X: x0 + w, Y: y0 - hh}, {X: x0, Y: y0 - hh}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestLinesStopShortOnStripedTable settles the lattice two rows north of
// the realm on a striped table (see stripedTableScene): its column lines
// show nowhere across its two outer rows, so settleLattice must refuse it,
// while it keeps the true lattice.
func TestLinesStopShortOnStripedTable(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := stripedTableScene(t, g)
	defer frame.Close()
	rm, col, _ := frameMaps(t, frame)
	rm.colour = &col
	if rm.linesStopShort(truth, g) {
		t.Error("the true realm's lines taken to stop short of its border")
	}
	if got, err := settleLattice(rm, col, true, gridFit{h: truth, score: 1}, g, false); err != nil || !sameRealm(got.h, truth, g) {
		t.Errorf("true realm settled to %v, %v", quadOfLattice(got.h, g), err)
	}
	north := shiftedBy(truth, g, 0, 2)
	got, err := settleLattice(rm, col, true, gridFit{h: north, score: 1}, g, false)
	if err == nil && !sameRealm(got.h, truth, g) {
		t.Errorf("lattice two rows over the table kept: %v", quadOfLattice(got.h, g))
	}
}

// darkBandScene draws a top-down 1280×720 frame (a pixel a millimetre) of
// a light green mat with pink grid lines on a wooden-brown table; a dark
// band of landscape art runs along the mat's south edge, across the
// realm's south row, and the mat's margin south of the realm is narrower
// than a row. It gives the frame and the true lattice.
func darkBandScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography) {
	t.Helper()
	const x0, y0, margin = 390, 560, 20 // the realm's A1 corner
	w, hh := int(g.WidthMM()), int(g.HeightMM())
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 100, 150, 0), 720, 1280, gocv.MatTypeCV8UC3)
	gocv.Rectangle(&frame, image.Rect(x0-30, y0-hh-30, x0+w+30, y0+margin), color.RGBA{R: 150, G: 200, B: 150}, -1)
	// The band's top is a hill line, not straight.
	var band []image.Point
	for x := x0 - 30; x <= x0+w+30; x += 5 {
		band = append(band, image.Pt(x, y0-35+int(12*math.Sin(float64(x)/25))))
	}
	band = append(band, image.Pt(x0+w+30, y0+margin), image.Pt(x0-30, y0+margin))
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{band})
	gocv.FillPoly(&frame, pv, color.RGBA{R: 40, G: 80, B: 40})
	pv.Close()
	drawTopDownGrid(&frame, g, x0, y0, color.RGBA{R: 200, G: 150, B: 190}, 2)
	return softened(t, frame, 8), topDownLattice(t, g, x0, y0)
}

// TestOffTheMatBesideDarkArt moves the realm of darkBandScene a row south,
// where the mat's edge runs through its south row and its south border
// over the table: the realm's side of that edge is the dark band, not the
// mat's cloth, as an arm's would be, but no line of the lattice shows
// beyond it. offTheMat must move the lattice back onto the realm, and
// leave the realm itself alone.
func TestOffTheMatBesideDarkArt(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth := darkBandScene(t, g)
	defer frame.Close()
	rm, col, _ := frameMaps(t, frame)
	rm.colour = &col
	if got, ok := offTheMat(rm, truth, g); !ok || !sameRealm(got, truth, g) {
		t.Errorf("the realm moved off the mat to %v (ok %v)", quadOfLattice(got, g), ok)
	}
	south := shiftedBy(truth, g, 0, -1)
	if got, ok := offTheMat(rm, south, g); !ok || !sameRealm(got, truth, g) {
		t.Errorf("the lattice a row south settled at %v (ok %v), want the realm %v", quadOfLattice(got, g), ok, quadOfLattice(truth, g))
	}
}

// TestOneAxisOnlyOnStripedCloth lays a lattice on a striped tablecloth (a
// frame of light stripes at the realm's row spacing, a card lying on it):
// its rows show on every side, its columns nowhere. settleLattice must
// refuse it.
func TestOneAxisOnlyOnStripedCloth(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	const x0, y0 = 390, 630
	ch := int(g.CellHeightMM)
	cloth := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 150, 180, 0), 720, 1280, gocv.MatTypeCV8UC3)
	for y := y0 % ch; y < 720; y += ch {
		gocv.Line(&cloth, image.Pt(0, y), image.Pt(1280, y), color.RGBA{R: 235, G: 225, B: 215}, 4)
	}
	drawCard(&cloth, rand.New(rand.NewPCG(9, 9)), 700, 420, 63, 88, 10)
	frame := softened(t, cloth, 9)
	defer frame.Close()
	h := topDownLattice(t, g, x0, y0)
	rm, col, _ := frameMaps(t, frame)
	rm.colour = &col
	if got, err := settleLattice(rm, col, true, gridFit{h: h, score: 1}, g, false); err == nil {
		t.Errorf("a lattice on the cloth's stripes kept at %v", quadOfLattice(got.h, g))
	}
}

// matOnTable places the realm of g in a 1280×720 frame at pxPerMM, turned
// turn radians about the frame point (cx, cy), and paints the mat under it
// (60 mm beyond its sides, 50 beyond its ends) in colour mat: the
// realm-to-frame homography, and a function giving the frame pixel of a
// realm point.
func matOnTable(t *testing.T, frame *gocv.Mat, g models.RealmGeometry, pxPerMM, turn, cx, cy float64, mat color.RGBA) (homography, func(x, y float64) image.Point) {
	t.Helper()
	var frameCorners []models.Point
	for _, p := range realmCorners(g) {
		x, y := (p.X-g.WidthMM()/2)*pxPerMM, -(p.Y-g.HeightMM()/2)*pxPerMM
		frameCorners = append(frameCorners, models.Point{X: cx + x*math.Cos(turn) - y*math.Sin(turn), Y: cy + x*math.Sin(turn) + y*math.Cos(turn)})
	}
	h, err := fitHomography(realmCorners(g), frameCorners)
	if err != nil {
		t.Fatal(err)
	}
	px := func(x, y float64) image.Point {
		p := h.Apply(models.Point{X: x, Y: y})
		return image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
	}
	fillRealmRect(frame, px, -60, -50, g.WidthMM()+60, g.HeightMM()+50, mat)
	return h, px
}

// fillRealmRect fills the realm rectangle from (x0, y0) to (x1, y1), in
// millimetres, in colour c, its corners in the frame as px puts them.
func fillRealmRect(frame *gocv.Mat, px func(x, y float64) image.Point, x0, y0, x1, y1 float64, c color.RGBA) {
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{{px(x0, y0), px(x1, y0), px(x1, y1), px(x0, y1)}})
	gocv.FillPoly(frame, pv, c)
	pv.Close()
}

// cardsAt fills a site-sized card of a random colour centred on each
// realm point (millimetres).
func cardsAt(frame *gocv.Mat, px func(x, y float64) image.Point, rng *rand.Rand, centres [][2]float64) {
	for _, c := range centres {
		fillRealmRect(frame, px, c[0]-44, c[1]-31, c[0]+44, c[1]+31, color.RGBA{R: uint8(rng.IntN(256)), G: uint8(rng.IntN(256)), B: uint8(rng.IntN(256))})
	}
}
