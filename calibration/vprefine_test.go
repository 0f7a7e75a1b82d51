package calibration

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestRefineVanishingPoint draws faint dark lines through a known vanishing
// point on a noisy frame and checks that the pencil search moves a guess a
// few degrees off back onto it.
func TestRefineVanishingPoint(t *testing.T) {
	const w, h = 1280, 720
	centre := models.Point{X: w / 2, Y: h / 2}
	tests := []struct {
		name   string
		vp     models.Point // where the lines meet
		theta  float64      // the lines' rough direction (degrees)
		startD float64      // the guess's error at the centre (degrees)
	}{
		{"rows far away", models.Point{X: centre.X + 6000*math.Cos(4*math.Pi/180), Y: centre.Y + 6000*math.Sin(4*math.Pi/180)}, 4, 2},
		{"columns converging", models.Point{X: centre.X + 300, Y: centre.Y - 2500}, 97, -2.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// A grey table with ±12 levels of pixel noise.
			rng := rand.New(rand.NewPCG(1, 2))
			px := make([]byte, w*h)
			for i := range px {
				px[i] = byte(118 + rng.IntN(25))
			}
			frame, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, px)
			if err != nil {
				t.Fatal(err)
			}
			defer frame.Close()
			// Lines through vp, crossing the frame's middle line every
			// 120 px across their direction.
			th := tc.theta * math.Pi / 180
			nx, ny := -math.Sin(th), math.Cos(th)
			for k := -5; k <= 5; k++ {
				p := models.Point{X: centre.X + float64(k)*120*nx, Y: centre.Y + float64(k)*120*ny}
				dx, dy := p.X-tc.vp.X, p.Y-tc.vp.Y
				n := math.Hypot(dx, dy)
				a := image.Pt(int(p.X-2000*dx/n), int(p.Y-2000*dy/n))
				b := image.Pt(int(p.X+2000*dx/n), int(p.Y+2000*dy/n))
				gocv.Line(&frame, a, b, color.RGBA{R: 100, G: 100, B: 100, A: 255}, 2)
			}
			rm, err := newRidgeMap(frame)
			if err != nil {
				t.Fatal(err)
			}
			start := th + tc.startD*math.Pi/180
			got := refineVanishingPoint(rm, th, vec3{math.Cos(start), math.Sin(start), 0})
			want := vec3{tc.vp.X, tc.vp.Y, 1}
			// Compare the directions towards the vanishing point from the
			// centre and from two far corners of the frame.
			for _, p := range []models.Point{centre, {X: 0, Y: 0}, {X: w, Y: h}} {
				if d := angleDiff(towards(got, p), towards(want, p)); d > 0.3*math.Pi/180 {
					t.Errorf("from (%.0f, %.0f) the refined point is %.2f° off", p.X, p.Y, d*180/math.Pi)
				}
			}
		})
	}
}
