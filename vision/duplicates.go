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
			if drop[j] || x.refs[dets[i].ref].card != x.refs[dets[j].ref].card {
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
