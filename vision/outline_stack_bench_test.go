package vision

import (
	"flag"
	"image"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// Other frames and catalogs for BenchmarkStackedCards (faces unlike the
// sample catalog's leave many more clusters to look around).
var (
	stackFrames  = flag.String("stack.frames", "", "`DIR` of frames (IMAGE + .json truth) BenchmarkStackedCards reads instead of ../samples/stills")
	stackCatalog = flag.String("stack.catalog", "", "catalog `DIR` BenchmarkStackedCards reads the frames with instead of the sample catalog's first 20 faces")
)

// stackedSearch is what findStackedCards reads of one frame, as readCards
// gives it: the top-down grey image, the frame's keypoints, the matched
// cards and the cards found before (matched, and the closed outlines,
// taken as found: the outlines' own reading, by region and layout, is
// left out).
type stackedSearch struct {
	name  string
	gray  gocv.Mat
	v     *view
	f     features
	dets  []detection
	found []placed
}

// stackedSearches reads the bundled stills (the first n; all when n is 0)
// with a as readCards does up to the stacked-card search.
func stackedSearches(tb testing.TB, a *Analyzer, n int) []stackedSearch {
	tb.Helper()
	dir := filepath.Join("..", "samples", "stills")
	if *stackFrames != "" {
		dir = *stackFrames
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) == 0 {
		tb.Skip("no sample stills")
	}
	if n > 0 && n < len(paths) {
		paths = paths[:n]
	}
	var out []stackedSearch
	for _, p := range paths {
		truth, err := synth.LoadSceneTruth(p)
		if err != nil {
			tb.Fatal(err)
		}
		frame := gocv.IMRead(filepath.Join(dir, truth.Image), gocv.IMReadColor)
		if frame.Empty() {
			tb.Fatalf("cannot read %s", truth.Image)
		}
		cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
		if err != nil {
			tb.Fatal(err)
		}
		v, err := newView(cal.Corners, truth.Geometry, frame.Cols(), frame.Rows(), a.opts)
		if err != nil {
			tb.Fatal(err)
		}
		top := v.warp(frame)
		frame.Close()
		gray := grayOf(top)
		top.Close()
		tb.Cleanup(func() { gray.Close() })
		f, err := a.det.detect(gray)
		if err != nil {
			tb.Fatal(err)
		}
		dets := a.index.withoutDuplicates(a.index.matchFrame(f, 1), f.Points)
		var quads []models.Quad
		var found []placed
		for _, d := range dets {
			quads = append(quads, d.quad)
			found = append(found, placed{d.quad, a.index.refs[d.ref].Kind})
		}
		unknown, err := a.outlines.findUnknownCards(gray, sharpnessOf(gray, v), v, quads)
		if err != nil {
			tb.Fatal(err)
		}
		for _, u := range onCards(unknown, dets, f.Points, v.pxPerMM) {
			found = append(found, placed{u.quad, u.kind})
		}
		out = append(out, stackedSearch{filepath.Base(p), gray, v, f, dets, found})
	}
	return out
}

// run searches the frame for stacked cards around clusters of unexplained
// keypoints with a's outline finder (the side search, findSidedCards,
// reads the edges findUnknownCards left of the frame read last).
func (s *stackedSearch) run(a *Analyzer) []stackedCard {
	shows := func(d *detection, q models.Quad) bool { return a.faceShowsWithin(s.f, d, q, s.v.pxPerMM) }
	return a.outlines.stackedAroundClusters(s.gray, s.v, s.f.Points, s.dets, s.found, shows)
}

// stackedSearchCatalog is the catalog BenchmarkStackedCards reads the
// stills with: the 1,104 faces when -stages.extra-faces is given, else the
// sample catalog's first 20 faces by slug (the others' cards then go
// unmatched, and many show as clusters the search looks around, as
// against 1,104 faces the cards the matching misses do).
func stackedSearchCatalog(b *testing.B) *models.Catalog {
	if *stackCatalog != "" {
		cat, err := models.LoadCatalog(*stackCatalog)
		if err != nil {
			b.Fatal(err)
		}
		return cat
	}
	if *stagesExtraFaces != "" {
		return stagesCatalog(b)
	}
	return firstFacesCatalog(b, 20)
}

// firstFacesCatalog is the sample catalog with only its first n faces by
// slug.
func firstFacesCatalog(t testing.TB, n int) *models.Catalog {
	full := devCatalog(t)
	var slugs []string
	for _, c := range full.Cards() {
		slugs = append(slugs, c.Slug)
	}
	slices.Sort(slugs)
	missing := map[string]bool{}
	for _, s := range slugs[n:] {
		missing[s] = true
	}
	return catalogWithout(full, missing)
}

// BenchmarkStackedCards times the stacked-card search (findStackedCards)
// alone on the bundled stills, in CPU time of one locked thread per frame.
func BenchmarkStackedCards(b *testing.B) {
	benchmarkSearch(b, stackedSearches)
}

// searchRun is one still's search, made ready to run again.
type searchRun interface {
	run(a *Analyzer) []stackedCard
}

// benchmarkSearch times the runs that searches makes of one search (one a
// still), in CPU time of one locked thread per frame, and reports the
// cards they find.
func benchmarkSearch[S any, PS interface {
	*S
	searchRun
}](b *testing.B, searches func(testing.TB, *Analyzer, int) []S) {
	prev := SetOpenCVThreads(1)
	defer SetOpenCVThreads(prev)
	a, err := NewAnalyzer(stackedSearchCatalog(b), Options{CacheDir: cacheDirFor(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	runs := searches(b, a, 0)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	found := 0
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range runs {
			start := preciseThreadCPU()
			found += len(PS(&runs[k]).run(a))
			cpu += preciseThreadCPU() - start
		}
	}
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N*len(runs)), "cpu-ms/frame")
	b.ReportMetric(float64(found)/float64(b.N), "cards")
}

// cacheDirFor is the user's cache for the 1,104 faces (indexing them takes
// a while), else a temporary one.
func cacheDirFor(b *testing.B) string {
	if *stagesExtraFaces != "" {
		return ""
	}
	return b.TempDir()
}

// TestStackedCardsSideCounts checks the stacked-card search, whose
// rectangles' sides are counted by their lines' running counts
// (lineCount), against counting each side's points anew: the same cards
// on the bundled stills, read with a catalog of 20 faces (the other cards
// go unmatched and are looked for).
func TestStackedCardsSideCounts(t *testing.T) {
	a := newTestAnalyzer(t, firstFacesCatalog(t, 20))
	n := 60
	if testing.Short() {
		n = 15
	}
	cards := 0
	for _, s := range stackedSearches(t, a, n) {
		got := s.run(a)
		a.outlines.plainSideCounts = true
		want := s.run(a)
		a.outlines.plainSideCounts = false
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: stacked cards %v, counting each side anew %v", s.name, got, want)
		}
		cards += len(want)
	}
	if cards == 0 {
		t.Fatal("no stacked card found: the comparison says little")
	}
}

