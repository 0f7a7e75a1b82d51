//go:build linux

package vision

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// coveredInput is one still as the covered-site search receives it: its
// top-down grey image, its view, and the cards found on it.
type coveredInput struct {
	gray  gocv.Mat
	v     *view
	found []placed
}

// coveredInputs reads the first n bundled stills up to the covered-site
// search (the frame's matches and the outlines' identification, as
// readCards does).
func coveredInputs(b testing.TB, a *Analyzer, n int) []coveredInput {
	b.Helper()
	dir := filepath.Join("..", "samples", "stills")
	var out []coveredInput
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%04d", i)
		truth, err := synth.LoadSceneTruth(filepath.Join(dir, name+".json"))
		if err != nil {
			b.Skipf("no sample stills: %v", err)
		}
		frame := gocv.IMRead(filepath.Join(dir, name+".jpg"), gocv.IMReadGrayScale)
		if frame.Empty() {
			b.Fatalf("cannot read still %s.jpg", name)
		}
		cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
		if err != nil {
			b.Fatal(err)
		}
		if cal, err = cal.WithGeometry(truth.Geometry); err != nil {
			b.Fatal(err)
		}
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
		if err != nil {
			b.Fatal(err)
		}
		gray := gocv.NewMat()
		if err := v.warpInto(frame, &gray); err != nil {
			b.Fatal(err)
		}
		frame.Close()
		f, err := a.det.detect(gray)
		if err != nil {
			b.Fatal(err)
		}
		var found []placed
		var quads []models.Quad
		for _, d := range a.index.matchFrame(f, 1) {
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
			quads = append(quads, d.quad)
		}
		unknown, err := a.outlines.findUnknownCards(gray, sharpnessOf(gray, v), v, quads)
		if err != nil {
			b.Fatal(err)
		}
		for _, u := range unknown {
			if d, ok := a.identifyRegion(gray, u.quad); ok {
				found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
				continue
			}
			found = append(found, placed{u.quad, u.kind})
		}
		out = append(out, coveredInput{gray, v, found})
	}
	b.Cleanup(func() {
		for _, in := range out {
			in.gray.Close()
		}
	})
	return out
}

// BenchmarkCoveredSites times the covered-site search of a frame, over the
// first 20 bundled stills in turn (CPU time per still, one OpenCV thread
// as the frame's analysis runs), against the sample catalog or, with
// -stages.extra-faces, the larger one BenchmarkFrameStages reads.
func BenchmarkCoveredSites(b *testing.B) {
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	a := stagesAnalyzer(b)
	ins := coveredInputs(b, a, 20)
	i := 0
	cpuPerOp(b, func() {
		in := ins[i%len(ins)]
		a.findCoveredSites(in.gray, in.v, in.found, nil)
		i++
	})
}
