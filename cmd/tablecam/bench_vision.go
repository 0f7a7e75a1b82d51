package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/samples"
	"github.com/tablecam/tablecam/synth"
	"github.com/tablecam/tablecam/vision"
	"gocv.io/x/gocv"
	"golang.org/x/sys/unix"
)

// Targets of issue 4, section 6.
const (
	targetFound         = 0.98
	targetCornerErr     = 0.01 // of the realm's width
	targetRecall50      = 0.99
	targetIDFull        = 0.99
	targetIDHalfSite    = 0.90
	targetRotation      = 0.99
	targetFrameMS       = 20.0
	targetIdentifyMS    = 5.0
	realCatalogFaces    = 1104
	benchVisionUsageMsg = "usage: tablecam bench vision [--frames DIR] [--catalog DIR] [--limit N] [--threads N] [--detect] [--no-realm] [--catalog-size N] [--catalog-faces N] [--misses] [--cpuprofile FILE]"
)

// benchVisionFlags are the options of "tablecam bench vision".
type benchVisionFlags struct {
	frames, catalog, cache, realList string
	cpuProfile                       string
	limit, threads, catalogSize      int
	catalogFaces                     int
	detect, misses, noRealm          bool
}

// runBenchVision measures vision over still frames with truth: realm
// detection, card detection and identification, rotation, owner, tapped,
// occlusion and speed.
func runBenchVision(ctx context.Context, e env) int {
	fs := flag.NewFlagSet("tablecam bench vision", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var f benchVisionFlags
	fs.StringVar(&f.frames, "frames", "", "directory of NNNN.jpg frames with NNNN.json truth (default: the bundled samples/stills)")
	fs.StringVar(&f.catalog, "catalog", "", "catalog directory with the frames' reference faces (default: a catalog folder in or beside the frames folder, as synth leaves one, else the bundled sample catalog)")
	fs.StringVar(&f.cache, "cache", "", "directory of the index cache and of rendered bench catalogs (default: the user cache directory)")
	fs.IntVar(&f.limit, "limit", 0, "read only the first N frames")
	fs.IntVar(&f.threads, "threads", 1, "OpenCV threads while timing (1: one core, as the targets are stated)")
	fs.BoolVar(&f.misses, "misses", false, "list every missed or misnamed card on stderr")
	fs.BoolVar(&f.noRealm, "no-realm", false, "skip measuring realm detection (faster when only the cards' figures matter)")
	fs.BoolVar(&f.detect, "detect", false, "read cards with the automatically detected realm instead of the truth corners")
	fs.IntVar(&f.catalogSize, "catalog-size", 0, fmt.Sprintf("also read the frames and time identification against a catalog of N faces (e.g. %d, the realistic case): the catalog plus faces rendered for the real card list's names", realCatalogFaces))
	fs.IntVar(&f.catalogFaces, "catalog-faces", 0, "read the frames against only the first N faces of the catalog by slug, the other cards left without a face (a player who scanned one deck, or a few cards): wrong names, and how the cards without a face are reported")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the frames' analysis to this `FILE` (for go tool pprof)")
	fs.StringVar(&f.realList, "real-list", "../shared/data/sorcery-cards.json", "card list whose names the --catalog-size faces are rendered for")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, benchVisionUsageMsg)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if f.frames == "" {
		p, err := samples.Path("stills")
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: no --frames given and %v\n", err)
			return 2
		}
		f.frames = p
	}
	if f.catalog == "" {
		p, err := framesCatalog(f.frames)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: no --catalog given, none beside %s, and %v\n", f.frames, err)
			return 2
		}
		f.catalog = p
	}
	frames, err := benchFrames(f.frames, f.limit)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench vision: %v\n", err)
		return 2
	}
	cat, err := models.LoadCatalog(f.catalog)
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench vision: %v\n", err)
		return 2
	}
	if f.catalogFaces < 0 {
		fmt.Fprintf(e.stderr, "tablecam bench vision: --catalog-faces %d: want a positive number of faces\n", f.catalogFaces)
		return 2
	}
	if f.catalogFaces > 0 {
		cat = firstFaces(cat, f.catalogFaces)
	}
	prev := vision.SetOpenCVThreads(f.threads)
	defer vision.SetOpenCVThreads(prev)

	an, err := vision.NewAnalyzer(cat, vision.Options{CacheDir: f.cache, Progress: e.stderr})
	if err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench vision: %v\n", err)
		return 2
	}
	defer an.Close()
	b := newVisionBench()
	b.faces = an.Faces()
	b.hasFace = facesOf(cat)
	if f.misses {
		b.log = e.stderr
	}
	barOut := e.stderr
	if f.misses {
		barOut = io.Discard
	}
	if f.cpuProfile != "" {
		fh, err := os.Create(f.cpuProfile)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: --cpuprofile: %v\n", err)
			return 2
		}
		defer fh.Close()
		if err := pprof.StartCPUProfile(fh); err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: --cpuprofile: %v\n", err)
			return 1
		}
	}
	// Frames are read on one locked OS thread, so that the thread's CPU time
	// is the analysis's own, whatever else the machine runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := b.readFrames(ctx, an, frames, f, barOut, "reading frames", !f.noRealm); err != nil {
		fmt.Fprintf(e.stderr, "tablecam bench vision: %v\n", err)
		return exitCode(err)
	}
	if f.cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	b.identifyAll(an, frames, "catalog", an.Faces(), b.hasFace)
	var big *visionBench
	if f.catalogSize > 0 {
		bigCat, note, err := visionBenchCatalog(cat, f, e.stderr)
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: --catalog-size: %v\n", err)
			return 1
		}
		bigAn, err := vision.NewAnalyzer(bigCat, vision.Options{CacheDir: f.cache, Progress: e.stderr})
		if err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: --catalog-size: %v\n", err)
			return 1
		}
		defer bigAn.Close()
		b.bigNote = note
		b.identifyAll(bigAn, frames, "big", bigAn.Faces(), facesOf(bigCat))
		// The realistic case: a player loads the whole card list with its
		// faces. The same frames are read again against it.
		big = newVisionBench()
		big.faces = bigAn.Faces()
		big.hasFace = facesOf(bigCat)
		if b.log != nil {
			big.log = prefixWriter{w: b.log, prefix: fmt.Sprintf("[%d faces] ", bigCat.Len())}
		}
		if err := big.readFrames(ctx, bigAn, frames, f, barOut, fmt.Sprintf("reading frames against %d faces", bigCat.Len()), false); err != nil {
			fmt.Fprintf(e.stderr, "tablecam bench vision: --catalog-size: %v\n", err)
			return exitCode(err)
		}
	}
	b.report(e.stdout, f)
	if big != nil {
		big.reportFrames(e.stdout, b.bigNote)
	}
	return 0
}

