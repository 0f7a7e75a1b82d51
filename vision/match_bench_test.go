//go:build linux

package vision

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
	"golang.org/x/sys/unix"
)

// preciseThreadCPU is the calling thread's CPU time to the nanosecond
// (RUSAGE_THREAD counts in scheduler ticks on some kernels).
func preciseThreadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// BenchmarkMatchStages times, in CPU time on one thread, the parts of a
// frame's keypoint matching on a bundled still: the keypoints, each pass's
// hash-table lookups and its fitting.
func BenchmarkMatchStages(b *testing.B) {
	a, gray, f := benchFeatures(b)
	if env := os.Getenv("TABLECAM_STILL"); env != "" {
		g, v := stillTopGray(b, env)
		gray = g
		_ = v
		var err error
		if f, err = a.det.detect(gray); err != nil {
			b.Fatal(err)
		}
	}
	x := a.index
	f.describeAll()
	sample, at := quickLookups(f)
	grid := newPointGrid(f.Points, frameGridCell)
	quick := x.lookup(f, sample, quickTables)
	first := x.groupMatches(sample, quick)
	taken := make([]bool, len(f.Points))
	dets := x.fitCards(f, first, grid, taken, rand.New(rand.NewPCG(1, 7)))
	rest := unexplained(f, dets, grid)
	b.Logf("keypoints %d, first pass %d, found %d, second pass %d", len(f.Points), len(sample), len(dets), len(rest))
	stages := []struct {
		name string
		run  func()
	}{
		{"keypoints", func() { _, _ = a.det.detect(gray) }},
		{"first lookups", func() { x.groupMatches(sample, x.lookup(f, sample, quickTables)) }},
		{"first fit", func() {
			taken := make([]bool, len(f.Points))
			x.fitCards(f, first, grid, taken, rand.New(rand.NewPCG(1, 7)))
		}},
		{"unexplained", func() { unexplained(f, dets, grid) }},
		{"second lookups", func() { x.groupMatches(rest, x.lookupAgain(f, rest, quick, at)) }},
		{"matchFrame", func() { x.matchFrame(f, 1) }},
	}
	for _, s := range stages {
		s.run()
		b.Run(s.name, func(b *testing.B) { cpuPerOp(b, s.run) })
	}
}

// BenchmarkMatchStills times, in CPU time on one thread, each part of
// reading a frame in full over the bundled stills (or the frames in
// $TABLECAM_STILLS): the whole read, the keypoints, and matchFrame's
// parts, and reports the median and the mean over the frames of each.
func BenchmarkMatchStills(b *testing.B) {
	dir := os.Getenv("TABLECAM_STILLS")
	if dir == "" {
		dir = filepath.Join("..", "samples", "stills")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.jpg"))
	if len(names) == 0 {
		b.Skip("no stills")
	}
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	a := newTestAnalyzer(b, stagesCatalog(b))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	times := map[string][]float64{}
	clock := func(name string, f func()) {
		start := preciseThreadCPU()
		f()
		times[name] = append(times[name], float64(preciseThreadCPU()-start)/float64(time.Millisecond))
	}
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		for _, name := range names {
			truth, err := synth.LoadSceneTruth(strings.TrimSuffix(name, ".jpg") + ".json")
			if err != nil {
				b.Fatal(err)
			}
			frame := gocv.IMRead(name, gocv.IMReadColor)
			cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
			if err != nil {
				b.Fatal(err)
			}
			clock("analyze", func() { _, err = a.Analyze(frame, cal) })
			if err != nil {
				b.Fatal(err)
			}
			v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), a.opts)
			if err != nil {
				b.Fatal(err)
			}
			top := v.warp(frame)
			gray := grayOf(top)
			var f features
			clock("keypoints", func() { f, err = a.det.detect(gray) })
			if err != nil {
				b.Fatal(err)
			}
			x := a.index
			var sample, rest []int
			var first, second map[int][]keyMatch
			var quick []nearest
			var at []int32
			var dets []detection
			grid := newPointGrid(f.Points, frameGridCell)
			taken := make([]bool, len(f.Points))
			rng := rand.New(rand.NewPCG(1, 7))
			clock("quick sample", func() { sample, at = quickLookups(f) })
			clock("describe 1", func() { f.describe(quickSample(f)) })
			clock("lookups 1", func() { quick = x.lookup(f, sample, quickTables); first = x.groupMatches(sample, quick) })
			clock("fit 1", func() { dets = x.fitCards(f, first, grid, taken, rng) })
			clock("unexplained", func() { rest = unexplained(f, dets, grid) })
			clock("describe 2", func() { f.describe(rest) })
			clock("lookups 2", func() { second = x.groupMatches(rest, x.lookupAgain(f, rest, quick, at)) })
			var more []detection
			clock("fit 2", func() { more = x.fitCards(f, second, grid, taken, rng) })
			clock("duplicates", func() { x.withoutDuplicates(append(dets, more...), f.Points) })
			times["keypoints n"] = append(times["keypoints n"], float64(len(f.Points)))
			times["first n"] = append(times["first n"], float64(len(sample)))
			times["second n"] = append(times["second n"], float64(len(rest)))
			times["found 1 n"] = append(times["found 1 n"], float64(len(dets)))
			times["found 2 n"] = append(times["found 2 n"], float64(len(more)))
			gray.Close()
			top.Close()
			frame.Close()
		}
	}
	b.StopTimer()
	keys := make([]string, 0, len(times))
	for k := range times {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := times[k]
		sum := 0.0
		for _, t := range v {
			sum += t
		}
		b.Logf("%-14s median %7.2f  mean %7.2f", k, median(append([]float64(nil), v...)), sum/float64(len(v)))
	}
	// matchFrame's parts summed frame by frame (run with -v to see every
	// line: a benchmark's log is cut at ten lines).
	var match []float64
	for i := range times["fit 1"] {
		t := 0.0
		for _, k := range []string{"quick sample", "describe 1", "lookups 1", "fit 1", "unexplained", "describe 2", "lookups 2", "fit 2", "duplicates"} {
			t += times[k][i]
		}
		match = append(match, t)
	}
	b.Logf("matching total median %7.2f", median(match))
}

// BenchmarkLSHLookups times, in CPU time on one thread, the hash-table
// lookups alone of a bundled still's keypoints: the first pass's sample in
// the first quickTables tables, and every keypoint in all the tables.
func BenchmarkLSHLookups(b *testing.B) {
	a, _, f := benchFeatures(b)
	f.describeAll()
	x := a.index
	sample, _ := quickLookups(f)
	all := make([]int, len(f.Points))
	for i := range all {
		all[i] = i
	}
	out := make([]nearest, len(all))
	b.Run("first pass", func(b *testing.B) {
		cpuPerOp(b, func() { x.lsh.queryBatch(f.Descs, sample, quickTables, lshBucketCap, out) })
	})
	b.Run("all tables", func(b *testing.B) {
		cpuPerOp(b, func() { x.lsh.queryBatch(f.Descs, all, lshTables, lshBucketCap, out) })
	})
}
