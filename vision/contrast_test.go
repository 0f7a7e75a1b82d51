package vision

import (
	"fmt"
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// darkenCorners dims a BGR frame the way a dim room, a cheap lens and a
// lamp over the middle of the table do: 60% brightness at the centre,
// falling to a tenth of that at the corners.
func darkenCorners(frame gocv.Mat) {
	data, err := frame.DataPtrUint8()
	if err != nil {
		panic(err)
	}
	w, h := frame.Cols(), frame.Rows()
	cx, cy := float64(w)/2, float64(h)/2
	rmax := math.Hypot(cx, cy)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r := math.Hypot(float64(x)-cx, float64(y)-cy) / rmax
			f := 0.6 * (1 - 0.85*r*r)
			for c := 0; c < 3; c++ {
				i := (y*w+x)*3 + c
				data[i] = uint8(float64(data[i]) * f)
			}
		}
	}
}

// TestAnalyzeUnevenLight reads stills whose corners are in shadow: the
// fully visible cards there must still be named, and none wrongly.
func TestAnalyzeUnevenLight(t *testing.T) {
	full, named, wrong := readAlteredStills(t, []int{2, 11, 24, 28}, darkenCorners)
	t.Logf("darkened corners: %d of %d fully visible cards named, %d wrong names", named, full, wrong)
	if float64(named) < 0.97*float64(full) {
		t.Errorf("fully visible cards named in uneven light: %d of %d, want ≥ 97%%", named, full)
	}
	if wrong > 0 {
		t.Errorf("%d cards got a wrong name in uneven light", wrong)
	}
}

// TestAnalyzeBlurredStills reads stills blurred as by a webcam whose focus
// is off (Gaussian, σ 1.6 px): the fully visible cards must still be named,
// and none wrongly. These five are the hardest of the first 30 stills (far,
// dim cards): with faces indexed sharp only, 16 of their 38 fully visible
// cards were named; with the blurred copies, 35.
func TestAnalyzeBlurredStills(t *testing.T) {
	full, named, wrong := readAlteredStills(t, []int{2, 12, 20, 24, 28}, func(frame gocv.Mat) {
		gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 1.6, 1.6, gocv.BorderReplicate)
	})
	t.Logf("blurred: %d of %d fully visible cards named, %d wrong names", named, full, wrong)
	if float64(named) < 0.85*float64(full) {
		t.Errorf("fully visible cards named in blurred frames: %d of %d, want ≥ 85%%", named, full)
	}
	if wrong > 0 {
		t.Errorf("%d cards got a wrong name in blurred frames", wrong)
	}
}

// readAlteredStills reads the bundled stills, each changed by alter first,
// and counts their fully visible cards, those named, and wrong names.
func readAlteredStills(t *testing.T, stills []int, alter func(gocv.Mat)) (full, named, wrong int) {
	t.Helper()
	a := newTestAnalyzer(t, devCatalog(t))
	for _, i := range stills {
		obs, truth := analyzeAlteredStill(t, a, i, alter)
		s := scoreStill(obs, truth)
		for _, n := range s.notes {
			t.Logf("still %04d: %s", i, n)
		}
		full += s.full
		named += s.fullNamed
		wrong += s.wrongNames
	}
	return full, named, wrong
}