// errInterrupted is readFrames' error when the context ends.
var errInterrupted = errors.New("interrupted")

// exitCode is the exit code for readFrames' error: 1 when interrupted, 2
// for a frame that cannot be read.
func exitCode(err error) int {
	if errors.Is(err, errInterrupted) {
		return 1
	}
	return 2
}

// readFrames reads and scores every frame with an, showing progress on
// barOut; realm says whether realm detection is measured too.
//
// The realms are found first, every frame's, and the cards read after: a
// session finds the realm once and then reads frame after frame, and a
// frame read right after a realm search would pay for that search's
// garbage (hundreds of megabytes on a frame it retries) and find the
// processor's caches full of it, which doubles its time.
func (b *visionBench) readFrames(ctx context.Context, an *vision.Analyzer, frames []benchFrame, f benchVisionFlags, barOut io.Writer, desc string, realm bool) error {
	detected := make([]*calibration.Calibration, len(frames))
	if realm || f.detect {
		bar := benchBar(barOut, len(frames), "finding realms")
		for i, fr := range frames {
			if ctx.Err() != nil {
				return errInterrupted
			}
			cal, err := b.realm(fr)
			if err != nil {
				return err
			}
			detected[i] = cal
			bar.Add(1)
		}
		bar.Finish()
		runtime.GC()
	}
	bar := benchBar(barOut, len(frames), desc)
	for i, fr := range frames {
		if ctx.Err() != nil {
			return errInterrupted
		}
		if err := b.frame(an, fr, f.detect, detected[i]); err != nil {
			return err
		}
		bar.Add(1)
	}
	bar.Finish()
	return nil
}

// benchFrame is one still with its truth.
type benchFrame struct {
	image string
	truth *synth.SceneTruth
}

