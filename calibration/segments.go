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

// cellSide is one side of a cell in lattice coordinates (whole cells,
// possibly outside the realm): a vertical side by its lower end (0, x, y),
// a horizontal one by its left end (1, x, y).
type cellSide [3]int

// line is the side in realm millimetres.
func (s cellSide) line(g models.RealmGeometry) gridLine {
	p := models.Point{X: float64(s[1]) * g.CellWidthMM, Y: float64(s[2]) * g.CellHeightMM}
	q := p
	if s[0] == 0 {
		q.Y += g.CellHeightMM
	} else {
		q.X += g.CellWidthMM
	}
	return gridLine{p, q}
}

// cellSides lists the sides of the cells in columns [c0, c1) and rows
// [r0, r1), in a fixed order.
func cellSides(c0, c1, r0, r1 int) []cellSide {
	var out []cellSide
	for i := c0; i <= c1; i++ {
		for j := r0; j < r1; j++ {
			out = append(out, cellSide{0, i, j})
		}
	}
	for j := r0; j <= r1; j++ {
		for i := c0; i < c1; i++ {
			out = append(out, cellSide{1, i, j})
		}
	}
	return out
}

// realmSides are the sides of the realm's cells.
func realmSides() []cellSide { return cellSides(0, models.Columns, 0, models.Rows) }

// sideEvidence is the mean, over the given cell sides, of each side's mean
// line response under h (samples clipped to ±ridgeClip) capped to
// [0, segmentCap]; a side outside the frame counts 0.
func (m *ridgeMap) sideEvidence(h homography, g models.RealmGeometry, sides []cellSide, light bool) float64 {
	if len(sides) == 0 {
		return 0
	}
	var sum float64
	for _, s := range sides {
		if e, n := m.lineEvidence(h, s.line(g), segmentStep, ridgeClip, light); n > 0 {
			sum += math.Max(0, math.Min(segmentCap, e))
		}
	}
	return sum / float64(len(sides))
}

// shiftAdvantage is how much more clearly the lattice h moved by (dx, dy)
// cells shows as drawn lines than h itself, judged on the cell sides that
// only one of the two has (see sideEvidence), for lines of h's colour.
func (m *ridgeMap) shiftAdvantage(h homography, g models.RealmGeometry, dx, dy int) float64 {
	own := realmSides()
	moved := cellSides(dx, models.Columns+dx, dy, models.Rows+dy)
	light := m.lightGrid(h, g)
	return m.sideEvidence(h, g, without(moved, own), light) - m.sideEvidence(h, g, without(own, moved), light)
}

// without gives the sides of a that are not in b, in a's order.
func without(a, b []cellSide) []cellSide {
	in := make(map[cellSide]bool, len(b))
	for _, s := range b {
		in[s] = true
	}
	var out []cellSide
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
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

// endsAtBorder says whether the grid under h shows on its cell sides
// (their mean capped evidence, see sideEvidence, is at least
// minSideEvidence) and ends at h's border on every side: each lattice one
// cell over along either axis loses at least minBorderContrast to h on
// the cell sides the two do not share (see shiftAdvantage). Lattices of
// card edges, the mat's edge and art neither show on most sides nor stop
// where they do.
func (m *ridgeMap) endsAtBorder(h homography, g models.RealmGeometry) bool {
	return m.endsAtBorderOn(h, g, 2)
}

// endsAtBorderOn is endsAtBorder with the odd lines required to show like
// the even ones along only axes of the two axes (1 or 2).
func (m *ridgeMap) endsAtBorderOn(h homography, g models.RealmGeometry, axes int) bool {
	light := m.lightGrid(h, g)
	if m.sideEvidence(h, g, realmSides(), light) < minSideEvidence {
		return false
	}
	// A lattice of half the grid's spacing along both axes keeps the
	// cells' shape, and its every other line is empty: each axis's odd
	// lines must show like its even ones.
	balanced := 0
	for _, ok := range m.parityShows(h, g, light) {
		if ok {
			balanced++
		}
	}
	if balanced < axes {
		return false
	}
	for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if -m.shiftAdvantage(h, g, s[0], s[1]) < minBorderContrast {
			return false
		}
	}
	return true
}

// minSideEvidence and minBorderContrast are endsAtBorder's bars. With the
// realm blurred out of 220 frames (the stills and two unseen sets, so
// that the profile search finds only the mat's edges, cards and art), the
// lattices it found showed at most 0.61 on their sides and 0.45 at their
// borders, never both above 0.29 and 0.52; right realms refused for a low
// ridge score on 640×360, dark, blurred, noisy and JPEG frames showed
// 0.67–1.3 and 0.31–0.99.
const (
	minSideEvidence   = 0.65
	minBorderContrast = 0.3
)

// minParityRatio is how clearly (relative to the other) a lattice's odd
// and its even lines along one axis must show in endsAtBorder.
const minParityRatio = 0.5

// paritySides are the realm's cell sides by axis (0: the column lines,
// 1: the row lines) and by whether their line is odd.
func paritySides() [2][2][]cellSide {
	var parity [2][2][]cellSide // axis, odd
	for _, s := range realmSides() {
		i := s[1]
		if s[0] == 1 {
			i = s[2]
		}
		parity[s[0]][i%2] = append(parity[s[0]][i%2], s)
	}
	return parity
}

// parityShows says, for each axis, whether its odd lines show under h like
// its even ones (the weaker at least minParityRatio of the stronger).
func (m *ridgeMap) parityShows(h homography, g models.RealmGeometry, light bool) [2]bool {
	var out [2]bool
	for a, p := range paritySides() {
		even, odd := m.sideEvidence(h, g, p[0], light), m.sideEvidence(h, g, p[1], light)
		out[a] = math.Min(even, odd) >= minParityRatio*math.Max(even, odd)
	}
	return out
}
