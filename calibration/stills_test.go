package calibration

import (
	"encoding/json"
	"image"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
)

// stillTruth is the part of a sample still's truth file that calibration checks.
type stillTruth struct {
	Corners       models.Quad `json:"corners"`
	NorthAtBottom bool        `json:"north_at_bottom"`
}

// sampleStills lists the bundled stills (image and truth paths), or skips.
func sampleStills(tb testing.TB) []string {
	tb.Helper()
	dir, err := samples.Path("stills")
	if err != nil {
		// Tests run in the package directory; the samples sit beside it.
		dir = filepath.Join("..", "samples", "stills")
	}
	imgs, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if len(imgs) == 0 {
		tb.Skipf("no sample stills in %s", dir)
	}
	sort.Strings(imgs)
	return imgs
}

// stillResult is the outcome of calibrating one still.
type stillResult struct {
	found    bool
	relError float64 // largest corner error / realm width
	score    float64
}

// readStill reads the bundled still name (such as "0008") in dir and its
// truth, or fails the test naming the file; the caller closes the frame.
func readStill(tb testing.TB, dir, name string) (stillTruth, gocv.Mat) {
	tb.Helper()
	img := filepath.Join(dir, name+".jpg")
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var truth stillTruth
	if err := json.Unmarshal(b, &truth); err != nil {
		tb.Fatalf("%s: %v", img, err)
	}
	frame := gocv.IMRead(img, gocv.IMReadColor)
	if frame.Empty() {
		frame.Close()
		tb.Fatalf("cannot read %s", img)
	}
	return truth, frame
}

// stillRidgeMap reads the bundled still name in dir and gives its truth and
// the ridge map of its grey image.
func stillRidgeMap(tb testing.TB, dir, name string) (stillTruth, *ridgeMap) {
	tb.Helper()
	truth, frame := readStill(tb, dir, name)
	gray := grayFor(frame)
	rm, err := newRidgeMap(gray)
	frame.Close()
	gray.Close()
	if err != nil {
		tb.Fatal(err)
	}
	return truth, rm
}

// stillLineMaps reads the bundled still name in dir and gives its truth,
// its grey image (the caller closes it), and its ridge map and edge map
// (the faint path's Canny thresholds).
func stillLineMaps(tb testing.TB, dir, name string) (stillTruth, gocv.Mat, *ridgeMap, *edgeMap) {
	tb.Helper()
	truth, frame := readStill(tb, dir, name)
	gray := grayFor(frame)
	frame.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		tb.Fatal(err)
	}
	em, err := newEdgeMap(gray, faintCannyLow, faintCannyHigh)
	if err != nil {
		tb.Fatal(err)
	}
	return truth, gray, rm, em
}

// shrunkStill is a bundled still shrunk to 640×360, a cheap webcam's frame,
// with its truth corners in the shrunk frame's pixels (caller closes).
func shrunkStill(tb testing.TB, dir, name string) (stillTruth, models.Quad, gocv.Mat) {
	tb.Helper()
	truth, frame := readStill(tb, dir, name)
	defer frame.Close()
	small := gocv.NewMat()
	gocv.Resize(frame, &small, image.Pt(640, 360), 0, 0, gocv.InterpolationArea)
	var corners models.Quad
	for i, p := range truth.Corners {
		corners[i] = models.Point{X: p.X * 640 / float64(frame.Cols()), Y: p.Y * 360 / float64(frame.Rows())}
	}
	return truth, corners, small
}

// shrunkStillLineMaps is stillLineMaps for a bundled still shrunk to
// 640×360 and read as Detect reads it, at the working width: its truth
// corners in working pixels, the working grey image (caller closes), and
// its ridge and faint edge maps.
func shrunkStillLineMaps(tb testing.TB, dir, name string) (models.Quad, gocv.Mat, *ridgeMap, *edgeMap) {
	tb.Helper()
	_, corners, small := shrunkStill(tb, dir, name)
	defer small.Close()
	gray, scale := workingGray(small)
	for i := range corners {
		corners[i] = models.Point{X: corners[i].X * scale, Y: corners[i].Y * scale}
	}
	rm, err := newRidgeMap(gray)
	if err != nil {
		tb.Fatal(err)
	}
	em, err := newEdgeMap(gray, faintCannyLow, faintCannyHigh)
	if err != nil {
		tb.Fatal(err)
	}
	return corners, gray, rm, em
}

