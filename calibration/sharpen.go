package calibration

import (
	"image"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A webcam out of focus, or a frame softened by its compression, blurs
// the grid's thin lines into shallow troughs a few grey levels deep, a
// line a pixel or two wide spread over ten: Canny pairs too few of their
// edges, and the ridge response, read a few pixels either side of a
// line's centre, finds its flanks almost as dark as the centre. Sharpening
// the frame (an unsharp mask: the frame less a share of its blurred
// self) gives the lines back much of their depth and their narrow
// profile, and sharpens the mat's art and the cards no more than the
// lines. So when no lattice at all is believed on the frame as it is (not
// when one was found and refused: two grids about equally clear stay
// refused), the grid is searched again, once, on the frame sharpened at
// the working width
// (where a line's width in pixels has its meaning, see workWidth). Every
// lattice found there passes the same tests as on the frame as it is. The
// retry costs only frames that find no realm.
//
// A camera moving during the exposure smears a line across the motion
// into a band as wide as the motion, a dozen pixels: Canny still pairs the
// band's two sides, but the ridge response falls to about the noise's,
// and the line profiles find a different lattice about as clearly as the
// edges' one, which refuses both. The sharpened frame gives the band's
// sides back some depth, and the search there settles it when the realm it
// finds is the edges' lattice (see detectGrid); its corners can then lie
// up to half the smear off, along the motion.

// Unsharp mask of the retry, at the working width: the blur (sigma, px)
// of the part taken away, and how much of it is taken away.
const (
	sharpenSigma  = 2.0
	sharpenAmount = 1.5
)

// detectSharpened is detectStraight on the frame sharpened at the working
// width (see above), the lattice given in frame pixels; ok is false when
// no realm is found there. A realm on whose lines a lens was read (see
// onBentBorder) is read again through that lens, as detectGrid does for a
// strong one, and kept only when that finds the same realm: the retry is
// the last, and must not guess, and sharpening moves the lines' flanks
// enough that the corners read along bowed borders can miss by a percent
// even under a lens weaker than strongLensK.
func detectSharpened(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	sf, scale := sharpenedFrame(frame)
	defer sf.Close()
	h, score, k, err := detectStraight(sf, g)
	if err != nil {
		return homography{}, 0, false
	}
	if k > 0 {
		hu, su, ok := detectThroughLens(sf, g, k)
		if !ok || !sameRealm(hu, h, g) {
			return homography{}, 0, false
		}
		h, score = hu, su
	}
	if scale != 1 {
		h = h.Then(homography{1 / scale, 0, 0, 0, 1 / scale, 0, 0, 0, 1})
	}
	return h, score, true
}

// sharpenedFrame is the frame at the working width (see workingGray),
// sharpened by the unsharp mask of sharpenSigma and sharpenAmount, and the
// scale from frame pixels to it.
func sharpenedFrame(frame gocv.Mat) (gocv.Mat, float64) {
	w := frame.Cols()
	work := frame.Clone()
	scale := 1.0
	if w != workWidth && (w > 1600 || w < workWidth) {
		scale = workWidth / float64(w)
		interp := gocv.InterpolationLinear
		if w > workWidth {
			interp = gocv.InterpolationArea
		}
		rows := int(float64(frame.Rows())*scale + 0.5)
		gocv.Resize(frame, &work, image.Pt(workWidth, rows), 0, 0, interp)
	}
	blurred := gocv.NewMat()
	defer blurred.Close()
	gocv.GaussianBlur(work, &blurred, image.Pt(0, 0), sharpenSigma, sharpenSigma, gocv.BorderReplicate)
	out := gocv.NewMat()
	gocv.AddWeighted(work, 1+sharpenAmount, blurred, -sharpenAmount, 0, &out)
	work.Close()
	return out, scale
}
