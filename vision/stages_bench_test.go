//go:build linux

package vision

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

var stagesFrames = flag.String("stages.frames", filepath.Join("..", "samples", "stills"),
	"`DIR` of frames with truth (NNNN.jpg or .png beside NNNN.json) that BenchmarkFrameStages reads")

var stagesCatalogDir = flag.String("stages.catalog", "",
	"`DIR` of the catalog the -stages.frames were made with, e.g. a poster-face set's (default: the sample catalog)")

var stagesExtraFaces = flag.String("stages.extra-faces", "",
	"`DIR` of faces named SLUG.png for cards of ../shared/data/sorcery-cards.json, which join the sample catalog in BenchmarkFrameStages "+
		"(tablecam bench vision --catalog-size 1104 leaves 1063 of them in its cache, bench-catalog-1104/images)")

// stagesCatalog is the sample catalog, with the cards whose faces
// -stages.extra-faces holds.
func stagesCatalog(b testing.TB) *models.Catalog {
	cat := devCatalog(b)
	if *stagesCatalogDir != "" {
		var err error
		if cat, err = models.LoadCatalog(*stagesCatalogDir); err != nil {
			b.Fatal(err)
		}
	}
	if *stagesExtraFaces == "" {
		return cat
	}
	real, err := models.LoadCatalog(filepath.Join("..", "..", "shared", "data", "sorcery-cards.json"))
	if err != nil {
		b.Skip(err)
	}
	cards := cat.Cards()
	for _, c := range real.Cards() {
		if _, err := cat.Lookup(c.Name); err == nil {
			continue
		}
		if face := filepath.Join(*stagesExtraFaces, c.Slug+".png"); fileExists(face) {
			cc := *c
			cc.Image = face
			cards = append(cards, &cc)
		}
	}
	b.Logf("%d faces", len(cards))
	return models.NewCatalog(cards)
}

