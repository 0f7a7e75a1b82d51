package calibration

import (
	"github.com/tablecam/tablecam/models"
)

// The realm's lines run from border to border: a lattice whose lines
// across its outer two rows (or columns) show nowhere, while they show on
// most sides everywhere else, reaches two cells past the grid that is
// drawn, over the mat's margin and the table. The profile search lays such
// a lattice on a striped table (a laminate's grain, a tablecloth's
// stripes) whose stripes run parallel to the realm's rows beside the mat:
// the stripes pass for the lattice's outer row lines, and with them one
// cell outside the true realm, that realm's score drops by the stripe. A
// true realm hides a whole outer row's crossing sides at most under an arm
// (or where its lines change colour against the art), not two rows'.

// stripSides are the sides of a strip of cells that cross it: for a row
// (axis 0) the column sides of its cells, for a column (axis 1) the row
// sides.
func stripSides(axis, k int) []cellSide {
	if axis == 0 {
		return cellSides(0, models.Columns, k, k+1)[:models.Columns+1]
	}
	return cellSides(k, k+1, 0, models.Rows)[2*models.Rows:]
}

// stripShown is how many of the sides crossing strip k along axis (see
// stripSides) show as drawn lines of h's colour (mean response at least
// drawnSide), and how many sides cross it.
func (m *ridgeMap) stripShown(h homography, g models.RealmGeometry, axis, k int, light bool) (int, int) {
	sides := stripSides(axis, k)
	shown := 0
	for _, s := range sides {
		if e, n := m.lineEvidence(h, s.line(g), segmentStep, ridgeClip, light); n > 0 && e >= drawnSide {
			shown++
		}
	}
	return shown, len(sides)
}

// linesStopShort says whether, along either axis of lattice h, the two
// strips of cells at one end show none of their crossing sides as drawn
// lines while every other strip along that axis shows at least half of
// its own: the lattice reaches two cells past the drawn grid.
func (m *ridgeMap) linesStopShort(h homography, g models.RealmGeometry) bool {
	light := m.lightGrid(h, g)
	for axis, strips := range [2]int{models.Rows, models.Columns} {
		bare := make([]bool, strips)
		drawn := make([]bool, strips)
		for k := range strips {
			shown, n := m.stripShown(h, g, axis, k, light)
			bare[k], drawn[k] = shown == 0, 2*shown >= n
		}
		for _, end := range [2][2]int{{0, 1}, {strips - 1, strips - 2}} {
			if !bare[end[0]] || !bare[end[1]] {
				continue
			}
			rest := true
			for k := range strips {
				if k != end[0] && k != end[1] && !drawn[k] {
					rest = false
				}
			}
			if rest {
				return true
			}
		}
	}
	return false
}

// oneAxisOnly says whether lattice h's lines along one axis show as drawn
// lines on at least half of their cell sides while not one side of the
// other axis's lines does. The realm draws both directions of lines, and
// cards and arms hide some of each; a lattice of parallel lines alone (a
// striped tablecloth, bands of the mat's art) with cross lines of the
// profile search's own invention shows only one.
func (m *ridgeMap) oneAxisOnly(h homography, g models.RealmGeometry) bool {
	light := m.lightGrid(h, g)
	var shown, sides [2]int
	for axis, strips := range [2]int{models.Rows, models.Columns} {
		for k := range strips {
			s, n := m.stripShown(h, g, axis, k, light)
			shown[axis] += s
			sides[axis] += n
		}
	}
	// Along axis 0 (rows) the crossing sides are the column lines' sides;
	// each axis's strips together cross all of the other lines' sides
	// once.
	for a := range 2 {
		if shown[a] == 0 && 2*shown[1-a] >= sides[1-a] {
			return true
		}
	}
	return false
}
