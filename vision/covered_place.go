package vision

// #include "covered_sums.h"
import "C"

import (
	"image"
	"image/color"
	"math"
	"slices"
	"unsafe"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Where a site lies under the cards on top of a cell. Once rectified, a
// site lies at scale 1, nearly axis-aligned, with its centre near its
// cell's (or, where no outline shows there, anywhere in the cell): its
// placement has three free parameters (x, y and a small turn).
// Its outline is two short ends and two long sides, each a straight edge
// between the card and whatever lies beside it. Every placement is scored
// by how much of its visible outline lies on edges running its way, read at
// 1 px/mm from running sums along the image's rows and columns, so that
// every placement costs a few dozen additions: all of them can be tried.
const (
	placeMaxTurnDeg  = 6.0 // how far from axis-aligned a site may lie
	placeTurnStepDeg = 1.5
	placeMinOffMM    = 6.0  // the least a site's centre may lie off its cell's, each way
	placeExtraOffMM  = 4.0  // allowed beyond what the cell leaves free around a site
	placeSegmentMM   = 10.0 // an outline side is read in pieces this long (a turned side drifts across columns)
	placeHiddenPadMM = 2.0  // around a card on top, pixels whose gradient is its own edge
	placeKeep        = 2    // placements passed on to naming
	placeApartMM     = 4.0  // placements kept must lie this far apart
	placeFarInsideMM = 1.0  // how far inside its cell's border the centre of a site placed off-centre lies, at least
	placeEdgeBase    = 2    // pixels (mm) to either side of an edge whose grey levels are compared
	placeEdgeShare   = 0.3  // of the region's contrast, the step of a full-strength edge
	placeEdgeMinStep = 8    // grey levels: the least step of a full-strength edge
	// Either side of a grid line, the pixels whose edges are the line's
	// (hideGridLines): the edge filter reads a step placeEdgeBase away,
	// and a printed line's side lies up to about 1 mm off its middle, or
	// the line itself up to about as much off where the realm's corners
	// put it.
	placeGridPadMM = placeEdgeBase + 1.0
)

// sitePlacement is one place a covered site may lie: its centre in
// top-down pixels, its turn off axis-aligned, and how its visible outline
// lies on edges.
type sitePlacement struct {
	cx, cy, angleDeg float64
	// score is Σ (edge strength − ½) over the visible outline, per mm:
	// positive where the outline mostly runs along edges.
	score float64
	// visibleMM is the visible outline's length, and onEdge its mean edge
	// strength (0…1).
	visibleMM, onEdge float64
	// endMM and endOnEdge are the same for each short end alone, and
	// stubMM, stubOnEdge for the first piece of each long side from each
	// end ([end][side]): the corners.
	endMM, endOnEdge   [2]float64
	stubMM, stubOnEdge [2][2]float64
}

// quad gives the site's outline in top-down pixels (an upright landscape
// face's corners from its top-left, clockwise, turned by angleDeg).
func (p sitePlacement) quad(pxPerMM float64) models.Quad {
	hw, hh := models.CardLongMM/2*pxPerMM, models.CardShortMM/2*pxPerMM
	ca, sa := math.Cos(p.angleDeg*math.Pi/180), math.Sin(p.angleDeg*math.Pi/180)
	var q models.Quad
	for i, c := range [4][2]float64{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}} {
		q[i] = models.Point{X: p.cx + ca*c[0] - sa*c[1], Y: p.cy + sa*c[0] + ca*c[1]}
	}
	return q
}

// edgeSums holds, over a region read at 1 px/mm, running sums down each
// column of the strength of edges running up and down, and along each row
// of edges running across, each with the count of visible pixels.
type edgeSums struct {
	w, h int
	// cols[2*(y*w+x)] is the sum of column x's first y pixels, and the
	// next value the visible ones among them; rows[2*(y*(w+1)+x)] and the
	// next the same along row y. Each sum lies beside its count, so that
	// an outline piece's end reads two neighbouring values.
	cols, rows []float32
	scratch    []float32 // a row's worth of work, and the edges along the rows
	plain      bool      // read pixel by pixel (the tests' reference)
}

