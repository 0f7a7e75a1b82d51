package vision

import (
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// benchStill loads a sample still with its truth corners, on one OpenCV thread.
func benchStill(b *testing.B) (gocv.Mat, *calibration.Calibration, *synth.SceneTruth) {
	b.Helper()
	dir := filepath.Join("..", "samples", "stills")
	truth, err := synth.LoadSceneTruth(filepath.Join(dir, "0003.json"))
	if err != nil {
		b.Skipf("no sample stills: %v", err)
	}
	frame := gocv.IMRead(filepath.Join(dir, "0003.jpg"), gocv.IMReadColor)
	if frame.Empty() {
		b.Skip("no sample still image")
	}
	cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
	if err != nil {
		b.Fatal(err)
	}
	prev := SetOpenCVThreads(1)
	b.Cleanup(func() { SetOpenCVThreads(prev); frame.Close() })
	return frame, cal, truth
}

// BenchmarkAnalyzeFull reads a 1280×720 frame in full (no reuse).
func BenchmarkAnalyzeFull(b *testing.B) {
	frame, cal, _ := benchStill(b)
	a, err := NewAnalyzer(devCatalog(b), Options{CacheDir: b.TempDir(), NoReuse: true})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.Analyze(frame, cal); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeSteady reads a frame in which nothing moved since the last one.
func BenchmarkAnalyzeSteady(b *testing.B) {
	frame, cal, _ := benchStill(b)
	a, err := NewAnalyzer(devCatalog(b), Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Analyze(frame, cal); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.Analyze(frame, cal); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdentify names one fully visible card cut out of the frame.
func BenchmarkIdentify(b *testing.B) {
	frame, _, truth := benchStill(b)
	a, err := NewAnalyzer(devCatalog(b), Options{CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	var crops []gocv.Mat
	for _, c := range truth.Cards {
		if c.VisibleFraction > 0.999 {
			crops = append(crops, cropQuad(frame, c.Quad))
		}
	}
	defer func() {
		for _, c := range crops {
			c.Close()
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.Identify(crops[i%len(crops)])
	}
}

// benchFeatures gives a sample still's equalised top-down keypoints, as the
// analyzer reads them, and an analyzer over the sample catalog.
func benchFeatures(b *testing.B) (*Analyzer, gocv.Mat, features) {
	frame, cal, _ := benchStill(b)
	a := newTestAnalyzer(b, stagesCatalog(b))
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
	if err != nil {
		b.Fatal(err)
	}
	top := v.warp(frame)
	defer top.Close()
	gray := grayOf(top)
	b.Cleanup(func() { gray.Close() })
	f, err := a.det.detect(gray)
	if err != nil {
		b.Fatal(err)
	}
	return a, gray, f
}

// BenchmarkFrameKeypoints finds a frame's keypoints and descriptors
// (equalisation and ORB).
func BenchmarkFrameKeypoints(b *testing.B) {
	a, gray, _ := benchFeatures(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := a.det.detect(gray); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchFrame finds and fits the cards of a frame's keypoints (both
// hash-table passes, RANSAC and verification).
func BenchmarkMatchFrame(b *testing.B) {
	a, _, f := benchFeatures(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.index.matchFrame(f, 1)
	}
}
