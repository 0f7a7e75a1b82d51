package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// A vanishing point estimated from Hough lines can be a degree or two off
// (the grid's receding direction 8° or more) when card edges or a grained
// table pull it, and a profile summed along
// slightly wrong lines smears a faint grid line over several pixels. The
// pencil search below moves the vanishing point to where the frame's line
// response lines up best: every strong sample of the response across the
// family's direction is binned by the line through the vanishing point it
// lies on, and the point is chosen that concentrates the response into the
// fewest bins (the largest sum of squared bin totals).

// pencilSamples are points of the frame with a strong line response
// across one direction, and that response (signed: dark lines positive).
type pencilSamples struct {
	centre models.Point
	a, b   []float64 // offsets from centre (x, y)
	r      []float64
	light  []int   // the bin offset of each sample: the light lines' bins follow the dark ones'
	span   float64 // the frame's longer side
	// detrend has alignment count each bin's total less the mean of the
	// bins around it (see detrendedEnergy).
	detrend bool
}

// newPencilSamples samples rm's response across the normal of direction
// theta every few pixels, keeping the strong ones at the points over
// says to read (all of them when over is nil).
func newPencilSamples(rm *ridgeMap, theta float64, over func(models.Point) bool) pencilSamples {
	nx, ny := -math.Sin(theta), math.Cos(theta)
	c := models.Point{X: float64(rm.w) / 2, Y: float64(rm.h) / 2}
	ps := pencilSamples{centre: c, span: float64(max(rm.w, rm.h)), detrend: rm.detrendPencil}
	const step = 3
	dm := ridgeOffsets[len(ridgeOffsets)-1] + 1
	for y0 := dm; y0 < float64(rm.h)-dm-step; y0 += step {
		for x0 := dm; x0 < float64(rm.w)-dm-step; x0 += step {
			// Each sample sits at a scrambled place in its step×step
			// square: on a regular lattice of samples, lines along the
			// frame's axes would gather whole rows of samples into
			// single bins and win the alignment whatever the frame shows.
			jx, jy := sampleJitter(int(x0), int(y0))
			x, y := x0+step*jx, y0+step*jy
			p := models.Point{X: x, Y: y}
			if over != nil && !over(p) {
				continue
			}
			var s float64
			for k, d := range ridgeOffsets {
				s += rm.rawResponse(p, nx, ny, d) / rm.noise[k]
			}
			s = clipRidge(s / float64(len(ridgeOffsets)))
			if math.Abs(s) < 2.5 {
				continue
			}
			ps.a = append(ps.a, x-c.X)
			ps.b = append(ps.b, y-c.Y)
			ps.r = append(ps.r, s)
			ps.light = append(ps.light, ps.lightOffset(s))
		}
	}
	return ps
}

// alignment is how well the samples line up on lines through the point
// at direction alpha from the frame's centre and inverse distance kappa
// (0: at infinity; negative: on the other side): the sum over 2-px bins of
// the squared total response, for dark and light lines apart.
func (ps pencilSamples) alignment(alpha, kappa float64, buf *alignBuffers) float64 {
	var e [1]float64
	ps.alignments(alpha, []float64{kappa}, buf, e[:])
	return e[0]
}

// alignBuffers are the scratch space of alignment: the bins, 2 px wide
// across a line of twice the frame's longer side, for dark lines and then
// light ones, all zero between calls; and the samples turned to a direction.
type alignBuffers struct {
	bins, along, across []float64
	cum                 []float64 // the bins' running totals, for detrendedEnergy
}

func (ps pencilSamples) newAlignBuffers() *alignBuffers {
	return &alignBuffers{
		bins:   make([]float64, 2*int(ps.span)),
		cum:    make([]float64, 2*int(ps.span)+1),
		along:  make([]float64, len(ps.r)),
		across: make([]float64, len(ps.r)),
	}
}

// lightOffset is where the bins of a sample of response r begin: the light
// lines' (r < 0) after the dark ones'.
func (ps pencilSamples) lightOffset(r float64) int {
	if r < 0 {
		return int(ps.span)
	}
	return 0
}

