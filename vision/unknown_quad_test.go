package vision

import (
	"image"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// TestUprightQuadOrdersCorners checks that an outline's corners come out
// clockwise (image y down) from the one nearest the image's top-left,
// whatever order OpenCV lists them in, so that a landscape outline reads
// as landscape (a site) and a portrait one as portrait.
func TestUprightQuadOrdersCorners(t *testing.T) {
	tests := []struct {
		name          string
		w, h, degrees float64
		landscape     bool
	}{
		{"portrait, square to the image", 126, 176, 0, false},
		{"landscape, square to the image", 176, 126, 0, true},
		{"landscape, turned a little", 180, 130, 1.5, true},
		{"landscape, turned the other way", 180, 130, -3, true},
		{"portrait, turned", 126, 176, 8, false},
		{"portrait, turned the other way", 126, 176, -12, false},
	}
	for _, tt := range tests {
		cx, cy := 300.0, 200.0
		rad := tt.degrees * math.Pi / 180
		var corners [4]image.Point // clockwise from the top-left, as a card lies
		for i, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			x, y := d[0]*tt.w/2, d[1]*tt.h/2
			corners[i] = image.Pt(int(math.Round(cx+x*math.Cos(rad)-y*math.Sin(rad))), int(math.Round(cy+x*math.Sin(rad)+y*math.Cos(rad))))
		}
		// OpenCV may start anywhere and go either way round.
		for start := 0; start < 4; start++ {
			for _, reverse := range []bool{false, true} {
				var pts [4]image.Point
				for i := range pts {
					j := (start + i) % 4
					if reverse {
						j = (start - i + 4) % 4
					}
					pts[i] = corners[j]
				}
				q := uprightQuad(filledRect{corners: pts, center: image.Pt(int(cx), int(cy))})
				want := models.Point{X: float64(corners[0].X), Y: float64(corners[0].Y)}
				if q[0] != want {
					t.Errorf("%s, listed from corner %d (reversed %v): starts at %v, want %v", tt.name, start, reverse, q[0], want)
				}
				for i := range q {
					a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
					if (b.X-a.X)*(c.Y-b.Y)-(b.Y-a.Y)*(c.X-b.X) <= 0 {
						t.Errorf("%s, listed from corner %d (reversed %v): %v is not clockwise", tt.name, start, reverse, q)
						break
					}
				}
				if got := landscape(q); got != tt.landscape {
					t.Errorf("%s, listed from corner %d (reversed %v): landscape %v, want %v", tt.name, start, reverse, got, tt.landscape)
				}
			}
		}
	}
}
