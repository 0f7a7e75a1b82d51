package calibration

import (
	"errors"
	"testing"
)

// TestDetectUnsmearedGrid: a camera moving 18 px at 40° during the
// exposure (OpenCV's filter along the line, then JPEG) widens the grid's
// 1 mm lines into bands so shallow that neither the edges nor the line
// profiles find the realm, on the frame as it is or sharpened; with the
// smear found and undone (unsmear.go) the bands close back into lines and
// the realm is found where it is.
func TestDetectUnsmearedGrid(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("renders a scene and searches it several times")
	}
	s := scene{seed: 8, tiltDeg: 10, rotDeg: 2, widthFrac: 0.72, lineMM: 1, borderMM: 1, contrast: 0.5, cards: 12, noise: 3}
	sharp, truth := s.render(t)
	defer sharp.Close()
	motionBlur(&sharp, 18, 40) // sharpen_test.go
	frame := jpegRoundTrip(t, sharp, 80)
	defer frame.Close()
	g := Options{}.geometry()
	if _, _, err := detectGrid(frame, g); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the smeared frame gives %v, not no realm: the test no longer tests the retry", err)
	}
	c, err := Detect(frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(orientLike(c.Corners, truth), truth) / realmWidthPx(truth); e > 0.005 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 0.5%% (found %v, truth %v)", 100*e, c.Corners, truth)
	}
}
