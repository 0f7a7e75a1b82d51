package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// family is the set of candidate lines running in one direction, placed along
// a transversal through the image centre.
type family struct {
	lines []*lineCluster // sorted by t
	t     []float64      // position of each line along the transversal
}

// newFamily keeps the strongest clusters within tol of direction dir (and
// nearer to it than to the other direction), merges those that cross the
// transversal through centre within mergeTol px of each other (the two edges
// of one thick line), and places them along that transversal.
func newFamily(clusters []*lineCluster, dir, other, tol float64, centre models.Point, keep int, minCoverage float64) family {
	const mergeTol = 7.0
	tx, ty := -math.Sin(dir), math.Cos(dir)
	type lt struct {
		l *lineCluster
		t float64
	}
	var items []lt
	for _, c := range clusters {
		if !c.runsAlong(dir, other, tol) {
			continue
		}
		den := c.line.a*tx + c.line.b*ty
		if math.Abs(den) < 0.3 {
			continue
		}
		items = append(items, lt{c, -(c.line.a*centre.X + c.line.b*centre.Y + c.line.c) / den})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].t < items[j].t })
	var merged []lt
	for _, it := range items {
		if n := len(merged); n > 0 && it.t-merged[n-1].t < mergeTol &&
			angleDiff(math.Atan2(it.l.line.a, -it.l.line.b), math.Atan2(merged[n-1].l.line.a, -merged[n-1].l.line.b)) < 2*math.Pi/180 {
			prev := merged[n-1].l
			m := &lineCluster{mom: prev.mom, segs: append(append([]segment(nil), prev.segs...), it.l.segs...)}
			m.mom.w += it.l.mom.w
			m.mom.x += it.l.mom.x
			m.mom.y += it.l.mom.y
			m.mom.xx += it.l.mom.xx
			m.mom.xy += it.l.mom.xy
			m.mom.yy += it.l.mom.yy
			m.line = m.mom.line()
			m.coverage = math.Max(prev.coverage, it.l.coverage)
			merged[n-1] = lt{m, (merged[n-1].t + it.t) / 2}
			continue
		}
		merged = append(merged, it)
	}
	var sel []lt
	for _, it := range merged {
		if it.l.coverage >= minCoverage {
			sel = append(sel, it)
		}
	}
	sort.Slice(sel, func(i, j int) bool { return sel[i].l.coverage > sel[j].l.coverage })
	if len(sel) > keep {
		sel = sel[:keep]
	}
	sort.Slice(sel, func(i, j int) bool { return sel[i].t < sel[j].t })
	f := family{}
	for _, it := range sel {
		f.lines = append(f.lines, it.l)
		f.t = append(f.t, it.t)
	}
	return f
}

// nearest is the index of the line whose t is closest to t.
func (f family) nearest(t float64) int {
	i := sort.SearchFloat64s(f.t, t)
	best := -1
	bestD := math.Inf(1)
	for _, k := range []int{i - 1, i} {
		if k >= 0 && k < len(f.t) {
			if d := math.Abs(f.t[k] - t); d < bestD {
				best, bestD = k, d
			}
		}
	}
	return best
}

// hyp1 is a hypothesis for one direction of the lattice: which candidate line
// (or none, -1) is lattice line u, for u = 0…n-1.
type hyp1 struct {
	n     int
	pred  []float64
	match []int
	score float64
}

