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
	return climb(score, h, g, w, hgt, moves, func(q *[4]models.Point, d float64, try func([4]models.Point)) {
		for i := 0; i < 8; i++ {
			for _, sign := range [2]float64{-1, 1} {
				t := *q
				if i%2 == 0 {
					t[i/2].X += sign * d
				} else {
					t[i/2].Y += sign * d
				}
				try(t)
			}
		}
	})
}

// climbSides is climbCorners moving the two corners of one side of the
// realm together, a side at a time: a border line off its drawn line by a
// few pixels along its whole length (its lattice read off lines of cards
// or a line half under them) comes back only when both its ends move, and
// either end moved alone lowers the score on the way.
func climbSides(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, moves []float64) (homography, float64) {
	steps := [4][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	return climb(score, h, g, w, hgt, moves, func(q *[4]models.Point, d float64, try func([4]models.Point)) {
		for side := 0; side < 4; side++ {
			for _, st := range steps {
				t := *q
				for _, c := range []int{side, (side + 1) % 4} {
					t[c].X += st[0] * d
					t[c].Y += st[1] * d
				}
				try(t)
			}
		}
	})
}

// climb is the ascent of climbCorners and climbSides: for each step size
// of moves, up to six rounds in which every move neighbours gives (the
// realm's corners in the image, q, moved by d) is tried, in its order, and
// kept when the lattice through the moved corners is plausible and scores
// higher, until a round keeps none. A move kept changes q at once, so the
// moves after it start from it.
func climb(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, moves []float64, neighbours func(q *[4]models.Point, d float64, try func([4]models.Point))) (homography, float64) {
	src := realmCorners(g)
	var q [4]models.Point
	for i, p := range src {
		q[i] = h.Apply(p)
	}
	best := score(h)
	for _, d := range moves {
		for iter := 0; iter < 6; iter++ {
			improved := false
			neighbours(&q, d, func(t [4]models.Point) {
				ht, err := fitHomography(src, t[:])
				if err != nil || !plausible(ht, g, w, hgt) {
					return
				}
				if s := score(ht); s > best {
					best, q, h, improved = s, t, ht, true
				}
			})
			if !improved {
				break
			}
		}
	}
	return h, best
}

// scanCorners moves each corner of the realm in turn to the best of the
// points within reach px of it (on a grid of 1 px), the others held, while
// the score grows: a corner a few pixels off whose way back first lowers
// the score (the lines through it leave one drawn line before they meet
// the other) is found where coordinate steps stop. It returns the lattice
// and its score.
func scanCorners(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, reach int) (homography, float64) {
	var square []models.Point
	for dy := -reach; dy <= reach; dy++ {
		for dx := -reach; dx <= reach; dx++ {
			square = append(square, models.Point{X: float64(dx), Y: float64(dy)})
		}
	}
	return scanCornerMoves(score, h, g, w, hgt, 2, func([4]models.Point, int) []models.Point { return square })
}

// scanCornerMoves moves each corner of the realm in turn, the others held,
// to the best of the points it reaches by the moves given for it (image
// px; moves is given the corners as they stand and the corner's index)
// while the score grows, for up to rounds rounds, stopping after a round
// that moved none. It returns the lattice and its score.
func scanCornerMoves(score func(homography) float64, h homography, g models.RealmGeometry, w, hgt float64, rounds int, moves func(q [4]models.Point, c int) []models.Point) (homography, float64) {
	src := realmCorners(g)
	var q [4]models.Point
	for i, p := range src {
		q[i] = h.Apply(p)
	}
	best := score(h)
	for round := 0; round < rounds; round++ {
		improved := false
		for c := 0; c < 4; c++ {
			base := q
			for _, m := range moves(base, c) {
				t := base
				t[c].X += m.X
				t[c].Y += m.Y
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
	return h, best
}
