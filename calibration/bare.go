package calibration

import (
	"math"
	"sort"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A mat that draws its grid as unbroken lines draws every cell side of the
// realm from end to end: where a side of a lattice shows neither a line nor
// anything lying over it, only the mat's own cloth, the lattice is not the
// realm there. Zone boxes printed in the margin line up with the realm's
// columns well enough to pass for a row of cells, and when an arm hides the
// realm's own border row, the lattice one row over, whose outer row runs
// along the boxes, shows more drawn lines than the true one (whose row under
// the arm shows none). But the boxes' row is broken: between the boxes, and
// along the sides that would join them to the realm, the lattice crosses
// bare cloth, while the sides the true realm has and that lattice lacks lie
// under the arm, which is not the mat's colour. ontoUnbrokenGrid makes that
// move; a mat of dots, crosses or dashes shows bare cloth along every side,
// shared or not, and is left alone.

// colourFrame reads the camera frame's colour at working-image points.
type colourFrame struct {
	pix   []byte // BGR, row-major
	w, h  int
	scale float64 // working pixels per frame pixel
}

// newColourFrame wraps an 8-bit, 3-channel frame read at working scale
// scale; ok is false for other frames (a grey frame has no cloth colour).
func newColourFrame(frame gocv.Mat, scale float64) (colourFrame, bool) {
	if frame.Type() != gocv.MatTypeCV8UC3 {
		return colourFrame{}, false
	}
	pix, err := frame.DataPtrUint8()
	if err != nil || len(pix) < frame.Cols()*frame.Rows()*3 {
		return colourFrame{}, false
	}
	return colourFrame{pix: pix, w: frame.Cols(), h: frame.Rows(), scale: scale}, true
}

// rgbSample is a colour as chromaticity (each channel's share of the sum)
// and brightness (the sum).
type rgbSample struct {
	b, g, sum float64
}

// at is the mean colour of the 3×3 frame pixels round working point p;
// ok is false outside the frame.
func (c colourFrame) at(p models.Point) (rgbSample, bool) {
	x, y := int(math.Round(p.X/c.scale)), int(math.Round(p.Y/c.scale))
	if x < 1 || y < 1 || x >= c.w-1 || y >= c.h-1 {
		return rgbSample{}, false
	}
	var b, g, r float64
	for dy := -1; dy <= 1; dy++ {
		i := ((y+dy)*c.w + x - 1) * 3
		for k := 0; k < 3; k++ {
			b += float64(c.pix[i+3*k])
			g += float64(c.pix[i+3*k+1])
			r += float64(c.pix[i+3*k+2])
		}
	}
	s := b + g + r + 9
	return rgbSample{b: (b + 3) / s, g: (g + 3) / s, sum: s / 9}, true
}

// clothColour is the mat's cloth as the lattice's clearly drawn cell sides
// show it: the median of the colours beside them, and how far (chromaticity)
// those colours typically lie from it.
type clothColour struct {
	rgbSample
	spread float64
}

// Bare-cloth limits. Lengths in pixels are at the working width.
const (
	clothFlank     = 9.0  // px either side of a drawn side at which the cloth is read
	clothBand      = 6.0  // px either side of a side's line (a lens bends lines a few px off the lattice) that must be bare cloth
	drawnSide      = 1.0  // mean line response (noise units) of a side that is clearly drawn
	minDrawnSides  = 4    // clearly drawn sides needed to know the cloth's colour
	bareLine       = 2.0  // a bare sample's strongest line response across the band (noise units; weave and JPEG reach 1–2)
	minClothSpread = 0.02 // chromaticity tolerance floor
	clothSpreads   = 4.0  // a colour within this many spreads of the cloth's chromaticity is cloth
	minClothBright = 0.5  // brightness range of cloth, relative to its median (lamp falloff, vignette)
	maxClothBright = 1.8
	bareSampleStep = 4.0 // mm between samples along a side
)

// ontoUnbrokenGrid's bars, as shares of a set of cell sides' samples that
// are bare cloth. On the independent generator's 54 frames whose cloth
// could be read, the true lattice's sides shared with a lattice a cell
// over were bare for at most 0.14 on mats of lines (none on most), 0.2–0.34
// on mats of dots and crosses; the sides it would give up for at most 0.21
// on mats of lines, 0.5 on crosses; the sides one cell beyond it (the
// margin, zone boxes, logo, the table) for 0.03–0.97.
const (
	maxSharedBare  = 0.1  // the grid's lines are unbroken: the shared sides are almost never bare
	minGivenUpBare = 0.4  // the sides given up run over bare cloth for at least this share
	maxGainedBare  = 0.05 // the sides gained are bare nowhere (covered, or drawn)
)

// cloth estimates the mat's colour beside the cell sides of lattice h that
// clearly show as drawn lines; ok is false when too few do.
func (c colourFrame) cloth(rm *ridgeMap, h homography, g models.RealmGeometry, light bool) (clothColour, bool) {
	var samples []rgbSample
	drawn := 0
	for _, s := range realmSides() {
		gl := s.line(g)
		if e, n := rm.lineEvidence(h, gl, segmentStep, ridgeClip, light); n == 0 || e < drawnSide {
			continue
		}
		drawn++
		gl.sample(h, bareSampleStep, func(p models.Point, nx, ny float64) {
			for _, d := range []float64{-clothFlank, clothFlank} {
				if col, ok := c.at(models.Point{X: p.X + d*nx, Y: p.Y + d*ny}); ok {
					samples = append(samples, col)
				}
			}
		})
	}
	if drawn < minDrawnSides || len(samples) < 20 {
		return clothColour{}, false
	}
	return clothColourOf(samples), true
}

// isCloth says whether colour s could be the cloth's.
func (cc clothColour) isCloth(s rgbSample) bool {
	tol := math.Max(minClothSpread, clothSpreads*cc.spread)
	return math.Hypot(s.b-cc.b, s.g-cc.g) <= tol && s.sum >= minClothBright*cc.sum && s.sum <= maxClothBright*cc.sum
}

// bareShare is the share of the samples along the given cell sides under
// h (those inside the frame) where the mat shows bare: no line of h's
// colour within clothBand across the side, and cloth all across the band.
// n is how many samples were read.
func (c colourFrame) bareShare(rm *ridgeMap, cc clothColour, h homography, g models.RealmGeometry, sides []cellSide, light bool) (share float64, n int) {
	lines := make([]gridLine, len(sides))
	for i, s := range sides {
		lines[i] = s.line(g)
	}
	return c.bareShareOf(rm, cc, h, lines, light)
}

// bareShareOf is bareShare along the given lines (realm millimetres).
func (c colourFrame) bareShareOf(rm *ridgeMap, cc clothColour, h homography, lines []gridLine, light bool) (share float64, n int) {
	bare := 0
	for _, l := range lines {
		l.sample(h, bareSampleStep, func(p models.Point, nx, ny float64) {
			line := math.Inf(-1)
			cloth := true
			for d := -clothBand; d <= clothBand; d++ {
				q := models.Point{X: p.X + d*nx, Y: p.Y + d*ny}
				r, ok := rm.response(q, nx, ny, light)
				if !ok {
					cloth = false
					break
				}
				line = math.Max(line, r)
				if int(d)%3 == 0 {
					if col, ok := c.at(q); !ok || !cc.isCloth(col) {
						cloth = false
					}
				}
			}
			if line == math.Inf(-1) {
				return
			}
			n++
			if cloth && line < bareLine {
				bare++
			}
		})
	}
	if n == 0 {
		return 0, 0
	}
	return float64(bare) / float64(n), n
}

// ontoUnbrokenGrid moves lattice h by one cell, along either axis, when
// the grid's lines are unbroken (the cell sides h shares with the moved
// lattice are almost never bare cloth), most of the sides h gives up run
// over bare cloth, and the sides the move gains are not bare anywhere
// (under an arm or cards, or drawn): see the comment at the top of this
// file. The moved lattice is polished onto the lines' centres. It returns
// h when no move is called for, or the frame has no colour.
func ontoUnbrokenGrid(rm *ridgeMap, col colourFrame, h homography, g models.RealmGeometry) homography {
	light := rm.lightGrid(h, g)
	cc, ok := col.cloth(rm, h, g, light)
	if !ok {
		return h
	}
	w, hgt := float64(rm.w), float64(rm.h)
	own := realmSides()
	for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		moved := cellSides(s[0], models.Columns+s[0], s[1], models.Rows+s[1])
		hs := shiftedBy(h, g, s[0], s[1])
		if !plausible(hs, g, w, hgt) || !insideFrame(hs, g, w, hgt) {
			continue
		}
		givenUp, n := col.bareShare(rm, cc, h, g, without(own, moved), light)
		if givenUp < minGivenUpBare || n == 0 {
			continue
		}
		shared, _ := col.bareShare(rm, cc, h, g, without(own, without(own, moved)), light)
		gained, m := col.bareShare(rm, cc, h, g, without(moved, own), light)
		if shared > maxSharedBare || gained > maxGainedBare || m == 0 {
			continue
		}
		return polishOnLines(rm, hs, g)
	}
	return h
}

