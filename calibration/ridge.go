package calibration

import (
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// ridgeOffsets are the distances (px) either side of a point at which a
// drawn line's response compares the grey level with the line's centre:
// thin lines answer at every offset, a thick border only at the widest.
var ridgeOffsets = [...]float64{1.5, 3, 5}

// ridgeClip bounds one sample's normalised response, so that card art and
// glare next to a grid line cannot outvote the rest of the line.
const ridgeClip = 3.0

// ridgeMap reads drawn lines off the grey frame directly, without edges:
// the response of a point p to a line with normal n is how much darker p is
// than the points p ± d·n (for the offsets d of ridgeOffsets), in units of
// the frame's typical response. Averaged along a whole grid line, it shows
// faint or blurred lines a few grey levels deep that Canny cannot pair.
type ridgeMap struct {
	w, h  int
	pix   []float32
	noise [len(ridgeOffsets)]float64 // typical |response| at each offset
	// colour is the frame's colour at the same points, when the search
	// has it (nil otherwise): offTheMat tells the mat's edge from an arm's
	// by the cloth beside it.
	colour *colourFrame
	// pastDominant has the profile search guess the grid's directions
	// from the frame's lines less those of its dominant direction (see
	// stripes.go).
	pastDominant bool
	// onMat, when not nil, says which working points lie on the mat: the
	// searches then read only the straight segments whose middles it
	// holds (see onmat.go).
	onMat func(models.Point) bool
	// segmentShare is the least length of the straight segments the
	// profile search reads its directions off (see segmentShare).
	segmentShare float64
	// detrendPencil has the profile search line its vanishing points up
	// on how far the response gathered along each line stands out from
	// that along its neighbours, rather than on its total (see
	// detrended.go).
	detrendPencil bool
}

// newRidgeMap copies a blurred grey frame (8-bit, one channel) and measures
// its typical line response.
func newRidgeMap(gray gocv.Mat) (*ridgeMap, error) {
	f := gocv.NewMat()
	defer f.Close()
	gray.ConvertTo(&f, gocv.MatTypeCV32F)
	p, err := f.DataPtrFloat32()
	if err != nil {
		return nil, err
	}
	m := &ridgeMap{w: gray.Cols(), h: gray.Rows(), pix: append([]float32(nil), p...), segmentShare: segmentShare}
	m.measureNoise()
	return m, nil
}

// measureNoise sets noise to the median absolute response over a lattice of
// points, half of them read across x and half across y.
func (m *ridgeMap) measureNoise() {
	m.noise = m.noiseOver(nil)
}

// noiseOver is the typical |response| at each offset (see measureNoise)
// over the points over holds only (all of them when over is nil).
func (m *ridgeMap) noiseOver(over func(models.Point) bool) [len(ridgeOffsets)]float64 {
	var noise [len(ridgeOffsets)]float64
	step := max(4, int(math.Sqrt(float64(m.w*m.h)/4000)))
	for k, d := range ridgeOffsets {
		var vals []float64
		for y := 8; y < m.h-8; y += step {
			for x := 8 + (y/step%2)*step/2; x < m.w-8; x += step {
				nx, ny := 1.0, 0.0
				if (x/step+y/step)%2 == 1 {
					nx, ny = 0, 1
				}
				p := models.Point{X: float64(x), Y: float64(y)}
				if over != nil && !over(p) {
					continue
				}
				vals = append(vals, math.Abs(m.rawResponse(p, nx, ny, d)))
			}
		}
		noise[k] = 1
		if len(vals) > 0 {
			// The mean of the quieter 80% (the median of 8-bit levels
			// moves in coarse steps, and the loudest points are card
			// art and lines).
			sort.Float64s(vals)
			var sum float64
			keep := vals[:max(1, len(vals)*4/5)]
			for _, v := range keep {
				sum += v
			}
			noise[k] = math.Max(0.1, sum/float64(len(keep)))
		}
	}
	return noise
}

// at is the bilinear grey level at (x, y); ok is false outside the frame.
func (m *ridgeMap) at(x, y float64) (float64, bool) {
	if x < 0 || y < 0 || x > float64(m.w-1) || y > float64(m.h-1) {
		return 0, false
	}
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, m.w-1), min(y0+1, m.h-1)
	fx, fy := x-float64(x0), y-float64(y0)
	r0 := float64(m.pix[y0*m.w+x0])*(1-fx) + float64(m.pix[y0*m.w+x1])*fx
	r1 := float64(m.pix[y1*m.w+x0])*(1-fx) + float64(m.pix[y1*m.w+x1])*fx
	return r0*(1-fy) + r1*fy, true
}

// rawResponse is (I(p−d·n) + I(p+d·n))/2 − I(p): positive on a dark line.
func (m *ridgeMap) rawResponse(p models.Point, nx, ny, d float64) float64 {
	c, ok0 := m.at(p.X, p.Y)
	a, ok1 := m.at(p.X-d*nx, p.Y-d*ny)
	b, ok2 := m.at(p.X+d*nx, p.Y+d*ny)
	if !ok0 || !ok1 || !ok2 {
		return 0
	}
	return (a+b)/2 - c
}

