package calibration

import (
	"math"
	"math/rand/v2"

	"github.com/tablecam/tablecam/models"
)

// A lens's barrel distortion bows the grid's lines: a border line's middle
// bulges away from the frame's centre more than its ends, so the straight
// lattice that best fits all the grid's lines crosses each border line
// near its middle and misses the realm's corners, which the lens draws
// toward the centre, by a percent of the realm's width or more. onBentBorder
// reads how much the lines bend as one radial distortion of the frame
// (one parameter k about the frame's centre, the usual model of a webcam's
// lens): the k under which the drawn lines near the lattice's lines are
// straightest once undistorted. The corners are then where the realm's
// border lines, straight in the undistorted frame, meet, distorted back.

// Parameters, in pixels at the working width.
const (
	borderStepPx    = 3   // between samples along a line
	borderBandPx    = 12  // how far across the lattice's line its drawn line is looked for
	borderMinPeak   = 0.8 // the least line response (noise units) of a sample on the line
	borderTolPx     = 1.5 // how far off a straight line a sample still counts for it
	borderMaxGap    = 0.2 // the largest share of a border line at an end without a sample
	borderMinShare  = 0.3 // the least share of a border line's samples on its line
	borderMaxMovePx = 40  // the most a corner may move
)

// lensKs are the distortions k tried (r normalised by the frame's half
// diagonal: a point at r moves to where r(1 + k·r²) is its undistorted
// radius): none, a webcam's mild barrel (about 0.04) to a wide-angle lens's
// strong one, and a little pincushion.
var lensKs = func() []float64 {
	var ks []float64
	for k := -0.04; k <= 0.2001; k += 0.01 {
		ks = append(ks, math.Round(k*1000)/1000)
	}
	return ks
}()

// minLensGain is how much more line (in samples, as a share of all the
// lines' samples) a distortion must straighten than none to be believed.
const minLensGain = 0.02

// lineSamples are the drawn line's candidate points along one lattice line:
// for each sample along it, the image points across it where the line
// response peaks.
type lineSamples struct {
	peaks [][]models.Point
	n     int // samples along the line
}

// readCurve samples the drawn line near the curve pt(f), f from 0 to 1,
// about length px long: at every borderStepPx, the points within band px
// across it where the line response peaks.
func (m *ridgeMap) readCurve(pt func(f float64) models.Point, length, band float64, light bool) lineSamples {
	n := curveSteps(length)
	ls := lineSamples{peaks: make([][]models.Point, n), n: n}
	alongCurve(pt, length, func(i int, p models.Point, nx, ny float64) {
		ls.peaks[i] = m.peaksAcross(p, nx, ny, band, light)
	})
	return ls
}

// curveSteps is the number of points alongCurve visits on a curve length
// px long.
func curveSteps(length float64) int { return int(length/borderStepPx) + 1 }

// alongCurve calls visit at every borderStepPx along the curve pt(f), f
// from 0 to 1, about length px long, with the step's index, its point and
// the curve's unit normal there (steps where the curve has no direction
// are skipped).
func alongCurve(pt func(f float64) models.Point, length float64, visit func(i int, p models.Point, nx, ny float64)) {
	n := curveSteps(length)
	df := 1 / length
	for i := 0; i < n; i++ {
		f := float64(i) / float64(max(1, n-1))
		p, a, b := pt(f), pt(f-df), pt(f+df)
		tx, ty := b.X-a.X, b.Y-a.Y
		tl := math.Hypot(tx, ty)
		if tl == 0 || math.IsNaN(tl) {
			continue
		}
		visit(i, p, -ty/tl, tx/tl)
	}
}

// lens is a radial distortion about centre c: r normalised by hd.
type lens struct {
	c  models.Point
	hd float64
	k  float64
}

// undistort moves a frame point to where a straight-line camera puts it.
func (l lens) undistort(p models.Point) models.Point {
	dx, dy := (p.X-l.c.X)/l.hd, (p.Y-l.c.Y)/l.hd
	f := 1 + l.k*(dx*dx+dy*dy)
	return models.Point{X: l.c.X + dx*f*l.hd, Y: l.c.Y + dy*f*l.hd}
}

