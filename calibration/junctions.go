package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// Many mats mark the cells' corners with a small cross instead of a dot (an
// L at the realm's corners, a T along its border), or draw dashed lines that
// cross at the corners. Such a corner does not stand out from the mat in
// every direction (markResponse): along its arms it is as dark as they are.
// It is a junction instead: thin lines leave the point in two directions, or
// three, or four, with plain mat between them. findJunctions reads a ring
// around each point for those arms; the junctions found are grown into the
// realm's lattice as the dots are (see marks.go).

// Junction reading: the ring's radius and how many directions it samples.
const (
	junctionRadius = 5.0 // px at the working width: arms are read this far out from the centre
	junctionAngles = 24
	maxJunctions   = 1500 // strongest junctions kept
	minArmResponse = 5.0  // an arm's ridge response across its direction, noise units (grain and JPEG give up to about 3)
)

// junctionArmOffsets are the flank distances (indices into ridgeOffsets) at
// which an arm is read across: a hairline or a line a few pixels wide.
var junctionArmOffsets = [...]int{0, 1}

// junctionResponse is how clearly (x, y) is the centre of a junction of thin
// lines (dark or light): the weakest of its arms' ridge responses, in noise
// units, or 0 when the ring around the point does not show 2 to 4 arms
// meeting there (two not in line: an L; three, two of them in line: a T;
// four in two lines: a cross) with plain mat between them. A point on a
// single line (two arms in line), in a flat area or in busy art is not a
// junction.
func (m *ridgeMap) junctionResponse(x, y int, light bool) (float64, uint32) {
	if !m.junctionCandidate(x, y, light) {
		return 0, 0
	}
	var arm [junctionAngles]float64
	for k := range arm {
		a := 2 * math.Pi * float64(k) / junctionAngles
		ux, uy := math.Cos(a), math.Sin(a)
		q := models.Point{X: float64(x) + junctionRadius*ux, Y: float64(y) + junctionRadius*uy}
		qc, _ := m.at(q.X, q.Y)
		best := math.Inf(-1)
		for _, oi := range junctionArmOffsets {
			d := ridgeOffsets[oi]
			fa, _ := m.at(q.X-d*uy, q.Y+d*ux)
			fb, _ := m.at(q.X+d*uy, q.Y-d*ux)
			best = math.Max(best, flankContrast(fa, fb, qc, m.noise[oi], light))
		}
		arm[k] = best
	}
	// Arms: local maxima of the ring's response above minArmResponse.
	var arms []int
	for k := range arm {
		prev, next := arm[(k+junctionAngles-1)%junctionAngles], arm[(k+1)%junctionAngles]
		if arm[k] >= minArmResponse && arm[k] >= prev && arm[k] > next {
			arms = append(arms, k)
		}
	}
	if !junctionShape(arms, junctionAngles) {
		return 0, 0
	}
	// Between the arms, plain mat: no direction more than two samples from
	// an arm answers even weakly.
	for k := range arm {
		near := false
		for _, a := range arms {
			if angularGap(k, a, junctionAngles) <= 2 {
				near = true
				break
			}
		}
		if !near && arm[k] >= minArmResponse/2 {
			return 0, 0
		}
	}
	weakest := math.Inf(1)
	var mask uint32
	for _, a := range arms {
		weakest = math.Min(weakest, arm[a])
		mask |= 1 << a
	}
	return weakest, mask
}

// junctionShape says whether arms (directions, in n samples round a ring,
// ascending) make a junction: two not in line (an L), three of which two
// are in line and the third across them (a T), or four in two lines
// crossing (a cross).
func junctionShape(arms []int, n int) bool {
	opposite := func(a, b int) bool { return angularGap(a, b, n) >= n/2-1 }
	spread := func(a, b int) bool {
		g := angularGap(a, b, n)
		return 8*g >= n && 8*g <= 3*n // 45°–135° apart
	}
	switch len(arms) {
	case 2:
		return spread(arms[0], arms[1])
	case 3:
		for i := range arms {
			a, b, c := arms[i], arms[(i+1)%3], arms[(i+2)%3]
			if opposite(a, b) && spread(a, c) && spread(b, c) {
				return true
			}
		}
	case 4:
		return opposite(arms[0], arms[2]) && opposite(arms[1], arms[3]) && spread(arms[0], arms[1])
	}
	return false
}

