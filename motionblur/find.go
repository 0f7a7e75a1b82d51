package motionblur

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

const (
	// motionWindow is the side of the windows (pixels, a power of two)
	// whose spectra are averaged, motionWindowsMost the most windows
	// used (see motionWindows).
	motionWindow      = 256
	motionWindowsMost = 9
	// The cepstrum's deepest point is looked for between
	// motionSearchFrom and motionLongest pixels from its origin
	// (a longer smear would not be a frame anyone reads), and a smear is
	// undone when it is at least motionShortest long. A shorter smear
	// costs the outline and keypoint searches little (their thresholds
	// scale down for it, sharpness.go), and near the cepstrum's origin a
	// warp's resampling or a mat's weave makes peaks as deep as a
	// smear's. A short smear's peak is found where it is, not taken for
	// its echo at twice its length.
	motionSearchFrom, motionShortest, motionLongest = 4, 8, 40
	// motionPeakZ is how far below the mean of the cepstrum's ring (3 to
	// motionLongest pixels from its origin) the peak must lie, in standard
	// deviations of the ring. Smeared frames lie at 2.8-7, sharp and
	// evenly blurred ones mostly below 2.5 but up to 3.3.
	motionPeakZ = 2.5
	// A smear to undo leaves the steps met along it at most smearedAlong
	// sharp (a smear of 8 pixels or more: 0.37-0.47 measured), and those
	// met across it at least smearSharperAcross sharper. A frame soft
	// all over (0.35-0.45 both ways), or a sharp one whose cepstrum shows
	// a peak (0.55-0.65 along), is not taken for smeared.
	smearedAlong       = 0.5
	smearSharperAcross = 0.1
	// wienerNoise is the Wiener filter's noise to signal power: the
	// least power the smear's spectrum is divided by (its power is 1 at
	// the origin). Less undoes more of the smear but raises the noise
	// and the rings about every step: on smeared frames, 0.01 found
	// more cards but named fewer than 0.04, and 0.15 found fewer.
	wienerNoise = 0.04
)

// Smear is a straight smear of an image: its length in pixels, its
// direction (radians, image axes: x right, y down), how clearly the
// cepstrum shows it (Z, see motionPeakZ) and the image's sharpness along
// it and across it (see SharpnessAlong).
type Smear struct {
	Length, Angle, Z float64
	Along, Across    float64
}

// Find looks for a straight smear in the grey image gray (8-bit, one
// channel, at least motionWindow pixels each way), within the convex
// polygon shown (nil: all of it), and reports whether it found one to
// undo (see motionPeakZ, smearedAlong and smearSharperAcross).
//
// A quick look comes first (see glanceWindow): most soft frames have no
// smear, and are told so at about an eighth of the cost of the full
// search, which reads the smear's length and direction precisely enough
// to undo it.
func Find(gray gocv.Mat, shown []models.Point) (smear Smear, ok bool) {
	w, h := gray.Cols(), gray.Rows()
	pix, err := gray.DataPtrUint8()
	if err != nil || gray.Channels() != 1 || w < motionWindow || h < motionWindow {
		return smear, false
	}
	glance, ok := smearCepstrum(pix, w, h, shown, glanceWindow, false, motionShortest-glanceShorter)
	if !ok || glance.Z < glanceZ || glance.Length < motionShortest-glanceShorter {
		return glance, false
	}
	glance.Along, glance.Across = SharpnessAlong(pix, w, h, shown, glance.Angle)
	if glance.Along > smearedAlong+glanceSofter || glance.Across-glance.Along < smearSharperAcross-glanceSofter {
		return glance, false
	}
	smear, ok = smearCepstrum(pix, w, h, shown, motionWindow, true, motionSearchFrom)
	if !ok || smear.Z < motionPeakZ || smear.Length < motionShortest {
		return smear, false
	}
	// The cepstrum's peak alone is not proof: a mat's weave or a warp's
	// resampling can make one too. A smear also leaves the steps met
	// along it soft and those met across it sharper.
	smear.Along, smear.Across = SharpnessAlong(pix, w, h, shown, smear.Angle)
	return smear, smear.Along <= smearedAlong && smear.Across-smear.Along >= smearSharperAcross
}

