package vision

import (
	"image"
	"math/rand/v2"
	"sort"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// halfCoveredSite is a site a scene of halfCoveredScene puts in a cell,
// with a unit lying over part of it.
type halfCoveredSite struct {
	cell models.Cell
	name string
}

// halfCoveredScene lays out five poster sites, each in a cell of its own
// (off the cell's centre by up to 8 mm across and 5 mm down, turned up to
// 4° more), each with a unit lying over one side of it (its centre 14 to
// 30 mm off the site's, either way across, so that about half the site
// shows), seen by the tilted camera out of focus (a Gaussian blur of 1.5
// frame pixels). The same seed gives the same scene; the caller closes the
// frame.
func halfCoveredScene(t *testing.T, cat *models.Catalog, sites, units []string, seed uint64) (testScene, []halfCoveredSite) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	var place []placement
	var out []halfCoveredSite
	for _, ci := range rng.Perm(models.Columns * models.Rows)[:5] {
		col, row := ci%models.Columns, ci/models.Columns
		sx := 100*float64(col) + 50 + (rng.Float64()*2-1)*8
		sy := 75*float64(row) + 37.5 + (rng.Float64()*2-1)*5
		site := sites[rng.IntN(len(sites))]
		place = append(place, placement{slug: site, x: sx, y: sy, rot: models.Rotation(180 * rng.IntN(2)), jitter: (rng.Float64()*2 - 1) * 4})
		urot := models.Rotation(180 * rng.IntN(2))
		if rng.Float64() < 0.3 {
			urot += 90
		}
		ux := sx + float64(1-2*rng.IntN(2))*(14+rng.Float64()*16)
		uy := sy + (rng.Float64()*2-1)*6
		place = append(place, placement{slug: units[rng.IntN(len(units))], x: ux, y: uy, rot: urot, jitter: (rng.Float64()*2 - 1) * 5})
		c, _ := cat.BySlug(site)
		out = append(out, halfCoveredSite{models.Cell{Col: col, Row: row}, c.Name})
	}
	sc := renderTestScene(t, cat, place, tiltedCorners, seed*13+1)
	gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), 1.5, 1.5, gocv.BorderReflect101)
	return sc, out
}

// TestHalfCoveredSiteNamedWhereItsFaceLeads reads poster sites half under a
// unit in frames out of focus. The outline search places such a site a few
// millimetres or degrees off, more than naming by colour forgives, and the
// grey comparison, on smooth art gone soft, leads with the right face but
// too weakly for a name: what shows must be named by its colours where the
// leading face lies (siteUnder). Each scene here held a site so missed
// before (its cell listed), and none may be named wrongly. Measured on
// the first 80 seeds (400 sites): 206 named before, 227 after, none
// wrongly either way.
func TestHalfCoveredSiteNamedWhereItsFaceLeads(t *testing.T) {
	cat, _ := posterCatalog(t)
	a := newTestAnalyzer(t, cat)
	var sites, units []string
	for _, c := range cat.Cards() {
		switch {
		case c.Image == "" || c.Token:
		case c.Type == models.Site:
			sites = append(sites, c.Slug)
		case c.Type == models.Minion:
			units = append(units, c.Slug)
		}
	}
	sort.Strings(sites)
	sort.Strings(units)
	for _, tc := range []struct {
		seed uint64
		cell string
	}{{5, "E4"}, {21, "A3"}, {30, "D1"}, {34, "B4"}} {
		sc, laid := halfCoveredScene(t, cat, sites, units, tc.seed)
		obs := analyzeScene(t, a, sc)
		sc.frame.Close()
		for _, s := range laid {
			got := sitesAt(obs, s.cell)
			named := false
			for _, o := range got {
				if o.Identified() && o.NameOr("") != s.name {
					t.Errorf("seed %d: the site %s in %s named %s", tc.seed, s.name, s.cell, o.NameOr(""))
				}
				named = named || o.NameOr("") == s.name
			}
			if s.cell.String() == tc.cell && !named {
				t.Errorf("seed %d: the site %s half under a unit in %s not named (%d sites reported there)", tc.seed, s.name, s.cell, len(got))
			}
		}
	}
}
