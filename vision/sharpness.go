package vision

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/motionblur"
	"gocv.io/x/gocv"
)

// A soft frame (a webcam out of focus, a low-resolution camera whose
// frame the top-down image enlarges, a far row of a tilted view) has its
// cards' sides spread over several pixels, and Canny's derivatives across
// them fall below the thresholds that suit a sharp frame: whole cards leave
// no edges. The outline searches' thresholds are therefore scaled by how
// sharp the steps of the top-down image are.
//
// The sharpness of a step is measured without knowing its contrast: the
// rise over two pixels across it (where that rise peaks) against the rise
// over eight. A sharp step rises all at once (a ratio near 1); a step
// blurred by σ pixels has the ratio erf(1/σ√2)/erf(4/σ√2): 0.68 at σ = 1,
// 0.40 at σ = 2, 0.32 at σ = 3. The ninetieth percentile over the image's
// strong steps is its sharpness, so that a few soft shadows or printed
// gradients do not make a sharp frame soft.

const (
	// sharpStep is the sharpness at and above which a frame gets the full
	// thresholds (the bundled stills and sample sets lie above it); softStep
	// is where the thresholds reach their floor, softestEdgeScale.
	sharpStep, softStep = 0.5, 0.36
	softestEdgeScale    = 0.375
)

// The steps are measured by motionblur, whose smear test needs them too:
// stepSampleEvery is the rows between the rows sampled, stepsNeeded the
// steps without which a frame counts as sharp (nothing to tell),
// stepReachPx how far inside the polygon shown a step's pixels all lie
// (the long rise's reach, and two pixels the warp's bilinear sampling
// blends with the black beyond), sharpnessBins the number of bins of the
// ratios' histogram, over [0, 2).
const (
	stepSampleEvery = motionblur.StepSampleEvery
	stepsNeeded     = motionblur.StepsNeeded
	stepReachPx     = motionblur.StepReachPx
	sharpnessBins   = motionblur.SharpnessBins
)

// lineSteps and ninetieth are motionblur's LineSteps and Ninetieth.
var lineSteps, ninetieth = motionblur.LineSteps, motionblur.Ninetieth

// stepSharpness gives the sharpness (see above) of a w×h grey image, pix
// row by row, with the number of steps it was measured on, measured
// within the convex polygon shown (top-down pixels; none: all of the
// image). hist is a buffer to reuse (may be nil); it is returned.
//
// Steps are measured along rows and along columns apart, and the softer
// of the two is the image's sharpness: a camera that moves while it
// exposes smears the steps across its motion only, and the sides of a card
// that run along the motion stay sharp while those across it fade (a view
// tilted away, enlarged more along one axis than the other, does the
// same). Only steps whose whole reach lies within shown count: beyond
// it the top-down image is black, and the step from black to what the
// frame shows is as sharp as the warp draws it, whatever the camera saw.
func stepSharpness(pix []byte, w, h int, shown []models.Point, hist []int) (sharpness float64, steps int, buf []int) {
	s, steps, buf := stepSharpnessByAxis(pix, w, h, shown, hist)
	return s.softer(), steps, buf
}

// axisSharpness is an image's sharpness along its rows and along its
// columns apart (see stepSharpness). unmeasured is set when either had too
// few steps to tell (and counts as sharp). masked is set by sharpenIfSoft
// when it sharpened the image for being soft in both directions: the
// sharpness is then the mask's, higher than what the camera saw.
type axisSharpness struct {
	rows, cols float64
	unmeasured bool
	masked     bool
}

// softer is the softer axis's sharpness: the image's.
func (s axisSharpness) softer() float64 { return math.Min(s.rows, s.cols) }

// sharper is the sharper axis's.
func (s axisSharpness) sharper() float64 { return math.Max(s.rows, s.cols) }

// stepSharpnessByAxis is stepSharpness with the rows' and the columns'
// sharpness given apart.
func stepSharpnessByAxis(pix []byte, w, h int, shown []models.Point, hist []int) (sharpness axisSharpness, steps int, buf []int) {
	return stepSharpnessEvery(pix, w, h, shown, stepSampleEvery, hist)
}

