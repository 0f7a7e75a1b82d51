package vision

import (
	"math"
	"strconv"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestWithoutDuplicates checks that a card fitted twice where it lies (as
// still 0001's half-covered C1 site was, against a catalog of five faces:
// the two fits 18 mm and 10° apart on the same keypoints) is reported once,
// by its better fit, while two copies of a card one on the other (still
// 0074's Reefstalkers, 36 mm apart), different cards on each other, and
// copies side by side are all kept. Two faces of one kind and size fitted
// to one card (c3/0008 against 1,104 faces: Flintspark Imp laid on
// Cinderpaw Lynx by the layout the two share, Cinderpaw Lynx by its art)
// are one card too, named by the fit with more inliers.
func TestWithoutDuplicates(t *testing.T) {
	site, unit, other := &models.Card{Name: "Site"}, &models.Card{Name: "Unit"}, &models.Card{Name: "Other"}
	x := &catalogIndex{refs: []reference{{card: site, W: 176, H: 126}, {card: unit, W: 126, H: 176}, {card: other, W: 126, H: 176}}}
	var points []keypoint
	// quadOf places face ref turned by deg about its centre at (cx, cy).
	quadOf := func(ref int, cx, cy, deg float64) (similarity, models.Quad) {
		r := x.refs[ref]
		a := deg * math.Pi / 180
		s := similarity{A: math.Cos(a), B: math.Sin(a)}
		hx, hy := s.apply(float64(r.W)/2, float64(r.H)/2)
		s.Tx, s.Ty = cx-hx, cy-hy
		var q models.Quad
		for k, c := range [4][2]float64{{0, 0}, {float64(r.W), 0}, {float64(r.W), float64(r.H)}, {0, float64(r.H)}} {
			px, py := s.apply(c[0], c[1])
			q[k] = models.Point{X: px, Y: py}
		}
		return s, q
	}
	// fit is a detection of face ref at (cx, cy), turned deg, whose inliers
	// are a grid over the face lying at (kx, ky), but where the cards on
	// top (over) hide it.
	fit := func(ref int, cx, cy, deg float64, kx, ky float64, over ...models.Quad) detection {
		r := x.refs[ref]
		_, q := quadOf(ref, cx, cy, deg)
		// The keypoints lie on the card the face shows: at (kx, ky), its own
		// centre for a true fit, elsewhere for a fit on another's keypoints.
		ks, _ := quadOf(ref, kx, ky, deg)
		d := detection{ref: ref, quad: q}
		for i := 1; i < 8; i++ {
			for j := 1; j < 8; j++ {
				px, py := ks.apply(float64(r.W)*float64(i)/8, float64(r.H)*float64(j)/8)
				p := models.Point{X: px, Y: py}
				hidden := false
				for _, o := range over {
					hidden = hidden || inside(p, o)
				}
				if hidden {
					continue
				}
				d.used = append(d.used, len(points))
				points = append(points, keypoint{X: float32(px), Y: float32(py)})
			}
		}
		d.inliers = len(d.used)
		return d
	}
	_, upper := quadOf(1, 265, 245, 90)
	// The layout's fit, made first, took fewer keypoints than the art's.
	layout := fit(2, 702, 678, 0, 702, 678)
	layout.inliers = 38
	tests := []struct {
		name string
		dets []detection
		want []string // the kept detections' faces and inlier counts
	}{
		{"one card fitted twice, 18 mm and 10° apart", []detection{fit(0, 700, 680, 0, 668, 672), fit(0, 668, 672, 10, 668, 672)}, []string{"Site 49"}},
		{"a copy on a copy", []detection{fit(1, 330, 212, 95, 330, 212, upper), fit(1, 265, 245, 90, 265, 245)}, nil},
		{"a unit on the site", []detection{fit(0, 700, 680, 0, 700, 680), fit(1, 705, 675, 2, 705, 675)}, []string{"Site 49", "Unit 49"}},
		{"two copies side by side", []detection{fit(0, 300, 680, 0, 300, 680), fit(0, 500, 680, 0, 500, 680)}, []string{"Site 49", "Site 49"}},
		{"two faces of one kind fitted to one card", []detection{layout, fit(1, 700, 680, 0, 700, 680)}, []string{"Unit 49"}},
		{"two cards of one kind side by side", []detection{fit(1, 300, 680, 0, 300, 680), fit(2, 450, 680, 0, 450, 680)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := x.withoutDuplicates(tt.dets, points)
			want := tt.want
			if want == nil { // all kept
				for _, d := range tt.dets {
					want = append(want, x.refs[d.ref].card.Name+" "+strconv.Itoa(d.inliers))
				}
			}
			var kept []string
			for _, d := range got {
				kept = append(kept, x.refs[d.ref].card.Name+" "+strconv.Itoa(d.inliers))
			}
			if len(kept) != len(want) {
				t.Fatalf("kept %v, want %v", kept, want)
			}
			for i := range kept {
				if kept[i] != want[i] {
					t.Fatalf("kept %v, want %v", kept, want)
				}
			}
		})
	}
}