// candidateRing is a ring of 16 whole-pixel offsets about junctionRadius
// from the centre, in order round it.
var candidateRing = [16][2]int{{5, 0}, {5, 2}, {4, 4}, {2, 5}, {0, 5}, {-2, 5}, {-4, 4}, {-5, 2}, {-5, 0}, {-5, -2}, {-4, -4}, {-2, -5}, {0, -5}, {2, -5}, {4, -4}, {5, -2}}

// junctionCandidate is a cheap first test for junctionResponse on whole
// pixels: the centre stands out from the mat around it, and the ring about
// it crosses 2 to 4 runs of mark-coloured pixels in a junction's shape
// (most of the frame, flat mat, single lines and card edges, fails it).
func (m *ridgeMap) junctionCandidate(x, y int, light bool) bool {
	// Quickest of all: the centre is darker (or lighter) than at least half
	// of eight points round it (arms cover at most four), by more than the
	// mat's grain and shading differ between points this far apart.
	t := float32(minArmResponse * m.noise[len(ridgeOffsets)-1])
	c32 := m.pix[y*m.w+x]
	clear := 0
	for i := 0; i < len(candidateRing); i += 2 {
		o := candidateRing[i]
		d := m.pix[(y+o[1])*m.w+x+o[0]] - c32
		if light {
			d = -d
		}
		if d >= t {
			clear++
		}
	}
	if clear < 4 {
		return false
	}
	c := float64(c32)
	var v, sorted [len(candidateRing)]float64
	for i, o := range candidateRing {
		v[i] = float64(m.pix[(y+o[1])*m.w+x+o[0]])
		if light {
			v[i] = -v[i]
		}
	}
	if light {
		c = -c
	}
	sorted = v
	sort.Float64s(sorted[:])
	// Up to four arms two samples wide each: the mat is the upper half.
	mat := sorted[len(sorted)*5/8]
	tt := float64(t)
	if mat-c < tt {
		return false
	}
	var runs []int
	n := len(v)
	start := -1
	for i := range v {
		if v[i] > mat-tt && v[(i+n-1)%n] <= mat-tt {
			start = i // a run ends before i: start the scan here
			break
		}
	}
	if start < 0 {
		return false // all dark or all mat
	}
	for k := 0; k < n; k++ {
		i := (start + k) % n
		if v[i] <= mat-tt && v[(i+n-1)%n] > mat-tt {
			// A run begins at i: its direction is its darkest sample.
			best := i
			for j := i; v[j%n] <= mat-tt; j++ {
				if v[j%n] < v[best] {
					best = j % n
				}
			}
			runs = append(runs, best)
		}
	}
	sort.Ints(runs)
	return junctionShape(runs, n)
}

// angularGap is the number of samples between directions a and b on a ring
// of n, the short way round.
func angularGap(a, b, n int) int {
	d := ((a-b)%n + n) % n
	return min(d, n-d)
}

// findJunctions returns the local maxima of junctionResponse (either
// polarity) above minMarkResponse, strongest first, at most maxJunctions.
func (m *ridgeMap) findJunctions() []mark {
	margin := int(math.Ceil(junctionRadius+ridgeOffsets[junctionArmOffsets[len(junctionArmOffsets)-1]])) + 2
	resp := make([]float32, m.w*m.h)
	arms := make([]uint32, m.w*m.h)
	lightAt := make([]bool, m.w*m.h)
	for y := margin; y < m.h-margin; y++ {
		for x := margin; x < m.w-margin; x++ {
			d, da := m.junctionResponse(x, y, false)
			l, la := m.junctionResponse(x, y, true)
			i := y*m.w + x
			if l > d {
				resp[i], arms[i], lightAt[i] = float32(l), la, true
			} else {
				resp[i], arms[i] = float32(d), da
			}
		}
	}
	// One junction answers over a few pixels about its centre (the ring
	// still crosses every arm): one peak per junction.
	return peaks(resp, m.w, m.h, margin, int(junctionRadius)+1, maxJunctions, func(x, y int) (bool, uint32) {
		return lightAt[y*m.w+x], arms[y*m.w+x]
	})
}

// armToward says whether mark k has an arm in direction phi (radians, in
// the image); a dot, which has none, has every direction.
func (k mark) armToward(phi float64) bool {
	if k.arms == 0 {
		return true
	}
	i := int(math.Round(phi / (2 * math.Pi / junctionAngles)))
	for d := -1; d <= 1; d++ {
		if k.arms&(1<<(((i+d)%junctionAngles+junctionAngles)%junctionAngles)) != 0 {
			return true
		}
	}
	return false
}