// stepSharpnessEvery is stepSharpnessByAxis sampling every every-th row
// and column. An axis with too few steps to tell reads 1 (a measured one
// never does: the histogram's bins' middles are odd hundredths).
func stepSharpnessEvery(pix []byte, w, h int, shown []models.Point, every int, hist []int) (sharpness axisSharpness, steps int, buf []int) {
	if cap(hist) < 2*sharpnessBins {
		hist = make([]int, 2*sharpnessBins)
	}
	hist = hist[:2*sharpnessBins]
	clear(hist)
	rows, cols := hist[:sharpnessBins], hist[sharpnessBins:]
	// Along sampled rows and columns only: a lens's or a low resolution's
	// blur spreads a step the same way in every direction, and a motion's
	// along one, which rows or columns see.
	var nr, nc int
	for y := every / 2; y < h; y += every {
		lo, hi := spanWithin(shown, float64(y), false, w)
		nr += lineSteps(pix, y*w+lo, 1, hi-lo, rows)
	}
	for x := every / 2; x < w; x += every {
		lo, hi := spanWithin(shown, float64(x), true, h)
		nc += lineSteps(pix, lo*w+x, w, hi-lo, cols)
	}
	sr, sc := 1.0, 1.0
	if nr >= stepsNeeded {
		sr = ninetieth(rows, nr)
	}
	if nc >= stepsNeeded {
		sc = ninetieth(cols, nc)
	}
	return axisSharpness{rows: sr, cols: sc, unmeasured: nr < stepsNeeded || nc < stepsNeeded}, nr + nc, hist
}

// spanWithin gives the pixels [lo, hi) of row at (of column at, when
// column is set) of an image n pixels along it that lie at least
// stepReachPx inside the convex polygon shown (all n without one; an
// empty span when none).
func spanWithin(shown []models.Point, at float64, column bool, n int) (lo, hi int) {
	if len(shown) < 3 {
		return 0, n
	}
	x0, y0, ux, uy := 0.0, at, 1.0, 0.0
	if column {
		x0, y0, ux, uy = at, 0, 0, 1
	}
	a, b := motionblur.PolygonSpan(shown, x0, y0, ux, uy)
	if a > b {
		return 0, 0
	}
	lo, hi = int(math.Ceil(a+stepReachPx)), int(math.Floor(b-stepReachPx))+1
	lo, hi = max(lo, 0), min(hi, n)
	if hi < lo {
		return 0, 0
	}
	return lo, hi
}

// edgeScale is the factor the outline searches' Canny thresholds are
// scaled by for an image of the given sharpness: 1 for a sharp one, down to
// softestEdgeScale for a soft one, linearly between.
func edgeScale(sharpness float64) float64 {
	switch {
	case sharpness >= sharpStep:
		return 1
	case sharpness <= softStep:
		return softestEdgeScale
	}
	t := (sharpness - softStep) / (sharpStep - softStep)
	return softestEdgeScale + t*(1-softestEdgeScale)
}

// cannyThresholds are the outline searches' Canny thresholds at the scale s
// (see edgeScale).
func cannyThresholds(s float64) (low, high float64) {
	return math.Round(40 * s), math.Round(120 * s)
}

// A frame soft in every direction (a webcam out of focus, or a camera of
// low resolution whose frame the top-down image enlarges two or three
// times) keeps few of the corners ORB looks for, and Canny follows the
// strongest of the soft steps about a card, often the inner edge of its
// dark rim rather than its side. Its top-down grey image is sharpened (an
// unsharp mask: the image less a share of its blurred self) before any card
// is read in it: the steps get back much of their height over a pixel or
// two, and with it the corners and the sides. A frame smeared by a
// motion, which spreads a step evenly over the smear's length, has the
// smear undone instead when it is found (motionblur): a mask would draw
// every side twice. A frame soft along one direction only whose smear is
// not found is read as it is.
const (
	// motionBelow: only a frame whose softer axis is below this sharpness
	// is looked at for a smear; a sharper frame has none worth undoing
	// (smears undone on the independent renderer's frames left their
	// softer axis at 0.41-0.55), and is spared the search: about 2 ms on
	// one core when no smear is found, 17 ms when one is
	// (BenchmarkFindMotionSmear).
	motionBelow = 0.6
	// sharpenBelow: a frame is sharpened when both its rows and its
	// columns are softer than this (a blur of about 1.7 top-down pixels).
	sharpenBelow = 0.46
	// The mask: the blur (σ, mm) of the share taken away, and that share.
	unsharpSigmaMM = 2.0
	unsharpAmount  = 1.5
)

