package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// pointGrid buckets points by square cells, to find those near a place.
type pointGrid struct {
	cell    float32
	w, h    int
	offsets []int32 // cell c holds ids[offsets[c]:offsets[c+1]]
	ids     []int32
}

func newPointGrid(pts []keypoint, cell float32) *pointGrid {
	g := &pointGrid{cell: cell}
	for _, p := range pts {
		g.w = max(g.w, int(p.X/cell)+1)
		g.h = max(g.h, int(p.Y/cell)+1)
	}
	g.offsets = make([]int32, g.w*g.h+1)
	for _, p := range pts {
		g.offsets[g.cellOf(p)+1]++
	}
	for c := 1; c < len(g.offsets); c++ {
		g.offsets[c] += g.offsets[c-1]
	}
	fill := append([]int32(nil), g.offsets[:len(g.offsets)-1]...)
	g.ids = make([]int32, len(pts))
	for i, p := range pts {
		c := g.cellOf(p)
		g.ids[fill[c]] = int32(i)
		fill[c]++
	}
	return g
}

func (g *pointGrid) cellOf(p keypoint) int {
	return min(max(int(p.Y/g.cell), 0), g.h-1)*g.w + min(max(int(p.X/g.cell), 0), g.w-1)
}

// near calls fn with every point id in the cells that the square of half
// side r around (x, y) touches (a superset of the points within r).
func (g *pointGrid) near(x, y, r float64, fn func(id int32)) {
	x0, x1, y0, y1 := g.cellsNear(x, y, r)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			for _, id := range g.at(cx, cy) {
				fn(id)
			}
		}
	}
}

// cellsIn gives the columns x0–x1 and rows y0–y1 of the cells that the box
// from (minX, minY) to (maxX, maxY) touches (none when x1 < x0 or y1 < y0).
func (g *pointGrid) cellsIn(minX, minY, maxX, maxY float64) (x0, x1, y0, y1 int) {
	c := float64(g.cell)
	x0, x1 = max(int(math.Floor(minX/c)), 0), min(int(math.Floor(maxX/c)), g.w-1)
	y0, y1 = max(int(math.Floor(minY/c)), 0), min(int(math.Floor(maxY/c)), g.h-1)
	return x0, x1, y0, y1
}

// cellsNear gives the columns x0–x1 and rows y0–y1 of the cells that the
// square of half side r around (x, y) touches (none when x1 < x0 or y1 < y0).
func (g *pointGrid) cellsNear(x, y, r float64) (x0, x1, y0, y1 int) {
	c := float64(g.cell)
	x0, x1 = max(int(math.Floor((x-r)/c)), 0), min(int(math.Floor((x+r)/c)), g.w-1)
	y0, y1 = max(int(math.Floor((y-r)/c)), 0), min(int(math.Floor((y+r)/c)), g.h-1)
	return x0, x1, y0, y1
}

// at lists the point ids in the cell at column cx, row cy.
func (g *pointGrid) at(cx, cy int) []int32 {
	c := cy*g.w + cx
	return g.ids[g.offsets[c]:g.offsets[c+1]]
}

// spotGrid is a pointGrid that keeps some of the points only, each with
// its position beside its id: what verify reads for every keypoint of a
// card, in one place in memory.
type spotGrid struct {
	pointGrid
	spots []spot // by cell, as pointGrid.ids
}

// spot is one point of a spotGrid: its position and its id.
type spot struct {
	X, Y float32
	ID   int32
}

// newSpotGrid holds the points pts[i] for which keep[i] is true.
func newSpotGrid(pts []keypoint, keep []bool, cell float32) *spotGrid {
	var kept []keypoint
	var ids []int32
	for i, p := range pts {
		if keep[i] {
			kept = append(kept, p)
			ids = append(ids, int32(i))
		}
	}
	g := &spotGrid{pointGrid: *newPointGrid(kept, cell)}
	g.spots = make([]spot, len(g.ids))
	for k, i := range g.ids {
		g.spots[k] = spot{kept[i].X, kept[i].Y, ids[i]}
	}
	return g
}

