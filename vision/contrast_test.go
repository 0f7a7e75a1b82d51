package vision

import (
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