// viewSharpness measures the sharpness of the top-down grey image gray of
// view v (see stepSharpness) on the part of it the camera frame shows; ok
// is false when gray is not a whole 8-bit grey image. hist is a buffer to
// reuse (may be nil); it is returned.
func viewSharpness(gray gocv.Mat, v *view, hist []int) (s axisSharpness, buf []int, ok bool) {
	pix, err := gray.DataPtrUint8()
	if err != nil || gray.Channels() != 1 || len(pix) != gray.Rows()*gray.Cols() {
		return axisSharpness{rows: 1, cols: 1, unmeasured: true}, hist, false
	}
	shown := shownPart(gray, v)
	s, _, buf = stepSharpnessByAxis(pix, gray.Cols(), gray.Rows(), shown, hist)
	if s.unmeasured {
		s, buf = halfSizeSharpness(gray, shown, s, buf)
	}
	return s, buf, true
}

// A step spread far over the eight pixels the measure reaches (a far
// camera out of focus: a blur of 2.4 camera pixels spreads over some five
// top-down ones) rises over them by only part of its height, and on a
// frame of pale cards on a pale mat too few of its steps rise by enough to
// count: the frame counted as sharp, and the softest frames got the sharp
// frames' thresholds and no sharpening. So an image with too few steps
// along an axis is measured again at half its size, where such a step
// rises over the eight pixels by nearly all its height (along the same
// rows and columns as at full size, so as to meet as many steps), and its
// sharpness at full size is the one a Gaussian blur twice as wide as the
// half-size image shows gives (blurRatio). An image with few steps,
// however sharp, shows no more at half size, and still counts as sharp.

// halfSizeSharpness measures the axes s left unmeasured (too few steps)
// of the top-down grey image gray again at half its size, within the
// polygon shown (full-size pixels; none: all of it); see above. hist is a
// buffer to reuse; it is returned.
func halfSizeSharpness(gray gocv.Mat, shown []models.Point, s axisSharpness, hist []int) (axisSharpness, []int) {
	half := gocv.NewMat()
	defer half.Close()
	gocv.Resize(gray, &half, image.Pt(gray.Cols()/2, gray.Rows()/2), 0, 0, gocv.InterpolationArea)
	pix, err := half.DataPtrUint8()
	if err != nil || len(pix) != half.Rows()*half.Cols() {
		return s, hist
	}
	var small []models.Point
	for _, p := range shown {
		small = append(small, models.Point{X: p.X / 2, Y: p.Y / 2})
	}
	hs, _, hist := stepSharpnessEvery(pix, half.Cols(), half.Rows(), small, stepSampleEvery/2, hist)
	// An axis with too few steps reads 1 (see stepSharpnessEvery): each
	// such axis at full size takes its half-size measure, widened, when
	// that one has enough.
	if s.rows == 1 && hs.rows != 1 {
		s.rows = blurRatio(2 * blurSigma(hs.rows))
	}
	if s.cols == 1 && hs.cols != 1 {
		s.cols = blurRatio(2 * blurSigma(hs.cols))
	}
	s.unmeasured = s.rows == 1 || s.cols == 1
	return s, hist
}

// blurRatio is the sharpness of a step blurred by a Gaussian of σ sigma
// pixels (see the top of this file): 1 for an unblurred one.
func blurRatio(sigma float64) float64 {
	if sigma <= 0 {
		return 1
	}
	return math.Erf(1/(sigma*math.Sqrt2)) / math.Erf(4/(sigma*math.Sqrt2))
}

