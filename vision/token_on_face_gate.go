package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// Which named cards may hold a token. Comparing a named card's face with
// what the camera shows of it (differingBox) costs about as much as naming
// a card by its look, and almost no card holds a token. A token lying on a
// face hides the face's keypoints under it: none of them can agree with the
// frame there. So a card is examined only when some token-sized part of its
// face (a token shrunk by faceHoleMarginMM on every side, along the face's
// axes, lying partly off the face or not) holds none of the card's inliers
// (the keypoints its fit explains and those verify found agreeing) but
// enough of the face's own keypoints that the camera shows (not under a
// card on top, not beyond the camera frame) that, were each as likely to
// be an inlier as the face's others are, all of them would miss by chance
// less than once in faceHoleOdds. The parts are counted on a lattice of
// cells faceHoleCellMM wide. Inliers also come from keypoints not among
// the face's own (the blurred copy's), and their share of the face's own
// is taken at most faceHoleMaxShare. A card named by fewer than
// faceHoleMinInliers inliers (or by its look alone) tells too little by
// them, and is always examined.
const (
	faceHoleMarginMM   = 6.0
	faceHoleOdds       = 100.0
	faceHoleCellMM     = 4.0
	faceHoleMaxShare   = 0.75
	faceHoleMinInliers = 8
)

// mayHoldToken reports whether the face of d, a named card whose cards on
// top are onTop, may hold a token (see Which named cards may hold a token);
// f are the frame's keypoints.
func (a *Analyzer) mayHoldToken(f features, v *view, d detection, onTop []models.Quad) bool {
	spots := a.index.faceSpots[d.ref]
	ref := &a.index.refs[d.ref]
	if spots == nil || len(d.used)+len(d.agreed) < faceHoleMinInliers || ref.W <= 0 || ref.H <= 0 {
		return true
	}
	w, h := faceSizePx(ref.Kind, 1/faceHoleCellMM)
	corners := [4]models.Point{{X: 0, Y: 0}, {X: float64(w), Y: 0}, {X: float64(w), Y: float64(h)}, {X: 0, Y: float64(h)}}
	toView, err := models.NewHomography(corners, [4]models.Point(d.quad))
	if err != nil {
		return true
	}
	toFace, err := toView.Inverse()
	if err != nil {
		return true
	}
	sx, sy := float64(w)/float64(ref.W), float64(h)/float64(ref.H)
	hidden := hiddenBy(onTop)
	whole := quadInCameraFrame(v, d.quad)
	b := &a.faceTokens
	keys := b.keys[:0]
	for _, s := range spots.spots {
		p := models.Point{X: float64(s.X) * sx, Y: float64(s.Y) * sy}
		if len(hidden) > 0 || !whole {
			q := toView.Apply(p)
			if insideAny(q, hidden) || (!whole && !inCameraFrame(v, q)) {
				continue
			}
		}
		keys = append(keys, p)
	}
	inliers := b.inliers[:0]
	for _, ids := range [2][]int{d.used, d.agreed} {
		for _, i := range ids {
			fp := f.Points[i]
			inliers = append(inliers, toFace.Apply(models.Point{X: float64(fp.X), Y: float64(fp.Y)}))
		}
	}
	b.keys, b.inliers = keys, inliers
	return tokenHoleOnFace(keys, inliers, w, h, 1/faceHoleCellMM)
}

// tokenHoleOnFace reports whether some token-sized part of a face of w × h
// cells (pxPerMM cells a millimetre) holds none of inliers but keys enough
// that all would miss by chance less than once in faceHoleOdds at the share
// of keys the inliers make on the whole face (keys and inliers in cells
// from the face's top-left; see Which named cards may hold a token).
func tokenHoleOnFace(keys, inliers []models.Point, w, h int, pxPerMM float64) bool {
	if w < 1 || h < 1 || len(keys) == 0 {
		return false
	}
	keySum := countIntegral(keys, w, h)
	inSum := countIntegral(inliers, w, h)
	if keySum[len(keySum)-1] == 0 {
		return false
	}
	share := min(float64(inSum[len(inSum)-1])/float64(keySum[len(keySum)-1]), faceHoleMaxShare)
	if share <= 0 {
		return true // none of the inliers lies on what shows
	}
	least := int(math.Ceil(math.Log(faceHoleOdds) / -math.Log1p(-share)))
	bs := max(int(math.Round((models.TokenShortMM-2*faceHoleMarginMM)*pxPerMM)), 1)
	bl := max(int(math.Round((models.TokenLongMM-2*faceHoleMarginMM)*pxPerMM)), 1)
	for _, d := range [2][2]int{{bs, bl}, {bl, bs}} {
		bw, bh := d[0], d[1]
		for y := 1 - bh; y < h; y++ {
			y0, y1 := max(y, 0), min(y+bh, h)
			for x := 1 - bw; x < w; x++ {
				x0, x1 := max(x, 0), min(x+bw, w)
				if rectCount(inSum, w, x0, y0, x1, y1) == 0 && rectCount(keySum, w, x0, y0, x1, y1) >= least {
					return true
				}
			}
		}
	}
	return false
}

// countIntegral counts the points in each cell of a w × h grid and sums the
// counts into an integral image ((w+1) × (h+1)); points off the grid are
// left out.
func countIntegral(pts []models.Point, w, h int) []int {
	sum := make([]int, (w+1)*(h+1))
	for _, p := range pts {
		x, y := int(math.Floor(p.X)), int(math.Floor(p.Y))
		if x >= 0 && y >= 0 && x < w && y < h {
			sum[(y+1)*(w+1)+x+1]++
		}
	}
	for y := 1; y <= h; y++ {
		row := 0
		for x := 1; x <= w; x++ {
			row += sum[y*(w+1)+x]
			sum[y*(w+1)+x] = sum[(y-1)*(w+1)+x] + row
		}
	}
	return sum
}

// rectCount is the count over cells [x0, x1) × [y0, y1) of an integral
// image of a grid w cells wide.
func rectCount(sum []int, w, x0, y0, x1, y1 int) int {
	return sum[y1*(w+1)+x1] - sum[y0*(w+1)+x1] - sum[y1*(w+1)+x0] + sum[y0*(w+1)+x0]
}
