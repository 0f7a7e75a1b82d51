//go:build linux

package vision

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// BenchmarkLSHFrameLookups times, in CPU time on one thread, the hash-table
// lookups of every keypoint of eight frames of -stages.frames (the bundled
// stills) against the catalog BenchmarkFrameStages reads (with
// -stages.extra-faces, the thousand-face one whose index is far larger
// than the processor's caches): in the first regionTables tables (a
// region's lookups), the first quickTables (the first pass's) and all of
// them. It reports the candidates compared per lookup in each table.
func BenchmarkLSHFrameLookups(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(*stagesFrames, "*.json"))
	if len(paths) == 0 {
		b.Skipf("no frames with truth in %s", *stagesFrames)
	}
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	a := stagesAnalyzer(b)
	var descs []descriptor
	for _, p := range paths[:min(len(paths), 8)] {
		truth, err := synth.LoadSceneTruth(p)
		if err != nil {
			continue // not a frame's truth
		}
		frame := gocv.IMRead(filepath.Join(*stagesFrames, truth.Image), gocv.IMReadColor)
		if frame.Empty() {
			b.Fatalf("%s: cannot read %s beside it", p, truth.Image)
		}
		cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
		if err != nil {
			b.Fatal(err)
		}
		v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
		if err != nil {
			b.Fatal(err)
		}
		top := v.warp(frame)
		gray := grayOf(top)
		f, err := a.det.detect(gray)
		top.Close()
		gray.Close()
		frame.Close()
		if err != nil {
			b.Fatal(err)
		}
		f.describeAll()
		descs = append(descs, f.Descs...)
	}
	x := a.index.lsh
	candidates := 0
	for i := range descs {
		for ti := range x.tables {
			t := &x.tables[ti]
			candidates += len(t.entries(t.bucket(&descs[i])))
		}
	}
	b.Logf("%d keypoints, %.1f candidates a lookup in a table", len(descs), float64(candidates)/float64(len(descs)*len(x.tables)))
	which := make([]int, len(descs))
	for i := range which {
		which[i] = i
	}
	out := make([]nearest, len(descs))
	for _, k := range []int{regionTables, quickTables, lshTables} {
		b.Run(fmt.Sprintf("%d tables", k), func(b *testing.B) {
			cpuPerOp(b, func() { x.queryBatch(descs, which, k, lshBucketCap, out) })
		})
	}
}
