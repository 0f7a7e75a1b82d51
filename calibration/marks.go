package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// A mat need not print its grid as continuous lines: many mark only the
// cells' corners, with a dot or a small cross, or draw dashes that meet at
// the corners. Their lines are too broken for the edge lattice and too
// faint in a line profile, but the corners of the realm stand out as
// points darker (or lighter) than the mat around them in every direction. detectMarks reads the realm off those points: it finds them, grows
// a lattice from each point and two of its neighbours (predicting the next
// corner from the corners found so far, so that perspective and a little
// lens distortion are followed), and believes a lattice only when it ends,
// on every side, where the realm does: exactly 6 by 5 corners, most of them
// seen, and no mark one step beyond, whose marks look alike (prints of one
// mark, not card corners and art that happen to fall on a lattice), and no
// other lattice of marks that would make another realm.

// markOffsets are the flank distances (px, indices into ridgeOffsets) at
// which a mark is read: a dot a few pixels across answers at the wider one,
// a thin cross at both.
var markOffsets = [...]int{1, 2}

// Mark detection and lattice growth limits.
const (
	minMarkResponse = 2.0 // a mark's response (noise units) in both directions
	maxMarks        = 700 // strongest dots kept
	markSeeds       = 160 // strongest dots a lattice is grown from
	markNeighbours  = 6   // nearest marks tried as a seed's two steps
	markTolerance   = 0.2 // a corner is found within this share of a cell step from its prediction
	maxMarkExtent   = 7   // growth stops once a lattice is this many corners along an axis
	minMarkCorners  = 16  // of the realm's 30 corners, at least this many seen
	minBorderMarks  = 3   // and at least this many on each of its four border lines
)

// mark is a candidate corner mark: a local maximum of the two-direction
// response, at sub-pixel precision.
type mark struct {
	p     models.Point
	r     float64
	light bool   // lighter than the mat around it (else darker)
	arms  uint32 // a junction's arms (see junctionResponse), bit k at k·360°/junctionAngles; 0 for a dot
}

// alike says whether two marks could be prints of the same corner mark: of
// one polarity, and of responses within a factor markSpread of each other.
func (a mark) alike(b mark) bool {
	return a.light == b.light && (a.arms == 0) == (b.arms == 0) && a.r <= markSpread*b.r && b.r <= markSpread*a.r
}

// markSpread: see alike. Lamp falloff, blur and JPEG change a mark's
// response across the mat, but less than card art's marks differ.
const markSpread = 2.5

// markResponse is how clearly the point (x, y) stands out from the mat in
// every direction at once (across x, y and both diagonals; dark or light;
// the better flank offset), in noise units: high at a dot or a cross's
// centre, nothing along a line or an edge, whatever its direction, or on a
// flat area.
func (m *ridgeMap) markResponse(x, y int) float64 {
	d, l := m.markResponses(x, y)
	return max(d, l)
}

// markResponses is markResponse for a dark and for a light mark; below
// minMarkResponse it may read low.
func (m *ridgeMap) markResponses(x, y int) (dark, light float64) {
	for _, k := range markOffsets {
		d := ridgeOffsets[k]
		di := int(math.Round(d))
		dd := int(math.Round(d / math.Sqrt2))
		c := float64(m.pix[y*m.w+x])
		pair := func(dx, dy int) (float64, float64) {
			a := float64(m.pix[(y-dy)*m.w+x-dx])
			b := float64(m.pix[(y+dy)*m.w+x+dx])
			return flankContrast(a, b, c, m.noise[k], false), flankContrast(a, b, c, m.noise[k], true)
		}
		xd, xl := pair(di, 0)
		if max(xd, xl) < minMarkResponse {
			// Not a mark at this offset, whatever the other directions
			// say (most of the frame: read first, it saves the rest).
			continue
		}
		yd, yl := pair(0, di)
		ad, al := pair(dd, dd)
		bd, bl := pair(dd, -dd)
		dark = max(dark, min(xd, yd, ad, bd))
		light = max(light, min(xl, yl, al, bl))
	}
	return dark, light
}

