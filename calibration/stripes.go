package calibration

import (
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A table under broad stripes (a tablecloth, a striped rug) fills the
// frame around the mat with long straight edges of one direction: on
// independent scenes they made 84–97% of the length of the frame's Hough
// segments, while a grid drawn in dashes gave none, its dashes too short.
// The profile search guesses the grid's vanishing points from the two
// dominant directions of those segments (see vanishingPairs), so there it
// never tries the grid's own, and the grid is not found. The mat's edges
// and the cards' sides still point along the grid, and once the stripes'
// direction is taken out they are the dominant lines. So, as the last
// retry of Detect, on a frame where no search found a lattice at all, the
// grid is searched again with the vanishing points guessed from the
// segments less those near the dominant direction: on the frame and on
// the frame sharpened (dashes soft with the camera's blur), the lattice
// held to what every last retry's is (see heldRetry).
//
// Guessed so in every search, the extra directions also brought rival
// lattices: on a mat of thick lines (c1/0034 of the independent scenes),
// one settled a few percent off the realm, was refused for its lines over
// bare cloth, and the search that found the realm before never ran.
// pastDominantDeg is how far from the dominant direction a segment must
// run to be kept by pastDominantDirection: a lens and the perspective
// bend the stripes' edges a few degrees apart.
const pastDominantDeg = 10

// pastDominantDirection is segs less those within pastDominantDeg of
// their dominant direction (see dominantDirections); segs as they are when
// they have none.
func pastDominantDirection(segs []segment) []segment {
	d, _, ok := dominantDirections(segs, 40*math.Pi/180)
	if !ok {
		return segs
	}
	var rest []segment
	for _, s := range segs {
		if angleDiff(s.direction(), d) > pastDominantDeg*math.Pi/180 {
			rest = append(rest, s)
		}
	}
	return rest
}

// detectPastStripes is the striped table's retry (see above): detectStraight
// with the profile search's vanishing points guessed past the frame's
// dominant direction, on the frame as it is and sharpened (see
// detectSharpened), held to what the last retries are held to (see
// heldRetry). The two must not find two different realms. share is the
// least length of the segments read (see segmentShare).
func detectPastStripes(frame gocv.Mat, g models.RealmGeometry, share float64) (homography, float64, bool) {
	search := func(f gocv.Mat) (homography, float64, float64, error) {
		gray, scale := workingGray(f)
		defer gray.Close()
		return detectStraightOn(f, gray, scale, g, nil, true, share)
	}
	var tries [2]gridTry // the frame's first, then the sharpened frame's
	concurrently(func() {
		tries[0].h, tries[0].score, tries[0].ok = heldRetry(frame, g, search)
	}, func() {
		tries[1].h, tries[1].score, tries[1].ok = sharpenedRetry(frame, g, sharpenSigma, sharpenAmount, search)
	})
	found, ok := agreedTry(tries[:], g)
	return found.h, found.score, ok
}
