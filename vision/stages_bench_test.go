//go:build linux

package vision

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// BenchmarkPixelStages times each pixel stage of a frame read in full on a
// bundled still: the warps, the equalisation, the outline search's parts
// and the hand test.
func BenchmarkPixelStages(b *testing.B) {
	frame, cal, _ := benchStill(b)
	a := newTestAnalyzer(b, devCatalog(b))
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
	if err != nil {
		b.Fatal(err)
	}
	keepFreedMemory()
	coarse := v.scaled(0.5)
	small, smallGray, frameGray, gray, eq := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer func() {
		for _, m := range []gocv.Mat{small, smallGray, frameGray, gray, eq} {
			m.Close()
		}
	}()
	if err := coarse.warpInto(frame, &small); err != nil {
		b.Fatal(err)
	}
	grayInto(frame, &frameGray)
	if err := v.warpInto(frameGray, &gray); err != nil {
		b.Fatal(err)
	}
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		b.Fatal(err)
	}
	f, _ := a.det.detect(gray)
	dets := a.index.matchFrame(f, 1)
	var known []models.Quad
	for _, d := range dets {
		known = append(known, d.quad)
	}
	o := newOutlineFinder()
	defer o.close()
	eqz := newContrastEqualizer(v.pxPerMM)
	defer eqz.close()
	clahe := gocv.NewCLAHEWithParams(contrastClip, eqz.tiles(gray))
	defer clahe.Close()
	grayInto(small, &smallGray)
	stable := newStableFrame(smallGray, coarse, obs.Cards)
	defer stable.close()
	stages := []struct {
		name string
		run  func()
	}{
		{"colour half warp", func() { _ = coarse.warpInto(frame, &small) }},
		{"small grey", func() { grayInto(small, &smallGray) }},
		{"frame grey", func() { grayInto(frame, &frameGray) }},
		{"grey full warp", func() { _ = v.warpInto(frameGray, &gray) }},
		{"equalise", func() { _ = eqz.equalize(gray, &eq) }},
		{"equalise OpenCV", func() { clahe.Apply(gray, &eq) }},
		{"outline mask", func() { o.maskFaces(gray, v, known) }},
		{"outline edges", func() { _ = o.cardEdges(gray, &o.edged) }},
		{"outline contours", func() { outlinesFromEdges(o.edged, v, known) }},
		{"hand", func() { handCovers(small, coarse, obs.Cards) }},
		{"steady test", func() { stable.changed(smallGray) }},
	}
	for _, s := range stages {
		s.run()
		b.Run(s.name, func(b *testing.B) { cpuPerOp(b, s.run) })
	}
}

// cpuPerOp runs f b.N times on one locked thread and reports the thread's
// CPU time per run (ms), which other load on the machine slows far less
// than the wall-clock time.
func cpuPerOp(b *testing.B, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU()
	for i := 0; i < b.N; i++ {
		f()
	}
	b.ReportMetric(float64(threadCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// threadCPU is the calling thread's CPU time (RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