// findMarks returns the local maxima of markResponse above minMarkResponse,
// strongest first, at most maxMarks of them.
func (m *ridgeMap) findMarks() []mark {
	margin := int(math.Ceil(ridgeOffsets[len(ridgeOffsets)-1])) + 1
	resp := make([]float32, m.w*m.h)
	for y := margin; y < m.h-margin; y++ {
		for x := margin; x < m.w-margin; x++ {
			resp[y*m.w+x] = float32(m.markResponse(x, y))
		}
	}
	const nms = 4 // a mark is the strongest within this many pixels
	return peaks(resp, m.w, m.h, margin, nms, maxMarks, func(x, y int) (bool, uint32) {
		dk, lt := m.markResponses(x, y)
		return lt > dk, 0
	})
}

// markIndex finds the mark nearest a point through a coarse bucket grid.
type markIndex struct {
	marks   []mark
	cell    float64
	nx, ny  int
	buckets [][]int
}

func newMarkIndex(marks []mark, w, h int) *markIndex {
	const cell = 16.0
	ix := &markIndex{marks: marks, cell: cell, nx: int(float64(w)/cell) + 1, ny: int(float64(h)/cell) + 1}
	ix.buckets = make([][]int, ix.nx*ix.ny)
	for i, mk := range marks {
		b := int(mk.p.Y/cell)*ix.nx + int(mk.p.X/cell)
		ix.buckets[b] = append(ix.buckets[b], i)
	}
	return ix
}

// nearest is the index of the mark nearest p within radius r that is alike
// mark like and linked to mark from, the neighbouring corner (-1: to none),
// or -1.
func (ix *markIndex) nearest(p models.Point, r float64, like mark, from int) int {
	best, bestD := -1, r*r
	x0, x1 := int((p.X-r)/ix.cell), int((p.X+r)/ix.cell)
	y0, y1 := int((p.Y-r)/ix.cell), int((p.Y+r)/ix.cell)
	for by := max(0, y0); by <= min(ix.ny-1, y1); by++ {
		for bx := max(0, x0); bx <= min(ix.nx-1, x1); bx++ {
			for _, i := range ix.buckets[by*ix.nx+bx] {
				q := ix.marks[i].p
				if !ix.marks[i].alike(like) || (from >= 0 && !linked(ix.marks[from], ix.marks[i])) {
					continue
				}
				if d := (q.X-p.X)*(q.X-p.X) + (q.Y-p.Y)*(q.Y-p.Y); d <= bestD {
					best, bestD = i, d
				}
			}
		}
	}
	return best
}

// markLattice is a lattice grown over marks: lattice index → mark.
type markLattice map[[2]int]int

// extent is the lattice's index bounds.
func (l markLattice) extent() (i0, i1, j0, j1 int) {
	i0, j0 = math.MaxInt, math.MaxInt
	i1, j1 = math.MinInt, math.MinInt
	for k := range l {
		i0, i1 = min(i0, k[0]), max(i1, k[0])
		j0, j1 = min(j0, k[1]), max(j1, k[1])
	}
	return
}

// trimmed drops, while there is one, an outer row or column of the lattice
// holding at most minStrayLine marks and under a third of its length: a card
// corner or a speck of art near where a corner beyond the realm would be.
func (l markLattice) trimmed() markLattice {
	for len(l) > 0 {
		i0, i1, j0, j1 := l.extent()
		count := func(axis, at int) int {
			n := 0
			for k := range l {
				if k[axis] == at {
					n++
				}
			}
			return n
		}
		type line struct{ axis, at, n, length int }
		var worst *line
		for _, c := range []line{{0, i0, count(0, i0), j1 - j0 + 1}, {0, i1, count(0, i1), j1 - j0 + 1}, {1, j0, count(1, j0), i1 - i0 + 1}, {1, j1, count(1, j1), i1 - i0 + 1}} {
			if c.n <= minStrayLine && 3*c.n < c.length && (worst == nil || c.n < worst.n) {
				worst = &c
			}
		}
		if worst == nil {
			return l
		}
		for k := range l {
			if k[worst.axis] == worst.at {
				delete(l, k)
			}
		}
	}
	return l
}

// minStrayLine: see trimmed.
const minStrayLine = 2

