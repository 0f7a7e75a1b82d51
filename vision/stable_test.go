package vision

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// stillFrame loads a bundled still, its truth and its truth calibration
// (caller closes the frame); it skips the test when the stills are absent.
func stillFrame(t *testing.T, name string) (gocv.Mat, *calibration.Calibration, *synth.SceneTruth) {
	t.Helper()
	dir := filepath.Join("..", "samples", "stills")
	truth, err := synth.LoadSceneTruth(filepath.Join(dir, name+".json"))
	if err != nil {
		t.Skipf("no sample stills: %v", err)
	}
	frame := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadColor)
	if frame.Empty() {
		t.Fatalf("cannot read still %s.jpg beside its truth", name)
	}
	cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	cal.Geometry = truth.Geometry
	return frame, cal, truth
}

// stillTopGray is a bundled still's top-down grey image, warped through its
// truth calibration at the analyzer's default scale, with its view (caller
// closes the image).
func stillTopGray(t *testing.T, name string) (gocv.Mat, *view) {
	t.Helper()
	frame, cal, _ := stillFrame(t, name)
	defer frame.Close()
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	top := v.warp(frame)
	defer top.Close()
	return grayOf(top), v
}

// TestFullReadLeavesSteadyFrame checks that a frame read in full (its cards
// read from a grey warp at full resolution) leaves a stable frame that the
// next frames' half-resolution colour warps match: the same frame again is
// steady, not read anew, and a frame in which a card moved is read anew.
func TestFullReadLeavesSteadyFrame(t *testing.T) {
	a, err := NewAnalyzer(devCatalog(t), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, name := range []string{"0003", "0010", "0042", "0077"} {
		frame, cal, _ := stillFrame(t, name)
		defer frame.Close()
		// A new view: read in full.
		first, err := a.Analyze(frame, cal)
		if err != nil {
			t.Fatal(err)
		}
		stable := a.stable
		if first.Occluded || stable == nil {
			continue // an occluded still leaves no stable frame to compare with
		}
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
		if err != nil {
			t.Fatal(err)
		}
		direct := gocv.NewMat()
		defer direct.Close()
		top := v.scaled(0.5).warp(frame)
		grayInto(top, &direct)
		top.Close()
		if tiles := stable.changedTiles(direct); len(tiles) > 0 {
			t.Errorf("still %s: the half-resolution warp differs from the stable frame in %d tiles, e.g. %v", name, len(tiles), tiles[0])
		}
		if _, err := a.Analyze(frame, cal); err != nil {
			t.Fatal(err)
		}
		if a.stable != stable {
			t.Errorf("still %s: the same frame again was read anew, not found steady", name)
		}
		// A card's worth of pixels changed must still be seen.
		moved := frame.Clone()
		defer moved.Close()
		c := first.Cards[0].Quad.Center()
		r := moved.Region(image.Rect(int(c.X)-20, int(c.Y)-20, int(c.X)+20, int(c.Y)+20))
		r.SetTo(gocv.NewScalar(255, 255, 255, 0))
		r.Close()
		if _, err := a.Analyze(moved, cal); err != nil {
			t.Fatal(err)
		}
		if a.stable == stable {
			t.Errorf("still %s: a frame with a card's centre painted over was found steady", name)
		}
	}
}