// at lists the spots in the cell at column cx, row cy.
func (g *spotGrid) at(cx, cy int) []spot {
	c := cy*g.w + cx
	return g.spots[g.offsets[c]:g.offsets[c+1]]
}

// verify counts the evidence for a fitted card over the frame's described
// keypoints (see matchFrame), not only those the hash tables matched: every
// free one inside the card's outline is mapped back onto the face, and it agrees
// when a keypoint of the face lies within inlierThreshold there with a
// descriptor within maxHamming. Features other faces have at the same
// place (see markGeneric) are left out, so that a face fitted by chance
// gains nothing from the frame and text box all cards have. The agreeing
// keypoints count as the card's inliers and are taken (no other card is
// fitted to them), and the inlier count and the share of checked keypoints
// that agree give the card's confidence, on the same footing whichever pass
// found it. They do not join d.used: the second pass's search for cards on
// top of this one goes by the fitted inliers only (see unexplained), whose
// gaps leave room for a small card, a token, lying on it. They are kept in
// d.agreed (read by mayHoldToken).
func (x *catalogIndex) verify(d *detection, f features, frame *pointGrid, taken []bool) {
	ref := &x.refs[d.ref]
	faceGrid := x.faceSpots[d.ref]
	s2 := d.sim.A*d.sim.A + d.sim.B*d.sim.B
	if s2 < 1e-9 || faceGrid == nil {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range d.quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	agree, checked := 0, 0
	r := inlierThreshold / math.Sqrt(s2) // the inlier distance on the face
	sides := newQuadSides(d.quad)
	var done []bool // nil: every keypoint is described
	if f.lazy != nil {
		done = f.lazy.done
	}
	w, h := float64(ref.W), float64(ref.H)
	cell := float64(faceGrid.cell)
	// (Plain loops over the grid cells: the callbacks of pointGrid.near
	// cost a third of the time here. The face cells near a position are
	// cellsNear's: truncation rounds as Floor does where the bounds are
	// clamped, at 0 and below.)
	fx0, fx1, fy0, fy1 := frame.cellsIn(minX, minY, maxX, maxY)
	for gy := fy0; gy <= fy1; gy++ {
		for gx := fx0; gx <= fx1; gx++ {
			for _, i := range frame.at(gx, gy) {
				if taken[i] || (done != nil && !done[i]) {
					continue
				}
				p := f.Points[i]
				fx, fy := float64(p.X), float64(p.Y)
				if fx < minX || fx > maxX || fy < minY || fy > maxY || !sides.holds(fx, fy) {
					continue
				}
				// The face position the similarity maps onto (fx, fy).
				dx, dy := fx-d.sim.Tx, fy-d.sim.Ty
				rx, ry := (d.sim.A*dx+d.sim.B*dy)/s2, (-d.sim.B*dx+d.sim.A*dy)/s2
				if rx < 0 || ry < 0 || rx >= w || ry >= h {
					continue
				}
				best, found := maxHamming+1, false
				x0, x1 := max(int((rx-r)/cell), 0), min(int((rx+r)/cell), faceGrid.w-1)
				y0, y1 := max(int((ry-r)/cell), 0), min(int((ry+r)/cell), faceGrid.h-1)
				desc := &f.Descs[i]
				if x0 > x1 {
					y1 = -1 // (beyond the face's last keypoints: none near)
				}
				for y := y0; y <= y1; y++ {
					row := faceGrid.offsets[y*faceGrid.w : (y+1)*faceGrid.w+1]
					for _, q := range faceGrid.spots[row[x0]:row[x1+1]] {
						if ex, ey := float64(q.X)-rx, float64(q.Y)-ry; ex*ex+ey*ey > r*r {
							continue
						}
						found = true
						best = min(best, hamming(desc, &ref.Feat.Descs[q.ID]))
					}
				}
				if !found {
					continue
				}
				checked++
				if best <= maxHamming {
					agree++
					taken[i] = true
					d.agreed = append(d.agreed, int(i))
				}
			}
		}
	}
	// The hash-table inliers and the agreeing keypoints are disjoint (the
	// former were taken first).
	d.inliers += agree
	d.matches += checked
}

// quadSides is a convex quad's corners and sides, worked out once for the
// many points tested against it (inside tests one).
type quadSides struct {
	ax, ay, ex, ey [4]float64 // corner i and the side from it to corner i+1
}

func newQuadSides(q models.Quad) quadSides {
	var s quadSides
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		s.ax[i], s.ay[i], s.ex[i], s.ey[i] = a.X, a.Y, b.X-a.X, b.Y-a.Y
	}
	return s
}

