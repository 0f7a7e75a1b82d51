package calibration

import (
	"github.com/tablecam/tablecam/models"
)

// climbCorners improves a lattice by moving the realm's four corners in the
// image, one coordinate at a time, while the grid score grows: coordinate
// ascent from 8 px steps down to 1 px. It finds the grid when a hypothesis
// built from a few lines (some of them card edges) is a little off, which
// the line-by-line refinement cannot fix when most lines sit too far from
// their prediction. It returns the lattice and its score.
// moves are the step sizes (px), coarse to fine; score is the grid score
// being climbed.
func climbCorners(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, moves []float64) (homography, float64) {
	src := realmCorners(g)
	var q [4]models.Point
	for i, p := range src {
		q[i] = h.Apply(p)
	}
	best := score(h)
	for _, d := range moves {
		for iter := 0; iter < 6; iter++ {
			improved := false
			for i := 0; i < 8; i++ {
				for _, sign := range [2]float64{-1, 1} {
					t := q
					if i%2 == 0 {
						t[i/2].X += sign * d
					} else {
						t[i/2].Y += sign * d
					}
					ht, err := fitHomography(src, t[:])
					if err != nil || !plausible(ht, g, w, hgt) {
						continue
					}
					if s := score(ht); s > best {
						best, q, h, improved = s, t, ht, true
					}
				}
			}
			if !improved {
				break
			}
		}
	}
	return h, best
}