// distort is undistort's inverse.
func (l lens) distort(p models.Point) models.Point {
	ux, uy := (p.X-l.c.X)/l.hd, (p.Y-l.c.Y)/l.hd
	ru := math.Hypot(ux, uy)
	if ru == 0 || l.k == 0 {
		return p
	}
	rd := ru
	for range 30 { // Newton on rd(1 + k·rd²) = ru
		d := 1 + 3*l.k*rd*rd
		if d <= 0 {
			break
		}
		rd -= (rd*(1+l.k*rd*rd) - ru) / d
	}
	s := rd / ru
	return models.Point{X: l.c.X + ux*s*l.hd, Y: l.c.Y + uy*s*l.hd}
}

// lineFit is the straight line best supported by a line's samples under a
// lens: tried lines through pairs of samples from its two halves, and the
// support (each sample counts 1 − (d/borderTolPx)² for its peak nearest
// the line within borderTolPx), then the line refitted to those samples.
type lineFit struct {
	line        imgLine
	support     float64
	first, last float64 // the share of the line where its supporting samples begin and end
	count       int     // supporting samples
}

// pairs are the sample pairs fitLine tries, the same for every lens.
func (ls lineSamples) pairs() [][2][2]int {
	rng := rand.New(rand.NewPCG(uint64(ls.n), 7))
	var lo, hi [][2]int
	for i, ps := range ls.peaks {
		for j := range ps {
			if i < ls.n/2 {
				lo = append(lo, [2]int{i, j})
			} else {
				hi = append(hi, [2]int{i, j})
			}
		}
	}
	var out [][2][2]int
	if len(lo) == 0 || len(hi) == 0 {
		return nil
	}
	for range 60 {
		out = append(out, [2][2]int{lo[rng.IntN(len(lo))], hi[rng.IntN(len(hi))]})
	}
	return out
}

func (ls lineSamples) fit(l lens, pairs [][2][2]int) (lineFit, bool) {
	und := make([][]models.Point, ls.n)
	for i, ps := range ls.peaks {
		for _, p := range ps {
			und[i] = append(und[i], l.undistort(p))
		}
	}
	support := func(ln imgLine) (float64, []models.Point, []int) {
		var s float64
		var pts []models.Point
		var idx []int
		for i, ps := range und {
			best := borderTolPx
			var bp models.Point
			for _, p := range ps {
				if d := math.Abs(ln.dist(p)); d < best {
					best, bp = d, p
				}
			}
			if best < borderTolPx {
				r := best / borderTolPx
				s += 1 - r*r
				pts, idx = append(pts, bp), append(idx, i)
			}
		}
		return s, pts, idx
	}
	best, bestS := imgLine{}, -1.0
	for _, pr := range pairs {
		p, q := und[pr[0][0]][pr[0][1]], und[pr[1][0]][pr[1][1]]
		if dist(p, q) < 1 {
			continue
		}
		ln := lineThroughPts(p, q)
		if s, _, _ := support(ln); s > bestS {
			best, bestS = ln, s
		}
	}
	if bestS < 0 {
		return lineFit{}, false
	}
	for range 2 {
		_, pts, _ := support(best)
		if len(pts) < 2 {
			break
		}
		var mo moments
		for _, p := range pts {
			mo.add(p, 1)
		}
		best = mo.line()
	}
	s, _, idx := support(best)
	f := lineFit{line: best, support: s, count: len(idx), first: 1, last: 0}
	for _, i := range idx {
		x := float64(i) / float64(max(1, ls.n-1))
		f.first, f.last = math.Min(f.first, x), math.Max(f.last, x)
	}
	return f, true
}