// fit is the homography from lattice indices to pixels (least squares over
// its marks); ok is false with fewer than 4 marks.
func (l markLattice) fit(marks []mark) (homography, bool) {
	if len(l) < 4 {
		return homography{}, false
	}
	src := make([]models.Point, 0, len(l))
	dst := make([]models.Point, 0, len(l))
	for k, i := range l {
		src = append(src, models.Point{X: float64(k[0]), Y: float64(k[1])})
		dst = append(dst, marks[i].p)
	}
	h, err := fitHomography(src, dst)
	return h, err == nil
}

// growLattice grows a lattice from marks s (index 0,0), a (1,0) and b
// (0,1): each round predicts every index next to the lattice (from the
// homography of the marks found so far, or the affine steps before there
// are four), takes the nearest mark within markTolerance of the local step,
// and stops when a round adds none or the lattice reaches maxMarkExtent
// along an axis.
func growLattice(ix *markIndex, s, a, b int) markLattice {
	marks := ix.marks
	l := markLattice{{0, 0}: s, {1, 0}: a, {0, 1}: b}
	used := map[int]bool{s: true, a: true, b: true}
	u := models.Point{X: marks[a].p.X - marks[s].p.X, Y: marks[a].p.Y - marks[s].p.Y}
	v := models.Point{X: marks[b].p.X - marks[s].p.X, Y: marks[b].p.Y - marks[s].p.Y}
	maxJump := 1
	if marks[s].arms != 0 {
		maxJump = 2
	}
	for round := 0; round < 12; round++ {
		predict := func(i, j int) models.Point {
			return models.Point{X: marks[s].p.X + float64(i)*u.X + float64(j)*v.X, Y: marks[s].p.Y + float64(i)*u.Y + float64(j)*v.Y}
		}
		if h, ok := l.fit(marks); ok && len(l) >= 5 {
			predict = func(i, j int) models.Point { return h.Apply(models.Point{X: float64(i), Y: float64(j)}) }
		}
		i0, i1, j0, j1 := l.extent()
		var add [][3]int
		for k := range l {
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				// The next corner along, or, when it is hidden (under a
				// card), the one after it; a junction's arms say where
				// the lines go on, a dot's nothing, so dots take the
				// next corner only.
				for jump := 1; jump <= maxJump; jump++ {
					n := [2]int{k[0] + jump*d[0], k[1] + jump*d[1]}
					if _, ok := l[n]; ok {
						break
					}
					if max(i1, n[0])-min(i0, n[0])+1 > maxMarkExtent || max(j1, n[1])-min(j0, n[1])+1 > maxMarkExtent {
						break
					}
					p := predict(n[0], n[1])
					pu, pv := predict(n[0]+1, n[1]), predict(n[0], n[1]+1)
					step := math.Min(dist(p, pu), dist(p, pv))
					if math.IsNaN(step) || step < 8 {
						break
					}
					if m := ix.nearest(p, markTolerance*step, marks[s], l[k]); m >= 0 && !used[m] {
						add = append(add, [3]int{n[0], n[1], m})
						break
					}
				}
			}
		}
		added := 0
		for _, c := range add {
			k := [2]int{c[0], c[1]}
			if _, ok := l[k]; ok || used[c[2]] {
				continue
			}
			l[k] = c[2]
			used[c[2]] = true
			added++
		}
		if added == 0 {
			break
		}
	}
	if marks[s].arms == 0 {
		// A dot's lattice is not reread: with nothing to link marks, a
		// speck of art beyond the realm would join it.
		return l
	}
	return harvest(ix, l, marks[s])
}

// harvestTolerance is how near (a share of the local cell step) its
// prediction by the whole lattice a mark must be for harvest to take it.
const harvestTolerance = 0.12

