package vision

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestOnCellLines: the inside of a cell between its printed lines is no
// card; a site, sleeved or not, in the cell, or a quad across two cells, is
// not refused.
func TestOnCellLines(t *testing.T) {
	for _, px := range []float64{1.2, 2} {
		v, err := newView(tiltedCorners, models.DefaultRealm(), 1280, 720, Options{PxPerMM: px})
		if err != nil {
			t.Fatal(err)
		}
		// A quad of w×h mm centred in cell B2 (x 100–200, y 75–150 mm from
		// A1), turned a quarter when turned is set: its corners from the
		// top-left, clockwise, in the view's pixels.
		quad := func(cx, cy, w, h float64, turned bool) models.Quad {
			var q models.Quad
			corners := [4][2]float64{{-w / 2, h / 2}, {w / 2, h / 2}, {w / 2, -h / 2}, {-w / 2, -h / 2}}
			for i := range q {
				c := corners[(i+map[bool]int{false: 0, true: 1}[turned])%4]
				q[i] = models.Point{X: (v.marginMM + cx + c[0]) * px, Y: (v.marginMM + v.geo.HeightMM() - (cy + c[1])) * px}
			}
			return q
		}
		for _, tc := range []struct {
			name string
			q    models.Quad
			want bool
		}{
			{"a cell's inside, 94×69 mm", quad(150, 112.5, 94, 69, false), true},
			{"a cell's inside, first corner elsewhere", quad(150, 112.5, 94, 69, true), true},
			{"a cell's inside, 1 mm off", quad(151, 113.5, 96, 71, false), true},
			{"a site", quad(150, 112.5, 88, 63, false), false},
			{"a sleeved site", quad(150, 112.5, 92, 67, false), false},
			{"a site on a line", quad(200, 112.5, 88, 63, false), false},
			{"two cells' inside", quad(200, 112.5, 194, 69, false), false},
		} {
			if got := onCellLines(tc.q, v); got != tc.want {
				t.Errorf("%g px/mm, %s: onCellLines %v, want %v", px, tc.name, got, tc.want)
			}
		}
	}
}
