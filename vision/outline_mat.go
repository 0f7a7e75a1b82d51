package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// showsOnlyMat reports whether an outline quad (top-down pixels of view
// v) that no face explains holds only the mat, the named cards' quads
// (named) left out: flat mat inside it (matInside), or the mat's art
// running on across printed lines at its sides (matAcrossLines).
func (a *Analyzer) showsOnlyMat(quad models.Quad, v *view, named []models.Quad) bool {
	return a.matInside(quad, v, named) || a.matAcrossLines(quad, v, named)
}

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
	return a.flatAsMatAround(quad, v, others, matReading{hiddenPadMM: 1})
}

// matReading says how flatAsMatAround reads a quad: the quads hidden are
// grown by hiddenPadMM (their rims and shadows), left out of the inside
// too when hideInside, and the inside must show leastInsideMM2 or more
// (at least a pixel) to be judged.
type matReading struct {
	hiddenPadMM    float64
	hideInside     bool
	leastInsideMM2 float64
}

// flatAsMatAround reports whether a quad (top-down pixels of view v) shows
// the bare mat, the quads hidden left out as r says: flat in colour
// matInsideInsetMM in from its sides, as no card face is, and that colour
// showing over much of the mat just around it (matAroundFromMM to
// matAroundToMM out).
func (a *Analyzer) flatAsMatAround(quad models.Quad, v *view, hidden []models.Quad, r matReading) bool {
	img, ok := a.matColourOf(v)
	if !ok {
		return false
	}
	s, mm := img.s, img.mm
	q := scaledQuad(quad, s)
	covers := make([]outline, 0, len(hidden))
	for _, o := range hidden {
		covers = append(covers, newOutline(grow(scaledQuad(o, s), r.hiddenPadMM*mm)))
	}
	covered := func(p models.Point) bool {
		for _, o := range covers {
			if o.insideDistance(p) >= 0 {
				return true
			}
		}
		return false
	}
	// pixels calls take with every other pixel, in each direction, of the
	// image within a quad's box (a quarter of them tell the colour and its
	// spread as well), and its brightness and two opponent colours.
	pixels := func(box models.Quad, take func(p models.Point, c [3]float64)) {
		x0, y0, x1, y1 := quadBounds(box)
		for y := max(0, int(y0)); y <= min(img.rows-1, int(y1)); y += 2 {
			for x := max(0, int(x0)); x <= min(img.cols-1, int(x1)); x += 2 {
				take(models.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}, img.opponents(x, y))
			}
		}
	}
	// The inside first: most outlines not named are cards, not flat.
	inQuad := grow(q, -matInsideInsetMM*mm)
	in := newOutline(inQuad)
	var inside [3][]float64
	pixels(inQuad, func(p models.Point, c [3]float64) {
		if in.insideDistance(p) >= 0 && !(r.hideInside && covered(p)) {
			for k := range 3 {
				inside[k] = append(inside[k], c[k])
			}
		}
	})
	if len(inside[0]) == 0 || float64(len(inside[0]))*4 < r.leastInsideMM2*mm*mm {
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
	var around [][3]float64
	pixels(outer, func(p models.Point, c [3]float64) {
		if near.insideDistance(p) < 0 && far.insideDistance(p) >= 0 && !covered(p) {
			around = append(around, c)
		}
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

// matColour is the frame's colour top-down image at half resolution
// (a.images.small) as the mat tests read it: its BGR bytes, row by row,
// its size, and its pixels per pixel of view v (s) and per millimetre
// (mm).
type matColour struct {
	data       []byte
	cols, rows int
	s, mm      float64
}

// matColourOf gives the analyzer's colour top-down image for view v; ok
// is false when there is none.
func (a *Analyzer) matColourOf(v *view) (matColour, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 || colour.Channels() != 3 {
		return matColour{}, false
	}
	data, err := colour.DataPtrUint8()
	if err != nil {
		return matColour{}, false
	}
	s := float64(colour.Cols()) / float64(v.size.X)
	return matColour{data: data, cols: colour.Cols(), rows: colour.Rows(), s: s, mm: v.pxPerMM * s}, true
}

// opponents is pixel (x, y)'s brightness (the mean of R, G and B) and its
// two opponent colours, R−G and (R+G)/2−B, each 0–255 a channel.
func (m matColour) opponents(x, y int) [3]float64 {
	i := 3 * (y*m.cols + x)
	b, g, r := float64(m.data[i]), float64(m.data[i+1]), float64(m.data[i+2])
	return [3]float64{(r + g + b) / 3, r - g, (r+g)/2 - b}
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

// matAcrossLines reports whether the sides of an outline quad (top-down
// pixels of view v) that no face explains are the inner edges of lines
// printed on the mat, the mat's art on both sides of each: along each
// side, the colour a little inside it (matLineInsideMM in) is found again,
// position for position, just beyond a band of other colour (the line)
// within matLineBeyondMM out. The mat runs on under its printed lines; a
// card's face ends at its edge, and what lies beyond does not take up the
// face's colours again, along the whole side. Such an outline is the
// inside of a cell between grid lines printed thick (several
// millimetres), of a site's size within sizeTolerance around nothing, on
// a mat whose art is not flat (clouds, a landscape), which matInside
// needs, with sides too far from the lines' centres for onCellLines; or a
// site placed under a unit centred in such a cell on the lines' edges
// beside the unit (covered.go). The parts of the sides on the cards named
// (others) are left out: a side counts when matLineShownMM of it shows,
// and at least two sides must, and all pass; or all four show and three
// pass, the fourth facing a card not named.
//
// The colour matLineDeepMM in must be found beyond too, within a wider
// tolerance (the mat's art changes more over the longer reach): an outline
// placed a few millimetres off a card's edge, as a covered site's may be,
// has its near strip on the card's border, or on the mat, but its deep
// one on the face.
//
// On independent generators' scenes this drops 18 outlines where no card
// lies (13 in 40 scenes of mats with grid lines 5–10 mm thick over cloudy
// art, or light ones on a dark mat seen blurred; their sides score at
// most 0.97 of the tolerance) and no card: the cards read without their
// face, on those scenes and the sample stills, fail on every side they
// show (1.5 and more).
func (a *Analyzer) matAcrossLines(quad models.Quad, v *view, others []models.Quad) bool {
	img, ok := a.matColourOf(v)
	if !ok {
		return false
	}
	s, mm := img.s, img.mm
	q := scaledQuad(quad, s)
	// Only the cards named within reach of the sides can hide them.
	reach := (matLineBeyondMM + matLineDeepMM + 2) * mm
	x0, y0, x1, y1 := quadBounds(q)
	var covers []outline
	for _, o := range others {
		g := grow(scaledQuad(o, s), mm)
		if ox0, oy0, ox1, oy1 := quadBounds(g); ox1 >= x0-reach && ox0 <= x1+reach && oy1 >= y0-reach && oy0 <= y1+reach {
			covers = append(covers, newOutline(g))
		}
	}
	// add adds to sum the colour of the three pixels along the side (ux,
	// uy) about (x, y), as brightness and two opponent colours (see
	// matInside); false off the image or on a card named.
	add := func(x, y, ux, uy float64, sum *[3]float64) bool {
		for _, o := range covers {
			if o.insideDistance(models.Point{X: x, Y: y}) >= 0 {
				return false
			}
		}
		for k := -1.0; k <= 1; k++ {
			xi, yi := int(x+k*ux), int(y+k*uy)
			if xi < 0 || yi < 0 || xi >= img.cols || yi >= img.rows {
				return false
			}
			for c, o := range img.opponents(xi, yi) {
				sum[c] += o
			}
		}
		return true
	}
	alike := [3]float64{matLineAlikeBright, matLineAlikeRG, matLineAlikeYB}
	c := q.Center()
	depth := int(math.Ceil(matLineBeyondMM * mm)) // pixels beyond a side looked at
	var (
		inside [][2][3]float64 // a side's positions' colours, near and deep, as sums of 6 pixels
		beyond [][3]float64    // each position's depth+1 colours beyond, as sums of 3 pixels
		score  []float64
	)
	shown, fails := 0, 0
	for i := range q {
		p0, p1 := q[i], q[(i+1)%4]
		l := math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
		if l < 1e-9 {
			return false
		}
		ux, uy := (p1.X-p0.X)/l, (p1.Y-p0.Y)/l
		nx, ny := uy, -ux // out of the quad
		if (p0.X-c.X)*nx+(p0.Y-c.Y)*ny < 0 {
			nx, ny = -nx, -ny
		}
		inside, beyond = inside[:0], beyond[:0]
		for t := matLineEndMM * mm; t <= l-matLineEndMM*mm; t += mm {
			x, y := p0.X+ux*t, p0.Y+uy*t
			var in [2][3]float64
			ok := true
			for j, from := range [2]float64{matLineInsideMM, matLineDeepMM} {
				for k := -1.0; k <= 1 && ok; k++ {
					d := from*mm + k
					ok = add(x-nx*d, y-ny*d, ux, uy, &in[j])
				}
			}
			n := len(beyond)
			for d := 0; d <= depth && ok; d++ {
				beyond = append(beyond, [3]float64{})
				ok = add(x+nx*float64(d), y+ny*float64(d), ux, uy, &beyond[n+d])
			}
			if !ok {
				beyond = beyond[:n]
				continue
			}
			for j := range in {
				for k := range in[j] {
					in[j][k] *= 6.0 / 9 // as two depths' sums beyond
				}
			}
			inside = append(inside, in)
		}
		if float64(len(inside)) < matLineShownMM { // a position a millimetre
			continue // under cards named, or off the image
		}
		shown++
		// differ is how far the colour d pixels beyond the side (d and d+1
		// averaged) lies from the inside's, near (j 0) or deep (1),
		// position for position: the median over the side's positions of
		// the largest of the three channels' differences, each over its
		// tolerance.
		differ := func(d, j int) float64 {
			score = score[:0]
			for p, in := range inside {
				at := beyond[p*(depth+1)+d:]
				f := 0.0
				for k := range 3 {
					f = max(f, math.Abs(at[0][k]+at[1][k]-in[j][k])/6/alike[k])
				}
				score = append(score, f)
			}
			m, _ := medianSpread(score)
			return m
		}
		// The band first, then the mat again.
		band, near, deep := false, math.Inf(1), math.Inf(1)
		for d := 0; d < depth; d++ {
			f := differ(d, 0)
			if !band {
				band = f >= matLineBand
				continue
			}
			near, deep = min(near, f), min(deep, differ(d, 1))
		}
		if near > 1 || deep > matLineDeepFar {
			fails++
		}
	}
	// One side of four may face a card not named (its face not in the
	// catalog), which no named card hides: a card's face fails on every
	// side it shows.
	return fails == 0 && shown >= 2 || fails == 1 && shown == 4
}

// The parts of matAcrossLines' test. The colour inside a side is taken
// matLineInsideMM in, past the edge map's pixel and a card's thin printed
// edge, so on a card's face; and matLineDeepMM in, well on the face of a
// card the outline misses by a few millimetres. Beyond, a line is looked
// across up to matLineBeyondMM out: lines printed 5 mm wide, a mat's
// border line up to 10, and a covered site's placement up to 5 mm inside
// the line's edge. The side's ends, matLineEndMM each, where the lines
// across run, are left out. A colour beyond is the inside's when each
// channel (brightness, R−G, (R+G)/2−B, each 0–255 a channel) is within
// its matLineAlike tolerance: the grain left in the six pixels averaged,
// and the change of cloudy art across a line (most in R−G, the clouds'
// red and green), short of a card's face against the mat (half again
// and more). The deep colour is allowed matLineDeepFar times that. The
// band is the line: it differs from the inside by matLineBand times the
// tolerance or more.
const (
	matLineInsideMM = 3.0
	matLineDeepMM   = 6.0
	matLineBeyondMM = 20.0
	matLineEndMM    = 6.0
	matLineShownMM  = 15.0
	matLineBand     = 2.0
	matLineDeepFar  = 1.5

	matLineAlikeBright = 14
	matLineAlikeRG     = 24
	matLineAlikeYB     = 16
)

// scaledQuad is q with every coordinate times f.
func scaledQuad(q models.Quad, f float64) models.Quad {
	for i := range q {
		q[i].X *= f
		q[i].Y *= f
	}
	return q
}