func benchFrames(dir string, limit int) ([]benchFrame, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []benchFrame
	for _, p := range paths {
		t, err := synth.LoadSceneTruth(p)
		if err != nil {
			continue // not a scene truth file
		}
		img := t.Image
		if img == "" {
			img = strings.TrimSuffix(filepath.Base(p), ".json") + ".jpg"
		}
		out = append(out, benchFrame{image: filepath.Join(dir, img), truth: t})
		if limit > 0 && len(out) == limit {
			break
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no frames with truth (NNNN.jpg + NNNN.json)", dir)
	}
	return out, nil
}

// progress counts work done. On a terminal it is a bar redrawn in place; on
// a pipe or a log file, where every redraw would be a line of its own, it
// writes a line at each quarter of the work.
type progress interface {
	Add(n int) error
	Finish() error
}

func benchBar(w io.Writer, n int, desc string) progress {
	if !isTerminal(w) {
		return &quarterLines{w: w, n: n, desc: desc}
	}
	return progressbar.NewOptions(n, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(), progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
}

// quarterLines is progress for logs: "desc: 25/100" at each quarter.
type quarterLines struct {
	w           io.Writer
	desc        string
	n, done     int
	lastQuarter int
}

func (q *quarterLines) Add(k int) error {
	q.done += k
	if q.n <= 0 {
		return nil
	}
	if quarter := 4 * q.done / q.n; quarter > q.lastQuarter && quarter < 4 {
		q.lastQuarter = quarter
		fmt.Fprintf(q.w, "%s: %d/%d\n", q.desc, q.done, q.n)
	}
	return nil
}

func (q *quarterLines) Finish() error {
	if q.n > 0 {
		fmt.Fprintf(q.w, "%s: %d/%d done\n", q.desc, q.done, q.n)
	}
	return nil
}

// ratio counts successes.
type ratio struct{ ok, n int }

func (r *ratio) add(ok bool) {
	r.n++
	if ok {
		r.ok++
	}
}

func (r ratio) value() float64 {
	if r.n == 0 {
		return math.NaN()
	}
	return float64(r.ok) / float64(r.n)
}

func (r ratio) String() string {
	if r.n == 0 {
		return "     n/a (0)"
	}
	return fmt.Sprintf("%6.1f%% (%d/%d)", 100*r.value(), r.ok, r.n)
}

// visibleBuckets are the visible-fraction ranges recall is reported for.
var visibleBuckets = []struct {
	lo, hi float64
	name   string
}{
	{0, 0.25, "<25%"}, {0.25, 0.5, "25–50%"}, {0.5, 0.75, "50–75%"}, {0.75, 0.999, "75–99%"}, {0.999, 2, "100%"},
}

// visionBench accumulates the figures.
type visionBench struct {
	frames                                     int
	found                                      ratio
	cornerErr                                  []float64
	south                                      map[calibration.Side]int // frames by the image side given as south (the truth's)
	turned                                     int                      // realms found within targetCornerErr but turned half round
	realmMS, realmCPU                          []float64                // Detect's time per frame, and the CPU time of all its goroutines
	recall                                     []ratio
	recall50                                   ratio
	recall50Clear                              ratio // in the frames with no hand or object over the realm (truth)
	precision                                  ratio
	idSites, idUnits, idTokens, idFull, idHalf ratio
	wrongNames                                 int
	namedOnNoCard                              int // cards named that match no card of the truth (no true centre near theirs)
	rotation, owner, tapped                    ratio
	occluded                                   ratio
	occTP, occFP, occFN                        int
	frameMS, steadyMS                          []float64
	frameCPU, steadyCPU                        []float64 // CPU time of the analysing thread
	identify                                   map[string]*identifyFigures
	bigNote                                    string
	faces                                      int             // the faces the frames are read against
	hasFace                                    map[string]bool // the slugs of the cards with a face
	// Cards of the frames whose face is not in the catalog: reported as
	// an unknown card, not found, or named (wrongly: counted in wrongNames too).
	faceless                       ratio // found, as unknown or named
	facelessUnknown, facelessNamed int
	log                            io.Writer // misses are listed here when not nil
}

type identifyFigures struct {
	faces   int
	correct ratio // of the cards with a face
	unknown ratio // of the cards without a face: left unknown
	wrong   int   // cards named as another card (not left unknown)
	ms      []float64
	cpu     []float64 // CPU time of the identifying thread
}

func newVisionBench() *visionBench {
	return &visionBench{recall: make([]ratio, len(visibleBuckets)), identify: map[string]*identifyFigures{}, south: map[calibration.Side]int{}}
}

// turnedHalfRound says whether the detected corners are the true realm's
// read turned half round (south and north swapped, within targetCornerErr
// of the realm's width): the right realm with an orientation fault, which
// the ordered corner error counts as a realm a whole width off.
func turnedHalfRound(detected, truth models.Quad) bool {
	width := math.Hypot(truth[1].X-truth[0].X, truth[1].Y-truth[0].Y)
	var worst, half float64
	for i := range truth {
		j := (i + 2) % 4
		worst = math.Max(worst, math.Hypot(detected[i].X-truth[i].X, detected[i].Y-truth[i].Y))
		half = math.Max(half, math.Hypot(detected[i].X-truth[j].X, detected[i].Y-truth[j].Y))
	}
	return half <= targetCornerErr*width && half < worst
}

// realm finds the realm of one still and scores it: the calibration found,
// or nil.
func (b *visionBench) realm(fr benchFrame) (*calibration.Calibration, error) {
	img := gocv.IMRead(fr.image, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return nil, fmt.Errorf("%s: cannot read image", fr.image)
	}
	t := fr.truth
	realmWidth := math.Hypot(t.Corners[1].X-t.Corners[0].X, t.Corners[1].Y-t.Corners[0].Y)
	// The user's setting for this camera: the image side the truth's
	// south edge (A1–E1) faces.
	south := calibration.SideOf(t.Corners)
	b.south[south]++
	start, cpu := time.Now(), processCPUTime()
	detected, err := calibration.Detect(img, calibration.Options{Geometry: t.Geometry, South: south})
	b.realmMS = append(b.realmMS, ms(time.Since(start)))
	if cpu >= 0 {
		b.realmCPU = append(b.realmCPU, ms(processCPUTime()-cpu))
	}
	b.found.add(err == nil)
	if err != nil {
		if b.log != nil {
			fmt.Fprintf(b.log, "%s: realm not found: %v\n", fr.image, err)
		}
		return nil, nil
	}
	worst := 0.0
	for i := range t.Corners {
		worst = math.Max(worst, math.Hypot(detected.Corners[i].X-t.Corners[i].X, detected.Corners[i].Y-t.Corners[i].Y))
	}
	b.cornerErr = append(b.cornerErr, worst/realmWidth)
	if turnedHalfRound(detected.Corners, t.Corners) {
		b.turned++
		if b.log != nil {
			fmt.Fprintf(b.log, "%s: realm found turned half round (south given as the image %s)\n", fr.image, south)
		}
	}
	return detected, nil
}

// frame reads the cards of one still and scores them, with the truth
// corners or, when useDetected is set, the realm detected (nil: not
// found, and the truth corners are used).
func (b *visionBench) frame(an *vision.Analyzer, fr benchFrame, useDetected bool, detected *calibration.Calibration) error {
	img := gocv.IMRead(fr.image, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		return fmt.Errorf("%s: cannot read image", fr.image)
	}
	t := fr.truth
	b.frames++
	cal, err := calibration.FromCorners(t.Corners, img.Cols(), img.Rows())
	if err != nil {
		return fmt.Errorf("%s: truth corners: %w", fr.image, err)
	}
	if t.Geometry.CellWidthMM > 0 {
		if cal, err = cal.WithGeometry(t.Geometry); err != nil {
			return fmt.Errorf("%s: truth geometry: %w", fr.image, err)
		}
	}
	if useDetected && detected != nil {
		cal = detected
	}
	start, cpu := time.Now(), threadCPUTime()
	obs, err := an.Analyze(img, cal)
	b.frameMS = append(b.frameMS, ms(time.Since(start)))
	if cpu >= 0 {
		b.frameCPU = append(b.frameCPU, ms(threadCPUTime()-cpu))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", fr.image, err)
	}
	start, cpu = time.Now(), threadCPUTime()
	if _, err := an.Analyze(img, cal); err != nil {
		return fmt.Errorf("%s: %w", fr.image, err)
	}
	b.steadyMS = append(b.steadyMS, ms(time.Since(start)))
	if cpu >= 0 {
		b.steadyCPU = append(b.steadyCPU, ms(threadCPUTime()-cpu))
	}

	b.occluded.add(obs.Occluded == t.Occluded)
	if b.log != nil && obs.Occluded != t.Occluded {
		fmt.Fprintf(b.log, "%s: occluded %v, truth %v\n", fr.image, obs.Occluded, t.Occluded)
	}
	switch {
	case obs.Occluded && t.Occluded:
		b.occTP++
	case obs.Occluded:
		b.occFP++
	case t.Occluded:
		b.occFN++
	}
	b.score(obs, t, fr.image)
	return nil
}

// score pairs observed cards with true ones (nearest centres, one to one)
// and counts.
func (b *visionBench) score(obs models.FrameObservation, t *synth.SceneTruth, image string) {
	type pair struct {
		ti, oi int
		d      float64
	}
	var pairs []pair
	for ti, tc := range t.Cards {
		limit := 0.35 * shortSide(tc.Quad)
		for oi, oc := range obs.Cards {
			a, c := tc.Quad.Center(), oc.Quad.Center()
			if d := math.Hypot(a.X-c.X, a.Y-c.Y); d < limit {
				pairs = append(pairs, pair{ti, oi, d})
			}
		}
	}
	// Same-name pairs first, so that a card read correctly under another is
	// not paired with the other because its centre happens to be nearer.
	sameName := func(p pair) bool { return obs.Cards[p.oi].NameOr("") == t.Cards[p.ti].Name }
	sort.Slice(pairs, func(i, j int) bool {
		if a, b := sameName(pairs[i]), sameName(pairs[j]); a != b {
			return a
		}
		return pairs[i].d < pairs[j].d
	})
	matchOf := make([]int, len(t.Cards))
	for i := range matchOf {
		matchOf[i] = -1
	}
	usedObs := make([]bool, len(obs.Cards))
	for _, p := range pairs {
		if matchOf[p.ti] >= 0 || usedObs[p.oi] {
			continue
		}
		matchOf[p.ti], usedObs[p.oi] = p.oi, true
	}
	for oi, u := range usedObs {
		b.precision.add(u)
		if oc := obs.Cards[oi]; !u && oc.Identified() {
			// A name where no true card's centre lies near: a card
			// not on the table, or one placed far off its own.
			b.namedOnNoCard++
			if b.log != nil {
				fmt.Fprintf(b.log, "%s: %s %s (rotation %d) named, matching no true card\n", image, cellName(oc.Cell), oc.NameOr(""), oc.Rotation)
			}
		} else if !u && b.log != nil {
			// Found where no true card lies: what costs precision.
			fmt.Fprintf(b.log, "%s: %s unknown %s (rotation %d) found, matching no true card\n", image, cellName(oc.Cell), oc.Kind, oc.Rotation)
		}
	}
	for ti, tc := range t.Cards {
		m := matchOf[ti]
		vf := tc.VisibleFraction
		for bi, bk := range visibleBuckets {
			if vf >= bk.lo && vf < bk.hi {
				b.recall[bi].add(m >= 0)
			}
		}
		if vf >= 0.5 {
			b.recall50.add(m >= 0)
			if !t.Occluded {
				b.recall50Clear.add(m >= 0)
			}
		}
		named := m >= 0 && obs.Cards[m].NameOr("") == tc.Name
		if b.log != nil && !named {
			got := "not found"
			if m >= 0 {
				got = "read as " + obs.Cards[m].NameOr("unknown")
			}
			fmt.Fprintf(b.log, "%s: %s %s (rotation %d, %.0f%% visible): %s\n", image, cellName(tc.Cell), tc.Name, tc.Rotation, 100*vf, got)
		}
		if m >= 0 && obs.Cards[m].Identified() && !named {
			b.wrongNames++
		}
		if !b.hasFace[tc.Slug] {
			b.faceless.add(m >= 0)
			switch {
			case m >= 0 && obs.Cards[m].Identified():
				b.facelessNamed++
			case m >= 0:
				b.facelessUnknown++
			}
		}
		switch {
		case tc.Token:
			b.idTokens.add(named)
		case tc.Type == models.Site:
			b.idSites.add(named)
			if vf >= 0.4 && vf < 0.8 {
				b.idHalf.add(named)
			}
		default:
			b.idUnits.add(named)
		}
		if vf >= 0.999 {
			b.idFull.add(named)
		}
		if m >= 0 && obs.Cards[m].Identified() {
			oc := obs.Cards[m]
			b.rotation.add(int(oc.Rotation) == tc.Rotation)
			b.owner.add(oc.Owner == tc.Owner)
			b.tapped.add(oc.Tapped == tc.Tapped)
		}
	}
}

func cellName(c *models.Cell) string {
	if c == nil {
		return "off-grid"
	}
	return c.String()
}

func shortSide(q models.Quad) float64 {
	s := math.Inf(1)
	for i := range q {
		j := (i + 1) % 4
		s = math.Min(s, math.Hypot(q[j].X-q[i].X, q[j].Y-q[i].Y))
	}
	return s
}

// identifyAll times Identify on every fully visible card of the frames, cut
// out along its true outline but starting from the corner nearest the image's
// top-left, so the crop does not give away the card's turn.
func (b *visionBench) identifyAll(an *vision.Analyzer, frames []benchFrame, key string, faces int, hasFace map[string]bool) {
	fig := &identifyFigures{faces: faces}
	b.identify[key] = fig
	for _, fr := range frames {
		img := gocv.IMRead(fr.image, gocv.IMReadColor)
		if img.Empty() {
			continue
		}
		for _, tc := range fr.truth.Cards {
			if tc.VisibleFraction < 0.999 {
				continue
			}
			crop := cropCard(img, tc.Quad)
			start, cpu := time.Now(), threadCPUTime()
			o, _ := an.Identify(crop)
			fig.ms = append(fig.ms, ms(time.Since(start)))
			if cpu >= 0 {
				fig.cpu = append(fig.cpu, ms(threadCPUTime()-cpu))
			}
			crop.Close()
			if hasFace[tc.Slug] {
				fig.correct.add(o.NameOr("") == tc.Name)
			} else {
				fig.unknown.add(o.Name == nil)
			}
			if o.Name != nil && *o.Name != tc.Name {
				fig.wrong++
			}
			if b.log != nil && o.NameOr("") != tc.Name && (hasFace[tc.Slug] || o.Name != nil) {
				fmt.Fprintf(b.log, "%s: identify, %d faces: %s (rotation %d): read as %s\n", fr.image, faces, tc.Name, tc.Rotation, o.NameOr("unknown"))
			}
		}
		img.Close()
	}
}

// cropCard warps a card's outline to an upright rectangle, starting at the
// outline's corner nearest the image's top-left.
func cropCard(img gocv.Mat, q models.Quad) gocv.Mat {
	start, best := 0, math.Inf(1)
	for i, p := range q {
		if d := p.X + p.Y; d < best {
			start, best = i, d
		}
	}
	var r [4]image.Point
	for i := range r {
		p := q[(start+i)%4]
		r[i] = image.Pt(int(math.Round(p.X)), int(math.Round(p.Y)))
	}
	w := int(math.Hypot(float64(r[1].X-r[0].X), float64(r[1].Y-r[0].Y)))
	h := int(math.Hypot(float64(r[3].X-r[0].X), float64(r[3].Y-r[0].Y)))
	src := gocv.NewPointVectorFromPoints(r[:])
	defer src.Close()
	dst := gocv.NewPointVectorFromPoints([]image.Point{{0, 0}, {w, 0}, {w, h}, {0, h}})
	defer dst.Close()
	m := gocv.GetPerspectiveTransform(src, dst)
	defer m.Close()
	out := gocv.NewMat()
	gocv.WarpPerspective(img, &out, m, image.Pt(max(w, 1), max(h, 1)))
	return out
}

// visionBenchCatalog builds a catalog of n faces: the given catalog's cards plus
// faces rendered by the sample renderer for names of the real card list
// (cached on disk).
func visionBenchCatalog(base *models.Catalog, f benchVisionFlags, stderr io.Writer) (*models.Catalog, string, error) {
	real, err := models.LoadCatalog(f.realList)
	if err != nil {
		return nil, "", fmt.Errorf("the real card list: %w", err)
	}
	dir := f.cache
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, "", err
		}
		dir = filepath.Join(cache, "tablecam")
	}
	dir = filepath.Join(dir, fmt.Sprintf("bench-catalog-%d", f.catalogSize))
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		return nil, "", err
	}
	r, err := synth.NewRenderer(real)
	if err != nil {
		return nil, "", err
	}
	cards := base.Cards()
	have := map[string]bool{}
	for _, c := range cards {
		have[c.Slug] = true
	}
	var extra []*models.Card
	for _, c := range real.Cards() {
		if len(cards)+len(extra) >= f.catalogSize {
			break
		}
		if !have[c.Slug] {
			have[c.Slug] = true
			extra = append(extra, c)
		}
	}
	bar := benchBar(stderr, len(extra), "rendering bench faces")
	for _, c := range extra {
		path := filepath.Join(dir, "images", c.Slug+".png")
		if _, err := os.Stat(path); err != nil {
			face, err := r.FaceOf(c)
			if err != nil {
				return nil, "", err
			}
			if err := writePNG(path, face); err != nil {
				return nil, "", err
			}
		}
		cc := *c
		cc.Image = path
		cards = append(cards, &cc)
		bar.Add(1)
	}
	bar.Finish()
	note := fmt.Sprintf("%d sample faces + %d faces rendered by synth.Renderer for names of %s", base.Len(), len(extra), f.realList)
	return models.NewCatalog(cards), note, nil
}