// Whole grid lines over bare cloth between drawn ones. On 23 frames of
// our stills and of three other scene sets, no line of the true lattice was
// bare for more than 0.22 of its samples, most for none; a lattice of half
// the drawn lines' spacing over part of a mat of unbroken lines (every
// other line on a drawn one, the rest across the cells' bare middles) had
// lines bare for 0.72–0.87 of theirs between lines bare nowhere. On the
// true lattices of 1,448 frames of 45 sets (busy art, lenses, blur, low
// resolution) a line was bare for up to 0.83 of its samples, but never two
// between lines bare for at most 0.2, nor both border lines of a direction
// for 0.6 (both for at most 0.53): a faint line on busy art reads bare for
// 0.1–0.2 of its samples, where its art is too faint a line and the
// cloth's colour too.
const (
	bareGridLine     = 0.6 // a lattice line bare for this share of its samples runs over bare mat
	unbrokenGridLine = 0.2 // a line bare for at most this share is drawn unbroken (or covered)
	minBareBetween   = 2   // bare lines between unbroken ones that refuse a lattice
)

// A lattice line between two drawn ones that shows no drawn line anywhere
// along it, and runs over bare cloth for part of it, counts as bare too,
// when a drawn line runs two cells past the lattice's border along the
// same direction (the drawn grid goes on at twice the lattice's spacing,
// see drawnPast). A camera turned a right angle can give a lattice of half
// the drawn columns' spacing along its rows (its other lines on the
// realm's rows, its cells two cells wide by one tall, close enough in
// shape to pass for the realm), whose odd rows cross the cells' middles
// over cloth and sites, bare for 0.22–0.72 of their samples (0.32 or more
// on five of seven such lattices) and showing 0.00–0.09 (sideEvidence), between rows showing 0.6–1.7 that are bare for
// at most 0.15, and the realm's next column two of its rows past its
// border (evidence 0.6–2.4). A faint grid's rows under two tokens on every
// cell side look the same to the first test (0.42–0.57 bare, showing
// 0.00), but nothing is drawn two rows past the realm.
//
// Where the drawn lines across the lattice's border run on a whole cell
// past it (linesRunPast: the lattice lies inside a grid printed without a
// border, at half its spacing), a line bare for more than
// unbrokenGridLine of its samples counts as bare too when it shows no more
// than faintBesideDrawn of the weaker of the drawn lines either side: such
// lattices' odd rows, under cards in part, read bare for 0.23–0.36 and
// show 0.00–0.20 beside rows showing 1.4–1.9 (two of 80 border-less
// scenes of this package's generator), where they were read as the realm
// a row off.
const (
	partlyBareGridLine = 0.25 // bare for this share, a line that shows nowhere runs over bare mat
	noDrawnLine        = 0.15 // sideEvidence at most this: the line shows nowhere
	drawnGridLine      = 0.5  // sideEvidence at least this: the line is drawn
	faintBesideDrawn   = 0.25 // a line showing this share of its drawn neighbours' evidence shows none of its own
)

