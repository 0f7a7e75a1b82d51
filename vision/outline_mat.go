package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// matInside reports whether an outline quad (top-down pixels) that no face
// explains holds only the mat: inside it (matInsideInsetMM in from its
// sides) the colour is flat, as no card face is (a face has its frame,
// title, art and text box), and the mat just around it (from
// matAroundFromMM to matAroundToMM out, the cards named, others, left
// out) shows that colour over much of it. Such an outline is a cell of a
// grid printed in double lines, or framed by a line inside the cell: the
// inner line of each side makes a rectangle a few millimetres inside the
// cell, of a card's size within sizeTolerance, around nothing. A card in
// the mat's colour but flat (faint, or left white by glare) differs from
// the mat around it by its step in brightness.
//
// On an independent generator's 100 scenes, mats with double grid lines
// showed 97 outlines where no card lies, most of them such empty cells,
// with an inside spread of brightness of 1–11 (a few 19–32); this test
// drops 63 of them and no card (one card the outline search misses had
// been counted found as its cell's empty outline). The sample stills'
// cards read without their face in the catalog spread 28 and more, and
// are all kept.
func (a *Analyzer) matInside(quad models.Quad, v *view, others []models.Quad) bool {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 || colour.Channels() != 3 {
		return false
	}
	s := float64(colour.Cols()) / float64(v.size.X)
	mm := v.pxPerMM * s // small-image pixels a millimetre
	var q models.Quad
	for i, p := range quad {
		q[i] = models.Point{X: p.X * s, Y: p.Y * s}
	}
	cols, rows := colour.Cols(), colour.Rows()
	data, err := colour.DataPtrUint8()
	if err != nil {
		return false
	}
	// pixels calls take with every other pixel, in each direction, of the
	// image within a quad's box (a quarter of them tell the colour and its
	// spread as well), and its brightness and two opponent colours.
	pixels := func(box models.Quad, take func(p models.Point, c [3]float64)) {
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range box {
			x0, y0 = math.Min(x0, p.X), math.Min(y0, p.Y)
			x1, y1 = math.Max(x1, p.X), math.Max(y1, p.Y)
		}
		for y := max(0, int(y0)); y <= min(rows-1, int(y1)); y += 2 {
			for x := max(0, int(x0)); x <= min(cols-1, int(x1)); x += 2 {
				i := 3 * (y*cols + x)
				b, g, r := float64(data[i]), float64(data[i+1]), float64(data[i+2])
				take(models.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}, [3]float64{(r + g + b) / 3, r - g, (r+g)/2 - b})
			}
		}
	}
	// The inside first: most outlines not named are cards, not flat.
	inQuad := grow(q, -matInsideInsetMM*mm)
	in := newOutline(inQuad)
	var inside [3][]float64
	pixels(inQuad, func(p models.Point, c [3]float64) {
		if in.insideDistance(p) >= 0 {
			for k := range 3 {
				inside[k] = append(inside[k], c[k])
			}
		}
	})
	if len(inside[0]) == 0 {
		return false
	}
	var median, spread [3]float64
	for c := range 3 {
		median[c], spread[c] = medianSpread(inside[c])
	}
	if spread[0] > matFlatSpread || spread[1] > matFlatTint || spread[2] > matFlatTint {
		return false
	}
	outer := grow(q, matAroundToMM*mm)
	near, far := newOutline(grow(q, matAroundFromMM*mm)), newOutline(outer)
	var covers []outline
	for _, o := range others {
		var oq models.Quad
		for i, p := range o {
			oq[i] = models.Point{X: p.X * s, Y: p.Y * s}
		}
		covers = append(covers, newOutline(grow(oq, mm)))
	}
	var around [][3]float64
	pixels(outer, func(p models.Point, c [3]float64) {
		if near.insideDistance(p) >= 0 || far.insideDistance(p) < 0 {
			return
		}
		for _, o := range covers {
			if o.insideDistance(p) >= 0 {
				return
			}
		}
		around = append(around, c)
	})
	if len(around) < matAroundLeast*len(inside[0])/100 {
		return false
	}
	// The mat around shows the inside's colour over much of it (not all:
	// the grid's lines run through it).
	var tol [3]float64
	for c := range 3 {
		tol[c] = max(2*spread[c], matAlikeFrom)
	}
	alike := 0
	for _, c := range around {
		if math.Abs(c[0]-median[0]) <= tol[0] && math.Abs(c[1]-median[1]) <= tol[1] && math.Abs(c[2]-median[2]) <= tol[2] {
			alike++
		}
	}
	return alike*100 >= matAlikeShare*len(around)
}