// harvest rereads a lattice grown over junctions: every corner of it, and
// one row and column past each side, takes the mark alike like nearest where the
// homography of the whole lattice puts it, within harvestTolerance of a
// cell step and linked to a neighbour already taken (see linked); a corner
// with no mark that near keeps the one it had. Early in its growth a
// lattice predicts from a few marks and may take a card's corner near the
// mark it was after; the whole lattice predicts better.
func harvest(ix *markIndex, l markLattice, like mark) markLattice {
	marks := ix.marks
	for round := 0; round < 2; round++ {
		h, ok := l.fit(marks)
		if !ok || len(l) < 5 {
			return l
		}
		i0, i1, j0, j1 := l.extent()
		next := markLattice{}
		used := map[int]bool{}
		for i := i0 - 1; i <= i1+1; i++ {
			for j := j0 - 1; j <= j1+1; j++ {
				p := h.Apply(models.Point{X: float64(i), Y: float64(j)})
				step := math.Min(dist(p, h.Apply(models.Point{X: float64(i + 1), Y: float64(j)})), dist(p, h.Apply(models.Point{X: float64(i), Y: float64(j + 1)})))
				if math.IsNaN(step) || step < 8 {
					continue
				}
				m := ix.nearest(p, harvestTolerance*step, like, -1)
				if m < 0 || used[m] {
					// Nothing near the prediction: the mark growth took
					// stays (a lens bends the lattice's border away from
					// a homography's prediction).
					if old, ok := l[[2]int{i, j}]; ok && !used[old] {
						next[[2]int{i, j}] = old
						used[old] = true
					}
					continue
				}
				linkedToLattice := false
				for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					if n, ok := l[[2]int{i + d[0], j + d[1]}]; ok && linked(marks[n], marks[m]) {
						linkedToLattice = true
						break
					}
				}
				if !linkedToLattice {
					continue
				}
				next[[2]int{i, j}] = m
				used[m] = true
			}
		}
		if len(next) < len(l)/2 {
			return l
		}
		l = next
	}
	return l
}

// detectMarks reads the realm off its corner marks (see the comment at the
// top of this file). It returns the homography from realm millimetres to
// working-image pixels and how many of the 30 corners were seen; ok is
// false when no lattice of marks is believable.
func detectMarks(rm *ridgeMap, g models.RealmGeometry) (homography, int, bool) {
	// Dots, and junctions of thin lines (crosses, dashes meeting): a cross
	// may answer as a dot too, less precisely placed.
	var found []markRealm
	for _, marks := range [][]mark{rm.findMarks(), rm.findJunctions()} {
		r, ok := realmOfMarkSet(rm, marks, g)
		if !ok {
			return homography{}, 0, false
		}
		if r.n > 0 {
			found = append(found, r)
		}
	}
	if len(found) == 0 {
		return homography{}, 0, false
	}
	best := found[0]
	for _, r := range found[1:] {
		if !sameRealm(best.h, r.h, g) {
			return homography{}, 0, false
		}
		if r.miss < best.miss {
			best = r
		}
	}
	return best.h, best.n, true
}

// markRealm is a realm read off a lattice of marks: its homography, how
// many of its corners were seen, and how far (median, in cell steps) they
// lie from it.
type markRealm struct {
	h    homography
	n    int
	miss float64
}

// realmOfMarkSet is detectMarks over one kind of mark: the realm of the
// lattice that fits its marks best (n is 0 when there is none), and false
// when two lattices make different realms.
func realmOfMarkSet(rm *ridgeMap, marks []mark, g models.RealmGeometry) (markRealm, bool) {
	var best markRealm
	for _, l := range rm.markLattices(marks) {
		r, ok := realmOfMarks(rm, l, marks, g)
		if !ok {
			continue
		}
		if best.n > 0 && !sameRealm(best.h, r.h, g) {
			// Two lattices of marks, each ending where a realm would:
			// which one is printed on the mat is a guess.
			return markRealm{}, false
		}
		if r.n > best.n || (r.n == best.n && r.miss < best.miss) {
			best = r
		}
	}
	return best, true
}