// read reads the edges of a grey image (1 px/mm) where hidden (same
// size, non-zero where a card on top lies) is zero, into s's buffers
// (grown when too small).
func (s *edgeSums) read(small gocv.Mat, hidden []byte) {
	w, h := small.Cols(), small.Rows()
	img, err := small.DataPtrUint8()
	if err != nil || len(img) < w*h || len(hidden) < w*h || w < 1 || h < 1 {
		panic("edgeSums.read: not a grey image, or a hidden mask smaller than it")
	}
	// A card's edge is a step: the grey level differs placeEdgeBase mm to
	// either side of it, after smoothing along it. The printed lines of a
	// mat's grid, thinner than that, cancel out. An edge's strength
	// saturates at a share of the region's contrast (its grey levels'
	// spread, cards on top included), so that a dim or low-contrast frame
	// reads like a bright one, while the mat's own faint texture stays
	// weak. (covered_sums.c)
	s.w, s.h = w, h
	s.cols = grown(s.cols, 2*w*(h+1))
	s.rows = grown(s.rows, 2*h*(w+1))
	s.scratch = grown(s.scratch, w*(2*h+1))
	C.tablecam_edge_sums((*C.uint8_t)(unsafe.Pointer(&img[0])), (*C.uint8_t)(unsafe.Pointer(&hidden[0])), C.int(w), C.int(h),
		C.int(placeEdgeBase), C.double(placeEdgeShare), C.float(placeEdgeMinStep), cFloats(s.cols), cFloats(s.rows), cFloats(s.scratch), cBool(s.plain))
}

func cBool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// grown gives buf when it holds n values, else a new buffer that does.
func grown(buf []float32, n int) []float32 {
	if cap(buf) < n {
		return make([]float32, n)
	}
	return buf[:n]
}

// column sums column x's pixels y0 ≤ y < y1 (clipped to the region).
func (s *edgeSums) column(x, y0, y1 int) (e, n float32) {
	if x < 0 || x >= s.w {
		return 0, 0
	}
	y0, y1 = max(y0, 0), min(y1, s.h)
	if y1 <= y0 {
		return 0, 0
	}
	i0, i1 := 2*(y0*s.w+x), 2*(y1*s.w+x)
	return s.cols[i1] - s.cols[i0], s.cols[i1+1] - s.cols[i0+1]
}

// row sums row y's pixels x0 ≤ x < x1 (clipped to the region).
func (s *edgeSums) row(y, x0, x1 int) (e, n float32) {
	if y < 0 || y >= s.h {
		return 0, 0
	}
	x0, x1 = max(x0, 0), min(x1, s.w)
	if x1 <= x0 {
		return 0, 0
	}
	b := 2 * y * (s.w + 1)
	return s.rows[b+2*x1] - s.rows[b+2*x0], s.rows[b+2*x1+1] - s.rows[b+2*x0+1]
}

// outlineSegment is a piece of a site's outline, in millimetres from its
// centre: from (x0, y0) to (x1, y1), on short end 0 or 1, or a long side
// (-1). A long side's first piece from an end is a stub of that end's
// corners (stub 0 or 1, on side 0 or 1), else stub is -1.
type outlineSegment struct {
	x0, y0, x1, y1 float64
	end            int
	stub, side     int
}

// siteOutlineSegments cuts an upright site's outline into pieces.
func siteOutlineSegments() []outlineSegment {
	hw, hh := models.CardLongMM/2, models.CardShortMM/2
	var out []outlineSegment
	cut := func(x0, y0, x1, y1 float64, end, side int) {
		n := int(math.Ceil(math.Hypot(x1-x0, y1-y0) / placeSegmentMM))
		for i := 0; i < n; i++ {
			a, b := float64(i)/float64(n), float64(i+1)/float64(n)
			g := outlineSegment{x0 + a*(x1-x0), y0 + a*(y1-y0), x0 + b*(x1-x0), y0 + b*(y1-y0), end, -1, side}
			if end < 0 && i == 0 {
				g.stub = 0
			} else if end < 0 && i == n-1 {
				g.stub = 1
			}
			out = append(out, g)
		}
	}
	cut(-hw, -hh, -hw, hh, 0, -1)
	cut(hw, -hh, hw, hh, 1, -1)
	cut(-hw, -hh, hw, -hh, -1, 0)
	cut(-hw, hh, hw, hh, -1, 1)
	return out
}

