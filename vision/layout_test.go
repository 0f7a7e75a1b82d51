package vision

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A card missing from the catalog is turned, and told a site or a unit
// turned sideways, by the layout every card of its kind shares: turned
// against the half of the realm it lies in, and a tapped unit lying alone
// on the mat, where nothing but its layout tells it from a site.
func TestAnalyzeUnknownCardTurn(t *testing.T) {
	full := devCatalog(t)
	// A site scanned landscape: a site scanned portrait is turned upright
	// by the way the catalog states (Options.PortraitSiteTopRight), which
	// the layout then depends on.
	_, landscapeSite := sitesByScan(t, full)
	missing := map[string]bool{landscapeSite: true, "stonehide_ox": true}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	unit, _ := full.BySlug("stonehide_ox")
	site, _ := full.BySlug(landscapeSite)
	tests := []struct {
		card     *models.Card
		x, y     float64 // centre, realm millimetres
		rot      models.Rotation
		wantKind models.CardKind
	}{
		{unit, 150, 262.5, 0, models.KindStandard},   // south's unit in the north half
		{unit, 350, 37.5, 180, models.KindStandard},  // north's unit in the south half
		{unit, 250, 112.5, 90, models.KindStandard},  // tapped, alone on the mat
		{unit, 150, 187.5, 270, models.KindStandard}, // tapped, alone on the mat
		{site, 350, 262.5, 0, models.KindSite},       // south's site in the north half
		{site, 50, 112.5, 180, models.KindSite},      // north's site in the south half
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s %d at %.0f,%.0f", tt.card.Name, tt.rot, tt.x, tt.y), func(t *testing.T) {
			place := []placement{{image: tt.card.Image, kind: kindOf(tt.card), x: tt.x, y: tt.y, rot: tt.rot}}
			sc := renderTestScene(t, full, place, tiltedCorners, 90+uint64(i))
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			got, ok := findCard(obs, sc.corners, tt.x, tt.y)
			switch {
			case !ok:
				t.Fatal("the unknown card was not reported")
			case got.Identified():
				t.Fatalf("a card not in the catalog was named %q", got.NameOr(""))
			}
			if got.Kind != tt.wantKind || got.Rotation != tt.rot || got.Tapped != tt.rot.Tapped() || got.Owner != tt.rot.Owner() {
				t.Errorf("read as %s, rotation %d, tapped %v, owner %s; want %s, rotation %d", got.Kind, got.Rotation, got.Tapped, got.Owner, tt.wantKind, tt.rot)
			}
		})
	}
}

// cardBack writes the back of a card (a plain field, a frame and an oval
// emblem, the same on every card: no face's layout) as a PNG of a
// standard card's proportions, and gives its path.
func cardBack(t *testing.T) string {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 60, 40, 0), 704, 504, gocv.MatTypeCV8UC3)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(24, 24, 480, 680), color.RGBA{R: 200, G: 170, B: 90}, 10)
	gocv.Ellipse(&img, image.Pt(252, 352), image.Pt(150, 220), 0, 0, 360, color.RGBA{R: 90, G: 120, B: 170}, -1)
	gocv.Ellipse(&img, image.Pt(252, 352), image.Pt(90, 140), 0, 0, 360, color.RGBA{R: 220, G: 200, B: 120}, 8)
	path := filepath.Join(t.TempDir(), "back.png")
	if !gocv.IMWrite(path, img) {
		t.Fatal("cannot write the card back")
	}
	return path
}

// A card's back fits no card's layout, while a face missing from the
// catalog fits its kind's: so a face-down pile beside the realm is told
// from a card in play (see Analyzer.turned).
func TestCardBackFitsNoLayout(t *testing.T) {
	full := devCatalog(t)
	var cards []*models.Card
	for _, c := range full.Cards() {
		if c.Slug != "stonehide_ox" {
			cards = append(cards, c)
		}
	}
	a := newTestAnalyzer(t, models.NewCatalog(cards))
	layouts := newCardLayouts(a.cat, a.opts)
	unit, _ := full.BySlug("stonehide_ox")
	backCard := &models.Card{Name: "back", Slug: "back", Image: cardBack(t)}
	const px = 2.0 // the index scale, as uprightFace draws faces
	for _, tt := range []struct {
		card *models.Card
		face bool
	}{{unit, true}, {backCard, false}} {
		canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 300, 260, gocv.MatTypeCV8U)
		q := drawFace(t, a, &canvas, tt.card, 60, 50)
		best, _, read := layouts.read(canvas, q, px)
		canvas.Close()
		if !read {
			t.Fatalf("%s: the layouts could not be read", tt.card.Name)
		}
		if got := best.r >= layoutFaceMin; got != tt.face {
			t.Errorf("%s: best layout correlation %.2f (way %d), a face: %v, want %v", tt.card.Name, best.r, best.rot, got, tt.face)
		}
	}
}
