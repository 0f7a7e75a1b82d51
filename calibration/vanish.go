package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// vec3 is a homogeneous image point or line.
type vec3 [3]float64

func cross(a, b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (v vec3) norm() float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }

// vanishingPoint finds where the lines of one direction meet: the point
// (homogeneous, possibly at infinity) on which the most line length agrees,
// from pairs of the longest lines within tol of dir (and nearer to it than
// to other), refined by least squares over the lines that agree. The mat's
// border, the grid lines that Hough found and the edges of cards lying
// square in their cells all point there. ok is false without two such lines.
func vanishingPoint(clusters []*lineCluster, dir, other, tol float64, centre models.Point, scale float64) (vec3, bool) {
	type cand struct {
		l   vec3 // line in normalised coordinates
		mid models.Point
		dx  float64
		dy  float64
		w   float64
	}
	var cs []cand
	for _, c := range clusters {
		if !c.runsAlong(dir, other, tol) {
			continue
		}
		mid := models.Point{X: (c.mom.x/c.mom.w - centre.X) / scale, Y: (c.mom.y/c.mom.w - centre.Y) / scale}
		l := vec3{c.line.a, c.line.b, (c.line.c + c.line.a*centre.X + c.line.b*centre.Y) / scale}
		cs = append(cs, cand{l: l, mid: mid, dx: -c.line.b, dy: c.line.a, w: c.coverage / scale})
	}
	if len(cs) < 2 {
		return vec3{}, false
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].w > cs[j].w })
	if len(cs) > 30 {
		cs = cs[:30]
	}
	// offset is how far (normalised units) the line's ends are from
	// pointing at v.
	offset := func(c cand, v vec3) float64 {
		var ex, ey float64
		if math.Abs(v[2]) < 1e-9 {
			ex, ey = v[0], v[1]
		} else {
			ex, ey = v[0]/v[2]-c.mid.X, v[1]/v[2]-c.mid.Y
		}
		el := math.Hypot(ex, ey)
		if el == 0 {
			return math.Inf(1)
		}
		sin := math.Abs(ex*c.dy-ey*c.dx) / el
		return c.w / 2 * sin
	}
	tolOff := 1.5 / scale
	best, bestW := vec3{}, -1.0
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			v := cross(cs[i].l, cs[j].l)
			if n := v.norm(); n < 1e-12 {
				continue
			} else {
				v = vec3{v[0] / n, v[1] / n, v[2] / n}
			}
			var w float64
			for _, c := range cs {
				if offset(c, v) <= tolOff {
					w += c.w
				}
			}
			if w > bestW {
				best, bestW = v, w
			}
		}
	}
	if bestW <= 0 {
		return vec3{}, false
	}
	// Least squares over the agreeing lines: the v minimising Σ w (l·v)².
	var m [3][3]float64
	for _, c := range cs {
		if offset(c, best) > 2*tolOff {
			continue
		}
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				m[a][b] += c.w * c.l[a] * c.l[b]
			}
		}
	}
	v := smallestEigenvector(m)
	if v.norm() == 0 {
		v = best
	}
	// Back to pixels.
	return vec3{scale*v[0] + centre.X*v[2], scale*v[1] + centre.Y*v[2], v[2]}, true
}

// smallestEigenvector of a symmetric 3×3 matrix (Jacobi rotations).
func smallestEigenvector(a [3][3]float64) vec3 {
	v := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for sweep := 0; sweep < 30; sweep++ {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		if off < 1e-30 {
			break
		}
		for p := 0; p < 2; p++ {
			for q := p + 1; q < 3; q++ {
				if math.Abs(a[p][q]) < 1e-300 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < 3; k++ {
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < 3; k++ {
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := 0; k < 3; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	k := 0
	for i := 1; i < 3; i++ {
		if a[i][i] < a[k][k] {
			k = i
		}
	}
	return vec3{v[0][k], v[1][k], v[2][k]}
}

// spanPoint is where the two longest lines within tol of dir (and nearer
// to it than to other) that lie at least minGap px apart meet: the mat's
// opposite edges, typically, the longest straight lines in view. ok is
// false without two such lines.
func spanPoint(clusters []*lineCluster, dir, other, tol, minGap float64) (vec3, bool) {
	var fam []*lineCluster
	for _, c := range clusters {
		if c.runsAlong(dir, other, tol) {
			fam = append(fam, c)
		}
	}
	sort.Slice(fam, func(i, j int) bool { return fam[i].coverage > fam[j].coverage })
	if len(fam) < 2 {
		return vec3{}, false
	}
	a := fam[0]
	ma := models.Point{X: a.mom.x / a.mom.w, Y: a.mom.y / a.mom.w}
	for _, b := range fam[1:min(len(fam), 6)] {
		mb := models.Point{X: b.mom.x / b.mom.w, Y: b.mom.y / b.mom.w}
		if math.Abs(a.line.dist(mb)) < minGap || math.Abs(b.line.dist(ma)) < minGap {
			continue
		}
		v := cross(vec3{a.line.a, a.line.b, a.line.c}, vec3{b.line.a, b.line.b, b.line.c})
		if v.norm() == 0 {
			return vec3{}, false
		}
		return v, true
	}
	return vec3{}, false
}