// markLattices are the lattices of at least minMarkCorners marks grown from
// the strongest marks, each with two alike neighbours as its steps.
func (rm *ridgeMap) markLattices(marks []mark) []markLattice {
	if len(marks) < minMarkCorners {
		return nil
	}
	var found []markLattice
	ix := newMarkIndex(marks, rm.w, rm.h)
	minStep := 0.05 * float64(rm.w) / 4.5 // the realm spans ≥ ¼ of the frame; rows foreshortened ≤ 4.5×
	maxStep := 0.5 * float64(rm.w)
	seen := map[int]bool{} // marks already in a full-size lattice: seeds from them find the same one
	seeds := markSeeds
	if len(marks) > 0 && marks[0].arms != 0 {
		// Card art makes junctions too, stronger than a mat's thin
		// crosses: every junction kept is a seed.
		seeds = len(marks)
	}
	for s := 0; s < min(seeds, len(marks)); s++ {
		if seen[s] {
			continue
		}
		type nb struct {
			i int
			d float64
		}
		var nbs []nb
		for i := range marks {
			if d := dist(marks[s].p, marks[i].p); i != s && d >= minStep && d <= maxStep && marks[i].alike(marks[s]) && linked(marks[s], marks[i]) {
				nbs = append(nbs, nb{i, d})
			}
		}
		sort.Slice(nbs, func(a, b int) bool { return nbs[a].d < nbs[b].d })
		if len(nbs) > markNeighbours {
			nbs = nbs[:markNeighbours]
		}
		for x := range nbs {
			for y := range nbs {
				a, b := nbs[x].i, nbs[y].i
				ua := models.Point{X: marks[a].p.X - marks[s].p.X, Y: marks[a].p.Y - marks[s].p.Y}
				ub := models.Point{X: marks[b].p.X - marks[s].p.X, Y: marks[b].p.Y - marks[s].p.Y}
				// a is the step along the image's x more than b is, and the two
				// steps are far from parallel (each pair tried once).
				if math.Abs(ua.X) < math.Abs(ub.X) || x == y {
					continue
				}
				sin := (ua.X*ub.Y - ua.Y*ub.X) / (nbs[x].d * nbs[y].d)
				if math.Abs(sin) < 0.5 {
					continue
				}
				l := growLattice(ix, s, a, b)
				if len(l) >= minMarkCorners {
					found = append(found, l)
					for _, m := range l {
						seen[m] = true
					}
				}
			}
		}
	}
	return found
}

// realmOfMarks is the realm read off a lattice of marks, if it is believable.
func realmOfMarks(rm *ridgeMap, best markLattice, marks []mark, g models.RealmGeometry) (markRealm, bool) {
	if len(best) < minMarkCorners {
		return markRealm{}, false
	}
	best = best.trimmed()
	i0, i1, j0, j1 := best.extent()
	ni, nj := i1-i0+1, j1-j0+1
	var colsAlongI bool
	switch {
	case ni == models.Columns+1 && nj == models.Rows+1:
		colsAlongI = true
	case ni == models.Rows+1 && nj == models.Columns+1:
	default:
		// More corners than the realm's (a grid that goes on past it, a
		// pattern in the mat's art) or fewer (a side under an arm or off
		// the frame): which 6 by 5 of them is the realm is a guess.
		return markRealm{}, false
	}
	pos := rm.junctionCentres(best, marks)
	src := make([]models.Point, 0, len(best))
	dst := make([]models.Point, 0, len(best))
	junctions := false
	for k, m := range best {
		c, r := k[0]-i0, k[1]-j0
		if !colsAlongI {
			c, r = k[1]-j0, k[0]-i0
		}
		src = append(src, models.Point{X: float64(c) * g.CellWidthMM, Y: float64(r) * g.CellHeightMM})
		dst = append(dst, pos[m])
		junctions = marks[m].arms != 0
	}
	h, err := fitHomography(src, dst)
	if err != nil {
		return markRealm{}, false
	}
	// Every mark lies near the fitted lattice (a lens bends it a little).
	// A junction that does not is a card's corner the growth took for a
	// hidden mark (its arms happened to point along the grid): it is
	// dropped, worst first. Dots must all lie near.
	for len(src) >= minMarkCorners {
		worst, worstMiss := -1, 0.0
		for i := range src {
			p := h.Apply(src[i])
			cell := math.Min(dist(p, h.Apply(models.Point{X: src[i].X + g.CellWidthMM, Y: src[i].Y})),
				dist(p, h.Apply(models.Point{X: src[i].X, Y: src[i].Y + g.CellHeightMM})))
			if m := dist(p, dst[i]) / cell; m > markTolerance && m > worstMiss {
				worst, worstMiss = i, m
			}
		}
		if worst < 0 {
			break
		}
		if !junctions {
			return markRealm{}, false
		}
		src = append(src[:worst], src[worst+1:]...)
		dst = append(dst[:worst], dst[worst+1:]...)
		if h, err = fitHomography(src, dst); err != nil {
			return markRealm{}, false
		}
	}
	if len(src) < minMarkCorners {
		return markRealm{}, false
	}
	borders := map[string]int{}
	for _, p := range src {
		switch p.X {
		case 0:
			borders["w"]++
		case g.WidthMM():
			borders["e"]++
		}
		switch p.Y {
		case 0:
			borders["s"]++
		case g.HeightMM():
			borders["n"]++
		}
	}
	for _, side := range []string{"w", "e", "s", "n"} {
		if borders[side] < minBorderMarks {
			return markRealm{}, false
		}
	}
	if !rm.marksLookAlike(src, dst, g) {
		return markRealm{}, false
	}
	h, miss := refitWithoutStrays(src, dst, h, g, junctions)
	h = onBorderMarks(src, dst, h, g)
	// Its corners are marks seen in the frame, and its cells have a shape a
	// camera over a table sees (a lattice indexed askew over the same marks
	// has not).
	if q := quadOfLattice(h, g); !acrossImage(q[0], q[1]) || !acrossImage(q[3], q[2]) {
		return markRealm{}, false
	}
	if !plausible(h, g, float64(rm.w), float64(rm.h)) || cameraInconsistency(h, float64(rm.w), float64(rm.h)) > maxCameraInconsistency {
		return markRealm{}, false
	}
	for _, p := range quadOfLattice(h, g) {
		if p.X < 0 || p.Y < 0 || p.X > float64(rm.w-1) || p.Y > float64(rm.h-1) {
			return markRealm{}, false
		}
	}
	return markRealm{h, len(src), miss}, true
}

