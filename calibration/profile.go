package calibration

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// The profile search finds grids too faint for Hough. Given the two
// vanishing points of the grid's directions (from the mat's border, card
// edges, whatever lines there are), it warps the frame so that both
// families of grid lines run along the axes (an affine view of the mat:
// equal spacing stays equal), sums every row's and every column's
// dark-line response into two profiles — a line a few grey levels deep
// adds up over hundreds of pixels while art averages out — and reads the
// realm's 5 and 6 equally spaced lines off the profiles' peaks.

// rectifier maps frame pixels to an affine view in which lines through
// vanishing point v1 are horizontal and lines through v2 vertical.
type rectifier struct {
	toCanvas homography // frame → canvas
	size     image.Point
}

// maxCanvas bounds the canvas's longer side (px).
const maxCanvas = 1100

// newRectifier builds the map for vanishing points v1, v2 of a w×h frame;
// ok is false when the vanishing line crosses the frame.
func newRectifier(v1, v2 vec3, w, h float64) (rectifier, bool) {
	o := vec3{w / 2, h / 2, 1}
	m := homography{v1[0], v2[0], o[0], v1[1], v2[1], o[1], v1[2], v2[2], o[2]}
	p, err := m.Inverse()
	if err != nil || math.IsNaN(p[0]) || math.IsInf(p[0], 0) {
		return rectifier{}, false
	}
	corners := []models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
	sign := 0.0
	for _, c := range corners {
		g := p[6]*c.X + p[7]*c.Y + p[8]
		if sign == 0 {
			sign = math.Copysign(1, g)
		}
		if g*sign <= 0 {
			return rectifier{}, false
		}
	}
	// Scale each axis so that the canvas near the frame centre has about
	// the frame's pixel size.
	c0 := p.Apply(models.Point{X: w / 2, Y: h / 2})
	cx := p.Apply(models.Point{X: w/2 + 1, Y: h / 2})
	cy := p.Apply(models.Point{X: w / 2, Y: h/2 + 1})
	kx := 1 / math.Hypot(cx.X-c0.X, cy.X-c0.X)
	ky := 1 / math.Hypot(cx.Y-c0.Y, cy.Y-c0.Y)
	if math.IsNaN(kx) || math.IsNaN(ky) || math.IsInf(kx, 0) || math.IsInf(ky, 0) {
		return rectifier{}, false
	}
	p = p.Then(homography{kx, 0, 0, 0, ky, 0, 0, 0, 1})
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range corners {
		q := p.Apply(c)
		minX, maxX = math.Min(minX, q.X), math.Max(maxX, q.X)
		minY, maxY = math.Min(minY, q.Y), math.Max(maxY, q.Y)
	}
	s := math.Min(1, maxCanvas/math.Max(maxX-minX, maxY-minY))
	if maxX-minX > 6*math.Max(w, h) || maxY-minY > 6*math.Max(w, h) {
		return rectifier{}, false
	}
	p = p.Then(homography{s, 0, -minX * s, 0, s, -minY * s, 0, 0, 1})
	return rectifier{toCanvas: p, size: image.Pt(int(math.Ceil((maxX-minX)*s)), int(math.Ceil((maxY-minY)*s)))}, true
}

// lineSums holds the canvas's normalised line responses, summed so that
// the mean response of any canvas row over any span of columns (and of any
// column over any span of rows) is two look-ups: a grid line runs only
// across the realm, and the table, the mat's margin and cards beyond its
// ends would drown it in a profile of the whole canvas.
type lineSums struct {
	w, h int
	// rowCum[pol][y*(nxs+1)+k] sums row y's response (lines along x) over
	// its first k sampled columns (x = 0, 3, 6, …); rowN counts them.
	rowCum [2][]float32
	rowN   []int32
	// colCum[pol][k*w+x] likewise sums column x over its first k sampled
	// rows (y = 0, 3, 6, …); colN counts them.
	colCum [2][]float32
	colN   []int32
}

// profileStride is how often rows and columns are sampled across: a
// profile sums hundreds of pixels either way.
const profileStride = 3