func writePNG(path string, img image.Image) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(fh, img); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(math.Ceil(p*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISSED"
}

func (b *visionBench) report(w io.Writer, f benchVisionFlags) {
	fmt.Fprintf(w, "vision bench: %d frames from %s, catalog %s (%d faces), OpenCV threads %d\n", b.frames, f.frames, f.catalog, b.faces, f.threads)
	if f.catalogFaces > 0 {
		fmt.Fprintf(w, "only the first %d faces by slug are read (--catalog-faces): the frames' other cards have none\n", f.catalogFaces)
	}
	corners := "truth corners"
	if f.detect {
		corners = "detected corners"
	}
	fmt.Fprintf(w, "cards are read with the %s\n\n", corners)
	medErr, p95Err := percentile(b.cornerErr, 0.5), percentile(b.cornerErr, 0.95)
	if b.found.n == 0 {
		fmt.Fprintf(w, "realm found              not measured (--no-realm)\n")
	} else {
		fmt.Fprintf(w, "realm found              %s  target ≥ %.0f%%  %s\n", b.found, 100*targetFound, mark(b.found.value() >= targetFound))
		fmt.Fprintf(w, "corner error (of width)  median %.2f%%, p95 %.2f%%  target ≤ %.0f%%  %s\n", 100*medErr, 100*p95Err, 100*targetCornerErr, mark(p95Err <= targetCornerErr))
		fmt.Fprintf(w, "realm turned half round  %d of %d found  (south given as the image side the truth's A1–E1 edge faces:", b.turned, len(b.cornerErr))
		for _, s := range []calibration.Side{calibration.Bottom, calibration.Top, calibration.Left, calibration.Right} {
			if b.south[s] > 0 {
				fmt.Fprintf(w, " %s %d", s, b.south[s])
			}
		}
		fmt.Fprintln(w, ")")
		if len(b.realmCPU) > 0 {
			fmt.Fprintf(w, "realm CPU per frame      median %.0f ms, p95 %.0f ms, max %.0f ms  (calibration.Detect, all its goroutines)\n",
				percentile(b.realmCPU, 0.5), percentile(b.realmCPU, 0.95), percentile(b.realmCPU, 1))
		} else {
			fmt.Fprintf(w, "realm time per frame     median %.0f ms, p95 %.0f ms, max %.0f ms  (calibration.Detect)\n",
				percentile(b.realmMS, 0.5), percentile(b.realmMS, 0.95), percentile(b.realmMS, 1))
		}
	}
	fmt.Fprintf(w, "\ndetection precision      %s\n", b.precision)
	for i, bk := range visibleBuckets {
		fmt.Fprintf(w, "recall, %-6s visible   %s\n", bk.name, b.recall[i])
	}
	fmt.Fprintf(w, "recall, ≥50%% visible     %s  target ≥ %.0f%%  %s\n", b.recall50, 100*targetRecall50, mark(b.recall50.value() >= targetRecall50))
	fmt.Fprintf(w, "  in frames not occluded %s  (no hand or object over the realm: the frames the tracker reads)\n", b.recall50Clear)
	fmt.Fprintf(w, "\nidentity, sites          %s\n", b.idSites)
	fmt.Fprintf(w, "identity, units          %s\n", b.idUnits)
	fmt.Fprintf(w, "identity, tokens         %s\n", b.idTokens)
	fmt.Fprintf(w, "identity, fully visible  %s  target ≥ %.0f%%  %s\n", b.idFull, 100*targetIDFull, mark(b.idFull.value() >= targetIDFull))
	fmt.Fprintf(w, "identity, sites 40–80%%   %s  target ≥ %.0f%%  %s\n", b.idHalf, 100*targetIDHalfSite, mark(b.idHalf.value() >= targetIDHalfSite))
	fmt.Fprintf(w, "wrong names              %d\n", b.wrongNames)
	fmt.Fprintf(w, "named, matching no card  %d\n", b.namedOnNoCard)
	b.reportFaceless(w, "")
	fmt.Fprintf(w, "\nrotation                 %s  target ≥ %.0f%%  %s\n", b.rotation, 100*targetRotation, mark(b.rotation.value() >= targetRotation))
	fmt.Fprintf(w, "owner                    %s\n", b.owner)
	fmt.Fprintf(w, "tapped                   %s\n", b.tapped)
	fmt.Fprintf(w, "occlusion                %s  (hits %d, false alarms %d, misses %d)\n", b.occluded, b.occTP, b.occFP, b.occFN)
	med := percentile(b.frameMS, 0.5)
	fmt.Fprintf(w, "\ntime per frame, full     median %.1f ms, p95 %.1f ms  target ≤ %.0f ms  %s\n", med, percentile(b.frameMS, 0.95), targetFrameMS, mark(med <= targetFrameMS))
	fmt.Fprintf(w, "time per frame, steady   median %.1f ms, p95 %.1f ms  (nothing moved since the last frame)\n", percentile(b.steadyMS, 0.5), percentile(b.steadyMS, 0.95))
	if len(b.frameCPU) > 0 {
		fmt.Fprintf(w, "CPU per frame, full      median %.1f ms, p95 %.1f ms; steady median %.1f ms  (the analysing thread's CPU time: not slowed by other load)\n",
			percentile(b.frameCPU, 0.5), percentile(b.frameCPU, 0.95), percentile(b.steadyCPU, 0.5))
	}
	for _, key := range []string{"catalog", "big"} {
		fig := b.identify[key]
		if fig == nil {
			continue
		}
		m, what := percentile(fig.ms, 0.5), "time"
		p95 := percentile(fig.ms, 0.95)
		if len(fig.cpu) > 0 {
			m, p95, what = percentile(fig.cpu, 0.5), percentile(fig.cpu, 0.95), "CPU"
		}
		fmt.Fprintf(w, "identify one card, %4d faces: %s median %.2f ms, p95 %.2f ms, correct %s, wrong %d  target ≤ %.0f ms  %s\n",
			fig.faces, what, m, p95, fig.correct, fig.wrong, targetIdentifyMS, mark(m <= targetIdentifyMS))
		if fig.unknown.n > 0 {
			fmt.Fprintf(w, "  cards without a face left unknown %s\n", fig.unknown)
		}
	}
	if b.bigNote != "" {
		fmt.Fprintf(w, "  (%s)\n", b.bigNote)
	}
}

// reportFrames writes the card figures of frames read against a larger
// catalog (see --catalog-size), as a block of their own.
func (b *visionBench) reportFrames(w io.Writer, note string) {
	fmt.Fprintf(w, "\nthe same %d frames read against %d faces (%s):\n", b.frames, b.faces, note)
	fmt.Fprintf(w, "  detection precision      %s\n", b.precision)
	fmt.Fprintf(w, "  recall, ≥50%% visible     %s  target ≥ %.0f%%  %s\n", b.recall50, 100*targetRecall50, mark(b.recall50.value() >= targetRecall50))
	fmt.Fprintf(w, "  identity, fully visible  %s  target ≥ %.0f%%  %s\n", b.idFull, 100*targetIDFull, mark(b.idFull.value() >= targetIDFull))
	fmt.Fprintf(w, "  identity, sites 40–80%%   %s  target ≥ %.0f%%  %s\n", b.idHalf, 100*targetIDHalfSite, mark(b.idHalf.value() >= targetIDHalfSite))
	fmt.Fprintf(w, "  wrong names              %d\n", b.wrongNames)
	fmt.Fprintf(w, "  named, matching no card  %d\n", b.namedOnNoCard)
	b.reportFaceless(w, "  ")
	fmt.Fprintf(w, "  rotation                 %s\n", b.rotation)
	if len(b.frameCPU) > 0 {
		med := percentile(b.frameCPU, 0.5)
		fmt.Fprintf(w, "  CPU per frame, full      median %.1f ms, p95 %.1f ms; steady median %.1f ms  target ≤ %.0f ms  %s\n",
			med, percentile(b.frameCPU, 0.95), percentile(b.steadyCPU, 0.5), targetFrameMS, mark(med <= targetFrameMS))
	}
}

// threadCPUTime is the CPU time the calling OS thread has used, or -1 when
// the system cannot say. It reads the thread's CPU clock, which counts in
// nanoseconds (getrusage's RUSAGE_THREAD counts in scheduler ticks on some
// kernels: a 1.7 ms step read as 0).
// processCPUTime is the CPU time of the whole process, all its threads
// (user and system), or -1 when the system does not tell: what a search
// that runs on several goroutines costs, when nothing else runs.
func processCPUTime() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func threadCPUTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return -1
	}
	return time.Duration(ts.Nano())
}