// linked says whether marks a and b could be neighbouring corners of one
// grid: each has an arm pointing at the other (dots always are).
func linked(a, b mark) bool {
	phi := math.Atan2(b.p.Y-a.p.Y, b.p.X-a.p.X)
	return a.armToward(phi) && b.armToward(phi+math.Pi)
}

// peaks are the local maxima (within nms pixels) of resp at or above
// minMarkResponse, at sub-pixel precision, strongest first, at most
// keep of them. kind says whether the mark at (x, y) is lighter than
// the mat, and its arms.
func peaks(resp []float32, w, h, margin, nms, keep int, kind func(x, y int) (bool, uint32)) []mark {
	var marks []mark
	for y := margin + nms; y < h-margin-nms; y++ {
		for x := margin + nms; x < w-margin-nms; x++ {
			v := resp[y*w+x]
			if v < minMarkResponse {
				continue
			}
			peak := true
			for dy := -nms; dy <= nms && peak; dy++ {
				for dx := -nms; dx <= nms; dx++ {
					o := resp[(y+dy)*w+x+dx]
					if o > v || (o == v && (dy < 0 || (dy == 0 && dx < 0))) {
						peak = false
						break
					}
				}
			}
			if !peak {
				continue
			}
			// Sub-pixel: the response-weighted centroid of the 3×3.
			var sw, sx, sy float64
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					wt := math.Max(0, float64(resp[(y+dy)*w+x+dx]))
					sw += wt
					sx += wt * float64(dx)
					sy += wt * float64(dy)
				}
			}
			p := models.Point{X: float64(x), Y: float64(y)}
			if sw > 0 {
				p.X += sx / sw
				p.Y += sy / sw
			}
			light, arms := kind(x, y)
			marks = append(marks, mark{p: p, r: float64(v), light: light, arms: arms})
		}
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i].r > marks[j].r })
	if len(marks) > keep {
		marks = marks[:keep]
	}
	return marks
}

// junctionCentres are the lattice's marks' positions, a junction's moved to
// where its arms meet: the point from which the drawn lines toward its
// neighbouring corners (as the whole lattice places them, along the
// directions its arms point) show most clearly. A junction's response is
// about as strong a pixel or two along any of its arms as at its centre.
// Dots keep their positions.
func (m *ridgeMap) junctionCentres(l markLattice, marks []mark) map[int]models.Point {
	pos := make(map[int]models.Point, len(l))
	h, ok := l.fit(marks)
	for k, i := range l {
		mk := marks[i]
		pos[i] = mk.p
		if !ok || mk.arms == 0 {
			continue
		}
		c := h.Apply(models.Point{X: float64(k[0]), Y: float64(k[1])})
		var dirs []models.Point
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			n := h.Apply(models.Point{X: float64(k[0] + d[0]), Y: float64(k[1] + d[1])})
			l := dist(c, n)
			if l == 0 || math.IsNaN(l) {
				continue
			}
			u := models.Point{X: (n.X - c.X) / l, Y: (n.Y - c.Y) / l}
			if mk.armToward(math.Atan2(u.Y, u.X)) {
				dirs = append(dirs, u)
			}
		}
		if len(dirs) >= 2 {
			pos[i] = m.centreOfArms(mk.p, dirs, mk.light)
		}
	}
	return pos
}

// centreOfArms searches a few pixels about p for the point from which rays
// along dirs (unit vectors) run on drawn lines most clearly.
func (m *ridgeMap) centreOfArms(p models.Point, dirs []models.Point, light bool) models.Point {
	score := func(c models.Point) float64 {
		var s float64
		for _, u := range dirs {
			for t := 2.0; t <= 2*junctionRadius; t++ {
				r, ok := m.response(models.Point{X: c.X + t*u.X, Y: c.Y + t*u.Y}, -u.Y, u.X, light)
				if ok {
					s += math.Min(r, ridgeClip)
				}
			}
		}
		return s
	}
	best, bestS := p, score(p)
	for _, step := range []float64{1, 0.5, 0.25} {
		centre := best
		for dy := -3; dy <= 3; dy++ {
			for dx := -3; dx <= 3; dx++ {
				if step < 1 && (dx < -1 || dx > 1 || dy < -1 || dy > 1) {
					continue
				}
				c := models.Point{X: centre.X + float64(dx)*step, Y: centre.Y + float64(dy)*step}
				if s := score(c); s > bestS {
					best, bestS = c, s
				}
			}
		}
	}
	return best
}