// response is the normalised line response at p across the unit normal n,
// averaged over the offsets: for a dark line how much darker p is than the
// darker of its two flanks (so the bright flank of a
// light line, or one side of an edge, does not count), for a light line how
// much brighter than the brighter flank. ok is false near the frame's edge.
func (m *ridgeMap) response(p models.Point, nx, ny float64, light bool) (float64, bool) {
	dm := ridgeOffsets[len(ridgeOffsets)-1]
	if p.X < dm || p.Y < dm || p.X > float64(m.w-1)-dm || p.Y > float64(m.h-1)-dm {
		return 0, false
	}
	c, _ := m.at(p.X, p.Y)
	var s float64
	for k, d := range ridgeOffsets {
		a, _ := m.at(p.X-d*nx, p.Y-d*ny)
		b, _ := m.at(p.X+d*nx, p.Y+d*ny)
		s += flankContrast(a, b, c, m.noise[k], light)
	}
	return s / float64(len(ridgeOffsets)), true
}

// flankContrast is how much the centre c stands out from its flanks a and
// b (darker than their mean, or brighter for a light line), in units of
// noise, less the flanks' difference beyond flankSlack noise units: the
// side of an edge, or the flank of a line of the other colour, has one
// flank far from the other and does not count as a line.
func flankContrast(a, b, c, noise float64, light bool) float64 {
	r := (a+b)/2 - c
	if light {
		r = -r
	}
	return (r - math.Max(0, math.Abs(a-b)/2-flankSlack*noise)) / noise
}

// flankSlack is how different (in noise units) a line's two flanks may be
// before the difference counts against the line.
const flankSlack = 1.5

