package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestCoveredSiteFarOffCentre draws a site well off its cell's centre (26
// to 40 mm, its centre still in the cell), a unit lying over the part of it
// nearer the centre, and checks the covered search: one of the placements
// it keeps lies within reach of the naming's shifts (and 2°) of the site,
// and the site is named right, turned right, or not at all, and named in
// most scenes (all 6 when written). Before, the search looked for a site
// only within 10 mm of the cell's centre, and named none of these.
func TestCoveredSiteFarOffCentre(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	_, site := sitesByScan(t, cat)
	faces := siteFacesOf(t, a)
	cell := models.Cell{Col: 1, Row: 1}
	const cx, cy = 150.0, 112.5 // the cell's centre, realm mm
	cases := []struct {
		name           string
		siteDX, siteDY float64 // off the cell's centre, mm
		unitDX, unitDY float64 // off the site's centre, mm
		siteJitter     float64
	}{
		{"east, unit on its west half", 32, -1, -24, 2, 1.5},
		{"west, unit on its east half", -40, 3, 22, -3, -1},
		{"south, unit on its north side", -2, -26, 4, 22, 0.5},
	}
	named := 0
	for _, tc := range cases {
		for _, rot := range []models.Rotation{0, 180} {
			sx, sy := cx+tc.siteDX, cy+tc.siteDY
			unit := placement{slug: "granite_warden", x: sx + tc.unitDX, y: sy + tc.unitDY, rot: rot}
			gray, v := renderedTopGray(t, a, cat, []placement{{slug: site, x: sx, y: sy, rot: rot, jitter: tc.siteJitter}, unit}, 140+uint64(rot))
			found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard}}
			truth := topDownQuad(v, sx, sy, float64(rot)+tc.siteJitter, models.CardLongMM, models.CardShortMM).Center()

			places := sitePlacements(gray, v, cell, found, &edgeSums{}, false)
			near := false
			for _, p := range places {
				if math.Abs(p.cx-truth.X) <= 3*v.pxPerMM && math.Abs(p.cy-truth.Y) <= 3*v.pxPerMM && math.Abs(p.angleDeg-tc.siteJitter) <= 2 {
					near = true
				}
			}
			if !near {
				t.Errorf("%s, turn %d: no placement within 3 mm and 2° of the site (%d kept)", tc.name, rot, len(places))
			}
			n, ok := a.nameSiteAt(gray, v, faces, places, found, len(places) > 0 && outlineShows(places[0]))
			gray.Close()
			if !ok {
				continue
			}
			if got := a.index.refs[n.det.ref].Slug; got != site || n.det.rotation() != rot {
				t.Errorf("%s, turn %d: named %s turned %d, want %s turned %d", tc.name, rot, got, n.det.rotation(), site, rot)
				continue
			}
			named++
		}
	}
	t.Logf("named in %d of %d scenes", named, 2*len(cases))
	if want := 2*len(cases) - 2; named < want {
		t.Errorf("named in %d of %d scenes, want at least %d", named, 2*len(cases), want)
	}
}