// alignments sets e[i] to the alignment at alpha and kappas[i]: the
// samples are turned to alpha once for all the distances.
func (ps pencilSamples) alignments(alpha float64, kappas []float64, buf *alignBuffers, e []float64) {
	ex, ey := math.Cos(alpha), math.Sin(alpha)
	bins := buf.bins
	half := float64(len(bins)) / 4
	along, across := buf.along[:len(ps.r)], buf.across[:len(ps.r)]
	for i := range ps.r {
		along[i] = ps.a[i]*ex + ps.b[i]*ey
		across[i] = -ps.a[i]*ey + ps.b[i]*ex
	}
	for j, kappa := range kappas {
		lo, hi := len(bins), -1 // the bins used
		for i, r := range ps.r {
			den := 1 - kappa*along[i]
			if den < 0.2 {
				continue
			}
			s := across[i] / den * 0.5
			if s < -half || s >= half {
				continue
			}
			k := int(s+half) + ps.light[i]
			bins[k] += r
			lo, hi = min(lo, k), max(hi, k)
		}
		var sum float64
		if ps.detrend && hi >= lo {
			sum = detrendedEnergy(bins, buf.cum, lo, hi, int(ps.span))
		} else {
			for k := lo; k <= hi; k++ {
				sum += bins[k] * bins[k]
			}
		}
		for k := lo; k <= hi; k++ {
			bins[k] = 0
		}
		e[j] = sum
	}
}

// scanSamples is about how many samples refineVanishingPoint's scans read.
const scanSamples = 2500

// thinned keeps every k-th sample, k chosen to keep about n of them.
func (ps pencilSamples) thinned(n int) pencilSamples {
	k := len(ps.r) / n
	if k <= 1 {
		return ps
	}
	out := pencilSamples{centre: ps.centre, span: ps.span, detrend: ps.detrend}
	for i := 0; i < len(ps.r); i += k {
		out.a = append(out.a, ps.a[i])
		out.b = append(out.b, ps.b[i])
		out.r = append(out.r, ps.r[i])
		out.light = append(out.light, ps.light[i])
	}
	return out
}

// vpFromAngle is the homogeneous vanishing point for alpha and kappa.
func (ps pencilSamples) vpFromAngle(alpha, kappa float64) vec3 {
	ex, ey := math.Cos(alpha), math.Sin(alpha)
	return vec3{ps.centre.X*kappa + ex, ps.centre.Y*kappa + ey, kappa}
}

// wideScanDeg is how far (degrees) either side of a Hough direction the
// profile search looks for its vanishing point: card edges and the
// table's grain can pull the direction of the grid's receding lines (which
// converge most and are broken by the most cards) 8° or more off.
const wideScanDeg = 12.0

// refineVanishingPoint is refineVanishingPointOver the whole frame.
func refineVanishingPoint(rm *ridgeMap, theta float64, v vec3, wide float64) vec3 {
	return refineVanishingPointOver(rm, theta, v, wide, nil)
}