// stagesAnalyzer is an analyzer of stagesCatalog, closed when b ends.
func stagesAnalyzer(b *testing.B) *Analyzer {
	if *stagesExtraFaces == "" {
		return newTestAnalyzer(b, stagesCatalog(b))
	}
	// Indexing a thousand faces takes a while: from the user's cache.
	a, err := NewAnalyzer(stagesCatalog(b), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	return a
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// stageClock adds up the calling thread's CPU time stage by stage, as the
// analyzer tells it each stage's end (Analyzer.laps).
type stageClock struct {
	last  time.Duration
	total map[string]time.Duration
	order []string // the stages, in the order first seen
}

func (c *stageClock) lap(stage string) {
	now := preciseThreadCPU()
	if _, ok := c.total[stage]; !ok {
		c.order = append(c.order, stage)
	}
	c.total[stage] += now - c.last
	c.last = now
}

// BenchmarkFrameStages accounts for the CPU time of whole frames, each read
// from scratch through a view of its own (as tablecam bench vision reads
// them), stage by stage: it reports each stage's CPU time per frame
// (ms/frame, on one locked thread, one OpenCV thread). The frames are the
// bundled stills unless -stages.frames names another set, e.g.
//
//	go test -run X -bench FrameStages -benchtime 1x -stages.frames /tmp/vis777 .
func BenchmarkFrameStages(b *testing.B) {
	type frame struct {
		img gocv.Mat
		cal *calibration.Calibration
	}
	paths, _ := filepath.Glob(filepath.Join(*stagesFrames, "*.json"))
	var frames []frame
	for _, p := range paths {
		truth, err := synth.LoadSceneTruth(p)
		if err != nil {
			continue // not a frame's truth
		}
		img := gocv.IMRead(filepath.Join(*stagesFrames, truth.Image), gocv.IMReadColor)
		if img.Empty() {
			b.Fatalf("%s: cannot read %s beside it", p, truth.Image)
		}
		defer img.Close()
		cal, err := calibration.FromCorners(truth.Corners, img.Cols(), img.Rows())
		if err != nil {
			b.Fatalf("%s: %v", p, err)
		}
		if truth.Geometry.CellWidthMM > 0 {
			if cal, err = cal.WithGeometry(truth.Geometry); err != nil {
				b.Fatalf("%s: %v", p, err)
			}
		}
		frames = append(frames, frame{img, cal})
	}
	if len(frames) == 0 {
		b.Skipf("no frames with truth in %s", *stagesFrames)
	}
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	a := stagesAnalyzer(b)
	a.opts.NoReuse = false // as the bench reads frames: a stable frame is kept
	clock := &stageClock{total: map[string]time.Duration{}}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// Each frame is copied just before it is read, as a camera's frame
	// arrives just decoded: the frames read before it have pushed it out of
	// the processor's caches, a new one has not.
	fresh := gocv.NewMat()
	defer fresh.Close()
	// The frames are read once before they are timed: what an analyzer
	// builds the first time a frame needs it (the card layouts, see
	// Analyzer.turned) is built once in a session, not each frame, and
	// counted in a frame's stage it adds milliseconds to a thousand-face
	// catalog's average. (tablecam bench vision reports medians, which a
	// single slow frame leaves alone.)
	for _, f := range frames {
		f.img.CopyTo(&fresh)
		if _, err := a.Analyze(fresh, f.cal); err != nil {
			b.Fatal(err)
		}
	}
	a.laps = clock
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range frames {
			f.img.CopyTo(&fresh)
			clock.last = preciseThreadCPU()
			start := clock.last
			if _, err := a.Analyze(fresh, f.cal); err != nil {
				b.Fatal(err)
			}
			clock.lap("rest")
			total += clock.last - start
		}
	}
	n := float64(b.N * len(frames))
	perFrame := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / n }
	b.ReportMetric(perFrame(total), "cpu-ms/frame")
	stages := slices.Clone(clock.order)
	slices.SortStableFunc(stages, func(x, y string) int { return int(clock.total[y] - clock.total[x]) })
	for _, s := range stages {
		b.ReportMetric(perFrame(clock.total[s]), strings.ReplaceAll(s, " ", "_")+"-ms/frame")
	}
}

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
	edges := o.edged.sized(gray.Rows(), gray.Cols())
	o.maskFaces(gray, v, known)
	if err := o.cardEdges(gray, edges); err != nil {
		b.Fatal(err)
	}
	edgesCopy := edges.Clone()
	defer edgesCopy.Close()
	grayInto(small, &smallGray)
	stable := newStableFrame(smallGray, coarse, obs.Cards)
	defer stable.close()
	stages := []struct {
		name string
		run  func()
	}{
		{"colour half warp", func() { _ = coarse.warpInto(frame, &small) }},
		{"small grey", func() { grayInto(small, &smallGray) }},
		{"small grey, own", func() { _ = bgrGrayInto(small, &smallGray) }},
		{"frame grey", func() { grayInto(frame, &frameGray) }},
		{"frame grey, the view's part", func() { _ = v.grayFrameInto(frame, &frameGray) }},
		{"grey full warp", func() { _ = v.warpInto(frameGray, &gray) }},
		{"equalise", func() { _ = eqz.equalize(gray, &eq) }},
		{"equalise OpenCV", func() { clahe.Apply(gray, &eq) }},
		{"outline mask", func() { o.maskFaces(gray, v, known) }},
		{"outline edges", func() { _ = o.cardEdges(gray, edges) }},
		// The contour search spends the map: it is copied back first.
		{"outline contours and a copy", func() { edgesCopy.CopyTo(edges); _, _ = o.outlines(*edges, v, known) }},
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
	start := preciseThreadCPU()
	for i := 0; i < b.N; i++ {
		f()
	}
	b.ReportMetric(float64(preciseThreadCPU()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// equalizedStillsB gives the equalised top-down images of five bundled
// stills (closed when the benchmark ends), as the frame detector reads them.
func equalizedStillsB(b *testing.B) []gocv.Mat {
	var images []gocv.Mat
	for _, name := range []string{"0003", "0010", "0027", "0050", "0077"} {
		gray, v := stillTopGray(b, name)
		eq := gocv.NewMat()
		b.Cleanup(func() { eq.Close() })
		e := newContrastEqualizer(v.pxPerMM)
		err := e.equalize(gray, &eq)
		e.close()
		gray.Close()
		if err != nil {
			b.Fatal(err)
		}
		images = append(images, eq)
	}
	return images
}

// BenchmarkFrameORB times the frame detector's keypoints (not their
// descriptors) on equalised top-down images of bundled stills, one after
// another as a camera moving between tables would show them, at each vector
// width.
func BenchmarkFrameORB(b *testing.B) {
	images := equalizedStillsB(b)
	for _, w := range []struct {
		name  string
		width vectorWidth
	}{{"widest", widestVectors}, {"AVX2", avx2Vectors}} {
		o := newFrameORBWidth(Options{}.frameFeatures(), w.width)
		defer o.close()
		next := 0
		b.Run(w.name, func(b *testing.B) {
			cpuPerOp(b, func() {
				if _, err := o.detect(images[next%len(images)]); err != nil {
					b.Fatal(err)
				}
				next++
			})
		})
	}
}
