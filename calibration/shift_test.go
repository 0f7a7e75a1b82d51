package calibration

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestPreferShiftOnLines starts from the true realm of bundled stills moved
// by one cell along either axis (a row of card borders or the mat's edge
// taken for the border): preferShiftOnLines must move it back, with or
// without the edge map's confirmation, and must leave the true realm where
// it is.
func TestPreferShiftOnLines(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0001", "0037", "0099"} {
		truth, gray, rm, em := stillLineMaps(t, dir, name)
		gray.Close()
		want, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		tol := 0.01 * realmWidthPx(truth.Corners)
		if h, _ := preferShiftOnLines(rm, em, want, g, false); cornerError(quadOfLattice(h, g), truth.Corners) > tol {
			t.Errorf("%s: the true realm was moved %.1f px", name, cornerError(quadOfLattice(h, g), truth.Corners))
		}
		for _, s := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			shifted := homography{1, 0, s[0] * g.CellWidthMM, 0, 1, s[1] * g.CellHeightMM, 0, 0, 1}.Then(want)
			if !plausible(shifted, g, float64(rm.w), float64(rm.h)) {
				continue
			}
			for _, confirm := range []*edgeMap{nil, em} {
				t.Run(fmt.Sprintf("%s/%v/confirmed=%v", name, s, confirm != nil), func(t *testing.T) {
					h, score := preferShiftOnLines(rm, confirm, shifted, g, false)
					if e := cornerError(orientLike(quadOfLattice(h, g), truth.Corners), truth.Corners); e > tol {
						t.Errorf("still %.1f px off the true realm (ridge score %.2f, true realm %.2f)", e, score, rm.ridgeScore(want, g))
					}
				})
			}
		}
	}
}

// TestProfileCandidatesSpan reads a still whose grid lines are dark and
// plain but half hidden under cards and a hand, on a mat with a wide margin:
// summed over the whole canvas, the rows' profile buries them; read across
// the span of the columns found, the realm is among the candidates.
func TestProfileCandidatesSpan(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	truth, frame := readStill(t, dir, "0037")
	gray := grayFor(frame)
	frame.Close()
	defer gray.Close()
	want, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	v1, v2 := vec3{want[0], want[3], want[6]}, vec3{want[1], want[4], want[7]}
	cands := profileCandidates(gray, v1, v2, g)
	best := 1e9
	for _, h := range cands {
		best = min(best, cornerError(orientLike(quadOfLattice(h, g), truth.Corners), truth.Corners))
	}
	if tol := 0.01 * realmWidthPx(truth.Corners); best > tol {
		t.Errorf("best of %d candidates is %.1f px off the true realm (tolerance %.1f px)", len(cands), best, tol)
	}
}
