package calibration

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// A lattice and the same lattice moved by whole cells share most of their
// lines; they differ only where one of them has a column or a row that the
// other has not. The realm's grid lines end at its border, so the right one
// of the two is the one whose own column (or row) shows drawn lines: the
// other's runs over the mat's margin or the table, where nothing is drawn.
// Covered lines (cards, an arm) are missing, never negative, so each cell
// side is judged on its own and counts at most segmentCap: a line half under
// an arm keeps its visible sides, and one strong card edge cannot outvote
// the rest. The ridge score, which caps whole lines, cannot see this when
// the border a lattice gives up is hidden and the line it gains is faint.

// segmentCap caps one cell side's mean line response (noise units) in
// sideEvidence: a clearly drawn line segment scores about 1.5–3.
const segmentCap = 2.0

// segmentStep is the sampling step (mm) along a cell side.
const segmentStep = 4.0

// segmentShiftMargin is how much more (mean capped evidence per cell side
// the two lattices do not share) the lattice moved by whole cells must show
// before it replaces the one it was moved from. On the sample stills and
// sixteen unseen or altered sets (1,630 frames: 640×360 to 1920×1080, dim,
// blurred, glare, JPEG), no lattice moved a cell from the true realm showed
// more than 0.12 over it (motion blur along the lines), and the truth beat
// its moved copies by 0.3 or more in 95% of frames.
const segmentShiftMargin = 0.25

// cellSides lists the sides of the cells in columns [c0, c1) and rows
// [r0, r1) of lattice coordinates (whole cells, possibly outside the
// realm), keyed by their place: vertical sides by (0, x, y of their
// lower end), horizontal ones by (1, x of their left end, y).
func cellSides(g models.RealmGeometry, c0, c1, r0, r1 int) map[[3]int]gridLine {
	out := make(map[[3]int]gridLine)
	cw, ch := g.CellWidthMM, g.CellHeightMM
	pt := func(i, j int) models.Point { return models.Point{X: float64(i) * cw, Y: float64(j) * ch} }
	for i := c0; i <= c1; i++ {
		for j := r0; j < r1; j++ {
			out[[3]int{0, i, j}] = gridLine{pt(i, j), pt(i, j+1)}
		}
	}
	for j := r0; j <= r1; j++ {
		for i := c0; i < c1; i++ {
			out[[3]int{1, i, j}] = gridLine{pt(i, j), pt(i+1, j)}
		}
	}
	return out
}

// sideEvidence is the mean, over the given cell sides, of each side's mean
// line response under h (samples clipped to ±ridgeClip) capped to
// [0, segmentCap]; a side outside the frame counts 0.
func (m *ridgeMap) sideEvidence(h homography, sides []gridLine, light bool) float64 {
	if len(sides) == 0 {
		return 0
	}
	var sum float64
	for _, s := range sides {
		if e, n := m.lineEvidence(h, s, segmentStep, ridgeClip, light); n > 0 {
			sum += math.Max(0, math.Min(segmentCap, e))
		}
	}
	return sum / float64(len(sides))
}

// shiftAdvantage is how much more clearly the lattice h moved by (dx, dy)
// cells shows as drawn lines than h itself, judged on the cell sides that
// only one of the two has (see sideEvidence), for lines of h's colour.
func (m *ridgeMap) shiftAdvantage(h homography, g models.RealmGeometry, dx, dy int) float64 {
	own := cellSides(g, 0, models.Columns, 0, models.Rows)
	moved := cellSides(g, dx, models.Columns+dx, dy, models.Rows+dy)
	var onlyOwn, onlyMoved []gridLine
	for k, s := range own {
		if _, ok := moved[k]; !ok {
			onlyOwn = append(onlyOwn, s)
		}
	}
	for k, s := range moved {
		if _, ok := own[k]; !ok {
			onlyMoved = append(onlyMoved, s)
		}
	}
	light := m.lightGrid(h, g)
	return m.sideEvidence(h, onlyMoved, light) - m.sideEvidence(h, onlyOwn, light)
}

// shiftedBy gives lattice h moved by (dx, dy) whole cells.
func shiftedBy(h homography, g models.RealmGeometry, dx, dy int) homography {
	return homography{1, 0, float64(dx) * g.CellWidthMM, 0, 1, float64(dy) * g.CellHeightMM, 0, 0, 1}.Then(h)
}

// settleOnSides moves lattice h by one cell, along either axis, while the
// moved lattice's own cell sides show drawn lines more clearly than the
// sides it gives up, by segmentShiftMargin (see shiftAdvantage): a lattice
// whose border column lies under an arm, and whose other border runs over
// the mat's empty margin, is moved back onto the realm. A moved lattice is
// polished onto the lines' centres. It returns h when no move is better.
func settleOnSides(rm *ridgeMap, h homography, g models.RealmGeometry) homography {
	w, hgt := float64(rm.w), float64(rm.h)
	for round := 0; round < 2; round++ {
		best, bestGain := [2]int{}, segmentShiftMargin
		for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			if !plausible(shiftedBy(h, g, s[0], s[1]), g, w, hgt) {
				continue
			}
			if gain := rm.shiftAdvantage(h, g, s[0], s[1]); gain > bestGain {
				best, bestGain = s, gain
			}
		}
		if best == ([2]int{}) {
			break
		}
		h = polishOnLines(rm, shiftedBy(h, g, best[0], best[1]), g)
	}
	return h
}
