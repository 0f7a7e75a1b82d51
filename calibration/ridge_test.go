package calibration

import (
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestRidgeScoreTrueGridBeatsShifts reads stills whose realm runs close to
// the frame's edge, so that a lattice line one cell outside the realm is
// only partly in view (and crosses cards or the mat's edge there): the true
// grid must still score above each of its one-cell shifts, even once the
// shift has climbed its corners to where its lines score best (which is how
// the profile search polishes its candidates).
func TestRidgeScoreTrueGridBeatsShifts(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0099", "0001"} {
		truth, rm := stillRidgeMap(t, dir, name)
		want, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		own := rm.ridgeScore(want, g)
		w, hgt := float64(rm.w), float64(rm.h)
		for _, s := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			shifted := homography{1, 0, s[0] * g.CellWidthMM, 0, 1, s[1] * g.CellHeightMM, 0, 0, 1}.Then(want)
			if !plausible(shifted, g, w, hgt) {
				continue
			}
			climbed, got := climbCorners(func(h homography) float64 { return rm.ridgeScore(h, g) }, shifted, g, w, hgt, []float64{3, 1.5})
			if shiftedAlias(want, climbed, g) && got >= own {
				t.Errorf("%s: the grid shifted by %v cells scores %.3f, the true grid %.3f", name, s, got, own)
			}
		}
	}
}
