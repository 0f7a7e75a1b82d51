package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// TestEmptyCellsOfDoubleLinedGrid reads a frame of an empty mat whose
// grid is printed in double lines, 3 mm each side of the cells' borders:
// the inner lines frame each cell in a rectangle of a site's size within
// sizeTolerance, around nothing but mat. No card is there. A card whose
// face the catalog lacks, laid in one of the cells, is still found, as an
// unknown card.
func TestEmptyCellsOfDoubleLinedGrid(t *testing.T) {
	full := devCatalog(t)
	faced := facedSlugs(full)
	missing := faced[0]
	cat := catalogWithout(full, map[string]bool{missing: true})
	a := newTestAnalyzer(t, cat)
	const pxPerMM, w, h = 2.0, 1280, 720
	geo := models.DefaultRealm()
	x0, y0 := (w-pxPerMM*geo.WidthMM())/2, (h-pxPerMM*geo.HeightMM())/2
	// Straight down: realm millimetre (x, y), y north, is pixel at(x, y).
	at := func(x, y float64) image.Point {
		return image.Pt(int(x0+pxPerMM*x+0.5), int(y0+pxPerMM*(geo.HeightMM()-y)+0.5))
	}
	var corners models.Quad
	for i, p := range []image.Point{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())} {
		corners[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	paintMat := func() gocv.Mat {
		// A dark green cloth with a little grain.
		frame := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		data, err := frame.DataPtrUint8()
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 9))
		for i := 0; i < len(data); i += 3 {
			n := rng.IntN(9) - 4
			data[i], data[i+1], data[i+2] = uint8(40+n), uint8(70+n), uint8(38+n)
		}
		gold := color.RGBA{200, 170, 90, 0}
		for _, d := range []float64{-3, 3} {
			for c := 0; c <= models.Columns; c++ {
				x := float64(c)*geo.CellWidthMM + d
				gocv.Line(&frame, at(x, -3), at(x, geo.HeightMM()+3), gold, 2)
			}
			for r := 0; r <= models.Rows; r++ {
				y := float64(r)*geo.CellHeightMM + d
				gocv.Line(&frame, at(-3, y), at(geo.WidthMM()+3, y), gold, 2)
			}
		}
		return frame
	}
	cal, err := calibration.FromCorners(corners, w, h)
	if err != nil {
		t.Fatal(err)
	}

	frame := paintMat()
	defer frame.Close()
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range obs.Cards {
		t.Errorf("an empty cell read as a card: %s %s at %v, %.0f×%.0f px", c.NameOr("unknown"), c.Kind, c.Quad.Center(), dist2(c.Quad[0], c.Quad[1]), dist2(c.Quad[1], c.Quad[2]))
	}

	// The card the catalog lacks, a site upright in C2.
	var face *models.Card
	for _, c := range full.Cards() {
		if c.Slug == missing {
			face = c
		}
	}
	cx, cy := 2.5*geo.CellWidthMM, 1.5*geo.CellHeightMM
	bare := paintMat()
	defer bare.Close()
	withCard := laidInCell(t, bare, at, face, cx, cy)
	defer withCard.Close()
	obs, err = a.Analyze(withCard, cal)
	if err != nil {
		t.Fatal(err)
	}
	var cards []string
	for _, c := range obs.Cards {
		cell := "off"
		if c.Cell != nil {
			cell = c.Cell.String()
		}
		cards = append(cards, cell+" "+c.NameOr("unknown"))
	}
	if len(cards) != 1 || cards[0] != "C2 unknown" {
		t.Errorf("a card missing from the catalog in C2 of the double-lined grid: read %q, want one unknown card in C2", cards)
	}
}

func dist2(a, b models.Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }
