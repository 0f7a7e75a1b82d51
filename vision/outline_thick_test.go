package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// thickLinedMat is a frame (straight down, 2 px/mm, the realm centred in
// 1280×720) of a mat whose art is clouds of red and green, its grid
// printed in dark brown lines lineMM wide, and at, the frame's pixel of
// realm millimetre (x, y), y north.
func thickLinedMat(t *testing.T, geo models.RealmGeometry, lineMM float64) (gocv.Mat, func(x, y float64) image.Point) {
	t.Helper()
	const pxPerMM, w, h = 2.0, 1280, 720
	x0, y0 := (w-pxPerMM*geo.WidthMM())/2, (h-pxPerMM*geo.HeightMM())/2
	at := func(x, y float64) image.Point {
		return image.Pt(int(x0+pxPerMM*x+0.5), int(y0+pxPerMM*(geo.HeightMM()-y)+0.5))
	}
	// Clouds: a random colour every 80 mm between red and green, spread
	// smoothly between (cubic), and a little grain.
	rng := rand.New(rand.NewPCG(11, 3))
	coarse := gocv.NewMatWithSize(h/160+3, w/160+3, gocv.MatTypeCV8UC3)
	defer coarse.Close()
	cd, err := coarse.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(cd); i += 3 {
		f := rng.Float64() // 0 red, 1 green
		cd[i], cd[i+1], cd[i+2] = uint8(90+20*rng.Float64()), uint8(135+70*f), uint8(190-70*f)
	}
	frame := gocv.NewMat()
	gocv.Resize(coarse, &frame, image.Pt(w+320, h+320), 0, 0, gocv.InterpolationCubic)
	roi := frame.Region(image.Rect(160, 160, w+160, h+160))
	mat := roi.Clone()
	roi.Close()
	frame.Close()
	data, err := mat.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = uint8(min(255, max(0, int(data[i])+rng.IntN(9)-4)))
	}
	brown := color.RGBA{70, 45, 35, 0}
	thick := int(lineMM*pxPerMM + 0.5)
	for c := 0; c <= models.Columns; c++ {
		x := float64(c) * geo.CellWidthMM
		gocv.Line(&mat, at(x, -lineMM), at(x, geo.HeightMM()+lineMM), brown, thick)
	}
	for r := 0; r <= models.Rows; r++ {
		y := float64(r) * geo.CellHeightMM
		gocv.Line(&mat, at(-lineMM, y), at(geo.WidthMM()+lineMM, y), brown, thick)
	}
	return mat, at
}

// TestEmptyCellsOfThickLinedGrid reads a frame of a mat whose grid is
// printed in lines 8 mm wide over cloudy art: each cell's inside, between
// its lines, is a rectangle of a sleeved site's size around nothing but
// the mat, its sides 4 mm from the lines' centres, and the art not flat.
// No card is there. A unit laid alone in the middle of a cell is read,
// and no site is made under it of its cell's lines.
func TestEmptyCellsOfThickLinedGrid(t *testing.T) {
	full := devCatalog(t)
	a := newTestAnalyzer(t, full)
	geo := models.DefaultRealm()
	frame, at := thickLinedMat(t, geo, 8)
	defer frame.Close()
	cal := calFor(t, geo, at, frame)
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range obs.Cards {
		t.Errorf("an empty cell read as a card: %s %s in %v at %v", c.NameOr("unknown"), c.Kind, c.Cell, c.Quad.Center())
	}

	// A unit upright in the middle of B3.
	var unit *models.Card
	for _, c := range full.Cards() {
		if c.Image != "" && c.Type != models.Site && !c.Token && unit == nil {
			unit = c
		}
	}
	laid := laidInCell(t, frame, at, unit, 1.5*geo.CellWidthMM, 2.5*geo.CellHeightMM)
	defer laid.Close()
	obs, err = a.Analyze(laid, cal)
	if err != nil {
		t.Fatal(err)
	}
	if got := readCards(obs); len(got) != 1 || got[0] != "B3 "+unit.Name {
		t.Errorf("a unit alone in B3 of the thick-lined grid: read %q, want only %s in B3", got, unit.Name)
	}
}

// TestSiteInThickLinedCell lays a site the catalog lacks exactly in a cell
// of the thick-lined grid, its sides 2 mm from the lines' inner edges: it
// is found, as an unknown card.
func TestSiteInThickLinedCell(t *testing.T) {
	full := devCatalog(t)
	var site *models.Card
	for _, c := range full.Cards() {
		if c.Image != "" && c.Type == models.Site && site == nil {
			site = c
		}
	}
	if site == nil {
		t.Skip("no site with a face")
	}
	a := newTestAnalyzer(t, catalogWithout(full, map[string]bool{site.Slug: true}))
	geo := models.DefaultRealm()
	frame, at := thickLinedMat(t, geo, 8)
	defer frame.Close()
	laid := laidInCell(t, frame, at, site, 2.5*geo.CellWidthMM, 1.5*geo.CellHeightMM)
	defer laid.Close()
	obs, err := a.Analyze(laid, calFor(t, geo, at, frame))
	if err != nil {
		t.Fatal(err)
	}
	if got := readCards(obs); len(got) != 1 || got[0] != "C2 unknown" {
		t.Errorf("a site missing from the catalog in C2 of the thick-lined grid: read %q, want one unknown card in C2", got)
	}
}

// calFor is the calibration of a frame drawn by at.
func calFor(t *testing.T, geo models.RealmGeometry, at func(x, y float64) image.Point, frame gocv.Mat) *calibration.Calibration {
	t.Helper()
	var corners models.Quad
	for i, p := range []image.Point{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())} {
		corners[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	cal, err := calibration.FromCorners(corners, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// laidInCell is frame with card's face laid upright (a site across),
// centred on realm millimetre (cx, cy).
func laidInCell(t *testing.T, frame gocv.Mat, at func(x, y float64) image.Point, card *models.Card, cx, cy float64) gocv.Mat {
	t.Helper()
	img := gocv.IMRead(card.Image, gocv.IMReadColor)
	if img.Empty() {
		t.Fatalf("reading %s", card.Image)
	}
	defer img.Close()
	if card.Type == models.Site && img.Rows() > img.Cols() {
		gocv.Rotate(img, &img, gocv.Rotate90CounterClockwise)
	}
	wmm, hmm := models.CardShortMM, models.CardLongMM
	if img.Cols() > img.Rows() {
		wmm, hmm = hmm, wmm
	}
	r := image.Rectangle{Min: at(cx-wmm/2, cy+hmm/2), Max: at(cx+wmm/2, cy-hmm/2)}
	out := frame.Clone()
	sized := gocv.NewMat()
	defer sized.Close()
	gocv.Resize(img, &sized, r.Size(), 0, 0, gocv.InterpolationArea)
	dst := out.Region(r)
	sized.CopyTo(&dst)
	dst.Close()
	return out
}

// readCards is each card read, as its cell ("off" off the grid) and name.
func readCards(obs models.FrameObservation) []string {
	var cards []string
	for _, c := range obs.Cards {
		cell := "off"
		if c.Cell != nil {
			cell = c.Cell.String()
		}
		cards = append(cards, cell+" "+c.NameOr("unknown"))
	}
	return cards
}