// medianSpread gives the median of xs and its spread, the distance
// between its quartiles (xs is sorted).
func medianSpread(xs []float64) (median, spread float64) {
	sort.Float64s(xs)
	n := len(xs)
	return xs[n/2], xs[3*n/4] - xs[n/4]
}

// The parts of matInside's test: the spreads are between the quartiles
// of the inside's brightness (the mean of R, G and B) and of its two
// colour opponents (R−G, (R+G)/2−B), each 0–255 a channel. A pixel around
// has the inside's colour when each channel is within twice its spread of
// the inside's median, and at least matAlikeFrom. The mat around must
// show over at least matAroundLeast per cent of the inside's pixels.
const (
	matInsideInsetMM = 4.0
	matAroundFromMM  = 4.0
	matAroundToMM    = 16.0
	matAroundLeast   = 30
	matFlatSpread    = 14
	matFlatTint      = 8
	matAlikeFrom     = 8
	matAlikeShare    = 25
)

// cellLinesMM is how far (millimetres) from a grid line's centre each end
// of an outline's side may lie for the side to run along that line (see
// onCellLines): half a printed line's width and the thick edge map's
// pixel beside it, at 1.2 px/mm.
const cellLinesMM = 3.5

// onCellLines reports whether each side of an outline quad (top-down
// pixels of view v) runs along one of the realm's grid lines, its two
// opposite sides along the two lines of one cell: the outline is its inside,
// between its four printed lines, not a card. A cell of 100×75 mm less its
// lines and the edge map's thickness measures 94×69 mm read at 1.2 px/mm,
// within sizeTolerance of a site, and its inside is not flat when the mat's
// art crosses it (a painted landscape), which matInside needs. No card is
// that size: a sleeved site centred in such a cell keeps 4 mm from its
// lines.
func onCellLines(quad models.Quad, v *view) bool {
	tol := cellLinesMM * v.pxPerMM
	near := func(at float64, lines []float64) int {
		for i, l := range lines {
			if math.Abs(at-l) <= tol {
				return i
			}
		}
		return -1
	}
	var cols, rows []float64
	for c := 0; c <= models.Columns; c++ {
		cols = append(cols, (v.marginMM+float64(c)*v.geo.CellWidthMM)*v.pxPerMM)
	}
	for r := 0; r <= models.Rows; r++ {
		rows = append(rows, (v.marginMM+float64(r)*v.geo.CellHeightMM)*v.pxPerMM)
	}
	// side i runs from corner i to corner i+1; each side's line, as a
	// column line (+1, index) or a row line (-1, index).
	var along [4][2]int
	for i := range quad {
		p, q := quad[i], quad[(i+1)%4]
		if c := near(p.X, cols); c >= 0 && c == near(q.X, cols) {
			along[i] = [2]int{1, c}
		} else if r := near(p.Y, rows); r >= 0 && r == near(q.Y, rows) {
			along[i] = [2]int{-1, r}
		} else {
			return false
		}
	}
	apart := func(a, b [2]int) bool { return a[0] == b[0] && (a[1]-b[1] == 1 || b[1]-a[1] == 1) }
	return apart(along[0], along[2]) && apart(along[1], along[3]) && along[0][0] != along[1][0]
}