// outlinePiece is an outline piece of a site turned by some angle, its
// centre at a region's base point, in whole pixels: read along column at,
// rows from ≤ y < to (an end), or along row at, columns from ≤ x < to (a
// side). The site moved by whole pixels reads each piece moved so.
type outlinePiece struct {
	at, from, to    int32
	end, stub, side int8
	_               int8
}

// An outlinePiece is read in C as a tablecam_outline_piece.
var _ [unsafe.Sizeof(outlinePiece{}) - C.sizeof_tablecam_outline_piece]struct{} = [0]struct{}{}

// scoreGrid appends to out the scores (see sitePlacement) of an outline's
// placements moved by (ix, iy) for ix0 ≤ ix ≤ ix1 and iy0 ≤ iy ≤ iy1 in
// steps of step, row by row, each with its turn.
func (s *edgeSums) scoreGrid(pieces []outlinePiece, turn, ix0, ix1, iy0, iy1, step int, out []placeScore, buf []float64) ([]placeScore, []float64) {
	nx, ny := (ix1-ix0)/step+1, (iy1-iy0)/step+1
	if nx <= 0 || ny <= 0 || len(pieces) == 0 {
		return out, buf
	}
	if cap(buf) < nx*ny {
		buf = make([]float64, nx*ny)
	}
	buf = buf[:nx*ny]
	C.tablecam_score_outline(cFloats(s.cols), cFloats(s.rows), C.int(s.w), C.int(s.h), (*C.tablecam_outline_piece)(unsafe.Pointer(&pieces[0])), C.int(len(pieces)),
		C.int(ix0), C.int(ix0+(nx-1)*step), C.int(iy0), C.int(iy0+(ny-1)*step), C.int(step), (*C.double)(unsafe.Pointer(&buf[0])), cBool(s.plain))
	for k, sc := range buf {
		out = append(out, placeScore{ix0 + k%nx*step, iy0 + k/nx*step, turn, sc})
	}
	return out, buf
}

// placeOutline turns a site's outline pieces by angleDeg and centres them
// on (cx, cy), in region pixels (1 px/mm).
func placeOutline(segs []outlineSegment, angleDeg, cx, cy float64) []outlinePiece {
	ca, sa := math.Cos(angleDeg*math.Pi/180), math.Sin(angleDeg*math.Pi/180)
	out := make([]outlinePiece, len(segs))
	for i, g := range segs {
		x0, y0 := ca*g.x0-sa*g.y0, sa*g.x0+ca*g.y0
		x1, y1 := ca*g.x1-sa*g.y1, sa*g.x1+ca*g.y1
		p := outlinePiece{end: int8(g.end), stub: int8(g.stub), side: int8(g.side)}
		if g.end >= 0 { // runs up and down
			p.at, p.from, p.to = int32(math.Floor(cx+(x0+x1)/2)), int32(math.Round(cy+min(y0, y1))), int32(math.Round(cy+max(y0, y1)))
		} else {
			p.at, p.from, p.to = int32(math.Floor(cy+(y0+y1)/2)), int32(math.Round(cx+min(x0, x1))), int32(math.Round(cx+max(x0, x1)))
		}
		out[i] = p
	}
	return out
}

// along sums the edges along an outline piece moved by (ix, iy) pixels.
func (s *edgeSums) along(g *outlinePiece, ix, iy int) (e, n float32) {
	if g.end >= 0 {
		return s.column(int(g.at)+ix, int(g.from)+iy, int(g.to)+iy)
	}
	return s.row(int(g.at)+iy, int(g.from)+ix, int(g.to)+ix)
}

// placement reads a placement whole: its outline's pieces moved by (ix,
// iy) pixels, centred at (cx, cy) and turned angleDeg.
func (s *edgeSums) placement(pieces []outlinePiece, ix, iy int, cx, cy, angleDeg float64) sitePlacement {
	p := sitePlacement{cx: cx, cy: cy, angleDeg: angleDeg}
	var sumE, sumN float32
	var endE [2]float32
	var stubE [2][2]float32
	for i := range pieces {
		g := &pieces[i]
		e, n := s.along(g, ix, iy)
		if g.end >= 0 {
			p.endMM[g.end] += float64(n)
			endE[g.end] += e
		} else if g.stub >= 0 {
			p.stubMM[g.stub][g.side] += float64(n)
			stubE[g.stub][g.side] += e
		}
		sumE += e
		sumN += n
	}
	p.visibleMM = float64(sumN)
	p.score = float64(sumE - sumN/2)
	if sumN > 0 {
		p.onEdge = float64(sumE / sumN)
	}
	for e := range endE {
		if p.endMM[e] > 0 {
			p.endOnEdge[e] = float64(endE[e]) / p.endMM[e]
		}
		for side := range stubE[e] {
			if p.stubMM[e][side] > 0 {
				p.stubOnEdge[e][side] = float64(stubE[e][side]) / p.stubMM[e][side]
			}
		}
	}
	return p
}