// marksLookAlike says whether the marks seen at dst, the lattice's points
// src (realm millimetres), are prints of one mark (see alikeMarks): all of
// them, or, when at least minInnerMarks are seen there, those inside the
// realm, where four cells meet. A mat prints other marks along the realm's
// border than inside it (a T, an L at the corners, a frame printed round
// the realm running through them), while card corners and art that happen
// to fall on a lattice look alike nowhere.
func (m *ridgeMap) marksLookAlike(src, dst []models.Point, g models.RealmGeometry) bool {
	if m.alikeMarks(dst, minMarkCorners) {
		return true
	}
	var inner []models.Point
	for i, p := range src {
		if p.X > 0 && p.X < g.WidthMM() && p.Y > 0 && p.Y < g.HeightMM() {
			inner = append(inner, dst[i])
		}
	}
	return len(inner) >= minInnerMarks && m.alikeMarks(inner, minInnerMarks)
}

// markPatch is the half-size (px) of the patch around a mark that
// alikeMarks compares.
const markPatch = 6

// alikeMarks says whether the grey patches around the points (at least
// minCount of them inside the frame) look like prints of one mark: each
// patch, less its mean, is correlated with the pixelwise median of them
// all, and most must correlate well. Dots or
// crosses printed on a mat look alike; card corners, art and text that
// happen to fall on a lattice do not.
func (m *ridgeMap) alikeMarks(pts []models.Point, minCount int) bool {
	const n = (2*markPatch + 1) * (2*markPatch + 1)
	var patches [][]float64
	for _, p := range pts {
		x0, y0 := int(math.Round(p.X)), int(math.Round(p.Y))
		if x0 < markPatch || y0 < markPatch || x0 >= m.w-markPatch || y0 >= m.h-markPatch {
			continue
		}
		patch := make([]float64, 0, n)
		var mean float64
		for dy := -markPatch; dy <= markPatch; dy++ {
			for dx := -markPatch; dx <= markPatch; dx++ {
				v := float64(m.pix[(y0+dy)*m.w+x0+dx])
				patch = append(patch, v)
				mean += v
			}
		}
		mean /= n
		for i := range patch {
			patch[i] -= mean
		}
		patches = append(patches, patch)
	}
	if len(patches) < minCount {
		return false
	}
	median := make([]float64, n)
	col := make([]float64, len(patches))
	for i := range median {
		for k, p := range patches {
			col[k] = p[i]
		}
		sort.Float64s(col)
		median[i] = col[len(col)/2]
	}
	good := 0
	for _, p := range patches {
		if correlation(p, median) >= minMarkLikeness {
			good++
		}
	}
	return float64(good) >= minAlikeShare*float64(len(patches))
}

