package vision

import (
	"image/color"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// plainMatScene draws the placements on a plain pale mat with grey grid
// lines (as a printed playmat with no art), photographed as
// renderTestScene does.
func plainMatScene(t *testing.T, cat *models.Catalog, place []placement) testScene {
	t.Helper()
	return renderSceneOn(t, cat, place, tiltedCorners, func(mat *gocv.Mat, w, h int) {
		*mat = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 222, 228, 0), h, w, gocv.MatTypeCV8UC3)
		drawSceneGrid(mat, color.RGBA{120, 120, 120, 0}, 4)
	})
}

// TestShowsOnlyMatBeside reads what a unit leaves showing of where a site
// would lie under it. Beside a unit alone on the mat (centred in its cell,
// or turned and off-centre with the site's end and side on the cell's
// grid lines, as c1/0059's D2 was, where the grey comparison of a
// 20-face catalog named a site) only the bare mat shows: no site lies
// there, whatever face correlates with it. Beside a unit on a site, the
// site's ends show, and a quad the cards hide whole shows too little to
// judge.
func TestShowsOnlyMatBeside(t *testing.T) {
	cat := devCatalog(t)
	var unit, site string
	for _, slug := range facedSlugs(cat) {
		c, _ := cat.BySlug(slug)
		switch {
		case c.Type == models.Site && site == "":
			site = slug
		case c.Type != models.Site && unit == "":
			unit = slug
		}
	}
	if unit == "" || site == "" {
		t.Skip("the catalog lacks a site or a unit face")
	}
	a := newTestAnalyzer(t, cat)
	// B2 and D2 centres, realm mm; D3's unit turned and off-centre.
	const bx, by, dx, dy, ex, ey = 150.0, 112.5, 350.0, 112.5, 350.0, 187.5
	place := []placement{
		{slug: unit, x: bx, y: by},
		{slug: site, x: dx, y: dy},
		{slug: unit, x: dx, y: dy},
		{slug: unit, x: ex + 10, y: ey + 2, jitter: 9},
	}
	sc := plainMatScene(t, cat, place)
	defer sc.frame.Close()
	analyzeScene(t, a, sc) // the analyzer's colour image of this frame
	gray, v := sceneTopGray(t, a, sc)
	gray.Close()
	portrait := func(x, y, turn float64) models.Quad {
		return topDownQuad(v, x, y, turn, models.CardShortMM, models.CardLongMM)
	}
	landscapeAt := func(x, y float64) models.Quad {
		return topDownQuad(v, x, y, 0, models.CardLongMM, models.CardShortMM)
	}
	// The cell's west and north lines: a site's end and side on them.
	cellW, cellN := 300.0, 225.0
	onLines := landscapeAt(cellW+models.CardLongMM/2, cellN-models.CardShortMM/2)
	for _, tc := range []struct {
		name  string
		quad  models.Quad
		onTop []models.Quad
		want  bool
	}{
		{"a lone unit, the site centred under it", landscapeAt(bx, by), []models.Quad{portrait(bx, by, 0)}, true},
		{"a lone unit turned off-centre, the site on the cell's lines", onLines, []models.Quad{portrait(ex+10, ey+2, 9)}, true},
		{"a unit on a site", landscapeAt(dx, dy), []models.Quad{portrait(dx, dy, 0)}, false},
		{"a site hidden whole", landscapeAt(bx, by), []models.Quad{topDownQuad(v, bx, by, 0, models.CardLongMM+20, models.CardShortMM+20)}, false},
	} {
		if got := a.showsOnlyMatBeside(tc.quad, v, tc.onTop); got != tc.want {
			t.Errorf("%s: shows only the mat %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWithSite adds covered sites found by the searches of several cells:
// two whose centres lie in each other are one site (a unit across a cell's
// border lies over the site of its own cell and is searched for from the
// next cell too: c4/0027's and c4/0000's sites were each reported twice),
// the better report kept; sites a cell apart are two.
func TestWithSite(t *testing.T) {
	site := func(x, y float64, named bool, score float64, replaces int) coveredSite {
		q := models.Quad{{X: x - 88, Y: y - 63}, {X: x + 88, Y: y - 63}, {X: x + 88, Y: y + 63}, {X: x - 88, Y: y + 63}}
		return coveredSite{det: detection{quad: q, score: score}, named: named, quad: q, replaces: replaces}
	}
	for _, tc := range []struct {
		name  string
		sites []coveredSite
		want  []coveredSite
	}{
		{"one site found twice, the better named kept",
			[]coveredSite{site(300, 200, true, 0.6, -1), site(306, 196, true, 0.7, -1)},
			[]coveredSite{site(306, 196, true, 0.7, -1)}},
		{"the first kept when it scores better",
			[]coveredSite{site(300, 200, true, 0.8, -1), site(306, 196, true, 0.7, -1)},
			[]coveredSite{site(300, 200, true, 0.8, -1)}},
		{"a named one over an unnamed one",
			[]coveredSite{site(300, 200, false, 0, -1), site(306, 196, true, 0.6, -1)},
			[]coveredSite{site(306, 196, true, 0.6, -1)}},
		{"the one renaming an outline over another",
			[]coveredSite{site(300, 200, true, 0.6, 3), site(306, 196, true, 0.8, -1)},
			[]coveredSite{site(300, 200, true, 0.6, 3)}},
		{"two outlines renamed: two cards",
			[]coveredSite{site(300, 200, true, 0.6, 3), site(306, 196, true, 0.8, 4)},
			[]coveredSite{site(300, 200, true, 0.6, 3), site(306, 196, true, 0.8, 4)}},
		{"sites a cell apart: two",
			[]coveredSite{site(300, 200, true, 0.6, -1), site(500, 200, true, 0.6, -1), site(300, 350, false, 0, -1)},
			[]coveredSite{site(300, 200, true, 0.6, -1), site(500, 200, true, 0.6, -1), site(300, 350, false, 0, -1)}},
	} {
		var got []coveredSite
		for _, s := range tc.sites {
			got = withSite(got, s)
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d sites, want %d", tc.name, len(got), len(tc.want))
			continue
		}
		for i := range got {
			if got[i].quad != tc.want[i].quad || got[i].named != tc.want[i].named || got[i].replaces != tc.want[i].replaces {
				t.Errorf("%s: site %d is %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}