// TestLineCountIsCountOnLine checks lineCount against countOnLine on
// random edge maps: lines at random turns, spans of half-integer and whole
// ends (and others, which it must leave to countOnLine) asked for in any
// order on the same lines, empty and reversed ones too.
func TestLineCountIsCountOnLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	counted := 0
	for trial := 0; trial < 40; trial++ {
		w, h := 50+rng.IntN(200), 50+rng.IntN(200)
		e := edgeMap{pix: make([]byte, w*h), w: w, h: h, off: image.Pt(rng.IntN(40)-20, rng.IntN(40)-20)}
		for i := range e.pix {
			if rng.IntN(3) == 0 {
				e.pix[i] = 255
			}
		}
		s := sideSnapper{edges: e, lines: map[lineKey]*lineCounts{}}
		alpha := rng.Float64() * math.Pi
		ca, sa := math.Cos(alpha), math.Sin(alpha)
		on := func(alongU bool, pos, t float64) bool {
			if alongU {
				return e.on(pos*ca-t*sa, pos*sa+t*ca)
			}
			return e.on(t*ca-pos*sa, t*sa+pos*ca)
		}
		for q := 0; q < 300; q++ {
			alongU := rng.IntN(2) == 0
			pos := float64(rng.IntN(20)*10-50) + 0.5
			end := func() float64 {
				v := float64(rng.IntN(400) - 150)
				switch rng.IntN(6) {
				case 0:
					return v // whole
				case 1:
					return v + rng.Float64() // neither
				}
				return v + 0.5
			}
			lo, hi := end(), end()
			if rng.IntN(5) > 0 && lo > hi {
				lo, hi = hi, lo
			}
			want := countOnLine(alongU, pos, lo, hi, on)
			l := turnedLines{e: e, ca: ca, sa: sa}
			if n := l.count(alongU, pos, lo, hi); n != want {
				t.Fatalf("trial %d: turnedLines.count(%v, %v, %v, %v) = %d, countOnLine %d", trial, alongU, pos, lo, hi, n, want)
			}
			got, ok := s.lineCount(alpha, l, alongU, pos, lo, hi)
			if frac := lo - math.Floor(lo); ok != (frac == 0 || frac == 0.5) {
				t.Fatalf("lineCount(%v, %v) ok %v", lo, hi, ok)
			}
			if ok && got != want {
				t.Fatalf("trial %d: lineCount(%v, %v, %v, %v) = %d, countOnLine %d", trial, alongU, pos, lo, hi, got, want)
			}
			counted += want
		}
	}
	if counted == 0 {
		t.Fatal("no point on an edge: nothing compared")
	}
}