func (s *lineSums) nxs() int { return (s.w + profileStride - 1) / profileStride }
func (s *lineSums) nys() int { return (s.h + profileStride - 1) / profileStride }

// rows gives the mean response of every canvas row over columns x0…x1
// (clamped to the canvas), for dark (pol 0) or light (1) lines; 0 where
// too few pixels count.
func (s *lineSums) rows(pol int, x0, x1 float64) []float64 {
	n := s.nxs()
	a, b := spanSamples(x0, x1, n)
	out := make([]float64, s.h)
	minN := int32(max(1, int(0.05*float64(b-a)*profileStride)))
	for y := range out {
		i := y * (n + 1)
		if c := s.rowN[i+b] - s.rowN[i+a]; c >= minN {
			out[y] = float64(s.rowCum[pol][i+b]-s.rowCum[pol][i+a]) / float64(c)
		}
	}
	return out
}

// cols is rows for every canvas column over rows y0…y1.
func (s *lineSums) cols(pol int, y0, y1 float64) []float64 {
	n := s.nys()
	a, b := spanSamples(y0, y1, n)
	out := make([]float64, s.w)
	minN := int32(max(1, int(0.05*float64(b-a)*profileStride)))
	ia, ib := a*s.w, b*s.w
	for x := range out {
		if c := s.colN[ib+x] - s.colN[ia+x]; c >= minN {
			out[x] = float64(s.colCum[pol][ib+x]-s.colCum[pol][ia+x]) / float64(c)
		}
	}
	return out
}

// spanSamples gives the sample indexes [a, b) of the samples (every
// profileStride px) between canvas positions t0 and t1, of n in all.
func spanSamples(t0, t1 float64, n int) (int, int) {
	a := int(math.Ceil(t0 / profileStride))
	b := int(math.Floor(t1/profileStride)) + 1
	return min(max(a, 0), n), min(max(b, 0), n)
}