// onBentBorder moves the lattice's corners to where the realm's border
// lines meet under the frame's lens distortion (see above). It reads the
// lines twice: near the straight lattice h first, then near the lattice's
// lines as the lens found bends them (a strong lens moves the straight
// lattice's corners a cell side's tenth and more off the lines). ok is
// false when no distortion straightens the lines clearly better than none,
// or the border lines are not seen well enough to place the corners.
// It also gives the distortion k it read (0 when the lines straighten
// under none), whether or not the corners were moved.
func onBentBorder(rm *ridgeMap, h homography, g models.RealmGeometry) (homography, float64, bool) {
	light := rm.lightGrid(h, g)
	src := realmCorners(g)
	var q [4]models.Point
	for i, p := range src {
		q[i] = h.Apply(p)
	}
	l := lens{c: models.Point{X: float64(rm.w-1) / 2, Y: float64(rm.h-1) / 2}, hd: math.Hypot(float64(rm.w), float64(rm.h)) / 2}
	hu := h // the lattice in the undistorted frame
	var out [4]models.Point
	for pass, band := range []float64{borderBandPx, borderBandPx / 2} {
		c, hl, k, ok := rm.bentCorners(hu, l, g, band, light)
		if !ok {
			if pass == 0 {
				return h, l.k, false
			}
			break
		}
		l.k = k
		for i := range c {
			out[i] = l.distort(c[i])
			if dist(out[i], q[i]) > borderMaxMovePx {
				return h, l.k, false
			}
		}
		hu = hl
	}
	hb, err := fitHomography(src, out[:])
	if err != nil || !plausible(hb, g, float64(rm.w), float64(rm.h)) {
		return h, l.k, false
	}
	// Each border must show, along the curve the lens makes of it, at
	// least as clearly as along the straight lattice's line: a border
	// read off a card's edge or the art moves its corners off the line.
	straight := lens{c: l.c, hd: l.hd}
	for _, gl := range borderLines(g) {
		if rm.curveEvidence(hu, l, gl, light) < rm.curveEvidence(h, straight, gl, light)-minBorderKeep {
			return h, l.k, false
		}
	}
	return hb, l.k, true
}

// minBorderKeep is how much less clearly (in noise units) a border may show
// along its bent curve than along the straight lattice's line.
const minBorderKeep = 0.25

// borderLines are the realm's four border lines in millimetres.
func borderLines(g models.RealmGeometry) []gridLine {
	c := realmCorners(g)
	return []gridLine{{c[0], c[1]}, {c[1], c[2]}, {c[3], c[2]}, {c[0], c[3]}}
}

// curveEvidence is the mean clipped line response along grid line gl as
// lens l bends lattice hu (in l's undistorted frame), every borderStepPx.
func (m *ridgeMap) curveEvidence(hu homography, l lens, gl gridLine, light bool) float64 {
	a, b := hu.Apply(gl.p0), hu.Apply(gl.p1)
	length := dist(a, b)
	pt := func(f float64) models.Point {
		return l.distort(models.Point{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)})
	}
	var sum float64
	cnt := 0
	alongCurve(pt, length, func(_ int, p models.Point, nx, ny float64) {
		if r, ok := m.response(p, nx, ny, light); ok {
			sum += math.Max(-ridgeClip, math.Min(ridgeClip, r))
			cnt++
		}
	})
	if cnt == 0 {
		return 0
	}
	return sum / float64(cnt)
}

