package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// A matched card's face showing inside a rectangle the stacked-card search
// found says that the rectangle does not lie on that card: it lies under
// it, or its sides are lines of that face and of the cards and mat around
// it (the frame of a text box, a grid line, another card's edge). The
// fit's inliers show it where the face's art is (underMatchedCard); a text
// box or a title bar, which every card shares, leaves few inliers (the
// ratio test drops what other faces share), yet its keypoints agree with
// the face there as closely as the art's do. So the keypoints inside the
// rectangle and on the card are checked against the card's face, as the
// name check checks a card (faceAgreement).
const (
	// faceShowMinClose is the fewest keypoints that must agree closely
	// with the face (within checkCloseHamming, where another card's art
	// seldom agrees by chance) for it to show.
	faceShowMinClose = 3
	// faceShowClose is the share of the checked keypoints that must agree
	// so closely: where the face shows, 75–100% of them do (faces drawn on
	// a plain ground, their lower part inside the rectangle); where another
	// card lies on it, 0–12%.
	faceShowClose = 0.5
)

// faceShowsWithin reports whether matched card d's face shows within q
// (top-down pixels): of the frame's described keypoints that lie inside q
// and inside d's outline, each less a border of knownInsetMM, those that
// land near a keypoint of d's face are checked against it (see
// faceAgreement), and at least faceShowMinClose of them, and faceShowClose
// of those checked, agree closely.
func (a *Analyzer) faceShowsWithin(f features, d *detection, q models.Quad, pxPerMM float64) bool {
	inQ := newOutline(grow(q, -knownInsetMM*pxPerMM))
	inD := newOutline(grow(d.quad, -knownInsetMM*pxPerMM))
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	spots := a.names.faceSpots(a.index, d.ref)
	checked, closely := 0, 0
	for i, p := range f.Points {
		x, y := float64(p.X), float64(p.Y)
		if x < minX || x > maxX || y < minY || y > maxY || !f.described(i) {
			continue
		}
		pt := models.Point{X: x, Y: y}
		if inQ.insideDistance(pt) < 0 || inD.insideDistance(pt) < 0 {
			continue
		}
		if _, _, on, c, _, cl := a.index.faceAgreement(d, spots, f, i); on && c {
			checked++
			if cl {
				closely++
			}
		}
	}
	return closely >= faceShowMinClose && float64(closely) >= faceShowClose*float64(checked)
}