// lineProfiles warps gray to the canvas and sums the normalised line
// response of its pixels along rows (lines along x) and columns, for dark
// lines (pol 0) and light lines (1). When within is not empty (an 8-bit
// mask of gray's size), only its non-zero pixels count.
func (r rectifier) lineProfiles(gray, within gocv.Mat) *lineSums {
	hm := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer hm.Close()
	for i, v := range r.toCanvas {
		hm.SetDoubleAt(i/3, i%3, v)
	}
	canvas := gocv.NewMat()
	defer canvas.Close()
	gocv.WarpPerspectiveWithParams(gray, &canvas, hm, r.size, gocv.InterpolationLinear, gocv.BorderConstant, colorBlack)
	ones := within
	if ones.Empty() {
		ones = gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), gray.Rows(), gray.Cols(), gocv.MatTypeCV8U)
		defer ones.Close()
	}
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.WarpPerspectiveWithParams(ones, &mask, hm, r.size, gocv.InterpolationNearestNeighbor, gocv.BorderConstant, colorBlack)
	px, err1 := canvas.DataPtrUint8()
	mk, err2 := mask.DataPtrUint8()
	if err1 != nil || err2 != nil {
		return nil
	}
	w, h := r.size.X, r.size.Y
	offs := [...]int{1, 2, 3, 5}
	dm := offs[len(offs)-1]
	valid := func(i int) bool { return mk[i] != 0 }
	// Noise per offset and direction from a sparse sample.
	var noise [2][len(offs)]float64
	for dir := 0; dir < 2; dir++ {
		stride := 1
		if dir == 0 {
			stride = w
		}
		for k, d := range offs {
			var vals []float64
			for y := dm; y < h-dm; y += 7 {
				for x := dm; x < w-dm; x += 7 {
					i := y*w + x
					if !valid(i) || !valid(i-d*stride) || !valid(i+d*stride) {
						continue
					}
					vals = append(vals, math.Abs((float64(px[i-d*stride])+float64(px[i+d*stride]))/2-float64(px[i])))
				}
			}
			noise[dir][k] = 1
			if len(vals) > 0 {
				sort.Float64s(vals)
				keep := vals[:max(1, len(vals)*4/5)]
				var s float64
				for _, v := range keep {
					s += v
				}
				noise[dir][k] = math.Max(0.1, s/float64(len(keep)))
			}
		}
	}
	var inv, slack [2][len(offs)]float64
	for dir := range noise {
		for k := range offs {
			inv[dir][k] = 1 / noise[dir][k] / float64(len(offs))
			slack[dir][k] = flankSlack * noise[dir][k]
		}
	}
	s := &lineSums{w: w, h: h}
	nxs, nys := s.nxs(), s.nys()
	for pol := range s.rowCum {
		s.rowCum[pol] = make([]float32, h*(nxs+1))
		s.colCum[pol] = make([]float32, w*(nys+1))
	}
	s.rowN = make([]int32, h*(nxs+1))
	s.colN = make([]int32, w*(nys+1))
	// Rows are read on every third column and columns on every third row,
	// each into running sums along it.
	for y := 0; y < h; y++ {
		cum := s.rowCum
		base := y * (nxs + 1)
		for xi := 0; xi < nxs; xi++ {
			j := base + xi + 1
			cum[0][j], cum[1][j], s.rowN[j] = cum[0][j-1], cum[1][j-1], s.rowN[j-1]
			x := xi * profileStride
			i := y*w + x
			if y < dm || y >= h-dm || x < dm || x >= w-dm || !valid(i) || !valid(i-dm*w) || !valid(i+dm*w) {
				continue
			}
			c := float64(px[i])
			var sd, sl float64
			for k, d := range offs {
				dk, lk := flankPair(float64(px[i-d*w]), float64(px[i+d*w]), c, slack[0][k])
				sd += dk * inv[0][k]
				sl += lk * inv[0][k]
			}
			cum[0][j] += float32(clipRidge(sd))
			cum[1][j] += float32(clipRidge(sl))
			s.rowN[j]++
		}
	}
	for yi := 0; yi < nys; yi++ {
		cum := s.colCum
		y := yi * profileStride
		for x := 0; x < w; x++ {
			j := (yi+1)*w + x
			cum[0][j], cum[1][j], s.colN[j] = cum[0][j-w], cum[1][j-w], s.colN[j-w]
			i := y*w + x
			if y < dm || y >= h-dm || x < dm || x >= w-dm || !valid(i) || !valid(i-dm) || !valid(i+dm) {
				continue
			}
			c := float64(px[i])
			var sd, sl float64
			for k, d := range offs {
				dk, lk := flankPair(float64(px[i-d]), float64(px[i+d]), c, slack[1][k])
				sd += dk * inv[1][k]
				sl += lk * inv[1][k]
			}
			cum[0][j] += float32(clipRidge(sd))
			cum[1][j] += float32(clipRidge(sl))
			s.colN[j]++
		}
	}
	return s
}

// standardize turns a profile into z-scores (median and MAD).
func standardize(p []float64) []float64 {
	const polarity = 1.0
	vals := make([]float64, 0, len(p))
	for _, v := range p {
		if v != 0 {
			vals = append(vals, v*polarity)
		}
	}
	out := make([]float64, len(p))
	if len(vals) < 10 {
		return out
	}
	sort.Float64s(vals)
	med := vals[len(vals)/2]
	dev := make([]float64, len(vals))
	for i, v := range vals {
		dev[i] = math.Abs(v - med)
	}
	sort.Float64s(dev)
	mad := math.Max(1e-3, 1.4826*dev[len(dev)/2])
	for i, v := range p {
		if v != 0 {
			out[i] = (v*polarity - med) / mad
		}
	}
	return out
}

// comb is n equally spaced lines at start + k·spacing on a profile.
type comb struct {
	start, spacing, score float64
}

// end is where the last of n lines of the comb lies.
func (c comb) end(n int) float64 { return c.start + float64(n-1)*c.spacing }

// same says whether two combs put their lines at the same places, to a
// twentieth of their spacing.
func (c comb) same(o comb) bool {
	return math.Abs(c.start-o.start) < 0.05*o.spacing && math.Abs(c.spacing-o.spacing) < 0.01*o.spacing
}

