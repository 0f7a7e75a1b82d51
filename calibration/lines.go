package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// imgLine is a line a·x + b·y + c = 0 with a² + b² = 1.
type imgLine struct{ a, b, c float64 }

// dist is the signed distance from p to the line.
func (l imgLine) dist(p models.Point) float64 { return l.a*p.X + l.b*p.Y + l.c }

// intersect gives the crossing of two lines; ok is false when they are parallel.
func intersect(l, m imgLine) (models.Point, bool) {
	d := l.a*m.b - l.b*m.a
	if math.Abs(d) < 1e-9 {
		return models.Point{}, false
	}
	return models.Point{X: (l.b*m.c - l.c*m.b) / d, Y: (l.c*m.a - l.a*m.c) / d}, true
}

// moments accumulates weighted points for a total-least-squares line fit.
type moments struct {
	w, x, y, xx, xy, yy float64
}

func (m *moments) add(p models.Point, w float64) {
	m.w += w
	m.x += w * p.X
	m.y += w * p.Y
	m.xx += w * p.X * p.X
	m.xy += w * p.X * p.Y
	m.yy += w * p.Y * p.Y
}

// line is the total-least-squares fit of the accumulated points.
func (m *moments) line() imgLine {
	cx, cy := m.x/m.w, m.y/m.w
	sxx := m.xx/m.w - cx*cx
	sxy := m.xy/m.w - cx*cy
	syy := m.yy/m.w - cy*cy
	// Direction is the principal axis of the covariance.
	theta := 0.5 * math.Atan2(2*sxy, sxx-syy)
	dx, dy := math.Cos(theta), math.Sin(theta)
	a, b := -dy, dx
	return imgLine{a: a, b: b, c: -(a*cx + b*cy)}
}

// lineCluster is one straight line assembled from collinear segments.
type lineCluster struct {
	line     imgLine
	mom      moments
	segs     []segment
	coverage float64 // length of the union of its segments along the line
}

// direction is the direction of the cluster's line (radians, modulo π).
func (c *lineCluster) direction() float64 { return math.Atan2(c.line.a, -c.line.b) }

// runsAlong tells whether the cluster's line lies within tol of dir and
// nearer dir than other: whether it belongs to dir's family of lines.
func (c *lineCluster) runsAlong(dir, other, tol float64) bool {
	cdir := c.direction()
	d := angleDiff(cdir, dir)
	return d <= tol && d <= angleDiff(cdir, other)
}

// angleDiff is the distance between two directions modulo π.
func angleDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), math.Pi)
	if d > math.Pi/2 {
		d = math.Pi - d
	}
	return d
}

// dominantDirections finds the two main segment directions (length-weighted),
// at least minSep apart.
func dominantDirections(segs []segment, minSep float64) (float64, float64, bool) {
	const bins = 180
	var hist [bins]float64
	for _, s := range segs {
		b := int(s.direction()/math.Pi*bins) % bins
		hist[b] += s.length()
	}
	var smooth [bins]float64
	for i := range hist {
		for k := -3; k <= 3; k++ {
			smooth[i] += hist[(i+k+bins)%bins] * (4 - math.Abs(float64(k)))
		}
	}
	best := 0
	for i := range smooth {
		if smooth[i] > smooth[best] {
			best = i
		}
	}
	p1 := (float64(best) + 0.5) * math.Pi / bins
	second, found := -1, false
	for i := range smooth {
		a := (float64(i) + 0.5) * math.Pi / bins
		if angleDiff(a, p1) < minSep {
			continue
		}
		if !found || smooth[i] > smooth[second] {
			second, found = i, true
		}
	}
	if !found || smooth[second] == 0 {
		return p1, 0, false
	}
	return p1, (float64(second) + 0.5) * math.Pi / bins, true
}

// clusterSegments merges near-collinear segments into lines, longest first.
func clusterSegments(segs []segment, angTol, distTol float64) []*lineCluster {
	sorted := append([]segment(nil), segs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].length() > sorted[j].length() })
	var out []*lineCluster
	for _, s := range sorted {
		dir := s.direction()
		var target *lineCluster
		for _, c := range out {
			if angleDiff(dir, c.direction()) > angTol {
				continue
			}
			if math.Abs(c.line.dist(s.a)) <= distTol && math.Abs(c.line.dist(s.b)) <= distTol {
				target = c
				break
			}
		}
		if target == nil {
			target = &lineCluster{}
			out = append(out, target)
		}
		target.segs = append(target.segs, s)
		w := s.length() / 2
		target.mom.add(s.a, w)
		target.mom.add(s.b, w)
		target.line = target.mom.line()
	}
	// Second pass: fold each cluster into a longer one when all its segments
	// lie near that line (pieces of one grid line broken by cards, and the
	// two edges of a drawn line).
	for _, c := range out {
		c.coverage = coverage(c.line, c.segs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].coverage > out[j].coverage })
	merged := make([]bool, len(out))
	for i, big := range out {
		if merged[i] {
			continue
		}
		bdir := math.Atan2(big.line.a, -big.line.b)
		for j := i + 1; j < len(out); j++ {
			small := out[j]
			if merged[j] || angleDiff(bdir, math.Atan2(small.line.a, -small.line.b)) > 2*angTol {
				continue
			}
			near := true
			for _, s := range small.segs {
				if math.Abs(big.line.dist(s.a)) > 1.7*distTol || math.Abs(big.line.dist(s.b)) > 1.7*distTol {
					near = false
					break
				}
			}
			if !near {
				continue
			}
			merged[j] = true
			big.segs = append(big.segs, small.segs...)
			big.mom.w += small.mom.w
			big.mom.x += small.mom.x
			big.mom.y += small.mom.y
			big.mom.xx += small.mom.xx
			big.mom.xy += small.mom.xy
			big.mom.yy += small.mom.yy
			big.line = big.mom.line()
		}
		big.coverage = coverage(big.line, big.segs)
	}
	kept := out[:0]
	for i, c := range out {
		if !merged[i] {
			kept = append(kept, c)
		}
	}
	return kept
}

// coverage is the length of the union of the segments projected on the line.
func coverage(l imgLine, segs []segment) float64 {
	dx, dy := -l.b, l.a
	type iv struct{ lo, hi float64 }
	ivs := make([]iv, 0, len(segs))
	for _, s := range segs {
		a := s.a.X*dx + s.a.Y*dy
		b := s.b.X*dx + s.b.Y*dy
		if a > b {
			a, b = b, a
		}
		ivs = append(ivs, iv{a, b})
	}
	sort.Slice(ivs, func(i, j int) bool { return ivs[i].lo < ivs[j].lo })
	var total, curLo, curHi float64
	for i, v := range ivs {
		if i == 0 || v.lo > curHi {
			total += curHi - curLo
			curLo, curHi = v.lo, v.hi
			continue
		}
		curHi = math.Max(curHi, v.hi)
	}
	if len(ivs) > 0 {
		total += curHi - curLo
	}
	return total
}

// lineThroughPts is the line through two points.
func lineThroughPts(p, q models.Point) imgLine {
	dx, dy := q.X-p.X, q.Y-p.Y
	l := math.Hypot(dx, dy)
	a, b := -dy/l, dx/l
	return imgLine{a: a, b: b, c: -(a*p.X + b*p.Y)}
}
