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
	c := float64(g.cell)
	x0, x1 := max(int(math.Floor((x-r)/c)), 0), min(int(math.Floor((x+r)/c)), g.w-1)
	y0, y1 := max(int(math.Floor((y-r)/c)), 0), min(int(math.Floor((y+r)/c)), g.h-1)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			cell := cy*g.w + cx
			for _, id := range g.ids[g.offsets[cell]:g.offsets[cell+1]] {
				fn(id)
			}
		}
	}
}

// verify counts the evidence for a fitted card over all the frame's
// keypoints, not only those the hash tables matched: every free keypoint
// inside the card's outline is mapped back onto the face, and it agrees
// when a keypoint of the face lies within inlierThreshold there with a
// descriptor within maxHamming. Features other faces have at the same
// place (see markGeneric) are left out, so that a face fitted by chance
// gains nothing from the frame and text box all cards have. The agreeing
// keypoints count as the card's inliers and are taken (no other card is
// fitted to them), and the inlier count and the share of checked keypoints
// that agree give the card's confidence, on the same footing whichever pass
// found it. They do not join d.used: the second pass's search for cards on
// top of this one goes by the fitted inliers only (see unexplained), whose
// gaps leave room for a small card, a token, lying on it.
func (x *catalogIndex) verify(d *detection, f features, frame *pointGrid, taken []bool) {
	ref := &x.refs[d.ref]
	faceGrid, generic := x.faceGrids[d.ref], ref.Generic
	s2 := d.sim.A*d.sim.A + d.sim.B*d.sim.B
	if s2 < 1e-9 || len(generic) != len(ref.Feat.Points) {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range d.quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	cx, cy := (minX+maxX)/2, (minY+maxY)/2
	half := math.Max(maxX-minX, maxY-minY) / 2
	agree, checked := 0, 0
	frame.near(cx, cy, half, func(i int32) {
		if taken[i] {
			return
		}
		p := f.Points[i]
		fx, fy := float64(p.X), float64(p.Y)
		if fx < minX || fx > maxX || fy < minY || fy > maxY || !inside(models.Point{X: fx, Y: fy}, d.quad) {
			return
		}
		// The face position the similarity maps onto (fx, fy).
		dx, dy := fx-d.sim.Tx, fy-d.sim.Ty
		rx, ry := (d.sim.A*dx+d.sim.B*dy)/s2, (-d.sim.B*dx+d.sim.A*dy)/s2
		if rx < 0 || ry < 0 || rx >= float64(ref.W) || ry >= float64(ref.H) {
			return
		}
		best, found := maxHamming+1, false
		r := inlierThreshold / math.Sqrt(s2)
		faceGrid.near(rx, ry, r, func(j int32) {
			q := ref.Feat.Points[j]
			if ex, ey := float64(q.X)-rx, float64(q.Y)-ry; ex*ex+ey*ey > r*r || generic[j] {
				return
			}
			found = true
			best = min(best, hamming(&f.Descs[i], &ref.Feat.Descs[j]))
		})
		if !found {
			return
		}
		checked++
		if best <= maxHamming {
			agree++
			taken[i] = true
		}
	})
	// The hash-table inliers and the agreeing keypoints are disjoint (the
	// former were taken first).
	d.inliers += agree
	d.matches += checked
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
