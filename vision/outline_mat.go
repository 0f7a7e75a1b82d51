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
