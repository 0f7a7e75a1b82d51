package vision

import (
	"sort"

	"github.com/tablecam/tablecam/models"
)

// withoutDuplicates drops the detections that are another detection of
// the same card over again: the same card's face fitted twice where one
// card lies, the second fit turned or shifted a little from the first
// (the first fit's inliers left the pool, and the keypoints it did not
// take fit again). Two fits of one card are one card when each holds most
// of the other's inliers (points are the frame's keypoints): a face shows
// nowhere another card lies on it, so of two copies of a card one on the
// other, the lower one's inliers lie outside the upper one's outline. Of
// one card's fits, the one with most inliers is kept.
//
// Two fits of different faces of one kind and size that hold each other's
// inliers so are two names for one card, too: the frame, title bar, type
// line and text box such faces share (and their cost and element, when
// those are the same) fit the first face tried with dozens of inliers, and
// the card's art, left over, fits its true face after (c3/0008 against
// 1,104 faces: Flintspark Imp laid on Cinderpaw Lynx, 38 inliers to 52).
// Kept both, each face agrees with the layout both share, so the name
// check took each to lie on the other and checked the wrong one only where
// its art differs, whose keypoints lie where its face has none and go
// unchecked: it passed. The fit with most inliers is kept: verify adds
// the face's own keypoints that agree, which the art gives the true face.
func (x *catalogIndex) withoutDuplicates(dets []detection, points []keypoint) []detection {
	if len(dets) < 2 {
		return dets
	}
	order := make([]int, len(dets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return dets[order[i]].inliers > dets[order[j]].inliers })
	drop := make([]bool, len(dets))
	for k, i := range order {
		for _, j := range order[:k] {
			if drop[j] || !x.sameFaceShape(dets[i].ref, dets[j].ref) {
				continue
			}
			if holdsMostInliers(dets[j].quad, dets[i], points) && holdsMostInliers(dets[i].quad, dets[j], points) {
				drop[i] = true
				break
			}
		}
	}
	out := dets[:0:0]
	for i, d := range dets {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// holdsMostInliers reports whether at least half of d's inliers (indices
// into points) lie within q.
func holdsMostInliers(q models.Quad, d detection, points []keypoint) bool {
	in, n := 0, 0
	for _, k := range d.used {
		if k < 0 || k >= len(points) {
			continue
		}
		n++
		if inside(models.Point{X: float64(points[k].X), Y: float64(points[k].Y)}, q) {
			in++
		}
	}
	return n > 0 && 2*in >= n
}

// sameFaceShape reports whether faces r and o are of one card, or of one
// kind and size (see withoutDuplicates).
func (x *catalogIndex) sameFaceShape(r, o int) bool {
	a, b := &x.refs[r], &x.refs[o]
	return a.card == b.card || (a.Kind == b.Kind && a.W == b.W && a.H == b.H)
}