// The quick look (see Find) reads the cepstrum of the mean
// power spectrum of windows of glanceWindow pixels (Welch's method: one log
// per frequency, not one per window, and windows of a quarter of the
// pixels), and lets the full search go on only when its deepest peak could
// be a smear to undo: at least glanceZ deep, at most glanceShorter pixels
// shorter than motionShortest (and looked for from there on: the deepest
// of all may be a nearer one of the warp's resampling), with the image at
// most glanceSofter short of the sharpness rules along and across it. On
// the soft frames (see vision's motionBelow) of the sample sets and the independent
// renderer's, every smear the full search undoes passes it (peaks 2.96-6.8
// deep, 7.7-14.3 px, at most 0.47 sharp along, 0.10 or more sharper
// across), and 10 of 96 frames without a smear do. Smears up to 24 px
// still show in its smaller windows (TestFindMotionSmear).
const (
	glanceWindow  = 128
	glanceZ       = 2.0
	glanceShorter = 1.0
	glanceSofter  = 0.05
)

// smearCepstrum reads the deepest peak of the cepstrum of the w×h grey
// image pix (see Find) from up to motionWindowsMost windows of
// n×n pixels (n even) within the polygon shown: the peak's place (length
// and angle) and depth (z, see motionPeakZ), the peak looked for from
// `from` to motionLongest pixels from the origin. logMean takes the mean of
// the windows' log spectra, else the log of their mean power spectrum
// (Welch's method, one log per frequency, not one per window). ok is false
// when fewer than two windows fit.
func smearCepstrum(pix []byte, w, h int, shown []models.Point, n int, logMean bool, from float64) (smear Smear, ok bool) {
	hann := make([]float64, n)
	for i := range hann {
		hann[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n-1))
	}
	// The spectrum of a real image is symmetric about its origin: its
	// rows 0 to n/2 hold all of it.
	half := (n/2 + 1) * n
	sum := make([]float64, half)
	win := gocv.NewMatWithSize(n, n, gocv.MatTypeCV32F)
	defer win.Close()
	spec := gocv.NewMat()
	defer spec.Close()
	windows := 0
	for _, at := range motionWindows(w, h, shown, n) {
		x0, y0 := at.X, at.Y
		f, _ := win.DataPtrFloat32()
		mean := 0.0
		for y := range n {
			for _, p := range pix[(y0+y)*w+x0 : (y0+y)*w+x0+n] {
				mean += float64(p)
			}
		}
		mean /= float64(n * n)
		for y := range n {
			row, out, hy := pix[(y0+y)*w+x0:(y0+y)*w+x0+n], f[y*n:(y+1)*n], hann[y]
			for x, p := range row {
				out[x] = float32((float64(p) - mean) * hann[x] * hy)
			}
		}
		gocv.DFT(win, &spec, gocv.DftComplexOutput)
		s, _ := spec.DataPtrFloat32()
		if logMean {
			for k := range sum {
				re, im := float64(s[2*k]), float64(s[2*k+1])
				sum[k] += math.Log(re*re + im*im + 1e-3)
			}
		} else {
			for k := range sum {
				re, im := s[2*k], s[2*k+1]
				sum[k] += float64(re*re + im*im)
			}
		}
		windows++
	}
	if windows < 2 {
		return smear, false
	}
	f, _ := win.DataPtrFloat32()
	for k, p := range sum {
		if logMean {
			f[k] = float32(p / float64(windows))
		} else {
			f[k] = float32(math.Log(p/float64(windows) + 1e-3))
		}
	}
	for v := n/2 + 1; v < n; v++ { // the rows below, from their mirror images
		for u := range n {
			f[v*n+u] = f[(n-v)*n+(n-u)%n]
		}
	}
	gocv.DFT(win, &spec, gocv.DftComplexOutput)
	c, _ := spec.DataPtrFloat32()
	at := func(dx, dy int) float64 { return float64(c[2*(((dy+n)%n)*n+(dx+n)%n)]) }
	// The cepstrum is symmetric about its origin: half the ring is enough.
	var total, total2 float64
	count := 0
	best, bx, by := math.Inf(1), 0, 0
	for dy := -motionLongest; dy <= motionLongest; dy++ {
		for dx := 0; dx <= motionLongest; dx++ {
			r := math.Hypot(float64(dx), float64(dy))
			if r < 3 || r > motionLongest || (dx == 0 && dy < 0) {
				continue
			}
			v := at(dx, dy)
			total, total2, count = total+v, total2+v*v, count+1
			if r >= from && v < best {
				best, bx, by = v, dx, dy
			}
		}
	}
	mean := total / float64(count)
	sd := math.Sqrt(math.Max(total2/float64(count)-mean*mean, 1e-12))
	// The peak's place to a fraction of a pixel: the vertex of the
	// parabola through it and its neighbours, along each axis.
	vertex := func(before, at, after float64) float64 {
		if d := before - 2*at + after; d > 0 {
			return math.Max(-0.5, math.Min(0.5, (before-after)/(2*d)))
		}
		return 0
	}
	px := float64(bx) + vertex(at(bx-1, by), best, at(bx+1, by))
	py := float64(by) + vertex(at(bx, by-1), best, at(bx, by+1))
	return Smear{
		Length: math.Hypot(px, py),
		Angle:  math.Atan2(py, px),
		Z:      (mean - best) / sd,
	}, true
}

