package calibration

import (
	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// The profile search lines its vanishing points up on the frame's line
// response (see refineVanishingPointOver): the strong samples are binned
// by the line through the point they lie on, and the point is taken that
// gathers the most response into the fewest bins (the sum of the bins'
// squared totals). That sum grows as much with where the samples are as
// with how they line up: a pencil of lines that crosses the frame's busy
// parts (a grained table in two of its corners, a heap of cards) the long
// way stacks more of their samples into each bin, whatever lines they
// lie on, and the sum then rises smoothly towards that pencil. Faint grid
// lines, a few grey levels off a mottled or shaded mat, add a few narrow
// peaks to the bins that this trend outweighs: on one independent scene
// (faint wide lines on a wood-coloured mat, the table's grain in two
// corners, fifteen cards) the grid's receding direction was drawn 15° off
// onto the trend's, from every start, and no search proposed the realm,
// while the realm's own vanishing points give it at once. Each bin less
// the mean of the bins around it (within detrendBins) keeps a line's
// narrow peak and drops the trend. And cards lying alike make the frame's
// strongest straight direction theirs, the grid's rows only the second:
// the grid's columns, near the second's perpendicular, are then never
// guessed at all (see responsePairs).
//
// So when no search above found a realm, the profile search runs once
// more, on the line profiles alone (the edges and marks read the same
// frame as before), its vanishing points lined up on the detrended bins
// and guessed from the perpendicular of each of the frame's two strongest
// directions; of its lattices with a corner outside the frame, each of
// the best few is also settled and judged on its own (see beyondFrame:
// on that scene the realm's lattice came third, and the one the polish
// raised most did not end at its border). The lattice it finds is held to
// all of the profile search's tests and to a last retry's (see
// heldRetry). It costs only frames no other search found a realm in.

// detrendBins is how many 2-px bins either side of a bin the mean it is
// detrended by spans (see detrendedEnergy): a thin line's samples fall
// in one to three bins, a wide soft one's in up to six.
const detrendBins = 8

// detrendedEnergy is the sum over bins lo..hi (hi >= lo) of the squared
// difference between each bin and the mean of the bins within
// detrendBins of it on its side of light (the bins from light on, see
// lightOffset; see above); cum is scratch space of hi+2 values or more.
func detrendedEnergy(bins, cum []float64, lo, hi, light int) float64 {
	cum[lo] = 0
	for k := lo; k <= hi; k++ {
		cum[k+1] = cum[k] + bins[k]
	}
	var sum float64
	for k := lo; k <= hi; k++ {
		a, b := max(lo, k-detrendBins), min(hi, k+detrendBins)
		if k < light {
			b = min(b, light-1)
		} else {
			a = max(a, light)
		}
		d := bins[k] - (cum[b+1]-cum[a])/float64(b-a+1)
		sum += d * d
	}
	return sum
}

// detectDetrended is the detrended retry (see above): the profile search
// alone, its vanishing points lined up on the detrended bins, held to what
// a last retry's realm must show (see heldRetry); the lattice in frame
// pixels, and ok false when none is found or it is refused.
func detectDetrended(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	return heldRetry(frame, g, func(f gocv.Mat) (homography, float64, float64, error) {
		gray, scale := workingGray(f)
		defer gray.Close()
		return detectStraightReading(f, gray, scale, g, nil, segmentReading{detrendPencil: true}, segmentShare)
	})
}