// bentCorners reads the grid's lines within band px of lattice hu (in
// the undistorted frame of lens l0) as l0 distorts them, finds the
// distortion k that straightens them best, and gives the realm's corners
// in the frame undistorted by k: where its border lines meet, and the
// lattice there, fitted to where all its lines seen well cross.
func (rm *ridgeMap) bentCorners(hu homography, l0 lens, g models.RealmGeometry, band float64, light bool) ([4]models.Point, homography, float64, bool) {
	var corners [4]models.Point
	lines := innerLines(g)
	samples := make([]lineSamples, len(lines))
	pairs := make([][][2][2]int, len(lines))
	total := 0
	for i, gl := range lines {
		a, b := hu.Apply(gl.p0), hu.Apply(gl.p1)
		pt := func(f float64) models.Point {
			return l0.distort(models.Point{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)})
		}
		samples[i] = rm.readCurve(pt, dist(a, b), band, light)
		pairs[i] = samples[i].pairs()
		total += samples[i].n
	}
	score := func(k float64) float64 {
		l := l0
		l.k = k
		var s float64
		for i := range samples {
			if f, ok := samples[i].fit(l, pairs[i]); ok {
				s += f.support
			}
		}
		return s
	}
	none := score(0)
	bestK, bestS := 0.0, none
	for _, k := range lensKs {
		if s := score(k); k != 0 && s > bestS {
			bestK, bestS = k, s
		}
	}
	if bestK == 0 || bestS < none+minLensGain*float64(total) {
		return corners, hu, 0, false
	}
	// Finer steps about the best k.
	k0 := bestK
	for _, d := range []float64{-0.005, -0.004, -0.003, -0.002, -0.001, 0.001, 0.002, 0.003, 0.004, 0.005} {
		if s := score(k0 + d); s > bestS {
			bestK, bestS = k0+d, s
		}
	}
	l := l0
	l.k = bestK
	// Every line seen well, straight in the undistorted frame; where the
	// lines of the two directions cross, the lattice in that frame.
	fits := make([]imgLine, len(lines))
	seen := make([]bool, len(lines))
	for i := range lines {
		f, ok := samples[i].fit(l, pairs[i])
		seen[i] = ok && float64(f.count) >= borderMinShare*float64(samples[i].n) && f.first <= borderMaxGap && f.last >= 1-borderMaxGap
		fits[i] = f.line
	}
	nx := models.Columns + 1
	var src, dst []models.Point
	for i := 0; i < nx; i++ {
		for j := nx; j < len(lines); j++ {
			if !seen[i] || !seen[j] {
				continue
			}
			if p, ok := intersect(fits[i], fits[j]); ok {
				src = append(src, models.Point{X: lines[i].p0.X, Y: lines[j].p0.Y})
				dst = append(dst, p)
			}
		}
	}
	if len(src) < 6 {
		return corners, hu, 0, false
	}
	hl, err := fitHomography(src, dst)
	if err != nil {
		return corners, hu, 0, false
	}
	// The border lines: the lattice's first and last lines each way
	// (innerLines gives x = 0 … W, then y = 0 … H): south, east, north,
	// west, each with the corners it runs between; a border not seen well
	// is the lattice's.
	borders := [4]int{nx, nx - 1, len(lines) - 1, 0}
	ends := [4][2]int{{0, 1}, {1, 2}, {3, 2}, {0, 3}}
	rc := realmCorners(g)
	var ul [4]imgLine
	for k, li := range borders {
		ul[k] = fits[li]
		if !seen[li] {
			ul[k] = lineThroughPts(hl.Apply(rc[ends[k][0]]), hl.Apply(rc[ends[k][1]]))
		}
	}
	// Corner i (A1, E1, E4, A4) is where its two borders meet.
	meets := [4][2]int{{3, 0}, {0, 1}, {1, 2}, {2, 3}}
	for i, mt := range meets {
		p, ok := intersect(ul[mt[0]], ul[mt[1]])
		if !ok {
			return corners, hu, 0, false
		}
		corners[i] = p
	}
	return corners, hl, bestK, true
}

// peaksAcross lists the points within r px of p across unit normal
// (nx, ny) where the line response peaks (to a tenth of a pixel) clearly
// enough.
func (m *ridgeMap) peaksAcross(p models.Point, nx, ny, r float64, light bool) []models.Point {
	const ds = 0.5
	k := int(math.Ceil(r / ds))
	resp := make([]float64, 2*k+3)
	for i := -k - 1; i <= k+1; i++ {
		v := float64(i) * ds
		x, ok := m.response(models.Point{X: p.X + v*nx, Y: p.Y + v*ny}, nx, ny, light)
		if !ok {
			return nil
		}
		resp[i+k+1] = x
	}
	var out []models.Point
	for j := 1; j < len(resp)-1; j++ {
		x, l, r0 := resp[j], resp[j-1], resp[j+1]
		if x < borderMinPeak || l >= x || r0 > x {
			continue
		}
		off := 0.0
		if d := l - 2*x + r0; d < 0 {
			off = 0.5 * (l - r0) / d
		}
		v := (float64(j-k-1) + off) * ds
		out = append(out, models.Point{X: p.X + v*nx, Y: p.Y + v*ny})
	}
	return out
}