// motionWindows gives the top-left corners of the n×n windows whose
// spectra are averaged: of the windows half a window apart over the w×h
// image, those wholly within the polygon shown, at most motionWindowsMost
// of them, spread evenly through the list.
func motionWindows(w, h int, shown []models.Point, n int) []image.Point {
	step := n / 2
	var within []image.Point
	for y0 := 0; y0+n <= h; y0 += step {
		for x0 := 0; x0+n <= w; x0 += step {
			if rectWithin(shown, x0, y0, n) {
				within = append(within, image.Pt(x0, y0))
			}
		}
	}
	if len(within) <= motionWindowsMost {
		return within
	}
	picked := make([]image.Point, motionWindowsMost)
	for i := range picked {
		picked[i] = within[i*(len(within)-1)/(motionWindowsMost-1)]
	}
	return picked
}

// rectWithin reports whether the n×n square at (x0, y0) lies within the
// convex polygon shown (always, without one).
func rectWithin(shown []models.Point, x0, y0, n int) bool {
	if len(shown) < 3 {
		return true
	}
	for _, c := range [][2]int{{x0, y0}, {x0 + n, y0}, {x0 + n, y0 + n}, {x0, y0 + n}} {
		if !insideConvex(shown, float64(c[0]), float64(c[1])) {
			return false
		}
	}
	return true
}

// insideConvex reports whether (x, y) lies within the convex polygon poly.
func insideConvex(poly []models.Point, x, y float64) bool {
	sign := 0.0
	for i := range poly {
		p, q := poly[i], poly[(i+1)%len(poly)]
		cross := (q.X-p.X)*(y-p.Y) - (q.Y-p.Y)*(x-p.X)
		if cross == 0 {
			continue
		}
		if sign == 0 {
			sign = math.Copysign(1, cross)
		} else if math.Copysign(1, cross) != sign {
			return false
		}
	}
	return true
}