// strongDirectionsPlain is strongDirections binning each pixel's direction
// as it reads it (math.Mod for modQuarter): its reference.
func strongDirectionsPlain(px []edgePixel) []float64 {
	n := int(math.Round(90 / stackDirBinDeg))
	hist := make([]float64, n)
	for _, p := range px {
		b := int(math.Floor(math.Mod(float64(p.dir), math.Pi/2) / (math.Pi / 2) * float64(n)))
		hist[(b%n+n)%n]++
	}
	smooth := make([]float64, n)
	for i := range hist {
		for k := -2; k <= 2; k++ {
			smooth[i] += hist[(i+k+n)%n]
		}
	}
	type peak struct {
		bin int
		v   float64
	}
	var peaks []peak
	for i, v := range smooth {
		if v > 0 && v >= smooth[(i+n-1)%n] && v > smooth[(i+1)%n] {
			peaks = append(peaks, peak{i, v})
		}
	}
	sort.Slice(peaks, func(i, j int) bool { return peaks[i].v > peaks[j].v })
	var out []float64
	for _, p := range peaks {
		a := (float64(p.bin) + 0.5) * stackDirBinDeg * math.Pi / 180
		if nearDirection(a, out) {
			continue
		}
		out = append(out, a)
		if len(out) == stackDirections {
			break
		}
	}
	return out
}

// TestDirectionBinsAsRead checks the direction bins each edge pixel
// carries (newEdgePixel) against binning its direction where it is read:
// strongDirections against strongDirectionsPlain, and each pixel's
// dirPixels bin, on random directions, those at and beside the bins'
// bounds, and a still's edge pixels.
func TestDirectionBinsAsRead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	var px []edgePixel
	for i := 0; i < 20000; i++ {
		d := rng.Float64() * math.Pi
		if i%4 == 0 { // a bound of a bin, or beside it
			d = float64(rng.IntN(361)) * math.Pi / 360
			d = math.Nextafter(d, d+float64(rng.IntN(3)-1))
		}
		px = append(px, newEdgePixel(rng.IntN(400), rng.IntN(400), math.Max(0, math.Min(d, math.Nextafter(math.Pi, 0)))))
	}
	gray, _ := stillTopGray(t, "0042")
	defer gray.Close()
	o := newOutlineFinder()
	defer o.close()
	span := image.Rect(100, 80, 1100, 700)
	e, err := o.stackEdges(gray, span, []image.Rectangle{span})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.px) == 0 {
		t.Fatal("no edge pixel in the still")
	}
	sets := [][]edgePixel{px, e.px}
	for k := 0; k < 50; k++ { // a few directions heaped
		var set []edgePixel
		for range 50 + rng.IntN(500) {
			p := px[rng.IntN(len(px))]
			if rng.IntN(3) == 0 {
				p = e.px[rng.IntN(len(e.px))]
			}
			set = append(set, p)
		}
		sets = append(sets, set)
	}
	for i, set := range sets {
		if got, want := strongDirections(set), strongDirectionsPlain(set); !slices.Equal(got, want) {
			t.Errorf("set %d: strong directions %v, binned as read %v", i, got, want)
		}
	}
	for _, p := range append(px, e.px...) {
		if int(p.bin) != dirBin(float64(p.dir)) {
			t.Fatalf("direction %v: bin %d, dirBin %d", p.dir, p.bin, dirBin(float64(p.dir)))
		}
	}
	byDir := byDirectionIn(e.px, image.Rect(0, 0, span.Dx(), span.Dy()))
	if len(byDir.px) != len(e.px) {
		t.Fatalf("%d of %d edge pixels filed", len(byDir.px), len(e.px))
	}
	for b := 0; b < dirBins; b++ {
		for _, p := range byDir.px[byDir.start[b]:byDir.start[b+1]] {
			if dirBin(float64(p.dir)) != b {
				t.Fatalf("direction %v filed in bin %d, dirBin %d", p.dir, b, dirBin(float64(p.dir)))
			}
		}
	}
}