// holds reports whether (x, y) lies in the quad: on the same side of
// every side (a cross product of 0 counts as positive). It stops at the
// first side that disagrees with the first: most points tested lie outside.
func (s *quadSides) holds(x, y float64) bool {
	neg := s.ex[0]*(y-s.ay[0])-s.ey[0]*(x-s.ax[0]) < 0
	for i := 1; i < 4; i++ {
		if s.ex[i]*(y-s.ay[i])-s.ey[i]*(x-s.ax[i]) < 0 != neg {
			return false
		}
	}
	return true
}

// quadHolds is newQuadSides(q).holds(x, y), the sides worked out only as
// far as the test goes: for a point tested against many quads once.
func quadHolds(q *models.Quad, x, y float64) bool {
	neg := (q[1].X-q[0].X)*(y-q[0].Y)-(q[1].Y-q[0].Y)*(x-q[0].X) < 0
	if (q[2].X-q[1].X)*(y-q[1].Y)-(q[2].Y-q[1].Y)*(x-q[1].X) < 0 != neg {
		return false
	}
	if (q[3].X-q[2].X)*(y-q[2].Y)-(q[3].Y-q[2].Y)*(x-q[2].X) < 0 != neg {
		return false
	}
	return (q[0].X-q[3].X)*(y-q[3].Y)-(q[0].Y-q[3].Y)*(x-q[3].X) < 0 == neg
}

// genericSample is how many other faces of its kind each face's keypoints
// are compared with to find the generic ones: features all cards share
// show up in any sample.
const genericSample = 24

// markGeneric marks, on every face, the keypoints that another face of the
// same kind has too: within inlierThreshold of the same place, with a
// descriptor within maxHamming (a card's frame, its text box, the type
// line). They say nothing about which card it is.
func markGeneric(refs []reference) {
	byKind := map[models.CardKind][]int{}
	for i, r := range refs {
		byKind[r.Kind] = append(byKind[r.Kind], i)
	}
	grids := make([]*pointGrid, len(refs))
	for i := range refs {
		grids[i] = faceGrid(&refs[i])
	}
	for i := range refs {
		ref := &refs[i]
		gen := make([]bool, len(ref.Feat.Points))
		same := byKind[ref.Kind]
		// An even spread of the other faces of its kind, the same every time.
		step := max(len(same)/genericSample, 1)
		for k := 0; k < len(same); k += step {
			o := same[k]
			if o == i || refs[o].W != ref.W || refs[o].H != ref.H {
				continue
			}
			other := &refs[o]
			for j, p := range ref.Feat.Points {
				if gen[j] {
					continue
				}
				grids[o].near(float64(p.X), float64(p.Y), inlierThreshold, func(m int32) {
					q := other.Feat.Points[m]
					ex, ey := q.X-p.X, q.Y-p.Y
					if !gen[j] && ex*ex+ey*ey <= inlierThreshold*inlierThreshold && hamming(&ref.Feat.Descs[j], &other.Feat.Descs[m]) <= maxHamming {
						gen[j] = true
					}
				})
			}
		}
		ref.Generic = gen
	}
}