// reportFaceless writes how the cards whose face the catalog lacks were
// reported, when the frames hold any.
func (b *visionBench) reportFaceless(w io.Writer, indent string) {
	if b.faceless.n == 0 {
		return
	}
	fmt.Fprintf(w, "%scards without a face     found %s: as unknown %d, named %d (wrong)\n", indent, b.faceless, b.facelessUnknown, b.facelessNamed)
}

// firstFaces is the catalog with the faces of only its first n cards by
// slug: the other cards stay, without a face.
func firstFaces(cat *models.Catalog, n int) *models.Catalog {
	cards := cat.Cards()
	var withFace []string
	for _, c := range cards {
		if c.Image != "" {
			withFace = append(withFace, c.Slug)
		}
	}
	sort.Strings(withFace)
	keep := map[string]bool{}
	for _, slug := range withFace[:min(n, len(withFace))] {
		keep[slug] = true
	}
	out := make([]*models.Card, len(cards))
	for i, c := range cards {
		cc := *c
		if !keep[c.Slug] {
			cc.Image = ""
		}
		out[i] = &cc
	}
	return models.NewCatalog(out)
}

// facesOf gives the slugs of the catalog's cards that have a face.
func facesOf(cat *models.Catalog) map[string]bool {
	out := map[string]bool{}
	for _, c := range cat.Cards() {
		if c.Image != "" {
			out[c.Slug] = true
		}
	}
	return out
}

// framesCatalog is the catalog a folder of frames was most likely rendered
// with: a catalog folder inside it (where synth scenes renders the sample
// catalog when it finds no bundled one) or beside it (samples/stills and
// samples/catalog), else the bundled sample catalog.
func framesCatalog(frames string) (string, error) {
	if p, ok := catalogDirIn(filepath.Join(frames, "catalog"), filepath.Join(frames, "..", "catalog")); ok {
		return p, nil
	}
	return samples.Path("catalog")
}
