package vision

import (
	"sort"

	"github.com/tablecam/tablecam/models"
)

// withoutDuplicates drops the detections that are another detection of
// the same card over again: the same card's face fitted twice where one
// card lies, the second fit turned or shifted a little from the first
// (the first fit's inliers left the pool, the rest of the keypoints it
// did not take fit again). Two copies of one card do not lie one on the
// other, so of two fits of one card where either's centre lies within the
// other (or most of its corners do), only the one with most inliers is
// kept. Units on sites, and different cards overlapping, are left alone.
func (x *catalogIndex) withoutDuplicates(dets []detection) []detection {
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
			if overlapMostly(dets[i].quad, dets[j].quad) {
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

// overlapMostly reports whether either quad's centre lies within the
// other, or most of its corners do.
func overlapMostly(a, b models.Quad) bool {
	return covered(a, []models.Quad{b}) || covered(b, []models.Quad{a})
}
