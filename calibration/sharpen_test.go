package calibration

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"math"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
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
			c, err := Detect(blurred, Options{South: southOf(truth.NorthAtBottom)})
			if err != nil {
				t.Fatal(err)
			}
			if e := cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners); e > 0.01 {
				t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%% (found %v, truth %v)", 100*e, c.Corners, truth.Corners)
			}
		})
	}
}

// TestDetectMotionBlurredGrid: a camera moving during the exposure smears
// each thin grid line across it into a shallow band a dozen pixels wide
// (a 13 px motion blur at 40°): the ridge response, read a few pixels
// either side of a line's centre, shows the edges' lattice and the line
// profiles' different one about equally clearly, which refuses both; the
// frame sharpened shows the edges' realm, on one side of the bands (a
// third of a percent of the realm's width off), and it is taken from the
// bands' middles, where the lines were halfway through the exposure.
func TestDetectMotionBlurredGrid(t *testing.T) {
	t.Parallel()
	s := scene{seed: 8, tiltDeg: 10, rotDeg: 2, widthFrac: 0.72, lineMM: 1, borderMM: 1, contrast: 0.5, cards: 12, noise: 3}
	sharp, truth := s.render(t)
	defer sharp.Close()
	motionBlur(&sharp, 13, 40)
	frame := jpegRoundTrip(t, sharp, 80)
	defer frame.Close()
	if _, _, _, err := detectStraight(frame, Options{}.geometry()); !errors.As(err, new(splitGridsError)) {
		t.Fatalf("the smeared frame gives %v, not two grids about equally clear: the test no longer tests the retry", err)
	}
	c, err := Detect(frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(orientLike(c.Corners, truth), truth) / realmWidthPx(truth); e > 0.002 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 0.2%% (found %v, truth %v)", 100*e, c.Corners, truth)
	}
}

// motionBlur smears frame along a straight path n px long at deg degrees
// (clockwise on screen from the x axis), as a camera moving during the
// exposure does.
func motionBlur(frame *gocv.Mat, n int, deg float64) {
	k := gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
	defer k.Close()
	a := deg * math.Pi / 180
	for i := 0; i < n; i++ {
		o := float64(i) - float64(n-1)/2
		x, y := int(math.Round(float64(n-1)/2+o*math.Cos(a))), int(math.Round(float64(n-1)/2+o*math.Sin(a)))
		k.SetFloatAt(y, x, 1/float32(n))
	}
	gocv.Filter2D(*frame, frame, -1, k, image.Pt(-1, -1), 0, gocv.BorderReflect101)
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

// TestSharpenedRefusesLooseCells: the sharpened retry searches frames on
// which no realm was found, sharpened until the table's grain and the art
// show lines too, and takes a lattice only when its cells are of the shape
// a pinhole camera sees (see maxPinholeInconsistency), not the first
// search's looser bound. Still 0002 out of focus, whose realm only the
// sharpened frame shows, is read once with the mat's true cells and once
// with cells of another shape (the same lattice in the frame, but cells
// 1.2 or 1.28 times too wide for it, as a lattice of wrong columns over
// right rows has): the first is found, the others refused.
func TestSharpenedRefusesLooseCells(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	truth, frame := readStill(t, dir, "0002")
	defer frame.Close()
	gocv.GaussianBlur(frame, &frame, image.Pt(0, 0), 2.2, 2.2, gocv.BorderReflect101)
	blurred := jpegRoundTrip(t, frame, 90)
	defer blurred.Close()
	for _, tc := range []struct {
		cellWidthMM float64
		want        bool
	}{{100, true}, {120, false}, {128, false}} {
		g := models.RealmGeometry{CellWidthMM: tc.cellWidthMM, CellHeightMM: 75}
		h, _, ok := detectSharpened(blurred, g)
		if ok != tc.want {
			t.Errorf("cells %g mm wide: found %v, want %v", tc.cellWidthMM, ok, tc.want)
		}
		if ok && cornerError(orientCorners(h, g, southOf(truth.NorthAtBottom)), truth.Corners)/realmWidthPx(truth.Corners) > 0.01 {
			t.Errorf("cells %g mm wide: found %v, truth %v", tc.cellWidthMM, orientCorners(h, g, southOf(truth.NorthAtBottom)), truth.Corners)
		}
	}
}