// Mark likeness thresholds: see alikeMarks.
const (
	minInnerMarks   = 8 // of the realm's 12 inner corners, seen for them to be judged alone
	minMarkLikeness = 0.5
	minAlikeShare   = 0.75
)

// correlation is the Pearson correlation of two zero-mean vectors.
func correlation(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// refitWithoutStrays refits homography h (src, realm millimetres → dst)
// without the points it misses by more than three times the median miss
// (and over a pixel and a half): a card's corner taken for a hidden mark
// nearby would pull the realm's corners off by a few pixels. A lens's
// bending misses every point a little and drops none. It also gives the
// median miss of the refit, in cell steps. Only junctions are dropped
// (drop): a dot that misses is a border dot a strong lens bent, which the
// realm's corners follow (see onBorderMarks).
func refitWithoutStrays(src, dst []models.Point, h homography, g models.RealmGeometry, drop bool) (homography, float64) {
	misses := func(h homography) (miss, steps []float64) {
		for i := range src {
			p := h.Apply(src[i])
			miss = append(miss, dist(p, dst[i]))
			steps = append(steps, math.Min(dist(p, h.Apply(models.Point{X: src[i].X + g.CellWidthMM, Y: src[i].Y})),
				dist(p, h.Apply(models.Point{X: src[i].X, Y: src[i].Y + g.CellHeightMM}))))
		}
		return miss, steps
	}
	median := func(v []float64) float64 {
		s := append([]float64(nil), v...)
		sort.Float64s(s)
		return s[len(s)/2]
	}
	miss, steps := misses(h)
	limit := math.Max(1.5, 3*median(miss))
	var s2, d2 []models.Point
	for i := range src {
		if miss[i] <= limit {
			s2 = append(s2, src[i])
			d2 = append(d2, dst[i])
		}
	}
	if drop && len(s2) < len(src) && len(s2) >= minMarkCorners {
		if hr, err := fitHomography(s2, d2); err == nil {
			h = hr
			miss, steps = misses(h)
		}
	}
	rel := make([]float64, len(miss))
	for i := range miss {
		rel[i] = miss[i] / steps[i]
	}
	return h, median(rel)
}

// minBorderFit is how many of the realm's 18 border corners must be seen
// for onBorderMarks to fit the realm to them alone.
const minBorderFit = 12

// onBorderMarks refits h (realm millimetres → pixels) to the marks on the
// realm's border alone, when most of them are seen. A lens's barrel distortion bows the
// lattice; a homography fitted to all its corners splits the difference
// and pulls the realm's corners a percent or more inward, one fitted to the
// border follows the border lines, where the realm's corners are. The
// refit is kept only when it moves no corner of the realm by more than
// markTolerance of a cell.
func onBorderMarks(src, dst []models.Point, h homography, g models.RealmGeometry) homography {
	var bs, bd []models.Point
	for i, p := range src {
		if p.X == 0 || p.Y == 0 || p.X == g.WidthMM() || p.Y == g.HeightMM() {
			bs = append(bs, p)
			bd = append(bd, dst[i])
		}
	}
	if len(bs) < minBorderFit {
		return h
	}
	hb, err := fitHomography(bs, bd)
	if err != nil {
		return h
	}
	qa, qb := quadOfLattice(h, g), quadOfLattice(hb, g)
	cell := dist(qa[0], qa[1]) / models.Columns
	for i := range qa {
		if dist(qa[i], qb[i]) > markTolerance*cell {
			return h
		}
	}
	return hb
}

// acrossImage says whether the line from a to b is within 45° of the image's horizontal.
func acrossImage(a, b models.Point) bool { return math.Abs(b.X-a.X) >= math.Abs(b.Y-a.Y) }