// bareGridLines says whether minBareBetween or more of lattice h's inner
// grid lines run over bare cloth (no line, nothing lying over them) for
// most of their length while the lines either side of each are drawn
// unbroken, or whether both border lines of one direction do with a line
// between drawn unbroken (see overhangs): on a mat of unbroken lines every
// line of the realm is drawn or covered, so such a lattice is not the
// realm (a lattice of half the drawn spacing, whose every other line
// crosses the cells' middles; one of a wider spacing than the grid's,
// reaching past the realm on both sides). A line that shows no drawn line
// anywhere and is bare for part of its length counts as bare when the drawn
// grid goes on two cells past the lattice (see partlyBareGridLine). An arm
// of the cloth's colour over a border column covers lines side by side,
// not between drawn ones nor at both ends; a mat of dots, crosses or
// dashes has no unbroken lines; neither is refused.
func bareGridLines(rm *ridgeMap, col colourFrame, h homography, g models.RealmGeometry) bool {
	light := rm.lightGrid(h, g)
	cc, ok := col.cloth(rm, h, g, light)
	if !ok {
		return false
	}
	between := 0
	for d, dir := range gridLineSides() {
		shares := col.bareShares(rm, cc, h, g, dir, light)
		var shows []float64 // each line's drawn-line evidence, read only when needed
		for i := 1; i < len(shares)-1; i++ {
			if !(shares[i-1] <= unbrokenGridLine && shares[i+1] <= unbrokenGridLine) {
				continue
			}
			if shares[i] >= bareGridLine {
				between++
				continue
			}
			if !(shares[i] > unbrokenGridLine) {
				continue
			}
			if shows == nil {
				shows = make([]float64, len(dir))
				for k, sides := range dir {
					shows[k] = rm.sideEvidence(h, g, sides, light)
				}
			}
			if !(shows[i-1] >= drawnGridLine && shows[i+1] >= drawnGridLine) {
				continue
			}
			shownNowhere := shares[i] >= partlyBareGridLine && shows[i] <= noDrawnLine
			faintBeside := shows[i] <= faintBesideDrawn*math.Min(shows[i-1], shows[i+1])
			if !shownNowhere && !faintBeside {
				continue
			}
			if linesRunPast(rm, h, g, d, light) || (shownNowhere && drawnPast(rm, h, g, d, light)) {
				between++
			}
		}
		if overhangs(shares) && !col.linesEndAtBorder(rm, cc, h, g, d, light) {
			return true
		}
	}
	return between >= minBareBetween
}

