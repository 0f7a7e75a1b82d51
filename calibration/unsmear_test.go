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
	if _, _, err := detectGrid(frame, g, segmentShare); !errors.Is(err, ErrNotFound) {
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

// TestUnsmearedNoWrongRealm: a realm of 1.5 mm lines smeared 20 px at 40°
// finds no realm, on the frame as it is or sharpened. Undone 5% and 10%
// longer than read, the lines' echoes give two different lattices a
// quarter of the realm's size (90-93% of its width off); neither length
// finds the other's, so no realm is taken, rather than a wrong one.
func TestUnsmearedNoWrongRealm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("renders a scene and searches it several times")
	}
	s := scene{seed: 8, tiltDeg: 10, rotDeg: 2, widthFrac: 0.72, lineMM: 1.5, borderMM: 1, contrast: 0.5, cards: 12, noise: 3}
	sharp, truth := s.render(t)
	defer sharp.Close()
	motionBlur(&sharp, 20, 40) // sharpen_test.go
	frame := jpegRoundTrip(t, sharp, 80)
	defer frame.Close()
	c, err := Detect(frame, Options{})
	if err != nil {
		return
	}
	if e := cornerError(orientLike(c.Corners, truth), truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("a realm %.1f%% of its width off (found %v, truth %v): want the right realm or none", 100*e, c.Corners, truth)
	}
}
