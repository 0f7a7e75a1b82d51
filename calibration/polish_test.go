package calibration

import (
	"fmt"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestPolishFreesCornerOnCardOutline lays a lattice found on edges with
// its corner E1 held on the dark outline of a site snug in cell E1, over
// faint lines crossed by cards, where the climb onto the lines' centres
// leaves the lines and is refused. polishOnLines must bring the corner back
// onto the drawn lines (see ontoTrappedCorner).
func TestPolishFreesCornerOnCardOutline(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	cases := []scene{
		{seed: 5, tiltDeg: 8, rotDeg: 6, widthFrac: 0.29, lineMM: 2, borderMM: 2, contrast: 0.3, cards: 8, noise: 3, blur: true, jpegQuality: 85, cornerCard: 4},
		{seed: 5, tiltDeg: 8, rotDeg: 6, widthFrac: 0.29, lineMM: 2, borderMM: 2, contrast: 0.35, cards: 8, noise: 3, blur: true, jpegQuality: 85, cornerCard: 4},
		{seed: 5, tiltDeg: 8, rotDeg: 6, widthFrac: 0.29, lineMM: 2, borderMM: 2, contrast: 0.4, cards: 8, noise: 3, blur: true, jpegQuality: 85, cornerCard: 4},
	}
	for i, s := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			frame, truth := s.render(t)
			defer frame.Close()
			rm, _, scale := frameMaps(t, frame)
			h, err := fitHomography(realmCorners(g), truth[:])
			if err != nil {
				t.Fatal(err)
			}
			ht := hWorking(h, scale)
			// Corner E1 on the middle of the site's 3 mm outline.
			var start [4]models.Point
			for k, p := range realmCorners(g) {
				start[k] = ht.Apply(p)
			}
			start[1] = ht.Apply(models.Point{X: g.WidthMM() - s.cornerCard - 1.5, Y: s.cornerCard + 1.5})
			trapped, err := fitHomography(realmCorners(g), start[:])
			if err != nil {
				t.Fatal(err)
			}
			width := realmWidthPx(quadOfLattice(ht, g))
			if e := latticeError(trapped, ht, g) / width; e < 0.01 {
				t.Fatalf("the trapped lattice is %.2f%% of the realm's width off: the scene no longer tests it", 100*e)
			}
			got := polishOnLines(rm, trapped, g)
			if e := latticeError(got, ht, g) / width; e > 0.01 {
				t.Errorf("polished lattice %.2f%% of the realm's width off, want within 1%%", 100*e)
			}
		})
	}
}

// latticeError is the largest distance between the realm's corners under
// lattices a and b.
func latticeError(a, b homography, g models.RealmGeometry) float64 {
	return cornerError(quadOfLattice(a, g), quadOfLattice(b, g))
}
