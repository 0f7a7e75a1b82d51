package calibration

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestRefineVanishingPoint draws faint dark lines through a known vanishing
// point on a noisy frame and checks that the pencil search moves a guess a
// few degrees off back onto it (with the wide scan, one 9° off), and that a
// guess along the frame's axis is not held there by the layout of the
// samples.
func TestRefineVanishingPoint(t *testing.T) {
	t.Parallel()
	const w, h = 1280, 720
	centre := models.Point{X: w / 2, Y: h / 2}
	tests := []struct {
		name   string
		vp     models.Point // where the lines meet
		theta  float64      // the lines' rough direction (degrees)
		startD float64      // the guess's error at the centre (degrees)
		wide   float64      // refineVanishingPoint's wide
	}{
		{"rows far away", models.Point{X: centre.X + 6000*math.Cos(4*math.Pi/180), Y: centre.Y + 6000*math.Sin(4*math.Pi/180)}, 4, 2, 0},
		{"columns converging", models.Point{X: centre.X + 300, Y: centre.Y - 2500}, 97, -2.5, 0},
		{"columns converging, guess 9° off", models.Point{X: centre.X + 300, Y: centre.Y - 2500}, 97, -9, wideScanDeg},
		{"rows 1.2° off the frame's axis, guess on it", models.Point{X: centre.X + 8000*math.Cos(1.2*math.Pi/180), Y: centre.Y + 8000*math.Sin(1.2*math.Pi/180)}, 1.2, -1.2, 0},
		{"columns 1° off the frame's axis, guess on it", models.Point{X: centre.X - 120, Y: centre.Y - 7000}, 91, -1, wideScanDeg},
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
			// The Hough direction is as far off as the guess.
			got := refineVanishingPoint(rm, start, vec3{math.Cos(start), math.Sin(start), 0}, tc.wide)
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

// TestRefineVanishingPointOffAxis starts the pencil search exactly along
// the frame's axes on stills whose grid runs 2–3.5° off them: a regular
// lattice of samples would gather whole rows of them into single bins and
// hold the search on the axis (it did, 2–20° off at the frame's corners).
func TestRefineVanishingPointOffAxis(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0017", "0030", "0035"} {
		truth, rm := stillRidgeMap(t, dir, name)
		h, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		centre := models.Point{X: float64(rm.w) / 2, Y: float64(rm.h) / 2}
		corners := []models.Point{{X: 0, Y: 0}, {X: float64(rm.w), Y: float64(rm.h)}}
		for _, want := range []vec3{{h[0], h[3], h[6]}, {h[1], h[4], h[7]}} {
			axis := math.Round(towards(want, centre)/(math.Pi/2)) * math.Pi / 2
			got := refineVanishingPoint(rm, axis, vec3{math.Cos(axis), math.Sin(axis), 0}, 0)
			for _, p := range corners {
				if d := angleDiff(towards(got, p), towards(want, p)); d > 0.5*math.Pi/180 {
					t.Errorf("%s: from (%.0f, %.0f) the vanishing point found from %.0f° is %.2f° off", name, p.X, p.Y, axis*180/math.Pi, d*180/math.Pi)
				}
			}
		}
	}
}

// TestRefineVanishingPointScanMaxima starts the pencil search 2° off the
// grid's receding direction on a bundled still shrunk to 640×360 (0086),
// where the scan on the thinned samples peaks a little off the true
// direction: the scan's best few distinct maxima are climbed on every
// sample, and the climb from the true one wins (the scan's best alone
// stopped 0.8° off, which smears a faint line over several pixels of a
// profile).
func TestRefineVanishingPointScanMaxima(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	q, gray, rm, _ := shrunkStillLineMaps(t, dir, "0086")
	defer gray.Close()
	h, err := fitHomography(realmCorners(g), q[:])
	if err != nil {
		t.Fatal(err)
	}
	centre := models.Point{X: float64(rm.w) / 2, Y: float64(rm.h) / 2}
	want := towards(vec3{h[1], h[4], h[7]}, centre)
	start := want + 2*math.Pi/180
	got := refineVanishingPoint(rm, start, vec3{math.Cos(start), math.Sin(start), 0}, wideScanDeg)
	if d := angleDiff(towards(got, centre), want) * 180 / math.Pi; d > 0.3 {
		t.Errorf("the receding lines' direction at the centre is %.2f° off (want ≤ 0.3°)", d)
	}
}

// TestAlignmentsAsBinned checks alignments, which turns the samples once
// for many distances and clears and sums only the bins it used, against
// the alignment worked out plainly: every sample binned at its place
// across the pencil, dark and light apart, and the squares of all the bins
// summed. They must agree exactly, so that the pencil search finds the
// same vanishing points.
func TestAlignmentsAsBinned(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	plain := func(ps pencilSamples, alpha, kappa float64) float64 {
		ex, ey := math.Cos(alpha), math.Sin(alpha)
		n := 2 * int(ps.span)
		bins := make([]float64, 2*n)
		half := float64(n) / 4
		for i, r := range ps.r {
			a := ps.a[i]*ex + ps.b[i]*ey
			b := -ps.a[i]*ey + ps.b[i]*ex
			den := 1 - kappa*a
			if den < 0.2 {
				continue
			}
			s := b / den / 2
			if s < -half || s >= half {
				continue
			}
			k := int(s + half)
			if r < 0 {
				k += n / 2
			}
			bins[k] += r
		}
		var e float64
		for _, v := range bins {
			e += v * v
		}
		return e
	}
	for _, tc := range []struct {
		name    string
		w, h    float64
		samples int
	}{
		{"none", 1280, 720, 0},
		{"one", 1280, 720, 1},
		{"wide frame", 1280, 720, 3000},
		{"tall frame", 540, 960, 2000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := pencilSamples{centre: models.Point{X: tc.w / 2, Y: tc.h / 2}, span: math.Max(tc.w, tc.h)}
			for range tc.samples {
				r := 2.5 + 3*rng.Float64()
				if rng.IntN(2) == 0 {
					r = -r
				}
				ps.a = append(ps.a, (rng.Float64()-0.5)*tc.w)
				ps.b = append(ps.b, (rng.Float64()-0.5)*tc.h)
				ps.r = append(ps.r, r)
				ps.light = append(ps.light, ps.lightOffset(r))
			}
			kmax := 1.2 / ps.span
			var kappas []float64
			for k := -1.0; k <= 1+1e-9; k += 0.1 {
				kappas = append(kappas, k*kmax)
			}
			buf := ps.newAlignBuffers()
			got := make([]float64, len(kappas))
			for _, alpha := range []float64{0, 0.3, math.Pi / 2, 2.9, -1.1} {
				ps.alignments(alpha, kappas, buf, got)
				for i, kappa := range kappas {
					if want := plain(ps, alpha, kappa); got[i] != want {
						t.Errorf("alpha %.2f kappa %.5f: alignments %v, binned plainly %v", alpha, kappa, got[i], want)
					}
					if one := ps.alignment(alpha, kappa, buf); one != got[i] {
						t.Errorf("alpha %.2f kappa %.5f: alignment %v, alignments %v", alpha, kappa, one, got[i])
					}
				}
			}
			for i, v := range buf.bins {
				if v != 0 {
					t.Fatalf("bin %d left at %v: the bins must be clear between calls", i, v)
				}
			}
		})
	}
}