// zCap bounds one line's z-score in a comb's score, so that a single
// strong line (a row of card borders) cannot carry a comb.
const zCap = 8.0

// sampleProfile reads a profile at a fractional index (0 outside).
func sampleProfile(z []float64, t float64) (float64, bool) {
	if t < 0 || t > float64(len(z)-1) {
		return 0, false
	}
	i := int(t)
	if i >= len(z)-1 {
		return z[len(z)-1], true
	}
	f := t - float64(i)
	return z[i]*(1-f) + z[i+1]*f, true
}

// peakAt is the strongest value within ±1 px of t (peaks are located to a
// pixel or so).
func peakAt(z []float64, t float64) float64 {
	best := math.Inf(-1)
	for _, d := range []float64{-1, -0.5, 0, 0.5, 1} {
		if v, ok := sampleProfile(z, t+d); ok {
			best = math.Max(best, v)
		}
	}
	if math.IsInf(best, -1) {
		return 0
	}
	return best
}

// combScore scores n lines at start + k·spacing: their capped z-scores,
// less half the stronger of the lines one spacing outside, less half the
// mean of the lines halfway between.
func combScore(z []float64, n int, start, spacing float64) float64 {
	var s float64
	for k := 0; k < n; k++ {
		s += math.Min(zCap, peakAt(z, start+float64(k)*spacing))
	}
	out := math.Max(math.Min(zCap, peakAt(z, start-spacing)), math.Min(zCap, peakAt(z, start+float64(n)*spacing)))
	var mid float64
	for k := 0; k < n-1; k++ {
		mid += math.Max(0, math.Min(zCap, peakAt(z, start+(float64(k)+0.5)*spacing)))
	}
	return s - 0.5*math.Max(0, out) - 0.5*mid/float64(n-1)*float64(n)
}

// profilePeaks are the local maxima of z above minZ, strongest first, at
// sub-pixel positions.
func profilePeaks(z []float64, minZ float64, keep int) []float64 {
	var ps []scoredItem[float64]
	for i := 1; i < len(z)-1; i++ {
		if z[i] < minZ || z[i] < z[i-1] || z[i] < z[i+1] {
			continue
		}
		den := z[i-1] - 2*z[i] + z[i+1]
		t := float64(i)
		if den < 0 {
			t += 0.5 * (z[i-1] - z[i+1]) / den
		}
		ps = append(ps, scoredItem[float64]{t, z[i]})
	}
	return keepBest(ps, keep)
}

// minPeakZ is the lowest z-score of a profile peak that anchors combs. A
// grid line half under cards, on busy art, or read over the whole view
// rather than across the realm alone, can peak below 2; the combs are only
// candidates, which the ridge score and the edges then judge.
const minPeakZ = 1.5

// bestCombs finds the best distinct combs of n lines with spacing at
// least minSpacing, anchored on pairs of the profile's strongest maxPeaks
// peaks.
func bestCombs(z []float64, n int, minSpacing float64, maxPeaks, keep int) []comb {
	peaks := profilePeaks(z, minPeakZ, maxPeaks)
	var all []comb
	for i := range peaks {
		for j := range peaks {
			if peaks[j] <= peaks[i] {
				continue
			}
			for gap := 1; gap < n; gap++ {
				sp := (peaks[j] - peaks[i]) / float64(gap)
				if sp < minSpacing {
					continue
				}
				for ki := 0; ki+gap < n; ki++ {
					start := peaks[i] - float64(ki)*sp
					if start < -0.5 || start+float64(n-1)*sp > float64(len(z)-1)+0.5 {
						continue
					}
					all = append(all, comb{start, sp, combScore(z, n, start, sp)})
				}
			}
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a].score > all[b].score })
	var out []comb
	for _, c := range all {
		dup := false
		for _, o := range out {
			if math.Abs(c.start-o.start) < 0.3*o.spacing && math.Abs(c.spacing-o.spacing) < 0.1*o.spacing {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, c)
			if len(out) == keep {
				break
			}
		}
	}
	return out
}