// A mat may draw its grid without a border: the realm's inner lines, each
// ending where the border would run (four lines across, three along).
// The realm's border lines then run over bare cloth, as the border lines of
// a lattice reaching past the drawn grid do (overhangs), but the drawn lines
// across them end there: they are drawn unbroken to the border and not past
// it. A lattice reaching past the drawn grid by a part of a cell has those
// lines run on over bare cloth inside it (a third of a cell in two: 0.28 of
// the end sides' samples, above unbrokenGridLine).
const (
	borderlessGapMM  = 4  // mm past the border where the lines' reading starts
	borderlessPastMM = 12 // mm past that read for the lines' ends
)

// linesEndAtBorder says whether the grid lines across direction d's border
// lines (d 0: the column lines x = 0 and x = width, crossed by the inner
// row lines; 1: the row lines, crossed by the inner column lines) end at
// them: drawn unbroken along the cells at the border (bare for at most
// unbrokenGridLine of their samples) and running over bare cloth for
// borderlessPastMM past it (bareGridLine).
func (c colourFrame) linesEndAtBorder(rm *ridgeMap, cc clothColour, h homography, g models.RealmGeometry, d int, light bool) bool {
	inside, past := acrossBorder(g, d)
	in, nIn := c.bareShareOf(rm, cc, h, inside, light)
	out, nOut := c.bareShareOf(rm, cc, h, past, light)
	return nIn > 0 && nOut > 0 && in <= unbrokenGridLine && out >= bareGridLine
}

// acrossBorder gives the grid lines across direction d's border lines (see
// linesEndAtBorder): their sides along the cells at the border (inside),
// and their stretches borderlessGapMM to borderlessGapMM+borderlessPastMM
// past it (past).
func acrossBorder(g models.RealmGeometry, d int) (inside, past []gridLine) {
	if d == 0 {
		w := g.WidthMM()
		for j := 1; j < models.Rows; j++ {
			y := float64(j) * g.CellHeightMM
			inside = append(inside, cellSide{1, 0, j}.line(g), cellSide{1, models.Columns - 1, j}.line(g))
			past = append(past, gridLine{models.Point{X: -borderlessPastMM - borderlessGapMM, Y: y}, models.Point{X: -borderlessGapMM, Y: y}},
				gridLine{models.Point{X: w + borderlessGapMM, Y: y}, models.Point{X: w + borderlessGapMM + borderlessPastMM, Y: y}})
		}
		return inside, past
	}
	ht := g.HeightMM()
	for i := 1; i < models.Columns; i++ {
		x := float64(i) * g.CellWidthMM
		inside = append(inside, cellSide{0, i, 0}.line(g), cellSide{0, i, models.Rows - 1}.line(g))
		past = append(past, gridLine{models.Point{X: x, Y: -borderlessPastMM - borderlessGapMM}, models.Point{X: x, Y: -borderlessGapMM}},
			gridLine{models.Point{X: x, Y: ht + borderlessGapMM}, models.Point{X: x, Y: ht + borderlessGapMM + borderlessPastMM}})
	}
	return inside, past
}

// linesRunPast says whether the grid lines across direction d's border
// lines go on past them as drawn lines (their mean line evidence past the
// border, read where the frame shows it, at least drawnGridLine): the
// drawn grid reaches past the lattice there. A lattice of half the drawn
// rows' spacing over the middle of a mat printed without a border has no
// drawn line two of its cells past it (drawnPast), but the drawn columns
// run on a whole row past each of its border rows.
func linesRunPast(rm *ridgeMap, h homography, g models.RealmGeometry, d int, light bool) bool {
	_, past := acrossBorder(g, d)
	sum, n := 0.0, 0
	for _, gl := range past {
		if e, k := rm.lineEvidence(h, gl, segmentStep, ridgeClip, light); k > 0 {
			sum += e * float64(k)
			n += k
		}
	}
	return n > 0 && sum/float64(n) >= drawnGridLine
}