// mobius fits t = (α·u + β)/(γ·u + 1) through three (u, t) pairs: the 1-D
// projective map from lattice index to transversal position.
func mobius(u, t [3]float64) (a, b, g float64, ok bool) {
	// α·u + β − γ·u·t = t
	var m [3][4]float64
	for i := 0; i < 3; i++ {
		m[i] = [4]float64{u[i], 1, -u[i] * t[i], t[i]}
	}
	for col := 0; col < 3; col++ {
		piv := col
		for r := col + 1; r < 3; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) < 1e-9 {
			return 0, 0, 0, false
		}
		m[col], m[piv] = m[piv], m[col]
		for r := 0; r < 3; r++ {
			if r == col {
				continue
			}
			f := m[r][col] / m[col][col]
			for c := col; c < 4; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	return m[0][3] / m[0][0], m[1][3] / m[1][1], m[2][3] / m[2][2], true
}

// lattice1D finds the best ways to read n equally spaced (in the plane) lines
// among a family's candidates. minSpacing and maxSpan are in pixels.
func lattice1D(f family, n int, minSpacing, maxSpan float64, keep int) []hyp1 {
	m := len(f.t)
	var hyps []hyp1
	pred := make([]float64, n)
	match := make([]int, n)
	for a := 0; a < m; a++ {
		for b := a + 1; b < m; b++ {
			for c := b + 1; c < m; c++ {
				if f.t[c]-f.t[a] < 2*minSpacing {
					continue
				}
				for i := 0; i < n; i++ {
					for j := i + 1; j < n; j++ {
						for k := j + 1; k < n; k++ {
							al, be, ga, ok := mobius([3]float64{float64(i), float64(j), float64(k)}, [3]float64{f.t[a], f.t[b], f.t[c]})
							if !ok {
								continue
							}
							// The pole must lie well outside the lattice (one cell beyond it).
							if 1-ga <= 0.05 || 1+ga*float64(n) <= 0.05 {
								continue
							}
							good := true
							minSp, maxSp := math.Inf(1), 0.0
							for u := 0; u < n; u++ {
								pred[u] = (al*float64(u) + be) / (ga*float64(u) + 1)
								if u > 0 {
									sp := pred[u] - pred[u-1]
									if sp < minSpacing {
										good = false
										break
									}
									minSp = math.Min(minSp, sp)
									maxSp = math.Max(maxSp, sp)
								}
							}
							if !good || pred[n-1]-pred[0] > maxSpan || maxSp > 2.2*minSp {
								continue
							}
							var score float64
							for u := range match {
								match[u] = -1
							}
							for u := 0; u < n; u++ {
								sp := minSp
								if u > 0 {
									sp = pred[u] - pred[u-1]
								} else if n > 1 {
									sp = pred[1] - pred[0]
								}
								tol := 2 + 0.04*sp
								if k := f.nearest(pred[u]); k >= 0 && math.Abs(f.t[k]-pred[u]) <= tol {
									score += math.Sqrt(f.lines[k].coverage)
									match[u] = k
								}
							}
							hyps = addHyp(hyps, pred, match, score, keep)
						}
					}
				}
			}
		}
	}
	for h := range hyps {
		hyps[h].n = n
	}
	return hyps
}

// addHyp keeps the keep best hypotheses (by score) with distinct matches.
func addHyp(hyps []hyp1, pred []float64, match []int, score float64, keep int) []hyp1 {
	if len(hyps) == keep && score <= hyps[len(hyps)-1].score {
		return hyps
	}
	for i := range hyps {
		same := true
		for u := range match {
			if hyps[i].match[u] != match[u] {
				same = false
				break
			}
		}
		if same {
			return hyps
		}
	}
	h := hyp1{pred: append([]float64(nil), pred...), match: append([]int(nil), match...), score: score}
	if len(hyps) < keep {
		hyps = append(hyps, h)
	} else {
		hyps[len(hyps)-1] = h
	}
	sort.Slice(hyps, func(a, b int) bool { return hyps[a].score > hyps[b].score })
	return hyps
}

// gridFit is a lattice hypothesis in the plane: a transform from realm
// millimetres (in some orientation of the realm) to image pixels.
type gridFit struct {
	h     homography
	score float64
}

// combine turns one hypothesis per direction into a homography from the
// intersections of their matched lines. xs belongs to the direction of the
// Columns+1 lines (constant x), ys to the Rows+1 lines.
func combine(fx family, hx hyp1, fy family, hy hyp1, g models.RealmGeometry) (homography, bool) {
	var src, dst []models.Point
	nx, ny := 0, 0
	for _, k := range hx.match {
		if k >= 0 {
			nx++
		}
	}
	for _, k := range hy.match {
		if k >= 0 {
			ny++
		}
	}
	if nx < 2 || ny < 2 {
		return homography{}, false
	}
	for u, ku := range hx.match {
		if ku < 0 {
			continue
		}
		for v, kv := range hy.match {
			if kv < 0 {
				continue
			}
			p, ok := intersect(fx.lines[ku].line, fy.lines[kv].line)
			if !ok {
				return homography{}, false
			}
			src = append(src, models.Point{X: float64(u) * g.CellWidthMM, Y: float64(v) * g.CellHeightMM})
			dst = append(dst, p)
		}
	}
	h, err := fitHomography(src, dst)
	return h, err == nil
}

// gridLine is one lattice line in realm millimetres, from p0 to p1.
type gridLine struct{ p0, p1 models.Point }

// sample calls visit for the line's samples every step mm under h, with
// each sample's image point and the unit normal of the line's image there
// (a sample where that image degenerates is skipped), and returns how many
// samples the line has.
func (gl gridLine) sample(h homography, step float64, visit func(p models.Point, nx, ny float64)) int {
	dx, dy := gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y
	length := math.Hypot(dx, dy)
	ux, uy := dx/length, dy/length
	count := int(length/step) + 1
	for i := 0; i < count; i++ {
		s := float64(i) * step
		q := models.Point{X: gl.p0.X + ux*s, Y: gl.p0.Y + uy*s}
		p := h.Apply(q)
		p2 := h.Apply(models.Point{X: q.X + ux, Y: q.Y + uy})
		ex, ey := p2.X-p.X, p2.Y-p.Y
		el := math.Hypot(ex, ey)
		if el == 0 || math.IsNaN(el) {
			continue
		}
		visit(p, -ey/el, ex/el)
	}
	return count
}

// innerLines are the Columns+1 + Rows+1 lines of the realm grid.
func innerLines(g models.RealmGeometry) []gridLine {
	w, h := g.WidthMM(), g.HeightMM()
	var out []gridLine
	for i := 0; i <= models.Columns; i++ {
		x := float64(i) * g.CellWidthMM
		out = append(out, gridLine{models.Point{X: x, Y: 0}, models.Point{X: x, Y: h}})
	}
	for j := 0; j <= models.Rows; j++ {
		y := float64(j) * g.CellHeightMM
		out = append(out, gridLine{models.Point{X: 0, Y: y}, models.Point{X: w, Y: y}})
	}
	return out
}

// outerLines are the lattice lines one cell outside the realm on each side,
// which must not be there if the realm is read right.
func outerLines(g models.RealmGeometry) []gridLine {
	w, h := g.WidthMM(), g.HeightMM()
	cw, ch := g.CellWidthMM, g.CellHeightMM
	return []gridLine{
		{models.Point{X: -cw, Y: 0}, models.Point{X: -cw, Y: h}},
		{models.Point{X: w + cw, Y: 0}, models.Point{X: w + cw, Y: h}},
		{models.Point{X: 0, Y: -ch}, models.Point{X: w, Y: -ch}},
		{models.Point{X: 0, Y: h + ch}, models.Point{X: w, Y: h + ch}},
	}
}

// lineSupport samples a grid line every step mm and returns the fraction of
// samples with a matching edge within r px, and the supporting image points.
// With collect, r is the search radius for the line's centre (see edgeMap.centre).
func lineSupport(m *edgeMap, h homography, gl gridLine, step float64, r int, collect bool) (float64, []models.Point) {
	hits := 0
	var pts []models.Point
	n := gl.sample(h, step, func(p models.Point, nx, ny float64) {
		if !m.inside(p) {
			return
		}
		bin := directionBin(math.Atan2(ny, nx))
		if !collect {
			if off, paired, ok := m.lineCentre(p, nx, ny, r, bin); ok && paired && math.Abs(off) <= centreTolerance {
				hits++
			}
			return
		}
		if off, ok := m.centre(p, nx, ny, r, bin); ok {
			hits++
			pts = append(pts, models.Point{X: p.X + off*nx, Y: p.Y + off*ny})
		}
	})
	return float64(hits) / float64(n), pts
}

// A sample of a grid line is supported when the centre of a drawn line (the
// middle of two opposite edges up to maxLineWidth apart) lies within
// centreTolerance px of it, searching scoreRadius px either side. A single
// edge (the mat's own edge, a shadow) does not count.
const (
	scoreRadius     = 11
	centreTolerance = 2.5
)

// scoreGrid is how much of the realm grid lands on edges, less the support of
// the lattice lines just outside it.
func scoreGrid(m *edgeMap, h homography, g models.RealmGeometry) float64 {
	return scoreGridStep(m, h, g, 5)
}

// scoreGridStep is scoreGrid sampling every step mm.
func scoreGridStep(m *edgeMap, h homography, g models.RealmGeometry, step float64) float64 {
	var hit, total float64
	for _, gl := range innerLines(g) {
		f, _ := lineSupport(m, h, gl, step, scoreRadius, false)
		l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
		hit += f * l
		total += l
	}
	maxOut := 0.0
	for _, gl := range outerLines(g) {
		f, _ := lineSupport(m, h, gl, step, scoreRadius, false)
		maxOut = math.Max(maxOut, f)
	}
	return hit/total - 0.5*maxOut
}

// snapLine finds the image line of one grid line near its prediction under
// h: it reads the line's centre across the prediction every 2.5 mm (within r
// px) and fits the offsets robustly as a linear function along the line,
// starting from their median, so that card edges and art next to the line
// do not pull it. ok is false when too little of the line is visible.
func snapLine(m *edgeMap, h homography, gl gridLine, r int) (imgLine, bool) {
	a, b := h.Apply(gl.p0), h.Apply(gl.p1)
	lx, ly := b.X-a.X, b.Y-a.Y
	length := math.Hypot(lx, ly)
	if length < 10 || math.IsNaN(length) {
		return imgLine{}, false
	}
	ux, uy := lx/length, ly/length
	nx, ny := -uy, ux
	bin := directionBin(math.Atan2(ny, nx))
	const step = 2.5
	n := int(math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)/step) + 1
	var ss, offs []float64
	for i := 0; i < n; i++ {
		f := float64(i) / float64(n-1)
		q := models.Point{X: gl.p0.X + f*(gl.p1.X-gl.p0.X), Y: gl.p0.Y + f*(gl.p1.Y-gl.p0.Y)}
		p := h.Apply(q)
		if !m.inside(p) {
			continue
		}
		// Offset of p from the straight image line a–b (homographies keep lines straight).
		base := (p.X-a.X)*nx + (p.Y-a.Y)*ny
		if off, paired, ok := m.lineCentre(p, nx, ny, r, bin); ok && paired {
			ss = append(ss, (p.X-a.X)*ux+(p.Y-a.Y)*uy)
			offs = append(offs, base+off)
		}
	}
	if len(ss) < 6 || float64(len(ss)) < 0.15*float64(n) {
		return imgLine{}, false
	}
	sorted := append([]float64(nil), offs...)
	sort.Float64s(sorted)
	c0, c1 := sorted[len(sorted)/2], 0.0
	for _, tol := range []float64{3, 2, 1.5, 1.5} {
		var sw, s, o, so, s2 float64
		for i := range ss {
			if math.Abs(offs[i]-(c0+c1*ss[i])) > tol {
				continue
			}
			sw++
			s += ss[i]
			o += offs[i]
			so += ss[i] * offs[i]
			s2 += ss[i] * ss[i]
		}
		if sw < 5 {
			return imgLine{}, false
		}
		den := sw*s2 - s*s
		if math.Abs(den) < 1e-9 {
			c0, c1 = o/sw, 0
			continue
		}
		c1 = (sw*so - s*o) / den
		c0 = (o - c1*s) / sw
	}
	pa := models.Point{X: a.X + c0*nx, Y: a.Y + c0*ny}
	pb := models.Point{X: b.X + (c0+c1*length)*nx, Y: b.Y + (c0+c1*length)*ny}
	return lineThroughPts(pa, pb), true
}