// blurSigma is the σ whose blur gives a step the sharpness ratio (the
// inverse of blurRatio, found by halving; 0 for a ratio of 1 or more).
func blurSigma(ratio float64) float64 {
	if ratio >= 1 {
		return 0
	}
	lo, hi := 0.0, 64.0
	for range 40 {
		mid := (lo + hi) / 2
		if blurRatio(mid) > ratio {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// shownPart is the part of the top-down image gray of view v that the
// camera frame shows (see inFramePolygon); nil, for all of it, when the
// frame's horizon crosses the image or gray is not v's whole image.
func shownPart(gray gocv.Mat, v *view) []models.Point {
	if gray.Cols() != v.size.X || gray.Rows() != v.size.Y {
		return nil
	}
	shown, _ := inFramePolygon(v, 0)
	return shown
}

// unsmearFrame looks for a motion's smear in the camera's grey frame
// frameGray of view v, on the part of it the realm's top-down image shows
// (inside src, the warp's source rectangle, the only part of frameGray
// made grey), and undoes it there, in place, when it finds one. A camera
// that moves smears its frame evenly, one length in one direction all
// over; the top-down image, a perspective warp of it, stretches the smear
// by the view's tilt, more at the far side than the near, and bends its
// direction, so that its cepstrum's peak spreads and is missed: on
// 80 frames smeared 9-18 px at random angles (blurM) it was found in the
// top-down image on 42 of them, in the camera frame on 72.
func unsmearFrame(frameGray *gocv.Mat, v *view, src image.Rectangle) bool {
	if src.Empty() || frameGray.Cols() < src.Max.X || frameGray.Rows() < src.Max.Y {
		return false
	}
	top, _ := inFramePolygon(v, 0)
	if top == nil {
		return false
	}
	shown := make([]models.Point, len(top))
	for i, p := range top {
		q := v.toImage.Apply(p)
		shown[i] = models.Point{X: q.X - float64(src.Min.X), Y: q.Y - float64(src.Min.Y)}
	}
	region := frameGray.Region(src)
	defer region.Close()
	part := region.Clone() // Find reads a whole image
	defer part.Close()
	m, ok := motionblur.Find(part, shown)
	if !ok {
		return false
	}
	m.Undo(&part)
	part.CopyTo(&region)
	return true
}

// sharpenIfSoft undoes the smear of the top-down grey image gray of view
// v, in place, when it is smeared by a motion (see motionblur.Find), or
// else sharpens it when it is soft in both directions (see sharpenBelow),
// blurring into the buffer blurred, and reports whether it did either, with the sharpness of
// gray as it leaves it (measured again when sharpened; that of a sharp
// image when gray is not one viewSharpness measures). hist is a buffer to
// reuse (may be nil); it is returned.
//
// frameGray, when not nil, is the grey camera frame gray was warped from
// (by v.warpInto): a smear is looked for there first (unsmearFrame), and
// when found and undone gray is warped from it again.
func sharpenIfSoft(gray, blurred, frameGray *gocv.Mat, v *view, hist []int) (sharpened bool, s axisSharpness, buf []int) {
	s, hist, ok := viewSharpness(*gray, v, hist)
	if !ok {
		return false, s, hist
	}
	// The cepstrum of a frame with too few steps to measure is that of its
	// noise and of little else.
	if s.softer() < motionBelow && !s.unmeasured {
		if frameGray != nil && unsmearFrame(frameGray, v, v.warpSource(image.Pt(frameGray.Cols(), frameGray.Rows()))) {
			if err := v.warpInto(*frameGray, gray); err == nil {
				s, hist, _ = viewSharpness(*gray, v, hist)
				return true, s, hist
			}
		}
		if m, ok := motionblur.Find(*gray, shownPart(*gray, v)); ok {
			m.Undo(gray)
			s, hist, _ = viewSharpness(*gray, v, hist)
			return true, s, hist
		}
	}
	if s.sharper() >= sharpenBelow {
		return false, s, hist
	}
	sigma := unsharpSigmaMM * v.pxPerMM
	gocv.GaussianBlur(*gray, blurred, image.Point{}, sigma, sigma, gocv.BorderReplicate)
	gocv.AddWeighted(*gray, 1+unsharpAmount, *blurred, -unsharpAmount, 0, gray)
	s, hist, _ = viewSharpness(*gray, v, hist)
	s.masked = true
	return true, s, hist
}
