package calibration

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// The realm is printed on the mat, so the mat's own edge never runs
// through it. A lattice moved a cell off the realm (its true border column
// hidden under an arm, the column it gains lying over the mat's margin and
// the table beyond) has the mat's edge inside that column: a straight step
// from mat to table, of one sign, along the column's whole length and
// parallel to its lines. Card edges do not run that far along one straight
// line with one sign, nor does mat art.

// edgeStepOffset is how far (px) either side of a point the step across a
// line is read: the mat's edge is a step a few pixels wide once blurred.
const edgeStepOffset = 3.0

// edgeFlankOffset is how far (px) either side the flanks of a step are
// read, and maxFlankSlope how much of the step they may still climb: the
// mat's edge is flat mat on one side and flat table on the other.
const (
	edgeFlankOffset = 8.0
	maxFlankSlope   = 0.3
)

// minEdgeStep is the least step (in units of the frame's typical line
// response at edgeStepOffset) that a sample must show to count for a
// straight edge: the mat's edge against the table steps by ten units or
// more, mat art and a card's shading by one or two.
const minEdgeStep = 4.0

// minEdgeRun is the least fraction of a line's samples, over the realm's
// whole length, that must step the same way for it to be the mat's edge:
// an arm or cards lying over the mat's edge hide part of it.
const minEdgeRun = 0.6

// straightEdge is the largest fraction of samples, along any line of the
// realm's lattice h that runs through its border column or row (between
// 15% and 85% of the cell across, so not the grid's own lines), that step
// the same way by minEdgeStep: near 1 for the mat's edge, a few tenths
// at most for card edges and art. It also gives the side of the realm
// (0 west, 1 east, 2 south, 3 north, in lattice coordinates) it lies on.
func (m *ridgeMap) straightEdge(h homography, g models.RealmGeometry) (float64, int) {
	run, side, _ := m.straightEdgeLine(h, g)
	return run, side
}

// straightEdgeLine is straightEdge that also gives the line (in realm
// millimetres) along which the edge runs.
func (m *ridgeMap) straightEdgeLine(h homography, g models.RealmGeometry) (float64, int, gridLine) {
	best, side := 0.0, -1
	var at gridLine
	for s := range 4 {
		if run, line := m.sideEdge(h, g, s); run > best {
			best, side, at = run, s, line
		}
	}
	return best, side, at
}

// sideEdge is straightEdge over the border column or row on one side (0
// west, 1 east, 2 south, 3 north) only.
func (m *ridgeMap) sideEdge(h homography, g models.RealmGeometry, side int) (float64, gridLine) {
	w, hh := g.WidthMM(), g.HeightMM()
	cw, ch := g.CellWidthMM, g.CellHeightMM
	line, across := func(f float64) gridLine {
		return gridLine{models.Point{X: f * cw, Y: 0}, models.Point{X: f * cw, Y: hh}}
	}, cw
	switch side {
	case 1:
		line = func(f float64) gridLine {
			return gridLine{models.Point{X: w - f*cw, Y: 0}, models.Point{X: w - f*cw, Y: hh}}
		}
	case 2:
		line, across = func(f float64) gridLine {
			return gridLine{models.Point{X: 0, Y: f * ch}, models.Point{X: w, Y: f * ch}}
		}, ch
	case 3:
		line, across = func(f float64) gridLine {
			return gridLine{models.Point{X: 0, Y: hh - f*ch}, models.Point{X: w, Y: hh - f*ch}}
		}, ch
	}
	best := 0.0
	var at gridLine
	for f := 0.15; f <= 0.85; f += 1.5 / across {
		if run := m.stepRun(h, line(f)); run > best {
			best, at = run, line(f)
		}
	}
	return best, at
}

// stepRun is the larger of the fractions of gl's samples (every 4 mm under
// h) that step up, or down, across the line by minEdgeStep; 0 when less
// than half the line is in the frame.
func (m *ridgeMap) stepRun(h homography, gl gridLine) float64 {
	noise := m.noise[1]
	up, down, n := 0, 0, 0
	count := gl.sample(h, 4, func(p models.Point, nx, ny float64) {
		a, ok1 := m.at(p.X-edgeStepOffset*nx, p.Y-edgeStepOffset*ny)
		b, ok2 := m.at(p.X+edgeStepOffset*nx, p.Y+edgeStepOffset*ny)
		fa, ok3 := m.at(p.X-edgeFlankOffset*nx, p.Y-edgeFlankOffset*ny)
		fb, ok4 := m.at(p.X+edgeFlankOffset*nx, p.Y+edgeFlankOffset*ny)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return
		}
		n++
		// A sharp step: either side flat beyond it (a lighting gradient
		// or an arm's shading steps as much on the flanks).
		d := b - a
		if math.Abs(fb-b) > math.Abs(d)*maxFlankSlope || math.Abs(a-fa) > math.Abs(d)*maxFlankSlope {
			return
		}
		switch d /= noise; {
		case d >= minEdgeStep:
			up++
		case d <= -minEdgeStep:
			down++
		}
	})
	if float64(n) < 0.5*float64(count) {
		return 0
	}
	return float64(max(up, down)) / float64(count)
}