// TestEqualizerIsCLAHE checks that the own equalisation gives OpenCV's
// CLAHE result byte for byte, at every vector width: on the top-down grey image
// of bundled stills (a size that is not a multiple of the tile grid, so
// OpenCV extends it with mirrored rows and columns), and on noise and
// gradients of sizes that are a multiple of the grid, or not, or smaller
// than a tile, with clip limits from none to loose.
func TestEqualizerIsCLAHE(t *testing.T) {
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	type input struct {
		name  string
		img   gocv.Mat
		tiles image.Point
	}
	var inputs []input
	for _, name := range []string{"0003", "0042"} {
		gray, _ := stillTopGray(t, name)
		defer gray.Close()
		e := newContrastEqualizer(2)
		inputs = append(inputs, input{"still " + name, gray, e.tiles(gray)})
		e.close()
	}
	for _, c := range []struct {
		w, h  int
		tiles image.Point
	}{{700, 500, image.Pt(7, 5)}, {703, 499, image.Pt(7, 5)}, {640, 480, image.Pt(8, 8)}, {61, 37, image.Pt(3, 2)}, {9, 5, image.Pt(4, 4)}, {1, 1, image.Pt(1, 1)}, {200, 1, image.Pt(2, 1)}} {
		noise := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC1)
		defer noise.Close()
		gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(256, 0, 0, 0))
		inputs = append(inputs, input{fmt.Sprintf("noise %dx%d", c.w, c.h), noise, c.tiles})
		ramp := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC1)
		defer ramp.Close()
		for y := 0; y < c.h; y++ {
			for x := 0; x < c.w; x++ {
				ramp.SetUCharAt(y, x, uint8((x*3+y*5)/4%256))
			}
		}
		inputs = append(inputs, input{fmt.Sprintf("ramp %dx%d", c.w, c.h), ramp, c.tiles})
		// Plateaus: runs of one grey level, from a few pixels to a row,
		// which countTile counts 32 at a time.
		plateaus := gocv.NewMatWithSize(c.h, c.w, gocv.MatTypeCV8UC1)
		defer plateaus.Close()
		for y := 0; y < c.h; y++ {
			run := 1 + y*7%80
			for x := 0; x < c.w; x++ {
				plateaus.SetUCharAt(y, x, uint8((x/run*37+y/3*11)%256))
			}
		}
		inputs = append(inputs, input{fmt.Sprintf("plateaus %dx%d", c.w, c.h), plateaus, c.tiles})
	}
	e := newContrastEqualizer(2)
	defer e.close()
	for _, in := range inputs {
		for _, clip := range []float64{0, contrastClip, 2.5, 40} {
			want := gocv.NewMat()
			clahe := gocv.NewCLAHEWithParams(clip, in.tiles)
			clahe.Apply(in.img, &want)
			clahe.Close()
			for _, width := range []vectorWidth{noVectors, avx2Vectors, widestVectors} {
				got := gocv.NewMat()
				if err := e.clahe(in.img, &got, in.tiles, clip, width); err != nil {
					t.Fatal(err)
				}
				if n := differing(got, want); n != 0 {
					t.Errorf("%s, %v tiles, clip %g, vector width %d: %d of %d pixels differ from OpenCV's CLAHE", in.name, in.tiles, clip, width, n, in.img.Rows()*in.img.Cols())
				}
				got.Close()
			}
			want.Close()
		}
	}
}

// differing counts the pixels in which two 8-bit images of one size differ.
func differing(a, b gocv.Mat) int {
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(a, b, &diff)
	return gocv.CountNonZero(diff)
}

// BenchmarkEqualize compares the own equalisation with OpenCV's CLAHE on
// the top-down grey image of a bundled still.
func BenchmarkEqualize(b *testing.B) {
	frame, cal, _ := benchStill(b)
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	frameGray, gray, out := grayOf(frame), gocv.NewMat(), gocv.NewMat()
	defer frameGray.Close()
	defer gray.Close()
	defer out.Close()
	if err := v.warpInto(frameGray, &gray); err != nil {
		b.Fatal(err)
	}
	keepFreedMemory()
	e := newContrastEqualizer(v.pxPerMM)
	defer e.close()
	b.Run("own", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := e.equalize(gray, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("OpenCV", func(b *testing.B) {
		clahe := gocv.NewCLAHEWithParams(contrastClip, e.tiles(gray))
		defer clahe.Close()
		for i := 0; i < b.N; i++ {
			clahe.Apply(gray, &out)
		}
	})
}
