package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestInFramePolygon checks the part of the top-down image the camera
// frame shows against the warp of a white frame: every pixel the warp
// leaves not black lies in the polygon, and the polygon holds little
// more (a band the width of the two camera pixels allowed beyond the frame
// along its sides), for realms wholly in view, reaching out of the frame,
// and seen at a slant.
func TestInFramePolygon(t *testing.T) {
	const w, h = 1280, 720
	tests := []struct {
		name    string
		corners models.Quad
	}{
		{"tilted, margin in view", tiltedCorners},
		{"realm filling the frame", models.Quad{{X: 40, Y: 700}, {X: 1240, Y: 700}, {X: 1180, Y: 30}, {X: 100, Y: 30}}},
		{"realm past the left edge", models.Quad{{X: -80, Y: 690}, {X: 1000, Y: 700}, {X: 900, Y: 160}, {X: 20, Y: 150}}},
		{"steep slant", models.Quad{{X: 100, Y: 710}, {X: 1180, Y: 710}, {X: 900, Y: 300}, {X: 380, Y: 300}}},
	}
	white := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), h, w, gocv.MatTypeCV8UC1)
	defer white.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := newView(tt.corners, models.DefaultRealm(), w, h, Options{})
			if err != nil {
				t.Fatal(err)
			}
			top := v.warp(white)
			defer top.Close()
			shown := gocv.CountNonZero(top)
			poly, ok := inFramePolygon(v, 0)
			if !ok {
				t.Fatal("no polygon for a view without a horizon")
			}
			mask := polygonMask(top.Rows(), top.Cols(), poly)
			defer mask.Close()
			outside := gocv.NewMat()
			defer outside.Close()
			gocv.BitwiseNot(mask, &outside)
			gocv.BitwiseAnd(top, outside, &outside)
			if n := gocv.CountNonZero(outside); n != 0 {
				t.Errorf("%d pixels the frame shows lie outside the polygon %v", n, poly)
			}
			total := top.Rows() * top.Cols()
			// At most a band 2 camera pixels wide (up to 4 top-down
			// pixels at these scales) along the polygon's sides.
			perimeter := 0.0
			for i, p := range poly {
				q := poly[(i+1)%len(poly)]
				perimeter += math.Hypot(q.X-p.X, q.Y-p.Y)
			}
			if extra := gocv.CountNonZero(mask) - shown; float64(extra) > 5*perimeter {
				t.Errorf("the polygon holds %d pixels more than the %d shown (of %d), want at most %.0f", extra, shown, total, 5*perimeter)
			}
			if shown == total {
				t.Errorf("the frame shows the whole top-down image: the case tests nothing")
			}
		})
	}
}

// polygonMask is a rows×cols mask, 255 at the pixels whose centres lie in
// the convex polygon (on its sides included), 0 elsewhere (caller closes).
func polygonMask(rows, cols int, poly []models.Point) gocv.Mat {
	pix := make([]byte, rows*cols)
	for y := range rows {
		for x := range cols {
			in, sign := true, 0.0
			for i, a := range poly {
				b := poly[(i+1)%len(poly)]
				cross := (b.X-a.X)*(float64(y)-a.Y) - (b.Y-a.Y)*(float64(x)-a.X)
				if cross != 0 {
					if sign != 0 && (cross > 0) != (sign > 0) {
						in = false
						break
					}
					sign = cross
				}
			}
			if in {
				pix[y*cols+x] = 255
			}
		}
	}
	m, _ := gocv.NewMatFromBytes(rows, cols, gocv.MatTypeCV8UC1, pix)
	return m
}
