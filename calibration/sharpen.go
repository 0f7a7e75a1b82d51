package calibration

import (
	"image"
	"math"
	"sort"

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
// finds is the edges' lattice (see detectGrid). The sharpened search
// settles on one side of the bands, up to half the smear off along the
// motion, and the lattice is then moved onto the bands' middles (see
// onBandCentres).

// Unsharp mask of the retry, at the working width: the blur (sigma, px)
// of the part taken away, and how much of it is taken away.
const (
	sharpenSigma  = 2.0
	sharpenAmount = 1.5
)

// detectSharpened is detectStraight on the frame sharpened at the working
// width (see above), the lattice given in frame pixels; ok is false when
// no realm is found there, or when its cells are not of the shape a
// pinhole camera sees (see maxPinholeInconsistency): the retry searches a
// frame on which no realm was found, sharpened until the table's grain and
// the art show lines too, and the first search's looser bound
// (maxCameraInconsistency) let through a lattice of the realm's rows and
// of columns at 1.28 times their spacing (a dashed grid on a mat over a
// wooden table's boards), at 0.23. A realm on whose lines a lens was read
// (see onBentBorder) is read again through that lens, as detectGrid does for a
// strong one, and kept only when that finds the same realm: the retry is
// the last, and must not guess, and sharpening moves the lines' flanks
// enough that the corners read along bowed borders can miss by a percent
// even under a lens weaker than strongLensK.
func detectSharpened(frame gocv.Mat, g models.RealmGeometry) (homography, float64, bool) {
	return detectSharpenedBy(frame, g, sharpenSigma, sharpenAmount)
}

// detectSharpenedBy is detectSharpened with the unsharp mask of sigma and
// amount.
func detectSharpenedBy(frame gocv.Mat, g models.RealmGeometry, sigma, amount float64) (homography, float64, bool) {
	return sharpenedRetry(frame, g, sigma, amount, func(f gocv.Mat) (homography, float64, float64, error) {
		return detectStraight(f, g)
	})
}

// sharpenedRetry is a last retry's search (see heldRetry) on the frame
// sharpened by the unsharp mask of sigma and amount: the lattice in frame
// pixels.
func sharpenedRetry(frame gocv.Mat, g models.RealmGeometry, sigma, amount float64, search func(gocv.Mat) (homography, float64, float64, error)) (homography, float64, bool) {
	sf, scale := sharpenedFrame(frame, sigma, amount)
	defer sf.Close()
	h, score, ok := heldRetry(sf, g, search)
	if !ok {
		return homography{}, 0, false
	}
	return toFrame(h, scale), score, true
}

// heldRetry is a last retry's search on frame (search gives the lattice
// in the pixels of the frame it is given, its score and the lens
// distortion read off its lines) held to what a last retry's realm must
// show: cells of the shape a pinhole camera sees, no mat's edge along its
// inner lines (see widerThanMat), and, when a lens was read, the same
// realm found again through that lens.
func heldRetry(frame gocv.Mat, g models.RealmGeometry, search func(gocv.Mat) (homography, float64, float64, error)) (homography, float64, bool) {
	h, score, k, err := search(frame)
	if err != nil || cameraInconsistency(h, float64(frame.Cols()), float64(frame.Rows())) > maxPinholeInconsistency {
		return homography{}, 0, false
	}
	if widerThanMat(frame, h, g) {
		return homography{}, 0, false
	}
	if k > 0 {
		hu, su, ok := searchThroughLens(frame, g, k, func(uf gocv.Mat) (homography, float64, error) {
			h, score, _, err := search(uf)
			return h, score, err
		})
		if !ok || !sameRealm(hu, h, g) {
			return homography{}, 0, false
		}
		h, score = hu, su
	}
	return h, score, true
}

// sharpenedFrame is the frame at the working width (see workingGray),
// sharpened by the unsharp mask of sigma and amount, and the scale from
// frame pixels to it.
func sharpenedFrame(frame gocv.Mat, sigma, amount float64) (gocv.Mat, float64) {
	work, scale := atWorkWidth(frame)
	blurred := gocv.NewMat()
	defer blurred.Close()
	gocv.GaussianBlur(work, &blurred, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	out := gocv.NewMat()
	gocv.AddWeighted(work, 1+amount, blurred, -amount, 0, &out)
	work.Close()
	return out, scale
}

// atWorkWidth is the frame at the working width (see workingGray), as it
// is (not grey, not blurred), and the scale from frame pixels to it.
func atWorkWidth(frame gocv.Mat) (gocv.Mat, float64) {
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
	return work, scale
}

// bandRadius is how far (px at the working width) either side of a line
// of the sharpened search's lattice onBandCentres looks for the two sides
// of the band the line was smeared into: a band as wide as the widest
// smear the retry rescues (about 13 px) whose one side the lattice is on.
const bandRadius = 16

// onBandCentres moves lattice h (frame pixels), found on the sharpened
// frame of a camera moving during the exposure, onto the middles of the
// bands its lines were smeared into. Sharpening deepens a band's two
// sides, and the search there settles on one of them, up to half the smear
// off along the motion; the middle is where the line was halfway through
// the exposure. On the frame as it is, Canny pairs the band's two sides
// (see lineCentre). The smear is the same everywhere in the frame, so the
// move is one translation, read off the two directions of lines (see
// bandOffsets) and taken again from where it lands until it settles (the
// nearest pair to a line on a band's side may be the band's side and a
// card's edge). It returns h when neither direction's lines show pairs
// enough to say, or when the move would leave the bands.
func onBandCentres(frame gocv.Mat, h homography, g models.RealmGeometry) homography {
	gray, scale := workingGray(frame)
	defer gray.Close()
	em, err := newEdgeMap(gray, faintCannyLow, faintCannyHigh)
	if err != nil {
		return h
	}
	start := h.Then(homography{scale, 0, 0, 0, scale, 0, 0, 0, 1})
	hw := start
	var tx, ty float64
	for range bandRounds {
		vx, vy, ok := bandOffsets(em, hw, g)
		if !ok {
			break
		}
		tx, ty = tx+vx, ty+vy
		if math.Hypot(tx, ty) > bandRadius {
			return h
		}
		hw = start.Then(homography{1, 0, tx, 0, 1, ty, 0, 0, 1})
		if math.Hypot(vx, vy) < 0.5 {
			break
		}
	}
	return toFrame(hw, scale)
}

// bandRounds is how many times at most onBandCentres reads the offsets.
const bandRounds = 4

// bandOffsets is the translation (working pixels) that moves lattice h
// onto the middles of the pairs of edges (a band's two sides, see
// lineCentre) found within bandRadius of its lines: for each direction of
// lines, the median offset of the pairs found along all its lines (a card
// lying over a line gives pairs of its own, which the median outvotes). A
// direction whose lines show pairs at fewer than minBandPairs of their
// samples does not move along its normal. ok is false when neither does.
func bandOffsets(em *edgeMap, h homography, g models.RealmGeometry) (float64, float64, bool) {
	lines := innerLines(g)
	var med [2]float64
	var norm [2][2]float64
	moved := false
	for f, family := range [2][]gridLine{lines[:models.Columns+1], lines[models.Columns+1:]} {
		var offs []float64
		total := 0
		for _, gl := range family {
			a, b := h.Apply(gl.p0), h.Apply(gl.p1)
			l := math.Hypot(b.X-a.X, b.Y-a.Y)
			if l < 10 || math.IsNaN(l) {
				continue
			}
			nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
			norm[f][0] += nx
			norm[f][1] += ny
			bin := directionBin(math.Atan2(ny, nx))
			n := int(math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)/bandStep) + 1
			for i := 0; i < n; i++ {
				t := float64(i) / float64(n-1)
				p := h.Apply(models.Point{X: gl.p0.X + t*(gl.p1.X-gl.p0.X), Y: gl.p0.Y + t*(gl.p1.Y-gl.p0.Y)})
				if !em.inside(p) {
					continue
				}
				total++
				if off, paired, ok := em.lineCentre(p, nx, ny, bandRadius, bin); ok && paired {
					offs = append(offs, off)
				}
			}
		}
		nl := math.Hypot(norm[f][0], norm[f][1])
		if nl == 0 {
			return 0, 0, false
		}
		norm[f][0] /= nl
		norm[f][1] /= nl
		if total > 0 && float64(len(offs)) >= minBandPairs*float64(total) {
			sort.Float64s(offs)
			med[f] = offs[len(offs)/2]
			moved = true
		}
	}
	// The translation v with v·n = med for both directions' normals n.
	det := norm[0][0]*norm[1][1] - norm[0][1]*norm[1][0]
	if !moved || math.Abs(det) < 0.2 {
		return 0, 0, false
	}
	vx := (med[0]*norm[1][1] - med[1]*norm[0][1]) / det
	vy := (norm[0][0]*med[1] - norm[1][0]*med[0]) / det
	return vx, vy, true
}

// bandStep is the spacing (mm along a line) of onBandCentres' samples, and
// minBandPairs the share of them that must find a band's two sides for
// a direction's offset to count.
const (
	bandStep     = 2.5
	minBandPairs = 0.2
)

// widerThanMat says whether the mat's edge runs along inner lines of
// lattice h (frame pixels) on both sides with nothing drawn beyond (see
// edgeAlongInnerLine), read on frame as the search read it. Only the last
// retries are held to it: the sharpened frame's search laid a lattice on a
// wooden table's plank seams and the mat's edges (c3/0017 of the
// independent scenes), while on frames the first search finds, cards
// lined up along the realm's lines can pass for the mat's edge.
func widerThanMat(frame gocv.Mat, h homography, g models.RealmGeometry) bool {
	gray, scale := workingGray(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		return false
	}
	return rm.edgeAlongInnerLine(h.Then(homography{scale, 0, 0, 0, scale, 0, 0, 0, 1}), g)
}