// drawnPast says whether a drawn line runs two cells past lattice h's
// border along direction d (0: the column lines, 1: the row lines), on
// either side, for most of its length: the drawn grid goes on past the
// lattice at twice its spacing there.
func drawnPast(rm *ridgeMap, h homography, g models.RealmGeometry, d int, light bool) bool {
	w, ht := g.WidthMM(), g.HeightMM()
	var lines [2]gridLine
	if d == 0 {
		for k, x := range []float64{-2 * g.CellWidthMM, w + 2*g.CellWidthMM} {
			lines[k] = gridLine{models.Point{X: x, Y: 0}, models.Point{X: x, Y: ht}}
		}
	} else {
		for k, y := range []float64{-2 * g.CellHeightMM, ht + 2*g.CellHeightMM} {
			lines[k] = gridLine{models.Point{X: 0, Y: y}, models.Point{X: w, Y: y}}
		}
	}
	for _, gl := range lines {
		l := math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)
		if e, n := rm.lineEvidence(h, gl, segmentStep, ridgeClip, light); float64(n) >= 0.5*(l/segmentStep+1) && e >= drawnGridLine {
			return true
		}
	}
	return false
}

// overhangs says whether a direction's grid lines, given the shares of
// their samples over bare cloth (NaN out of the frame), are those of a
// lattice reaching past the drawn grid on both sides: both its border
// lines run over bare cloth (bareGridLine) while a line between is drawn
// unbroken (unbrokenGridLine). The realm's border is drawn like its other
// lines, and an arm or a card over it is not the cloth. A lattice of a
// wider row spacing than the grid's, whose inner rows lie on the realm's
// middle line and on the outer dark borders of two rows of tokens lying
// across its odd rows, overhangs the realm by a third of a cell at both
// ends, and shows as drawn lines as clearly as the realm, whose odd rows
// the tokens hide (TestTokenRowLattices).
func overhangs(shares []float64) bool {
	n := len(shares)
	if n < 3 || !(shares[0] >= bareGridLine) || !(shares[n-1] >= bareGridLine) {
		return false
	}
	for _, s := range shares[1 : n-1] {
		if s <= unbrokenGridLine {
			return true
		}
	}
	return false
}

// bareShares is bareShare of each of a direction's grid lines (dir, one
// of gridLineSides), NaN for a line out of the frame: neither bare nor
// unbroken.
func (c colourFrame) bareShares(rm *ridgeMap, cc clothColour, h homography, g models.RealmGeometry, dir [][]cellSide, light bool) []float64 {
	shares := make([]float64, len(dir))
	for i, sides := range dir {
		share, n := c.bareShare(rm, cc, h, g, sides, light)
		if n == 0 {
			share = math.NaN()
		}
		shares[i] = share
	}
	return shares
}

// gridLineSides are the realm's cell sides grouped by grid line, for each
// direction: the Columns+1 lines across the columns, then the Rows+1 lines
// across the rows.
func gridLineSides() [2][][]cellSide {
	var out [2][][]cellSide
	for i := 0; i <= models.Columns; i++ {
		var l []cellSide
		for j := 0; j < models.Rows; j++ {
			l = append(l, cellSide{0, i, j})
		}
		out[0] = append(out[0], l)
	}
	for j := 0; j <= models.Rows; j++ {
		var l []cellSide
		for i := 0; i < models.Columns; i++ {
			l = append(l, cellSide{1, i, j})
		}
		out[1] = append(out[1], l)
	}
	return out
}

// clothColourOf is the cloth colour of samples (at least one): the median
// of each of their values, and the median distance of their chromaticity
// from it as the spread.
func clothColourOf(samples []rgbSample) clothColour {
	median := func(v func(rgbSample) float64) float64 {
		vals := make([]float64, len(samples))
		for i, s := range samples {
			vals[i] = v(s)
		}
		sort.Float64s(vals)
		return vals[len(vals)/2]
	}
	cc := clothColour{rgbSample: rgbSample{
		b:   median(func(s rgbSample) float64 { return s.b }),
		g:   median(func(s rgbSample) float64 { return s.g }),
		sum: median(func(s rgbSample) float64 { return s.sum }),
	}}
	cc.spread = median(func(s rgbSample) float64 { return math.Hypot(s.b-cc.b, s.g-cc.g) })
	return cc
}
