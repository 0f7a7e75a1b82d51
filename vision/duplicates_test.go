package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestWithoutDuplicates checks that a card fitted twice where it lies (as
// still 0001's half-covered C1 site was, against a catalog of five faces:
// the two fits turned 10° from each other) is reported once, by its
// better fit, while different cards lying on each other, and two copies
// of a card apart, are all kept.
func TestWithoutDuplicates(t *testing.T) {
	site, other := &models.Card{Name: "Site"}, &models.Card{Name: "Unit"}
	x := &catalogIndex{refs: []reference{{card: site, W: 176, H: 126}, {card: other, W: 126, H: 176}}}
	// fit places face ref turned by deg about its centre at (cx, cy).
	fit := func(ref int, cx, cy, deg float64, inliers int) detection {
		r := x.refs[ref]
		a := deg * math.Pi / 180
		s := similarity{A: math.Cos(a), B: math.Sin(a)}
		hx, hy := s.apply(float64(r.W)/2, float64(r.H)/2)
		s.Tx, s.Ty = cx-hx, cy-hy
		d := detection{ref: ref, sim: s, inliers: inliers}
		for k, c := range [4][2]float64{{0, 0}, {float64(r.W), 0}, {float64(r.W), float64(r.H)}, {0, float64(r.H)}} {
			px, py := s.apply(c[0], c[1])
			d.quad[k] = models.Point{X: px, Y: py}
		}
		return d
	}
	tests := []struct {
		name string
		dets []detection
		want []int // inlier counts of the detections kept, in order
	}{
		{"one card fitted twice, turned 10° apart", []detection{fit(0, 700, 680, 0, 71), fit(0, 668, 672, 10, 91)}, []int{91}},
		{"the better fit first", []detection{fit(0, 700, 680, 0, 91), fit(0, 690, 690, -8, 40)}, []int{91}},
		{"a unit on the site", []detection{fit(0, 700, 680, 0, 91), fit(1, 705, 675, 2, 60)}, []int{91, 60}},
		{"two copies side by side", []detection{fit(0, 300, 680, 0, 91), fit(0, 500, 680, 0, 80)}, []int{91, 80}},
		{"two copies overlapping a little", []detection{fit(0, 300, 680, 0, 91), fit(0, 300+176*0.8, 680, 0, 80)}, []int{91, 80}},
		{"three fits of one card", []detection{fit(0, 700, 680, 0, 50), fit(0, 705, 684, 3, 70), fit(0, 694, 676, -4, 60)}, []int{70}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := x.withoutDuplicates(tt.dets)
			var inliers []int
			for _, d := range got {
				inliers = append(inliers, d.inliers)
			}
			if len(inliers) != len(tt.want) {
				t.Fatalf("kept %v, want %v", inliers, tt.want)
			}
			for i := range inliers {
				if inliers[i] != tt.want[i] {
					t.Fatalf("kept %v, want %v", inliers, tt.want)
				}
			}
		})
	}
}
