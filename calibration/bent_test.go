package calibration

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// barrel bends a frame as a webcam's lens does: a point at distance r from
// the centre (in units of the focal length f) moves to r' with
// r = r'(1 + k1·r'²). It returns the bent frame and where the points pts
// end up in it.
func barrel(t testing.TB, frame gocv.Mat, k1, f float64, pts models.Quad) (gocv.Mat, models.Quad) {
	t.Helper()
	w, h := frame.Cols(), frame.Rows()
	cx, cy := float64(w)/2, float64(h)/2
	mapX := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	defer mapX.Close()
	mapY := gocv.NewMatWithSize(h, w, gocv.MatTypeCV32F)
	defer mapY.Close()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := (float64(x)-cx)/f, (float64(y)-cy)/f
			k := 1 + k1*(dx*dx+dy*dy)
			mapX.SetFloatAt(y, x, float32(cx+dx*k*f))
			mapY.SetFloatAt(y, x, float32(cy+dy*k*f))
		}
	}
	bent := gocv.NewMat()
	gocv.Remap(frame, &bent, &mapX, &mapY, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	var out models.Quad
	for i, p := range pts {
		ux, uy := (p.X-cx)/f, (p.Y-cy)/f
		ru := math.Hypot(ux, uy)
		rd := ru
		for range 30 { // Newton on rd(1 + k1·rd²) = ru
			rd -= (rd*(1+k1*rd*rd) - ru) / (1 + 3*k1*rd*rd)
		}
		s := 1.0
		if ru > 0 {
			s = rd / ru
		}
		out[i] = models.Point{X: cx + ux*s*f, Y: cy + uy*s*f}
	}
	return bent, out
}

// TestDetectBentGrid: a lens's barrel distortion bows the grid's lines by
// a few pixels, so that no straight lattice lies on every line's centre;
// the realm is still found, where it is.
func TestDetectBentGrid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed uint64
		k1   float64
	}{{9100, 0.04}, {9101, 0.08}, {9102, 0.08}, {9103, 0.06}} {
		k1 := tc.k1
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: 8, rotDeg: 4, widthFrac: 0.9, lineMM: 0.8, borderMM: 1,
				contrast: 0.6, lightLines: true, cards: 6, noise: 3, jpegQuality: 85}
			frame, truth := s.render(t)
			defer frame.Close()
			bent, bentTruth := barrel(t, frame, k1, 0.8*float64(frame.Cols()), truth)
			defer bent.Close()
			c, err := Detect(bent, Options{})
			if err != nil {
				t.Fatalf("k1 %.2f: %v", k1, err)
			}
			if e := cornerError(c.Corners, bentTruth) / realmWidthPx(bentTruth); e > 0.01 {
				t.Errorf("k1 %.2f: corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", k1, 100*e, c.Corners, bentTruth)
			}
		})
	}
}