// refineGrid snaps each grid line to the edges near it and refits the
// homography from the crossings of the fitted lines.
func refineGrid(m *edgeMap, h homography, g models.RealmGeometry, radii []int) homography {
	lines := innerLines(g)
	for _, r := range radii {
		fitted := make([]*imgLine, len(lines))
		for i, gl := range lines {
			if l, ok := snapLine(m, h, gl, r); ok {
				fitted[i] = &l
			}
		}
		var src, dst []models.Point
		xs, ys := 0, 0
		for i := 0; i <= models.Columns; i++ {
			if fitted[i] != nil {
				xs++
			}
		}
		for j := 0; j <= models.Rows; j++ {
			if fitted[models.Columns+1+j] != nil {
				ys++
			}
		}
		if xs < 2 || ys < 2 {
			return h
		}
		for i := 0; i <= models.Columns; i++ {
			for j := 0; j <= models.Rows; j++ {
				lx, ly := fitted[i], fitted[models.Columns+1+j]
				if lx == nil || ly == nil {
					continue
				}
				p, ok := intersect(*lx, *ly)
				if !ok {
					continue
				}
				src = append(src, models.Point{X: float64(i) * g.CellWidthMM, Y: float64(j) * g.CellHeightMM})
				dst = append(dst, p)
			}
		}
		nh, err := fitHomography(src, dst)
		if err != nil {
			return h
		}
		h = nh
	}
	return h
}