// byDirectionPlain files the edge pixels of px that lie in r by their
// gradients' direction, as rectanglesAround first did: those in r picked
// out, then filed, each binned as read. byDirectionIn's reference.
func byDirectionPlain(px []edgePixel, r image.Rectangle) *dirPixels {
	var in []edgePixel
	for _, p := range px {
		if image.Pt(int(p.x), int(p.y)).In(r) {
			in = append(in, p)
		}
	}
	out := &dirPixels{px: make([]edgePixel, len(in))}
	for _, p := range in {
		out.start[dirBin(float64(p.dir))+1]++
	}
	for i := 1; i <= dirBins; i++ {
		out.start[i] += out.start[i-1]
	}
	next := out.start
	for _, p := range in {
		b := dirBin(float64(p.dir))
		out.px[next[b]] = p
		next[b]++
	}
	return out
}

// TestSquarePixelsByDirection checks the edge pixels rectanglesAround
// files for a square (byDirectionIn of the run of the square's rows,
// rowsOf) against picking those in the square out of all and filing them
// (byDirectionPlain), and that the directions they show are the same:
// squares of a still's edges, inside the part, across its border and off
// it.
func TestSquarePixelsByDirection(t *testing.T) {
	gray, _ := stillTopGray(t, "0042")
	defer gray.Close()
	o := newOutlineFinder()
	defer o.close()
	span := image.Rect(100, 80, 1100, 700)
	squares := []image.Rectangle{image.Rect(150, 90, 550, 490), image.Rect(400, 300, 800, 700), image.Rect(900, 80, 1100, 280)}
	e, err := o.stackEdges(gray, span, squares)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	filed := 0
	for k := 0; k < 200; k++ {
		x0, y0 := rng.IntN(span.Dx()+200)-100, rng.IntN(span.Dy()+200)-100
		in := image.Rect(x0, y0, x0+rng.IntN(500), y0+rng.IntN(500))
		if k < len(squares) {
			in = squares[k].Sub(span.Min)
		}
		got, want := byDirectionIn(rowsOf(e.px, in), in), byDirectionPlain(e.px, in)
		if got.start != want.start || !slices.Equal(got.px, want.px) {
			t.Fatalf("square %v: %d edge pixels filed, picked out and filed %d", in, len(got.px), len(want.px))
		}
		var listed []edgePixel
		for _, p := range e.px {
			if image.Pt(int(p.x), int(p.y)).In(in) {
				listed = append(listed, p)
			}
		}
		if !slices.Equal(strongDirections(got.px), strongDirections(listed)) {
			t.Fatalf("square %v: the filed pixels show directions %v, as listed %v", in, strongDirections(got.px), strongDirections(listed))
		}
		filed += len(want.px)
	}
	if filed == 0 {
		t.Fatal("no edge pixel in any square: nothing compared")
	}
}
