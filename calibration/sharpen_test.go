package calibration

import (
	"bytes"
	"image"
	"image/jpeg"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestDetectBlurredGrid: a frame out of focus (the bundled stills blurred
// by a Gaussian of sigma 2.2 px, and JPEG-compressed) spreads the grid's thin
// lines so thin that neither the edges nor the line profiles find the
// realm on the frame as it is; on the frame sharpened it is found, where it
// is.
func TestDetectBlurredGrid(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	for _, name := range []string{"0002", "0032"} {
		t.Run(name, func(t *testing.T) {
			truth, frame := readStill(t, dir, name)
			defer frame.Close()
			gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 2.2, 2.2, gocv.BorderReflect101)
			blurred := jpegRoundTrip(t, frame, 90)
			defer blurred.Close()
			if _, _, _, err := detectStraight(blurred, Options{}.geometry()); err == nil {
				t.Fatalf("the blurred frame's realm is found without sharpening: the test no longer tests the retry")
			}
			c, err := Detect(blurred, Options{NorthAtBottom: truth.NorthAtBottom})
			if err != nil {
				t.Fatal(err)
			}
			if e := cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners); e > 0.01 {
				t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, c.Corners, truth.Corners)
			}
		})
	}
}

// jpegRoundTrip is frame compressed as a JPEG of the given quality (by
// Go's encoder, as the stress sets of frames were) and read back.
func jpegRoundTrip(t testing.TB, frame gocv.Mat, quality int) gocv.Mat {
	t.Helper()
	img, err := frame.ToImage()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: quality}); err != nil {
		t.Fatal(err)
	}
	out, err := gocv.IMDecode(b.Bytes(), gocv.IMReadColor)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSharpenedReadThroughLens: under a lens of k 0.055 no realm is found
// on still 0037 as it is; on the frame sharpened a lattice is found whose
// corners, read along the bowed border lines, miss by more than 1% of the
// realm's width. Read again through the lens its lines gave, as the
// sharpened retry does whenever a lens is read, the realm is where it is.
func TestSharpenedReadThroughLens(t *testing.T) {
	t.Parallel()
	checkStillThroughLens(t, "0037", 0.055, 90)
}