// profileCandidates reads realm lattices off the profiles of the canvas
// for vanishing points v1, v2: both ways of assigning the realm's columns
// and rows to the two directions, both line colours. The best combs of
// each direction over the whole canvas are paired; and each of the best
// few is paired with the best combs of the other direction read only
// across its own span (where the realm's lines of the other direction run).
func profileCandidates(gray gocv.Mat, v1, v2 vec3, g models.RealmGeometry) []homography {
	all := gocv.NewMat()
	defer all.Close()
	return profileCandidatesWithin(gray, all, v1, v2, g)
}

// profileCandidatesWithin is profileCandidates with the profiles read only
// over the non-zero pixels of mask within (all pixels when it is empty).
func profileCandidatesWithin(gray, within gocv.Mat, v1, v2 vec3, g models.RealmGeometry) []homography {
	w, h := float64(gray.Cols()), float64(gray.Rows())
	r, ok := newRectifier(v1, v2, w, h)
	if !ok {
		return nil
	}
	sums := r.lineProfiles(gray, within)
	if sums == nil {
		return nil
	}
	back, err := r.toCanvas.Inverse()
	if err != nil {
		return nil
	}
	cw, ch := float64(r.size.X), float64(r.size.Y)
	minSp := 0.03 * math.Max(cw, ch)
	// A profile across the realm's span holds little but its lines: its
	// strongest few peaks are enough.
	const keep, keepSpan, wholePeaks, spanPeaks = 4, 3, 24, 12
	var out []homography
	for pol := range sums.rowCum {
		zr, zc := standardize(sums.rows(pol, 0, cw)), standardize(sums.cols(pol, 0, ch))
		// Realm columns (Columns+1 lines of constant x) along the canvas's
		// x axis, rows along y; then the other way round.
		for _, colsAlongX := range []bool{true, false} {
			nx, ny := models.Columns+1, models.Rows+1
			if !colsAlongX {
				nx, ny = ny, nx
			}
			type pair struct{ a, b comb }
			var seen []pair
			add := func(a, b comb) {
				for _, p := range seen {
					if p.a.same(a) && p.b.same(b) {
						return
					}
				}
				seen = append(seen, pair{a, b})
				var m homography
				if colsAlongX {
					m = homography{a.spacing / g.CellWidthMM, 0, a.start, 0, b.spacing / g.CellHeightMM, b.start, 0, 0, 1}
				} else {
					m = homography{0, a.spacing / g.CellHeightMM, a.start, b.spacing / g.CellWidthMM, 0, b.start, 0, 0, 1}
				}
				out = append(out, m.Then(back))
			}
			cx := bestCombs(zc, nx, minSp, wholePeaks, keep)
			cy := bestCombs(zr, ny, minSp, wholePeaks, keep)
			for _, a := range cx {
				for _, b := range cy {
					add(a, b)
				}
			}
			for _, a := range cx[:min(len(cx), keepSpan)] {
				zs := standardize(sums.rows(pol, a.start, a.end(nx)))
				for _, b := range bestCombs(zs, ny, minSp, spanPeaks, keepSpan) {
					add(a, b)
				}
			}
			for _, b := range cy[:min(len(cy), keepSpan)] {
				zs := standardize(sums.cols(pol, b.start, b.end(ny)))
				for _, a := range bestCombs(zs, nx, minSp, spanPeaks, keepSpan) {
					add(a, b)
				}
			}
		}
	}
	return out
}

// flankPair is flankContrast for a dark and a light line at once, before
// dividing by the noise; slack is flankSlack times the noise.
func flankPair(a, b, c, slack float64) (dark, light float64) {
	r := (a+b)*0.5 - c
	diff := a - b
	if diff < 0 {
		diff = -diff
	}
	pen := diff*0.5 - slack
	if pen < 0 {
		pen = 0
	}
	return r - pen, -r - pen
}

// clipRidge bounds a normalised response to ±ridgeClip.
func clipRidge(v float64) float64 {
	if v > ridgeClip {
		return ridgeClip
	}
	if v < -ridgeClip {
		return -ridgeClip
	}
	return v
}