// placeScore is a placement as the search tries it: moved (ix, iy) pixels
// from the cell's centre, turned turn steps of placeTurnStepDeg.
type placeScore struct {
	ix, iy, turn int
	score        float64
}

// sitePlacements gives the few placements of a site under the cards on top
// of a cell whose outlines best lie on edges, best first, in top-down
// pixels; gridHidden leaves the edges along the realm's grid lines unread
// (hideGridLines), and the search near the cell's centre alone.
//
// sums is the search's buffer for the region's edge sums.
func sitePlacements(gray gocv.Mat, v *view, cell models.Cell, found []placed, sums *edgeSums, gridHidden bool) []sitePlacement {
	g := v.geo
	centre := placeArea{
		offX:       max((g.CellWidthMM-models.CardLongMM)/2, placeMinOffMM) + placeExtraOffMM,
		offY:       max((g.CellHeightMM-models.CardShortMM)/2, placeMinOffMM) + placeExtraOffMM,
		keep:       placeKeep,
		gridHidden: gridHidden,
	}
	near := placementsWithin(gray, v, cell, found, sums, centre)
	// A player often puts a site well off its cell's centre, and the unit
	// on it wherever: 9 of the independent sets' 102 sites 40-80% visible
	// lay 26-48 mm off, beyond the search around the centre (3 of them
	// named). Where no outline clearly shows near the centre, the best
	// placement anywhere else in the cell (its centre in it, as the
	// site's cell is its centre's) is tried too, after those near the
	// centre, when its outline lies on edges better than theirs: 6 of
	// the 9 named then, no name lost or wrong on the independent sets or
	// the bundled stills.
	if gridHidden {
		// Looked for again: the site near the cell's centre, whose
		// outline lay on a grid line.
		return near
	}
	for _, p := range near {
		if outlineShows(p) {
			return near
		}
	}
	off := placeArea{
		offX: max(g.CellWidthMM/2-placeFarInsideMM, centre.offX), offY: max(g.CellHeightMM/2-placeFarInsideMM, centre.offY),
		outX: centre.offX, outY: centre.offY,
		upright: true, keep: 1,
	}
	if off.offX <= centre.offX && off.offY <= centre.offY {
		return near
	}
	far := placementsWithin(gray, v, cell, found, sums, off)
	if len(far) > 0 && (len(near) == 0 || far[0].score > near[0].score) {
		near = append(near, far[0])
	}
	return near
}

// onGridLine reports whether one of a placement's ends or long sides lies
// within placeGridPadMM of a grid line running its way (its turn, at most
// placeMaxTurnDeg, is left out).
func onGridLine(p sitePlacement, v *view) bool {
	g := v.geo
	// The site's centre in realm millimetres (y north).
	x := p.cx/v.pxPerMM - v.marginMM
	y := g.HeightMM() + v.marginMM - p.cy/v.pxPerMM
	near := func(at, step float64, n int) bool {
		k := math.Round(at / step)
		return k >= 0 && k <= float64(n) && math.Abs(at-k*step) <= placeGridPadMM
	}
	for _, d := range []float64{-1, 1} {
		if near(x+d*models.CardLongMM/2, g.CellWidthMM, models.Columns) || near(y+d*models.CardShortMM/2, g.CellHeightMM, models.Rows) {
			return true
		}
	}
	return false
}

// apartFromAll reports whether placement p lies placeApartMM or more from
// every one of ps (top-down pixels, pxPerMM to the mm).
func apartFromAll(p sitePlacement, ps []sitePlacement, pxPerMM float64) bool {
	for _, q := range ps {
		if math.Hypot(p.cx-q.cx, p.cy-q.cy) < placeApartMM*pxPerMM {
			return false
		}
	}
	return true
}

