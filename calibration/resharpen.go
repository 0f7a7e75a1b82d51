package calibration

import (
	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A lens out of focus by more than the retry of sharpen.go undoes (a
// gaussian blur of sigma 2.5-3 px at the working width) leaves the grid's
// lines troughs so wide and shallow that the unsharp mask of sharpenSigma,
// narrower than the trough, gives back too little of their depth for any
// search to believe a lattice. A mask about as wide as the blur gives it
// back. Wider masks also deepen the mat's art and the cards' edges into
// line-like ridges, and on a frame whose lines are mostly gone (smeared
// or hidden) one mask's search can settle on a lattice of those: so, as
// the last retry of Detect, the grid is searched on the frame sharpened by
// two wide masks, and a realm is taken only when both find it (a lattice
// of the art moves with the mask; the drawn lines do not). It costs only
// frames that find no realm by any other way.

// The two unsharp masks of the last retry: sigma (px at the working
// width) and amount of each.
const (
	wideSharpenSigma1, wideSharpenAmount1 = 3, 2
	wideSharpenSigma2, wideSharpenAmount2 = 4, 3
)

// wideSharpenAgree is how near (a share of the realm's width) the two
// masks' realms must be at every corner: the right realm is found by both
// within a few tenths of a percent, and a realm a percent off is a wrong
// one.
const wideSharpenAgree = 0.01

// detectResharpened is detectSharpenedBy with each of the two wide masks;
// ok only when both find the same realm, given as the first mask finds it.
func detectResharpened(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	h, score, ok := detectSharpenedBy(frame, g, wideSharpenSigma1, wideSharpenAmount1)
	if !ok {
		return homography{}, 0, false
	}
	h2, _, ok := detectSharpenedBy(frame, g, wideSharpenSigma2, wideSharpenAmount2)
	if !ok || !nearRealm(h, h2, g, wideSharpenAgree) {
		return homography{}, 0, false
	}
	return h, score, true
}
