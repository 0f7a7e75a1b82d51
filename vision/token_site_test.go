package vision

import (
	"fmt"
	"image"
	"math"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestLandscapeTokenSite reads a token site whose scan is landscape, as a
// site's is (a made-up "Rubble"): it lies at a token's size, landscape when
// upright. It must be named, with its rotation and its corners from the
// face's top-left as the scan stores the face, in all four turns.
func TestLandscapeTokenSite(t *testing.T) {
	cat := devCatalog(t)
	_, landscape := sitesByScan(t, cat)
	site, _ := cat.BySlug(landscape)
	// The token's face: the site's art at a token site's size. The site
	// itself leaves the catalog, so that one face names it.
	src := gocv.IMRead(site.Image, gocv.IMReadColor)
	if src.Empty() {
		t.Fatalf("cannot read %s", site.Image)
	}
	defer src.Close()
	face := gocv.NewMat()
	defer face.Close()
	gocv.Resize(src, &face, image.Pt(504, 352), 0, 0, gocv.InterpolationArea)
	path := filepath.Join(t.TempDir(), "tumbled_rubble.png")
	if !gocv.IMWrite(path, face) {
		t.Fatalf("cannot write %s", path)
	}
	token := &models.Card{Name: "Tumbled Rubble", Slug: "tumbled_rubble", Type: models.Site, Token: true, Image: path}
	cards := catalogWithout(cat, map[string]bool{landscape: true}).Cards()
	cat = models.NewCatalog(append(cards, token))
	a := newTestAnalyzer(t, cat)

	for _, rot := range []models.Rotation{0, 90, 180, 270} {
		t.Run(fmt.Sprint(rot), func(t *testing.T) {
			const x, y = 250.0, 112.5 // C2's centre
			sc := renderTestScene(t, cat, []placement{
				{slug: token.Slug, x: x, y: y, rot: rot, jitter: 2},
				{slug: "ember_whelp", x: 50, y: 262.5},
			}, tiltedCorners, uint64(rot)+7)
			defer sc.frame.Close()
			got, ok := findCard(analyzeScene(t, a, sc), sc.corners, x, y)
			if !ok {
				t.Fatalf("the token site at rotation %d: not found", rot)
			}
			if got.NameOr("") != token.Name || got.Type == nil || *got.Type != string(models.Site) || !got.Token || got.Kind != models.KindToken {
				t.Fatalf("got %s type %s token %t kind %s, want %s, a token site", got.NameOr("unknown"), typeOf(got), got.Token, got.Kind, token.Name)
			}
			if got.Rotation != rot || got.Tapped != rot.Tapped() || got.Owner != rot.Owner() {
				t.Errorf("rotation %d tapped %t owner %s, want %d %t %s", got.Rotation, got.Tapped, got.Owner, rot, rot.Tapped(), rot.Owner())
			}
			// The face's top-left corner, 31.5 mm west and 22 mm north
			// of its centre when upright, turned with the card.
			v, err := newView(sc.corners, models.DefaultRealm(), 1280, 720, Options{})
			if err != nil {
				t.Fatal(err)
			}
			th := (float64(rot) + 2) * math.Pi / 180
			dx, dy := -models.TokenLongMM/2, models.TokenShortMM/2 // east, north
			// Clockwise on the table (north up) is x' = x cos + y sin, y' = -x sin + y cos.
			tl := v.imageOfMM(x+dx*math.Cos(th)+dy*math.Sin(th), y-dx*math.Sin(th)+dy*math.Cos(th))
			if d := math.Hypot(got.Quad[0].X-tl.X, got.Quad[0].Y-tl.Y); d > 12 {
				t.Errorf("the quad begins at %.0f,%.0f, %.0f px from the face's top-left %.0f,%.0f (quad %v)", got.Quad[0].X, got.Quad[0].Y, d, tl.X, tl.Y, got.Quad)
			}
		})
	}
}

// typeOf is an observed card's type, or "" when it is not named.
func typeOf(o models.CardObservation) string {
	if o.Type == nil {
		return ""
	}
	return *o.Type
}