// offTheMat moves lattice h by a cell away from the mat's edge when that
// edge runs through one of its border columns or rows (see straightEdge),
// with the mat's cloth on the realm's side of it (see clothInside) or no
// line of the lattice beyond it (see bareBorder): the realm lies a cell
// further onto the mat. ok is false when the edge is
// there and the moved lattice is no realm either (outside the frame, of a
// shape no camera sees, the mat's edge in it too, or its lines not drawn
// lines), or when the edge runs through both opposite border columns or
// rows; h comes back unchanged when no mat edge runs through it.
func offTheMat(rm *ridgeMap, h homography, g models.RealmGeometry) (homography, bool) {
	run, side, edge := rm.straightEdgeLine(h, g)
	if run < minEdgeRun {
		return h, true
	}
	if !rm.clothInside(h, g, edge) && !rm.bareBorder(h, g, side) {
		// An arm along the border, unless the mat's edge runs through
		// the opposite border column or row too: then the lattice is
		// wider than the mat (the stripes of a tablecloth on either
		// side of it), and no arm makes that.
		if opposite, _ := rm.sideEdge(h, g, side^1); opposite >= minEdgeRun {
			return h, false
		}
		return h, true
	}
	moves := [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	w, hgt := float64(rm.w), float64(rm.h)
	hs := shiftedBy(h, g, moves[side][0], moves[side][1])
	if !plausible(hs, g, w, hgt) || cameraInconsistency(hs, w, hgt) > maxCameraInconsistency {
		return h, false
	}
	hs = polishOnLines(rm, hs, g)
	if r, _ := rm.straightEdge(hs, g); r >= minEdgeRun || rm.ridgeScore(hs, g) < minBorderedRidgeScore {
		return h, false
	}
	return hs, true
}

// minInsideCloth is the least share of a straight step's samples that
// must show the mat's cloth on the realm's side for the step to be the
// mat's edge: an arm lying across the realm steps as sharply along its
// whole length, but on its realm side lies the arm.
const minInsideCloth = 0.3

// insideOffset is how far (px) beyond the step's flank the realm's side of
// it is read.
const insideOffset = edgeFlankOffset + 4

// clothInside says whether the straight step along edge (a line of
// lattice h, see straightEdge) has the mat's cloth on the realm's side,
// as the mat's edge has (the margin between the realm and the edge): for
// at least minInsideCloth of its stepping samples. It is true when the
// frame's colours or the cloth's are not known.
func (m *ridgeMap) clothInside(h homography, g models.RealmGeometry, edge gridLine) bool {
	if m.colour == nil {
		return true
	}
	cc, ok := m.colour.cloth(m, h, g, m.lightGrid(h, g))
	if !ok {
		return true
	}
	centre := h.Apply(models.Point{X: g.WidthMM() / 2, Y: g.HeightMM() / 2})
	noise := m.noise[1]
	steps, cloth := 0, 0
	edge.sample(h, 4, func(p models.Point, nx, ny float64) {
		a, ok1 := m.at(p.X-edgeStepOffset*nx, p.Y-edgeStepOffset*ny)
		b, ok2 := m.at(p.X+edgeStepOffset*nx, p.Y+edgeStepOffset*ny)
		if !ok1 || !ok2 || math.Abs(b-a) < minEdgeStep*noise {
			return
		}
		if (centre.X-p.X)*nx+(centre.Y-p.Y)*ny < 0 {
			nx, ny = -nx, -ny
		}
		steps++
		if s, ok := m.colour.at(models.Point{X: p.X + insideOffset*nx, Y: p.Y + insideOffset*ny}); ok && cc.isCloth(s) {
			cloth++
		}
	})
	return steps == 0 || float64(cloth) >= minInsideCloth*float64(steps)
}

// bareBorder says whether lattice h shows no drawn line (of its colour)
// along its border on side (0 west, 1 east, 2 south, 3 north) nor on any
// of the sides crossing its border column or row there. An arm lying over
// the border column steps as sharply as the mat's edge, and the realm's
// side of its step is not the mat's cloth (see clothInside), but beyond
// the arm the realm's border shows: the mat's edge has the table beyond
// it, where no line of the realm runs. The mat's art next to its edge (a
// dark band of landscape) is not the cloth's colour either.
func (m *ridgeMap) bareBorder(h homography, g models.RealmGeometry, side int) bool {
	light := m.lightGrid(h, g)
	axis, k := 1, 0 // the strip of cells along the border, see stripSides
	border := gridLine{models.Point{X: 0, Y: 0}, models.Point{X: 0, Y: g.HeightMM()}}
	switch side {
	case 1:
		k = models.Columns - 1
		border = gridLine{models.Point{X: g.WidthMM(), Y: 0}, models.Point{X: g.WidthMM(), Y: g.HeightMM()}}
	case 2:
		axis = 0
		border = gridLine{models.Point{X: 0, Y: 0}, models.Point{X: g.WidthMM(), Y: 0}}
	case 3:
		axis, k = 0, models.Rows-1
		border = gridLine{models.Point{X: 0, Y: g.HeightMM()}, models.Point{X: g.WidthMM(), Y: g.HeightMM()}}
	}
	if e, n := m.lineEvidence(h, border, segmentStep, ridgeClip, light); n > 0 && e >= drawnSide {
		return false
	}
	shown, _ := m.stripShown(h, g, axis, k, light)
	return shown == 0
}

// The mat's edge does not run along an inner line of the realm either. A
// lattice wider than the mat, whose rows lie on a wooden table's plank seams, reaching past
// the mat on every side, can take the mat's edge for one of its column
// lines (c3/0017 of the independent scenes: the mat's two long edges on
// its second and fifth column lines, its other column lines over the
// table, where nothing is drawn): straightEdge, reading the border
// columns' middles, does not see it there. A mat whose art changes
// colour along a grid line steps there too, but its grid is drawn on both
// sides of the step; beyond the mat's edge nothing is.

// edgeAlongMM is how far (mm) either side of an inner line the mat's edge
// is looked for along it: the lattice's line is laid on the step's
// shadow or, on a sharpened frame, its overshoot, a pixel or two off its
// middle; a site card centred in a cell has its edges 6–8 mm from the
// cell's sides, mostly out of reach (and the grid is drawn on both sides
// of them).
const edgeAlongMM = 4.5

// minPairedEdgeRun is minEdgeRun for the mat's edge along inner lines on
// both sides of the lattice's middle (see edgeAlongInnerLine): cards lying
// over the mat's edge hide part of it (c3/0017: 0.46 of the west line,
// 0.68 of the east one), while cards whose edges line up along one inner
// line of the true realm (a column of cards stacked along it: c4/0008 and
// c4/0039 of the independent scenes) do so on one side only.
const minPairedEdgeRun = 0.4

// edgeAlongInnerLine says whether the mat's edge (a straight step of one
// sign, see stepRun) runs along two of lattice h's inner lines of one
// direction, one on either side of its middle, each within edgeAlongMM of
// the line for minPairedEdgeRun of its length, while beyond one of them
// none of the lattice's lines parallel to it shows as a drawn line on any
// of its cell sides: the lattice is wider than the mat, reaching past it
// over the table.
func (m *ridgeMap) edgeAlongInnerLine(h homography, g models.RealmGeometry) bool {
	light := m.lightGrid(h, g)
	for d, dir := range gridLineSides() {
		n := len(dir)
		var lower, upper []int // inner lines with the mat's edge along them
		for i := 1; i < n-1; i++ {
			if 2*i == n-1 || m.edgeNear(h, dir[i][0].line(g), dir[i][len(dir[i])-1].line(g), d) < minPairedEdgeRun {
				continue
			}
			if 2*i < n-1 {
				lower = append(lower, i)
			} else {
				upper = append(upper, i)
			}
		}
		if len(lower) == 0 || len(upper) == 0 {
			continue
		}
		for _, i := range lower {
			if m.noSideDrawn(h, g, dir[:i], light) {
				return true
			}
		}
		for _, i := range upper {
			if m.noSideDrawn(h, g, dir[i+1:], light) {
				return true
			}
		}
	}
	return false
}

// edgeNear is the largest stepRun along the grid line from first's start
// to last's end (the line's first and last cell sides; d 0 a column line,
// 1 a row line) or along the lines parallel to it within edgeAlongMM.
func (m *ridgeMap) edgeNear(h homography, first, last gridLine, d int) float64 {
	best := 0.0
	for off := -edgeAlongMM; off <= edgeAlongMM; off += edgeScanMM {
		gl := gridLine{first.p0, last.p1}
		if d == 0 {
			gl.p0.X += off
			gl.p1.X += off
		} else {
			gl.p0.Y += off
			gl.p1.Y += off
		}
		best = math.Max(best, m.stepRun(h, gl))
	}
	return best
}

// edgeScanMM is the step (mm) of edgeNear's scan across a line, as
// sideEdge scans a border column: finer than the step's few pixels.
const edgeScanMM = 1.5

// noSideDrawn says whether none of the cell sides of the given grid lines
// (see gridLineSides) shows as a drawn line of h's colour (mean response
// at least drawnSide).
func (m *ridgeMap) noSideDrawn(h homography, g models.RealmGeometry, lines [][]cellSide, light bool) bool {
	for _, sides := range lines {
		for _, s := range sides {
			if e, n := m.lineEvidence(h, s.line(g), segmentStep, ridgeClip, light); n > 0 && e >= drawnSide {
				return false
			}
		}
	}
	return true
}
