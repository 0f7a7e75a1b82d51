package calibration

import (
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestDetectWidelyBlurredGrid: a lens further out of focus than
// TestDetectBlurredGrid's (the bundled still 0032 blurred by a Gaussian of
// sigma 2.8 px, and JPEG-compressed) leaves the grid's lines too wide and
// shallow for the search on the frame as it is, and for the first
// sharpening (detectGrid finds no realm); the two wide masks of the last
// retry (resharpen.go) both find the realm, where it is.
func TestDetectWidelyBlurredGrid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("searches a blurred frame several times")
	}
	dir := filepath.Dir(sampleStills(t)[0])
	truth, frame := readStill(t, dir, "0032")
	defer frame.Close()
	gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 2.8, 2.8, gocv.BorderReflect101)
	blurred := jpegRoundTrip(t, frame, 90)
	defer blurred.Close()
	if _, _, err := detectGrid(blurred, Options{}.geometry(), segmentShare); err == nil {
		t.Fatalf("the blurred frame's realm is found without the wide masks: the test no longer tests the retry")
	}
	c, err := Detect(blurred, Options{South: southOf(truth.NorthAtBottom)})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, c.Corners, truth.Corners)
	}
}
