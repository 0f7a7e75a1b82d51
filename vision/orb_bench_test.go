//go:build linux

package vision

import (
	"runtime"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

// BenchmarkFrameDescribe times the describing of the keypoints a frame's
// matching asks for (their blur, orientation and descriptor), on the
// equalised top-down images of bundled stills, one after another: the
// thread's CPU time spent in describe per image (not the detection).
func BenchmarkFrameDescribe(b *testing.B) {
	a := newTestAnalyzer(b, devCatalog(b))
	o := newFrameORB(Options{}.frameFeatures())
	defer o.close()
	type image struct {
		eq  gocv.Mat
		ids []int // the keypoints matchFrame describes, in order
	}
	var images []image
	for _, eq := range equalizedStillsB(b) {
		f, err := o.detect(eq)
		if err != nil {
			b.Fatal(err)
		}
		a.index.matchFrame(f, 1)
		var ids []int
		for i := range f.Points {
			if f.described(i) {
				ids = append(ids, i)
			}
		}
		images = append(images, image{eq, ids})
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var spent time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		im := images[i%len(images)]
		f, err := o.detect(im.eq)
		if err != nil {
			b.Fatal(err)
		}
		start := preciseThreadCPU()
		f.describe(im.ids)
		spent += preciseThreadCPU() - start
	}
	b.ReportMetric(float64(spent)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkFrameORBRepeated times the frame detector's keypoints (not their
// descriptors) as a still camera shows a table: the equalised top-down
// image of each of five bundled stills, several times in a row; only the
// repeats are timed (the thread's CPU time per image), the first image of
// each still being a change of scene (BenchmarkFrameORB times those).
func BenchmarkFrameORBRepeated(b *testing.B) {
	images := equalizedStillsB(b)
	o := newFrameORB(Options{}.frameFeatures())
	defer o.close()
	const repeats = 4
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var spent time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		im := images[(i/repeats)%len(images)]
		start := preciseThreadCPU()
		if _, err := o.detect(im); err != nil {
			b.Fatal(err)
		}
		if i%repeats != 0 {
			spent += preciseThreadCPU() - start
		}
	}
	if timed := b.N - (b.N+repeats-1)/repeats; timed > 0 {
		b.ReportMetric(float64(spent)/float64(time.Millisecond)/float64(timed), "cpu-ms/op")
	}
}
