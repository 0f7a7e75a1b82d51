package motionblur

import (
	"image"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
)

// stillGray reads the bundled still name (such as "0007") as a grey
// frame, or skips the test when the stills are absent; the caller closes it.
func stillGray(tb testing.TB, name string) gocv.Mat {
	tb.Helper()
	dir, err := samples.Path("stills")
	if err != nil {
		dir = filepath.Join("..", "samples", "stills")
	}
	img := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadGrayScale)
	if img.Empty() {
		tb.Skipf("no sample still %s in %s", name, dir)
	}
	return img
}

// smear smears img in place as a camera moving n pixels in the direction
// angle (radians) while it exposes does: every pixel the mean of the n
// pixels along that line (OpenCV's filter, as any other program's smear).
func smear(img *gocv.Mat, n int, angle float64) {
	k := gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
	defer k.Close()
	for t := range n {
		o := float64(t) - float64(n-1)/2
		x := int(math.Round(float64(n-1)/2 + o*math.Cos(angle)))
		y := int(math.Round(float64(n-1)/2 + o*math.Sin(angle)))
		k.SetFloatAt(y, x, 1/float32(n))
	}
	gocv.Filter2D(*img, img, -1, k, image.Pt(-1, -1), 0, gocv.BorderReplicate)
}

// TestFind smears a bundled still's whole camera frame (not a top-down
// image: calibration looks for a smear there, with no polygon) along
// several directions and lengths: the smear's length and direction are
// found. The frame as it is, out of focus, or smeared too little to matter
// has no smear to undo.
func TestFind(t *testing.T) {
	t.Parallel()
	frame := stillGray(t, "0007")
	defer frame.Close()
	for _, c := range []struct {
		name  string
		n     int     // smear, pixels (0: none)
		angle float64 // degrees
		sigma float64 // out of focus
		want  bool
	}{
		{"sharp", 0, 0, 0, false},
		{"out of focus", 0, 0, 2.5, false},
		{"smeared 5 px", 5, 20, 0, false},
		{"smeared 10 px along the rows", 10, 0, 0, true},
		{"smeared 12 px at 35°", 12, 35, 0, true},
		{"smeared 16 px at 100°", 16, 100, 0, true},
		{"smeared 20 px at 150°", 20, 150, 0, true},
	} {
		img := frame.Clone()
		if c.n > 0 {
			smear(&img, c.n, c.angle*math.Pi/180)
		}
		if c.sigma > 0 {
			gocv.GaussianBlur(img, &img, image.Point{}, c.sigma, c.sigma, gocv.BorderReplicate)
		}
		got, ok := Find(img, nil)
		img.Close()
		if ok != c.want {
			t.Errorf("%s: smear found %v (%+v), want %v", c.name, ok, got, c.want)
			continue
		}
		t.Logf("%s: %+v", c.name, got)
		if !ok {
			continue
		}
		if math.Abs(got.Length-float64(c.n)) > 2 {
			t.Errorf("%s: smear %.1f px long, want %d ± 2", c.name, got.Length, c.n)
		}
		// A direction and its opposite are the same smear.
		off := math.Mod(math.Abs(got.Angle*180/math.Pi-c.angle), 180)
		if off = math.Min(off, 180-off); off > 10 {
			t.Errorf("%s: smear at %.0f°, want %.0f° ± 10", c.name, got.Angle*180/math.Pi, c.angle)
		}
	}
}

// TestFindWithinPolygon: the smear is looked for only within the polygon
// shown. A frame whose left half is smeared and right half sharp shows the
// smear when the left half is shown, and none when the right half is.
func TestFindWithinPolygon(t *testing.T) {
	t.Parallel()
	frame := stillGray(t, "0007")
	defer frame.Close()
	w, h := frame.Cols(), frame.Rows()
	left := frame.Region(image.Rect(0, 0, w/2, h))
	smeared := left.Clone()
	left.Close()
	smear(&smeared, 12, 0.6)
	dst := frame.Region(image.Rect(0, 0, w/2, h))
	smeared.CopyTo(&dst)
	dst.Close()
	smeared.Close()
	fw, fh := float64(w), float64(h)
	half := func(x0, x1 float64) []models.Point {
		return []models.Point{{X: x0, Y: 0}, {X: x1, Y: 0}, {X: x1, Y: fh - 1}, {X: x0, Y: fh - 1}}
	}
	if m, ok := Find(frame, half(16, fw/2-16)); !ok {
		t.Errorf("the smeared half shows no smear (%+v)", m)
	}
	if m, ok := Find(frame, half(fw/2+16, fw-1)); ok {
		t.Errorf("the sharp half shows a smear (%+v)", m)
	}
}

// TestUndo smears a bundled still's frame 12 px and undoes the smear
// found: the frame is sharper along the smear than smeared, and no softer
// across it.
func TestUndo(t *testing.T) {
	t.Parallel()
	img := stillGray(t, "0007")
	defer img.Close()
	smear(&img, 12, 0.6)
	m, ok := Find(img, nil)
	if !ok {
		t.Fatalf("no smear found (%+v)", m)
	}
	m.Undo(&img)
	pix, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	along, across := SharpnessAlong(pix, img.Cols(), img.Rows(), nil, m.Angle)
	t.Logf("smeared: sharpness %.2f along, %.2f across; undone: %.2f, %.2f", m.Along, m.Across, along, across)
	if along < m.Along+0.06 {
		t.Errorf("sharpness along the smear %.2f once undone, %.2f smeared: want 0.06 more", along, m.Along)
	}
	if across < m.Across {
		t.Errorf("sharpness across the smear %.2f once undone, %.2f smeared: want no less", across, m.Across)
	}
}

// TestPolygonSpan: along lines in many directions through a convex
// polygon (either way round), the span PolygonSpan gives holds the points
// insideConvex takes, and a pixel beyond either end none.
func TestPolygonSpan(t *testing.T) {
	t.Parallel()
	poly := []models.Point{{X: 40, Y: 30}, {X: 600, Y: 10}, {X: 650, Y: 400}, {X: 300, Y: 470}, {X: 20, Y: 380}}
	reversed := make([]models.Point, len(poly))
	for i, p := range poly {
		reversed[len(poly)-1-i] = p
	}
	for _, shown := range [][]models.Point{poly, reversed} {
		for deg := 0.0; deg < 180; deg += 7.5 {
			ux, uy := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
			for s := -400.0; s <= 400; s += 25 {
				x0, y0 := 330-s*uy, 240+s*ux
				lo, hi := PolygonSpan(shown, x0, y0, ux, uy)
				for t0 := -900.0; t0 <= 900; t0 += 0.5 {
					in := insideConvex(shown, x0+t0*ux, y0+t0*uy)
					switch {
					case t0 > lo+1e-6 && t0 < hi-1e-6 && !in:
						t.Fatalf("%.1f°, line %v: t %.1f within [%.2f, %.2f] but outside the polygon", deg, s, t0, lo, hi)
					case (t0 < lo-1 || t0 > hi+1) && in:
						t.Fatalf("%.1f°, line %v: t %.1f beyond [%.2f, %.2f] but inside the polygon", deg, s, t0, lo, hi)
					}
				}
			}
		}
	}
	if lo, hi := PolygonSpan(nil, 5, 5, 1, 0); !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("no polygon: span [%v, %v], want all of the line", lo, hi)
	}
}