// refineVanishingPointOver moves vanishing point v of a family of lines running
// near direction theta to the point where rm's line response lines up best
// (see alignment): a scan in 0.25° steps within 3° of v's direction (or of
// theta, when v is further off than 4°) at every distance from 0.83 frame
// sides to infinity, then coordinate ascent to 0.05°; with wide > 0 also
// from the best of a coarse scan within wide degrees. Only the line
// response at the points over says to read counts (all, when over is nil).
// It returns v when the frame has too few line samples to tell.
func refineVanishingPointOver(rm *ridgeMap, theta float64, v vec3, wide float64, over func(models.Point) bool) vec3 {
	ps := newPencilSamples(rm, theta, over)
	if len(ps.r) < 100 {
		return v
	}
	kmax := 1.2 / ps.span
	alpha, kappa := theta, 0.0
	if math.Abs(v[2]) > 1e-12 {
		dx, dy := v[0]/v[2]-ps.centre.X, v[1]/v[2]-ps.centre.Y
		alpha, kappa = math.Atan2(dy, dx), 1/math.Hypot(dx, dy)
	} else {
		alpha = math.Atan2(v[1], v[0])
	}
	if math.Cos(alpha-theta) < 0 {
		alpha, kappa = alpha+math.Pi, -kappa
	}
	if angleDiff(alpha, theta) > 4*math.Pi/180 {
		// Pulled far off: start from the direction itself.
		alpha, kappa = theta, 0
	}
	kappa = math.Max(-kmax, math.Min(kmax, kappa))
	buf := ps.newAlignBuffers()
	// The distances the scans try, as fractions of kmax: every 0.05 for
	// the polish, every 0.1 for the wide scan.
	kappasBy := func(step float64) []float64 {
		var ks []float64
		for k := -1.0; k <= 1+1e-9; k += step {
			ks = append(ks, k*kmax)
		}
		return ks
	}
	polishKappas, wideKappas := kappasBy(0.05), kappasBy(0.1)
	es := make([]float64, len(polishKappas))
	const deg = math.Pi / 180
	// polish scans within 3° of a start (the alignment has false maxima
	// at card edges and the table's grain), in steps that move a line at
	// the frame's edge by a few pixels, then climbs to 0.05°.
	// The scans read a thinned set of samples, the climb all of them.
	thin := ps.thinned(scanSamples)
	climb := func(alpha, kappa float64) (float64, float64, float64) {
		best := ps.alignment(alpha, kappa, buf)
		for _, st := range [][2]float64{{0.1 * deg, 0.02 * kmax}, {0.05 * deg, 0.01 * kmax}} {
			for iter := 0; iter < 8; iter++ {
				improved := false
				for _, mv := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					a, k := alpha+mv[0]*st[0], math.Max(-kmax, math.Min(kmax, kappa+mv[1]*st[1]))
					if e := ps.alignment(a, k, buf); e > best {
						best, alpha, kappa, improved = e, a, k, true
					}
				}
				if !improved {
					break
				}
			}
		}
		return alpha, kappa, best
	}
	polish := func(alpha, kappa float64) (float64, float64, float64) {
		// The thinned samples' scan is noisy: its best few distinct
		// maxima are all climbed on every sample, and the best climb wins.
		type peak struct{ alpha, kappa, e float64 }
		var scan []peak
		a0 := alpha
		scan = append(scan, peak{alpha, kappa, thin.alignment(alpha, kappa, buf)})
		for d := -3.0; d <= 3+1e-9; d += 0.25 {
			thin.alignments(a0+d*deg, polishKappas, buf, es)
			for i, k := range polishKappas {
				scan = append(scan, peak{a0 + d*deg, k, es[i]})
			}
		}
		sort.Slice(scan, func(i, j int) bool { return scan[i].e > scan[j].e })
		var starts []peak
		for _, p := range scan {
			distinct := true
			for _, q := range starts {
				if math.Abs(p.alpha-q.alpha) < polishApart*deg && math.Abs(p.kappa-q.kappa) < 0.2*kmax {
					distinct = false
					break
				}
			}
			if distinct {
				starts = append(starts, p)
				if len(starts) == polishStarts {
					break
				}
			}
		}
		bestA, bestK, bestE := alpha, kappa, math.Inf(-1)
		for _, p := range starts {
			if a, k, e := climb(p.alpha, p.kappa); e > bestE {
				bestA, bestK, bestE = a, k, e
			}
		}
		return bestA, bestK, bestE
	}
	alpha, kappa, best := polish(alpha, kappa)
	if wide > 0 {
		// A Hough direction can be pulled several degrees off by card
		// edges: the best of a coarse scan within wide degrees is
		// polished too, and wins if it then lines up better.
		wa, wk, we := alpha, kappa, math.Inf(-1)
		for d := -wide; d <= wide+1e-9; d++ {
			thin.alignments(alpha+d*deg, wideKappas, buf, es)
			for i, k := range wideKappas {
				if e := es[i]; e > we {
					we, wa, wk = e, alpha+d*deg, k
				}
			}
		}
		if pa, pk, pe := polish(wa, wk); pe > best {
			alpha, kappa = pa, pk
		}
	}
	return ps.vpFromAngle(alpha, kappa)
}

// polishStarts is how many distinct maxima of a scan refineVanishingPoint
// climbs, and polishApart how far apart (degrees) their directions must be.
const (
	polishStarts = 3
	polishApart  = 0.75
)

// sampleJitter is a fixed pseudo-random offset in [0, 1)² for the sample
// square at (x, y): a hash, so that one frame always gives the same samples.
func sampleJitter(x, y int) (float64, float64) {
	h := uint32(x)*0x9E3779B1 ^ uint32(y)*0x85EBCA77
	h ^= h >> 15
	h *= 0x2C1B3C6D
	h ^= h >> 12
	h *= 0x297A2D39
	h ^= h >> 15
	return float64(h&0xFFFF) / 65536, float64(h>>16) / 65536
}