// lineEvidence is the mean clipped response along a grid line under h,
// sampled every step mm, for a dark or a light line; n is how many samples
// fell inside the frame.
// Samples are clipped to ±clip.
func (m *ridgeMap) lineEvidence(h homography, gl gridLine, step, clip float64, light bool) (float64, int) {
	var sum float64
	n := 0
	gl.sample(h, step, func(p models.Point, nx, ny float64) {
		r, ok := m.response(p, nx, ny, light)
		if !ok {
			return
		}
		sum += math.Max(-clip, math.Min(clip, r))
		n++
	})
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// ridgeScore is how strongly the realm grid under h shows as drawn lines of
// one colour: the length-weighted mean evidence of its lines (each capped,
// so that one strong line, a card border or the mat's edge, cannot carry a
// wrong lattice), less half the strongest lattice line one cell outside the
// realm. A line mostly outside the frame counts as empty.
func (m *ridgeMap) ridgeScore(h homography, g models.RealmGeometry) float64 {
	return m.gridEvidence(h, g, ridgeClip, ridgeLineCap, 4)
}

// ridgeLineCap caps one line's mean evidence in ridgeScore.
const ridgeLineCap = 1.5

// lightGrid says whether the grid under h shows as light lines rather than dark.
func (m *ridgeMap) lightGrid(h homography, g models.RealmGeometry) bool {
	return m.polarEvidence(h, g, ridgeClip, ridgeLineCap, true, 8) > m.polarEvidence(h, g, ridgeClip, ridgeLineCap, false, 8)
}

// gridEvidence is ridgeScore with samples clipped to ±clip, line means
// capped at lineCap, and samples every step mm.
func (m *ridgeMap) gridEvidence(h homography, g models.RealmGeometry, clip, lineCap, step float64) float64 {
	return math.Max(m.polarEvidence(h, g, clip, lineCap, false, step), m.polarEvidence(h, g, clip, lineCap, true, step))
}

// polarEvidence is gridEvidence for dark or for light lines.
func (m *ridgeMap) polarEvidence(h homography, g models.RealmGeometry, clip, lineCap float64, light bool, step float64) float64 {
	return m.polarEvidenceOf(func(gl gridLine) (float64, int) { return m.lineEvidence(h, gl, step, clip, light) }, g, lineCap, step)
}

// polarEvidenceOf is polarEvidence with each line's evidence (its mean
// response and how many samples fell inside the frame, samples every step
// mm) read by evidence.
func (m *ridgeMap) polarEvidenceOf(evidence func(gridLine) (float64, int), g models.RealmGeometry, lineCap, step float64) float64 {
	var hit, total float64
	for _, gl := range innerLines(g) {
		l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
		e, n := evidence(gl)
		if float64(n) < 0.5*(l/step+1) {
			e = 0
		}
		hit += math.Min(lineCap, e) * l
		total += l
	}
	// A line outside counts for the part of it the frame shows: a few
	// samples at the frame's edge (a card, the mat's corner) are not a
	// line.
	maxOut := 0.0
	for _, gl := range outerLines(g) {
		if e, n := evidence(gl); n > 0 {
			l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
			seen := math.Min(1, float64(n)/(l/step+1))
			maxOut = math.Max(maxOut, seen*math.Min(lineCap, e))
		}
	}
	// Lines half a cell inside the grid cross the cells' middles, where a
	// right lattice has no lines and one of twice the true spacing has
	// every other true line.
	mid := midLineEvidence(g, lineCap, func(gl gridLine) (float64, bool) {
		e, n := evidence(gl)
		return e, n > 0
	})
	return hit/total - 0.5*maxOut - 0.5*mid
}

// midLineEvidence is the length-weighted mean, over the lines halfway
// between the grid's (midLines) that evidence reads (ok), of their
// evidence held within [0, lineCap]; 0 when it reads none.
func midLineEvidence(g models.RealmGeometry, lineCap float64, evidence func(gridLine) (e float64, ok bool)) float64 {
	var mid, midTotal float64
	for _, gl := range midLines(g) {
		if e, ok := evidence(gl); ok {
			l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
			mid += math.Max(0, math.Min(lineCap, e)) * l
			midTotal += l
		}
	}
	if midTotal > 0 {
		mid /= midTotal
	}
	return mid
}

// bentRidgeScore is ridgeScore for a grid whose lines may bend a few
// pixels away from the straight lattice h: a lens's barrel distortion
// bows a line across the frame by several pixels, and a cloth mat that
// does not lie flat waves, while the ridge response falls to nothing, or
// below, a pixel or two off a thin line's centre. Each grid line is read
// cell side by cell side, every side at the shift across it (up to
// bentShift px either way) where it answers best; the lines one cell
// outside and through the cells' middles, which ridgeScore subtracts, are
// read the same way, so that picking the best shift raises noise as much
// on the lines subtracted as on the grid's own.
func (m *ridgeMap) bentRidgeScore(h homography, g models.RealmGeometry) float64 {
	const step = 4
	score := math.Inf(-1)
	for _, light := range []bool{false, true} {
		ev := func(gl gridLine) (float64, int) { return m.bentLineEvidence(h, gl, g, step, ridgeClip, light) }
		score = math.Max(score, m.polarEvidenceOf(ev, g, ridgeLineCap, step))
	}
	return score
}

// bentShift is the largest shift (px, at the working width) across a grid
// line at which bentRidgeScore reads a cell side.
const bentShift = 3

// bentLineEvidence is lineEvidence with the line read in pieces one cell
// side long, each at its best shift across the line (see bentRidgeScore).
func (m *ridgeMap) bentLineEvidence(h homography, gl gridLine, g models.RealmGeometry, step, clip float64, light bool) (float64, int) {
	dx, dy := gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y
	side := g.CellWidthMM
	if math.Abs(dy) > math.Abs(dx) {
		side = g.CellHeightMM
	}
	pieces := max(1, int(math.Round(math.Hypot(dx, dy)/side)))
	type sample struct {
		p      models.Point
		nx, ny float64
	}
	var sum float64
	n := 0
	for k := 0; k < pieces; k++ {
		a, b := float64(k)/float64(pieces), float64(k+1)/float64(pieces)
		piece := gridLine{models.Point{X: gl.p0.X + a*dx, Y: gl.p0.Y + a*dy}, models.Point{X: gl.p0.X + b*dx, Y: gl.p0.Y + b*dy}}
		var samples []sample
		piece.sample(h, step, func(p models.Point, nx, ny float64) { samples = append(samples, sample{p, nx, ny}) })
		best, bestN := math.Inf(-1), 0
		for s := -bentShift; s <= bentShift; s++ {
			var ps float64
			pn := 0
			for _, q := range samples {
				r, ok := m.response(models.Point{X: q.p.X + float64(s)*q.nx, Y: q.p.Y + float64(s)*q.ny}, q.nx, q.ny, light)
				if !ok {
					continue
				}
				ps += math.Max(-clip, math.Min(clip, r))
				pn++
			}
			if pn > 0 && ps/float64(pn) > best {
				best, bestN = ps/float64(pn), pn
			}
		}
		if bestN > 0 {
			sum += best * float64(bestN)
			n += bestN
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// midLines are the lines through the middles of the realm's columns and rows.
func midLines(g models.RealmGeometry) []gridLine {
	w, h := g.WidthMM(), g.HeightMM()
	var out []gridLine
	for i := 0; i < models.Columns; i++ {
		x := (float64(i) + 0.5) * g.CellWidthMM
		out = append(out, gridLine{models.Point{X: x, Y: 0}, models.Point{X: x, Y: h}})
	}
	for j := 0; j < models.Rows; j++ {
		y := (float64(j) + 0.5) * g.CellHeightMM
		out = append(out, gridLine{models.Point{X: 0, Y: y}, models.Point{X: w, Y: y}})
	}
	return out
}
