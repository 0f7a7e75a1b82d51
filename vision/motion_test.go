package vision

import (
	"image"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/motionblur"
	"gocv.io/x/gocv"
)

// smear smears img in place as a camera moving n pixels in the direction
// angle (radians) while it exposes does: every pixel the mean of the n
// pixels along that line.
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

// TestFindMotionSmear smears a bundled still's top-down image along
// several directions and lengths (10-24 px: a longer smear leaves too few
// steps to measure its sharpness along it): the smear's length and
// direction are found. The still as it is, out of focus, or smeared too little to
// matter has no smear to undo.
func TestFindMotionSmear(t *testing.T) {
	top, v := stillTopGray(t, "0007") // stable_test.go
	defer top.Close()
	shown, _ := inFramePolygon(v, 0)
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
		{"smeared 14 px at 100°", 14, 100, 0, true},
		{"smeared 16 px at 150°", 16, 150, 0, true},
		// The quick look's deepest peak must not be a nearer one of the
		// warp's resampling (at 6.6 px here), nor its windows too small
		// for a long smear's troughs.
		{"smeared 16 px at 35°", 16, 35, 0, true},
		{"smeared 20 px at 35°", 20, 35, 0, true},
		{"smeared 24 px at 100°", 24, 100, 0, true},
	} {
		img := top.Clone()
		if c.n > 0 {
			smear(&img, c.n, c.angle*math.Pi/180)
		}
		if c.sigma > 0 {
			gocv.GaussianBlur(img, &img, image.Point{}, c.sigma, c.sigma, gocv.BorderReplicate)
		}
		got, ok := motionblur.Find(img, shown)
		img.Close()
		if ok != c.want {
			t.Errorf("%s: smear found %v (%+v), want %v", c.name, ok, got, c.want)
			continue
		}
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

// TestUndoMotionSmear: a smeared image, once the smear is undone, is far
// sharper along the smear, and closer to the image before the smear.
func TestUndoMotionSmear(t *testing.T) {
	top, v := stillTopGray(t, "0007")
	defer top.Close()
	shown, _ := inFramePolygon(v, 0)
	img := top.Clone()
	defer img.Close()
	smear(&img, 12, 0.6)
	m, ok := motionblur.Find(img, shown)
	if !ok {
		t.Fatalf("no smear found (%+v)", m)
	}
	inner, _ := inFramePolygon(v, -20*v.pxPerMM) // away from the black beyond the frame
	before := meanAbsDiff(t, img, top, inner)
	m.Undo(&img)
	after := meanAbsDiff(t, img, top, inner)
	pix, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	along, across := motionblur.SharpnessAlong(pix, img.Cols(), img.Rows(), shown, m.Angle)
	t.Logf("smeared: sharpness %.2f along, %.2f across, mean difference to the unsmeared image %.1f; undone: %.2f, %.2f, %.1f",
		m.Along, m.Across, before, along, across, after)
	// 0.33 → 0.41 along; about 0.45 more would be the filter's alone
	// (0.04: it leaves the frequencies the smear nearly wiped out).
	if along < m.Along+0.06 {
		t.Errorf("sharpness along the smear %.2f once undone, %.2f smeared: want 0.06 more", along, m.Along)
	}
	if across < m.Across {
		t.Errorf("sharpness across the smear %.2f once undone, %.2f smeared: want no less", across, m.Across)
	}
	// The finest print the smear wiped out does not come back, so the
	// image gets little closer to the unsmeared one on the whole; but it
	// must not get further from it.
	if after > before {
		t.Errorf("the smear undone leaves a mean difference of %.1f grey levels to the image before it, the smear %.1f", after, before)
	}
}

// meanAbsDiff is the mean absolute difference of two grey images of one
// size within the convex polygon inner (at least stepReachPx inside it).
func meanAbsDiff(t *testing.T, a, b gocv.Mat, inner []models.Point) float64 {
	t.Helper()
	pa, err := a.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	pb, err := b.DataPtrUint8()
	if err != nil || len(pa) != len(pb) {
		t.Fatalf("images differ in size or type (%v)", err)
	}
	sum, n := 0, 0
	w := a.Cols()
	for y := range a.Rows() {
		lo, hi := spanWithin(inner, float64(y), false, w) // sharpness.go
		for i := y*w + lo; i < y*w+hi; i++ {
			sum += abs(int(pa[i]) - int(pb[i]))
			n++
		}
	}
	return float64(sum) / float64(n)
}

// TestSmearedFramesShowCards reads bundled stills smeared as by a camera
// that moved while it exposed: most of their cards are found and named.
func TestSmearedFramesShowCards(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	var total stillScore
	for k, i := range []int{1, 8, 16, 27, 34} {
		angle := float64(k) * 0.7
		obs, truth := analyzeAlteredStill(t, a, i, func(frame gocv.Mat) {
			smear(&frame, 11, angle)
		})
		s := scoreStill(obs, truth)
		if s.wrongNames > 0 {
			t.Errorf("still %d smeared: %v", i, s.notes)
		}
		total.add(s)
	}
	// 43 of 45 found and 35 of 37 named; 38 and 31 without the undo.
	wantStillShare(t, "smeared stills", total, 0.9) // sharpness_test.go
}

// BenchmarkFindMotionSmear measures the search for a smear in a soft
// frame's top-down image (a bundled still's, blurred evenly by 2 px: no
// smear is found, and every soft frame pays this).
func BenchmarkFindMotionSmear(b *testing.B) {
	img, v := stillTopGray(b, "0000") // stable_test.go
	defer img.Close()
	gocv.GaussianBlur(img, &img, image.Point{}, 2, 2, gocv.BorderReplicate)
	shown, _ := inFramePolygon(v, 0)
	for b.Loop() {
		if m, ok := motionblur.Find(img, shown); ok {
			b.Fatalf("a smear found in an evenly blurred image: %+v", m)
		}
	}
}

// BenchmarkUndoMotionSmear measures the undoing of a 12 px smear of a
// bundled still's top-down image.
func BenchmarkUndoMotionSmear(b *testing.B) {
	smeared, _ := stillTopGray(b, "0000")
	defer smeared.Close()
	smear(&smeared, 12, 0.6)
	img := gocv.NewMat()
	defer img.Close()
	m := motionblur.Smear{Length: 12, Angle: 0.6}
	for b.Loop() {
		b.StopTimer()
		smeared.CopyTo(&img)
		b.StartTimer()
		m.Undo(&img)
	}
}
