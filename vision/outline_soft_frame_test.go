package vision

import (
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestFarSoftTouchingCards: a far camera (the realm at about 0.6 px/mm),
// out of focus and grainy, sees units on a pale mat with darker grid
// lines, in pairs a millimetre apart either side of a line, and sites
// lying a millimetre off a line. Each pair's steep bands make one piece with the line's, and a
// site's joins the line's, so the soft search's pieces part few cards,
// though every card's four sides step plainly: their frames are looked
// for as such (outline_soft_frame.go). Without, 2 of the 8 cards are
// found; with, 5. Each card is to be found where it lies, named rightly
// when named, and nothing reported where no card lies.
func TestFarSoftTouchingCards(t *testing.T) {
	cat := devCatalog(t)
	var sites, units []*models.Card
	for _, c := range cat.Cards() {
		switch kindOf(c) {
		case models.KindSite:
			sites = append(sites, c)
		case models.KindStandard:
			units = append(units, c)
		}
	}
	if len(sites) < 2 || len(units) < 6 {
		t.Skip("the catalog has too few sites or units")
	}
	// Units in pairs, their long sides a millimetre apart either side of a
	// grid line; sites with a long side a millimetre off a grid line.
	var place []placement
	for i, p := range [...]struct{ x, y float64 }{{100, 187.5}, {300, 187.5}, {200, 37.5}} {
		place = append(place,
			placement{slug: units[2*i].Slug, x: p.x - 32, y: p.y},
			placement{slug: units[2*i+1].Slug, x: p.x + 32, y: p.y, rot: 180})
	}
	place = append(place,
		placement{slug: sites[0].Slug, x: 50, y: 75 + 1 + models.CardShortMM/2},
		placement{slug: sites[1].Slug, x: 450, y: 225 - 1 - models.CardShortMM/2})
	var corners models.Quad
	for i, p := range tiltedCorners {
		corners[i] = models.Point{X: 640 + (p.X-640)*0.35, Y: 385 + (p.Y-385)*0.35}
	}
	// A pale cloth with darker printed lines.
	sc := renderSceneOn(t, cat, place, corners, func(mat *gocv.Mat, w, h int) {
		*mat = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(170, 190, 205, 0), h, w, gocv.MatTypeCV8UC3)
		drawSceneGrid(mat, color.RGBA{120, 130, 140, 0}, 4)
	})
	defer sc.frame.Close()
	gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), 1.8, 1.8, gocv.BorderReplicate)
	grainy(t, &sc.frame, rand.New(rand.NewPCG(7, 3)), 12, 60)
	a := newTestAnalyzer(t, cat)
	obs := analyzeScene(t, a, sc)
	if s := cameraScale(corners, models.DefaultRealm()); s > 0.7 || a.reader == nil || a.reader.opts.pxPerMM() != lowReadScale {
		t.Fatalf("the realm shows at %.2f px/mm, not read at %g px/mm: not the far camera the test is about", s, lowReadScale)
	}
	found, named := foundWhereLaid(t, cat, obs, place, corners, 15)
	t.Logf("found %d of %d cards where they lie, %d named", found, len(place), named)
	if found < 5 {
		t.Errorf("found %d of %d cards where they lie; want 5 or more", found, len(place))
	}
}
