package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// placedOff gives the outline q (top-down pixels of pxPerMM, a card's)
// found dx mm across and dy mm down its first side off its place, and,
// when turned, with its long side across instead of down (or down instead
// of across), about the same centre: how the search for stacked cards may
// find a poster card.
func placedOff(q models.Quad, pxPerMM, dx, dy float64, turned bool) models.Quad {
	c := q.Center()
	ux, uy := q[1].X-q[0].X, q[1].Y-q[0].Y
	vx, vy := q[3].X-q[0].X, q[3].Y-q[0].Y
	if turned {
		// Each side as long as the other, along its own direction.
		lu, lv := math.Hypot(ux, uy), math.Hypot(vx, vy)
		ux, uy, vx, vy = ux*lv/lu, uy*lv/lu, vx*lu/lv, vy*lu/lv
	}
	lu, lv := math.Hypot(ux, uy), math.Hypot(vx, vy)
	cx := c.X + dx*pxPerMM*ux/lu + dy*pxPerMM*vx/lv
	cy := c.Y + dx*pxPerMM*uy/lu + dy*pxPerMM*vy/lv
	var out models.Quad
	for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		out[k] = models.Point{X: cx + (s[0]*ux+s[1]*vx)/2, Y: cy + (s[0]*uy+s[1]*vy)/2}
	}
	return out
}

// TestNameAroundOutlineFoundOff names fully visible poster cards in
// outlines found a centimetre off their place, or turned a quarter, as
// the search for stacked cards finds some: their look in such an outline
// names few of them (nameByLook), and nameAround, which searches the
// places about the outline that show a card's layout best, names most,
// and none wrongly. A third of the faces are left out of the catalog:
// those cards must stay unknown wherever they are looked for.
func TestNameAroundOutlineFoundOff(t *testing.T) {
	full, r := posterCatalog(t)
	missing := map[string]bool{}
	for i, s := range facedSlugs(full) {
		if i%3 == 2 {
			missing[s] = true
		}
	}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	cases := []struct {
		name   string
		dx, dy float64
		turned bool
	}{
		{"10 mm across", 10, 0, false},
		{"11 mm down", 0, -11, false},
		{"8 mm both ways", -8, 8, false},
		{"turned a quarter", 0, 0, true},
	}
	type tally struct{ all, byLook, around, wrong, missing, missingNamed int }
	got := make([]tally, len(cases))
	for _, i := range []int{3, 7, 12, 24} {
		scene, frame, cal, _ := renderAndAnalyze(t, a, r, synth.SceneSeed(41, i), synth.SceneOptions{JPEGQuality: 85})
		frame.Close()
		v, err := newView(cal.Corners, cal.Geometry, 1280, 720, a.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction < 0.999 || c.Token {
				continue
			}
			var q models.Quad
			for k, p := range c.Quad {
				q[k] = v.fromImg.Apply(p)
			}
			for ci, tc := range cases {
				off := clockwiseFromTopLeft(placedOff(q, v.pxPerMM, tc.dx, tc.dy, tc.turned))
				g := &got[ci]
				if missing[c.Slug] {
					g.missing++
					if d, ok := a.nameAround(off, v, nil); ok {
						g.missingNamed++
						t.Errorf("%s, scene %d: %s, missing from the catalog, named %s", tc.name, i, c.Name, a.index.refs[d.ref].card.Name)
					}
					continue
				}
				g.all++
				if d, ok := a.nameByLook(off, v, nil); ok && a.index.refs[d.ref].card.Name == c.Name {
					g.byLook++
				}
				d, ok := a.nameAround(off, v, nil)
				switch {
				case !ok:
					t.Logf("%s, scene %d: %s not named", tc.name, i, c.Name)
				case a.index.refs[d.ref].card.Name != c.Name:
					g.wrong++
					t.Errorf("%s, scene %d: %s named %s", tc.name, i, c.Name, a.index.refs[d.ref].card.Name)
				default:
					g.around++
				}
			}
		}
	}
	for ci, tc := range cases {
		g := got[ci]
		t.Logf("%s: %d cards, named by look in the outline %d, around it %d (%d wrong); missing from the catalog %d, named %d",
			tc.name, g.all, g.byLook, g.around, g.wrong, g.missing, g.missingNamed)
		if g.all < 8 || g.missing < 3 {
			t.Errorf("%s: %d cards of the catalog and %d missing from it, want 8 and 3 or more", tc.name, g.all, g.missing)
		}
		if 2*g.byLook > g.all {
			t.Errorf("%s: the look in the outline named %d of %d: the outline is not off enough to test the search", tc.name, g.byLook, g.all)
		}
		if float64(g.around) < 0.8*float64(g.all) {
			t.Errorf("%s: named around the outline %d of %d, want 80%% or more", tc.name, g.around, g.all)
		}
	}
}