func calibrateStill(tb testing.TB, img string) stillResult {
	tb.Helper()
	truth, frame := readStill(tb, filepath.Dir(img), strings.TrimSuffix(filepath.Base(img), ".jpg"))
	defer frame.Close()
	c, err := Detect(frame, Options{South: southOf(truth.NorthAtBottom)})
	if err != nil {
		return stillResult{}
	}
	return stillResult{found: true, relError: cornerError(c.Corners, truth.Corners) / realmWidthPx(truth.Corners), score: c.Score}
}

// TestSampleStills checks a subset of the bundled stills against the targets:
// the realm found in ≥ 98% of frames with corner error ≤ 1% of its width.
func TestSampleStills(t *testing.T) {
	t.Parallel()
	imgs := sampleStills(t)
	step := 1
	if testing.Short() || len(imgs) > 20 {
		step = max(1, len(imgs)/20)
	}
	n, good, wrong := 0, 0, 0
	for i := 0; i < len(imgs); i += step {
		r := calibrateStill(t, imgs[i])
		n++
		switch {
		case !r.found:
			t.Logf("%s: realm not found", filepath.Base(imgs[i]))
		case r.relError > 0.01:
			wrong++
			t.Logf("%s: corner error %.2f%% of the realm width", filepath.Base(imgs[i]), 100*r.relError)
		default:
			good++
		}
	}
	t.Logf("%d/%d stills calibrated within 1%% of the realm width", good, n)
	// The product target is 98%; automatic detection reaches about 91% of
	// the bundled stills today (faint grid lines on busy art whose
	// vanishing points are off are the misses), so this floor guards
	// against regressions.
	if float64(good) < 0.85*float64(n) {
		t.Errorf("only %d/%d stills calibrated within 1%% of the realm width (floor 85%% of this subset; target 98%%)", good, n)
	}
	// A wrong realm is worse than none: none of the 100 stills gets one
	// today (lattices whose lines are not drawn lines are refused).
	if wrong > n/20 {
		t.Errorf("%d/%d stills got a wrong realm (more than 1%% of its width off; at most %d allowed)", wrong, n, n/20)
	}
}

// BenchmarkSampleStills runs Detect over the bundled stills (all of them with
// -benchtime 100x) and reports the share found within 1% of the realm width,
// the share answered at all (the rest is ErrNotFound), and the median corner
// error of the answers, in % of the realm width.
func BenchmarkSampleStills(b *testing.B) {
	imgs := sampleStills(b)
	frames := make([]gocv.Mat, len(imgs))
	truths := make([]models.Quad, len(imgs))
	for i, img := range imgs {
		frames[i] = gocv.IMRead(img, gocv.IMReadColor)
		defer frames[i].Close()
		js, err := os.ReadFile(img[:len(img)-len(".jpg")] + ".json")
		if err != nil {
			b.Fatal(err)
		}
		var tr stillTruth
		if err := json.Unmarshal(js, &tr); err != nil {
			b.Fatal(err)
		}
		truths[i] = tr.Corners
	}
	b.ResetTimer()
	var good, detected, total int
	var errs []float64
	for i := 0; i < b.N; i++ {
		k := i % len(frames)
		c, err := Detect(frames[k], Options{})
		total++
		if err != nil {
			continue
		}
		detected++
		e := cornerError(c.Corners, truths[k]) / realmWidthPx(truths[k])
		errs = append(errs, e)
		if e <= 0.01 {
			good++
		}
	}
	b.StopTimer()
	sort.Float64s(errs)
	median := 0.0
	if len(errs) > 0 {
		median = errs[len(errs)/2]
	}
	b.ReportMetric(100*float64(good)/float64(total), "%within1%")
	b.ReportMetric(100*float64(detected)/float64(total), "%answered")
	b.ReportMetric(100*median, "%median-err")
}
