package calibration

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// The grid is drawn in thin lines. A tablecloth of wide stripes, or a
// table's planks, gives more long straight Canny segments than the grid
// does, all about one direction: they fill every lattice hypothesis of
// that direction and the grid's lines are never paired. The segments that
// run along a thin line (lighter or darker than both its flanks) are the
// grid's, or art's and card text's, but not a band's or a step's edge.

// keptSegments is the segments that keep accepts.
func keptSegments(segs []segment, keep func(segment) bool) []segment {
	var out []segment
	for _, s := range segs {
		if keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// drawnLineReach is how far (px) either side of a segment a drawn line's
// centre is looked for: Canny puts a thin line's edges on its flanks.
const drawnLineReach = 4.0

// minDrawnResponse is the least line response (in units of the frame's
// typical response, see response) a segment's sample must show nearby to
// count as on a drawn line, twice what most of the frame shows; and
// minDrawnShare the least share of its samples that must: a grid line's
// segment runs along the line for most of its length, a band's edge
// nowhere.
const (
	minDrawnResponse = 2.0
	minDrawnShare    = 0.5
)

// onDrawnLine says which segments run along a thin drawn line (darker or
// lighter than both its flanks) rather than along a step: the grid is
// drawn in thin lines, while the stripes of a tablecloth, a table's planks
// and the cards' borders are bands and steps, whose Canny edges outnumber
// the grid's.
func onDrawnLine(rm *ridgeMap) func(segment) bool {
	return func(s segment) bool {
		l := s.length()
		if l == 0 {
			return false
		}
		nx, ny := -(s.b.Y-s.a.Y)/l, (s.b.X-s.a.X)/l
		n := max(2, int(math.Ceil(l/4)))
		dark, light := 0, 0
		for i := 0; i <= n; i++ {
			f := float64(i) / float64(n)
			p := models.Point{X: s.a.X + f*(s.b.X-s.a.X), Y: s.a.Y + f*(s.b.Y-s.a.Y)}
			if nearbyResponse(rm, p, nx, ny, false) >= minDrawnResponse {
				dark++
			}
			if nearbyResponse(rm, p, nx, ny, true) >= minDrawnResponse {
				light++
			}
		}
		return float64(max(dark, light)) >= minDrawnShare*float64(n+1)
	}
}

// nearbyResponse is the strongest line response across normal n within
// drawnLineReach of p.
func nearbyResponse(rm *ridgeMap, p models.Point, nx, ny float64, light bool) float64 {
	best := math.Inf(-1)
	for d := -drawnLineReach; d <= drawnLineReach; d++ {
		if r, ok := rm.response(models.Point{X: p.X + d*nx, Y: p.Y + d*ny}, nx, ny, light); ok && r > best {
			best = r
		}
	}
	return best
}
