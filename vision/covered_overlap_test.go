package vision

import (
	"fmt"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestCoveredSiteUnderOverlappingUnits draws a site with two units on it
// that overlap each other (one on the site's end, the other across it and
// the first, as players push units together), both found: what the
// covered-site search leaves unread must be every card on top, the part
// where the two overlap too, or the first unit's own edges and face there
// are read as the site's, placing and naming it off.
func TestCoveredSiteUnderOverlappingUnits(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	_, site := sitesByScan(t, cat)
	faces := siteFacesOf(t, a)
	cell := models.Cell{Col: 2, Row: 2}
	const cx, cy = 250.0, 187.5 // the cell's centre, realm mm
	for i, tc := range []struct {
		ax, ay, bx, by float64 // the units' centres off the site's, mm (y north)
		arot, brot     models.Rotation
	}{
		{-33, 3, -16, -53, 0, 0},
		{33, -3, 16, 53, 180, 180},
		{-33, -2, -14, 52, 0, 180},
		{31, 2, 12, -52, 180, 0},
	} {
		for _, rot := range []models.Rotation{0, 180} {
			name := fmt.Sprintf("case %d, site turned %d", i, rot)
			ua := placement{slug: "granite_warden", x: cx + tc.ax, y: cy + tc.ay, rot: tc.arot}
			ub := placement{slug: "tide_oracle", x: cx + tc.bx, y: cy + tc.by, rot: tc.brot}
			gray, v := renderedTopGray(t, a, cat, []placement{{slug: site, x: cx, y: cy, rot: rot, jitter: 1}, ua, ub}, 400+uint64(10*i)+uint64(rot))
			var found []placed
			for _, u := range []placement{ua, ub} {
				found = append(found, placed{topDownQuad(v, u.x, u.y, float64(u.rot), models.CardShortMM, models.CardLongMM), models.KindStandard})
			}
			s, ok := a.siteUnder(gray, v, cell, found, &coveredSearch{faces: faces})
			gray.Close()
			if !ok || !s.named {
				t.Errorf("%s: not named", name)
				continue
			}
			if got := a.index.refs[s.det.ref].Slug; got != site || s.det.rotation() != rot {
				t.Errorf("%s: named %s turned %d, want %s", name, got, s.det.rotation(), site)
			}
		}
	}
}

// TestOutlinedSiteUnderCardFromBeside gives the covered-site search a site
// found by its outline and not named, in a cell of its own, with a unit
// from the next cell lying over much of it: the site's cell holds no unit,
// but the search must still look for the site there, with the unit on
// top, and name it in place of the outline.
func TestOutlinedSiteUnderCardFromBeside(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	portrait, landscape := sitesByScan(t, cat)
	for _, tc := range []struct {
		site, unit string
		siteCell   models.Cell
		dx, dy     float64 // the unit's centre from the site's, mm
	}{
		{portrait, "granite_warden", models.Cell{Col: 1, Row: 1}, 2, 40},
		{landscape, "tide_oracle", models.Cell{Col: 3, Row: 2}, -3, -40},
		{landscape, "ember_whelp", models.Cell{Col: 2, Row: 1}, -12, 39},
	} {
		for _, rot := range []models.Rotation{0, 180} {
			sx, sy := 50+100*float64(tc.siteCell.Col), 37.5+75*float64(tc.siteCell.Row)
			unit := placement{slug: tc.unit, x: sx + tc.dx, y: sy + tc.dy, rot: rot}
			gray, v := renderedTopGray(t, a, cat, []placement{{slug: tc.site, x: sx, y: sy, rot: rot}, unit}, 510+uint64(rot))
			found := []placed{
				{topDownQuad(v, sx, sy, float64(rot), models.CardLongMM, models.CardShortMM), models.KindSite},
				{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard},
			}
			covered := a.findCoveredSites(gray, v, found, unnamedSites{0: -1})
			gray.Close()
			named := false
			for _, s := range covered {
				if !s.named || s.replaces != 0 {
					continue
				}
				ref := &a.index.refs[s.det.ref]
				named = true
				if ref.Slug != tc.site || s.det.rotation() != rot {
					t.Errorf("site %q under %s, turn %d: named %s turned %d", tc.site, tc.unit, rot, ref.Slug, s.det.rotation())
				}
			}
			if !named {
				t.Errorf("%s under %s from the next cell, turn %d: not named", tc.site, tc.unit, rot)
			}
		}
	}
}