// placeArea is where a site's placements are searched for, off its cell's
// centre.
type placeArea struct {
	offX, offY float64 // the most its centre lies off the cell's, mm across and down
	// outX, outY (when outX > 0): a centre lying within both this across
	// and this down is left out (searched already).
	outX, outY float64
	// upright searches coarsely at turn 0 alone, and finely within two
	// turn steps of it, else coarsely every three turn steps and finely
	// within one of the best. Over the whole cell, it costs a third as
	// much and names as many sites (on the bundled stills, the covered
	// search's CPU time per still 1.46 ms before the search off the
	// centre, 1.78 ms with it upright, 2.32 ms not).
	upright bool
	keep    int // how many placements are kept (placeApartMM apart)
	// gridHidden leaves the edges along the realm's grid lines unread
	// (hideGridLines).
	gridHidden bool
}

// placementsWithin gives the best placements of a site whose centre lies
// in an area off its cell's centre, best first, in top-down pixels.
func placementsWithin(gray gocv.Mat, v *view, cell models.Cell, found []placed, sums *edgeSums, area placeArea) []sitePlacement {
	s := v.pxPerMM
	g := v.geo
	offX, offY := area.offX, area.offY
	growMM := max(offX+models.CardLongMM/2-g.CellWidthMM/2, offY+models.CardShortMM/2-g.CellHeightMM/2) + 6
	r := v.cellRect(cell, growMM).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 32 || r.Dy() < 32 {
		return nil
	}
	// The region at 1 px/mm.
	w, h := int(math.Round(float64(r.Dx())/s)), int(math.Round(float64(r.Dy())/s))
	roi := gray.Region(r)
	small := gocv.NewMat()
	gocv.Resize(roi, &small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	roi.Close()
	defer small.Close()
	hiddenMat := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	hiddenMat.SetTo(gocv.NewScalar(0, 0, 0, 0))
	scaled := make([]placed, len(found))
	for i, p := range found {
		scaled[i] = p
		for k, c := range p.quad {
			scaled[i].quad[k] = models.Point{X: (c.X - float64(r.Min.X)) / s, Y: (c.Y - float64(r.Min.Y)) / s}
		}
	}
	fillGrownQuads(&hiddenMat, image.Point{}, scaled, placeHiddenPadMM, color.RGBA{255, 255, 255, 0})
	if area.gridHidden {
		hideGridLines(&hiddenMat, v, r)
	}
	hidden := hiddenMat.ToBytes()
	hiddenMat.Close()
	sums.read(small, hidden)
	segs := siteOutlineSegments()

	cell0 := v.cellRect(cell, 0)
	ccx := (float64(cell0.Min.X+cell0.Max.X)/2 - float64(r.Min.X)) / s
	ccy := (float64(cell0.Min.Y+cell0.Max.Y)/2 - float64(r.Min.Y)) / s
	// The outline at each turn, in turn steps from -maxTurn to maxTurn.
	maxTurn := int(math.Floor(placeMaxTurnDeg/placeTurnStepDeg + 1e-9))
	outlines := make([][]outlinePiece, 2*maxTurn+1)
	outline := func(turn int) []outlinePiece {
		o := outlines[turn+maxTurn]
		if o == nil {
			o = placeOutline(segs, float64(turn)*placeTurnStepDeg, ccx, ccy)
			outlines[turn+maxTurn] = o
		}
		return o
	}
	// Coarse: every 2 mm, and turns 3 steps apart (or upright); then
	// every 1 mm and turn step around the best.
	var buf []float64
	const coarseTurn = 3
	reach, firstTurn, lastTurn := 1, -coarseTurn*(maxTurn/coarseTurn), maxTurn
	if area.upright {
		reach, firstTurn, lastTurn = 2, 0, 0
	}
	ix0, ix1 := -2*int(math.Round(offX/2)), int(math.Floor(offX+1e-9))
	iy0, iy1 := -2*int(math.Round(offY/2)), int(math.Floor(offY+1e-9))
	coarse := make([]placeScore, 0, ((lastTurn-firstTurn)/coarseTurn+1)*((ix1-ix0)/2+1)*((iy1-iy0)/2+1))
	for turn := firstTurn; turn <= lastTurn; turn += coarseTurn {
		coarse, buf = sums.scoreGrid(outline(turn), turn, ix0, ix1, iy0, iy1, 2, coarse, buf)
	}
	if area.outX > 0 {
		coarse = slices.DeleteFunc(coarse, func(c placeScore) bool {
			return math.Abs(float64(c.ix)) <= area.outX && math.Abs(float64(c.iy)) <= area.outY
		})
	}
	var fine []placeScore
	for _, c := range bestApart(coarse, 2*area.keep, placeApartMM/2) {
		for turn := max(c.turn-reach, -maxTurn); turn <= min(c.turn+reach, maxTurn); turn++ {
			fine, buf = sums.scoreGrid(outline(turn), turn, c.ix-1, c.ix+1, c.iy-1, c.iy+1, 1, fine, buf)
		}
	}
	// The best, read whole, back in top-down pixels.
	var kept []sitePlacement
	for _, c := range bestApart(fine, area.keep, placeApartMM) {
		p := sums.placement(outline(c.turn), c.ix, c.iy, ccx+float64(c.ix), ccy+float64(c.iy), float64(c.turn)*placeTurnStepDeg)
		p.cx = float64(r.Min.X) + p.cx*s
		p.cy = float64(r.Min.Y) + p.cy*s
		kept = append(kept, p)
	}
	return kept
}

// hideGridLines paints, into hidden (a region r of the top-down image read
// at 1 px/mm), a strip placeGridPadMM either side of each of the realm's
// grid lines: its cells' borders and its own. A mat marks them, with a
// printed line (wide, or soft and glowing, its sides are steps the edge
// filter reads) or the change from mat to table at the realm's border:
// straight edges running exactly the way a site's sides run, often a few
// millimetres from them. An outline laid on them scores as well as one on
// the site's own edges, and moves the placement off by up to the distance
// between them (on the independent sets, 5 of 25 half-covered sites left
// unnamed were placed 5-15 mm off, a side or end on a grid line). What
// shows there tells nothing of where a site lies, so it is left unseen,
// as the cards on top are: the other pieces of the outline place it.
// (Counted as seen with no edge instead, the pieces of a site's own
// outline lying there would push every placement off the lines: on the
// independent sets, fewer sites were named than with the lines read.)
// A site's own side within placeGridPadMM of a line goes unseen too, and
// the placement then lies a few millimetres off it (3-5 mm in
// TestCoveredSiteBesideGlowingGridLines' scenes): the search with the
// lines unread is only a second try (siteUnder).
func hideGridLines(hidden *gocv.Mat, v *view, r image.Rectangle) {
	g := v.geo
	s := v.pxPerMM
	w, h := hidden.Cols(), hidden.Rows()
	white := color.RGBA{255, 255, 255, 0}
	for k := 0; k <= models.Columns; k++ {
		// The line in region pixels, at 1 px/mm.
		x := ((float64(k)*g.CellWidthMM+v.marginMM)*s - float64(r.Min.X)) / s
		x0, x1 := int(math.Round(x-placeGridPadMM)), int(math.Round(x+placeGridPadMM))+1
		if x1 > 0 && x0 < w {
			gocv.Rectangle(hidden, image.Rect(max(x0, 0), 0, min(x1, w), h), white, -1)
		}
	}
	for k := 0; k <= models.Rows; k++ {
		y := ((g.HeightMM()-float64(k)*g.CellHeightMM+v.marginMM)*s - float64(r.Min.Y)) / s
		y0, y1 := int(math.Round(y-placeGridPadMM)), int(math.Round(y+placeGridPadMM))+1
		if y1 > 0 && y0 < h {
			gocv.Rectangle(hidden, image.Rect(0, max(y0, 0), w, min(y1, h)), white, -1)
		}
	}
}

// bestApart keeps the best-scoring placements (score above 0), at most n,
// each at least apart (mm, at 1 px/mm) from every better one kept.
func bestApart(all []placeScore, n int, apart float64) []placeScore {
	var kept []placeScore
	for len(kept) < n {
		best := -1
		for i, p := range all {
			if p.score <= 0 || (best >= 0 && p.score <= all[best].score) {
				continue
			}
			near := false
			for _, k := range kept {
				if math.Hypot(float64(p.ix-k.ix), float64(p.iy-k.iy)) < apart {
					near = true
					break
				}
			}
			if !near {
				best = i
			}
		}
		if best < 0 {
			break
		}
		kept = append(kept, all[best])
	}
	return kept
}
