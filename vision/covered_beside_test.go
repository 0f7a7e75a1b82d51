package vision

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestCoveredSiteUnderCardFromBeside draws sites under units whose centres
// lie in the next cell (a unit pushed across the cell's border onto the
// site, covering about 40% of it), with the unit the only card found: the
// site's cell holds no card of its own, and the covered-site search must
// still look there and name the site, turned right. A unit pushed so onto
// an empty cell must not grow a site there.
func TestCoveredSiteUnderCardFromBeside(t *testing.T) {
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
		{"", "granite_warden", models.Cell{Col: 1, Row: 1}, 2, 40},
	} {
		for _, rot := range []models.Rotation{0, 180} {
			sx, sy := 50+100*float64(tc.siteCell.Col), 37.5+75*float64(tc.siteCell.Row)
			unit := placement{slug: tc.unit, x: sx + tc.dx, y: sy + tc.dy, rot: rot}
			place := []placement{unit}
			if tc.site != "" {
				place = append(place, placement{slug: tc.site, x: sx, y: sy, rot: rot, jitter: 1})
				place[0], place[1] = place[1], place[0] // the unit on top
			}
			gray, v := renderedTopGray(t, a, cat, place, 310+uint64(rot))
			found := []placed{{topDownQuad(v, unit.x, unit.y, float64(unit.rot), models.CardShortMM, models.CardLongMM), models.KindStandard}}
			if c, ok := v.cellAt(found[0].quad.Center()); !ok || c == tc.siteCell {
				t.Fatalf("%s turn %d: the unit's centre lies in %v, want the next cell", tc.unit, rot, c)
			}
			covered := a.findCoveredSites(gray, v, found, unnamedSites{})
			gray.Close()
			var names []string
			for _, s := range covered {
				if c, ok := v.cellAt(s.quad.Center()); !ok || c != tc.siteCell || !s.named {
					continue
				}
				ref := &a.index.refs[s.det.ref]
				names = append(names, ref.Slug)
				if ref.Slug != tc.site || s.det.rotation() != rot {
					t.Errorf("site %q under %s, turn %d: named %s turned %d", tc.site, tc.unit, rot, ref.Slug, s.det.rotation())
				}
			}
			if tc.site != "" && len(names) == 0 {
				t.Errorf("%s under %s from the next cell, turn %d: not named", tc.site, tc.unit, rot)
			}
		}
	}
}