// SharpnessAlong measures the sharpness (see LineSteps) of the w×h grey
// image pix along lines in the direction angle (radians, image axes) and
// across them, within the convex polygon shown (nil: all of the image).
// A straight smear softens the steps met along its direction and leaves
// those met across it as sharp as they were.
func SharpnessAlong(pix []byte, w, h int, shown []models.Point, angle float64) (along, across float64) {
	hist := make([]int, SharpnessBins)
	measure := func(a float64) float64 {
		clear(hist)
		ux, uy := math.Cos(a), math.Sin(a)
		vx, vy := -uy, ux
		cx, cy := float64(w)/2, float64(h)/2
		reach := math.Hypot(float64(w), float64(h)) / 2
		run := make([]byte, 0, 2*int(reach)+1)
		steps := 0
		flush := func() {
			if len(run) > 2*StepReachPx {
				steps += LineSteps(run, 0, 1, len(run), hist)
			}
			run = run[:0]
		}
		for s := -reach; s <= reach; s += StepSampleEvery {
			// Samples more than a pixel inside the span the line has
			// within the image and the polygon are taken without testing
			// each, and those more than a pixel beyond it left out.
			lo, hi := lineWithin(shown, w, h, cx+s*vx, cy+s*vy, ux, uy)
			for t := -reach; t <= reach; t++ {
				if t < lo-1 || t > hi+1 {
					flush()
					continue
				}
				x, y := cx+s*vx+t*ux, cy+s*vy+t*uy
				if (t < lo+1 || t > hi-1) && (x < 0 || y < 0 || x > float64(w-1) || y > float64(h-1) || (len(shown) >= 3 && !insideConvex(shown, x, y))) {
					flush()
					continue
				}
				x0, y0 := int(x), int(y)
				x1, y1 := min(x0+1, w-1), min(y0+1, h-1)
				fx, fy := x-float64(x0), y-float64(y0)
				p := (1-fy)*((1-fx)*float64(pix[y0*w+x0])+fx*float64(pix[y0*w+x1])) +
					fy*((1-fx)*float64(pix[y1*w+x0])+fx*float64(pix[y1*w+x1]))
				run = append(run, byte(p+0.5))
			}
			flush()
		}
		if steps < StepsNeeded {
			return 1
		}
		return Ninetieth(hist, steps)
	}
	return measure(angle), measure(angle + math.Pi/2)
}

// lineWithin gives the span [lo, hi] of t for which the point (x0, y0) +
// t·(ux, uy) lies within the w×h image (pixel centres 0 to w-1, 0 to
// h-1) and the convex polygon shown (when it has three corners or more);
// lo > hi when there is none.
func lineWithin(shown []models.Point, w, h int, x0, y0, ux, uy float64) (lo, hi float64) {
	lo, hi = PolygonSpan(shown, x0, y0, ux, uy)
	keep := keeper(&lo, &hi)
	keep(x0, ux)
	keep(float64(w-1)-x0, -ux)
	keep(y0, uy)
	keep(float64(h-1)-y0, -uy)
	return lo, hi
}

// PolygonSpan gives the span [lo, hi] of t for which the point (x0, y0) +
// t·(ux, uy) lies within the convex polygon shown (all t, from -Inf to
// +Inf, when it has fewer than three corners); lo > hi when there is none.
func PolygonSpan(shown []models.Point, x0, y0, ux, uy float64) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if len(shown) < 3 {
		return lo, hi
	}
	keep := keeper(&lo, &hi)
	area := 0.0
	for i := range shown {
		p, q := shown[i], shown[(i+1)%len(shown)]
		area += p.X*q.Y - q.X*p.Y
	}
	sign := math.Copysign(1, area)
	for i := range shown {
		p, q := shown[i], shown[(i+1)%len(shown)]
		// The cross product insideConvex tests, as a + b·t.
		a := (q.X-p.X)*(y0-p.Y) - (q.Y-p.Y)*(x0-p.X)
		b := (q.X-p.X)*uy - (q.Y-p.Y)*ux
		keep(sign*a, sign*b)
	}
	return lo, hi
}

// keeper gives the function that limits the span [*lo, *hi] of t to where
// a + b·t ≥ 0.
func keeper(lo, hi *float64) func(a, b float64) {
	return func(a, b float64) {
		switch {
		case b > 0:
			*lo = math.Max(*lo, -a/b)
		case b < 0:
			*hi = math.Min(*hi, -a/b)
		case a < 0:
			*lo, *hi = 1, 0
		}
	}
}
