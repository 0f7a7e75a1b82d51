package vision

import (
	"image"
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A card whose face is unlike the mat in colour but not in grey (a purple
// face on a brown cloth), whose pale border fades into a pale mat, or that
// a soft frame blurs, leaves only parts of its outline on the edge map at
// the frame's thresholds: a side or two where its face or border stands out
// most, and no closed contour nor four sides for the searches before. The
// thresholds are not lowered for the whole frame: on a busy mat that costs
// milliseconds and finds outlines in the cloth. lookAgain looks a second
// time, more sensitively (againThresholdScale), only beside the straight
// edges of up to a card's length that no card found explains (the side
// search's leftover segments, less the grid's broad lines, the mat's edge
// beyond the grid, the edge of what the frame shows and the sides of cards
// found a little off): what may be one side of a card that nothing found,
// on a side of it where no card found lies (freeBeside). There the side
// search runs again on the sensitive edges (cardsFromSegments): a card is
// taken when its four sides lie on them and it stands out from what lies
// around it, unless it is the bare mat between grid lines (bareMat). Only
// standard cards are looked for, as by the side search: at a token's size
// the panels printed on a face pass for cards.

// againThresholdScale scales the frame's Canny thresholds for the second
// look: at a third of them, a card 25 grey levels off the mat that a soft
// camera blurs (σ 2 px) shows its four sides (at half, two or three).
const againThresholdScale = 0.35

// againThresholds are the second look's Canny thresholds: the frame's
// scaled by againThresholdScale.
func (o *outlineFinder) againThresholds() (low, high float64) {
	return math.Round(o.low * againThresholdScale), math.Round(o.high * againThresholdScale)
}

// againMinShare: a leftover segment at least this share of a card's short
// side long is looked around. A faint card may leave at the frame's
// thresholds only a short mark at its edge (a cost gem, a short name
// band), a third of its side.
const againMinShare = 0.3

// againMaxShare bounds the part of the top-down image looked at again in one
// frame (the windows of the longest segments first): a half, room for the
// windows about eight faint cards' sides, two rows of a realm's (a quarter
// left three looked at). Only windows about segments no card found
// explains are looked at: on a table whose cards are read, few.
const againMaxShare = 0.5

// againMarginMM is how far beyond a card's length from a segment its
// window reaches: a card's side found a little off, and the blur's reach.
const againMarginMM = 4.0

// againBuffers are the second look's edge detector and edge maps (of its
// window's size), kept from frame to frame.
type againBuffers struct {
	edges      *edgeDetector
	thin, grey gocv.Mat
	noMsk      gocv.Mat
	px         []int32
	codes      []byte
	wins       []image.Rectangle // the windows looked at this frame (lookAgain's, for lookAgainHalf)
	half       *halfBuffers      // at half resolution (outline_faint.go), made when first wanted
	faint      []models.Quad     // the cards lookAgainHalf found this frame that were reported (image quads)
	three      []rectangle       // the three-sided cards lookAgain found this frame, for findUnderCards (outline_three.go)
}

func newAgainBuffers() againBuffers {
	return againBuffers{edges: newEdgeDetector(), thin: gocv.NewMat(), grey: gocv.NewMat(), noMsk: gocv.NewMat()}
}

func (b *againBuffers) close() {
	b.edges.close()
	b.thin.Close()
	b.grey.Close()
	b.noMsk.Close()
	if b.half != nil {
		b.half.close()
	}
}

// againSide is a segment looked around and the side of it (dir, -1 or 1,
// along its normal) on which a card may lie.
type againSide struct {
	seg segment
	dir float64
}

// againWindow gives the part of the top-down image where a card may lie
// that has side s.seg along one of its sides, on side s.dir of it: as far
// as a card's long side (long) from it, and as far beyond its ends as the
// rest of a long side, a margin m further all round.
func againWindow(s againSide, long, m float64) image.Rectangle {
	c, sn := math.Cos(s.seg.theta), math.Sin(s.seg.theta)
	beyond := math.Max(0, long-s.seg.length()) + m
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, t := range []float64{s.seg.t0 - beyond, s.seg.t1 + beyond} {
		for _, u := range []float64{s.seg.rho - s.dir*m, s.seg.rho + s.dir*(long+m)} {
			x, y := u*c-t*sn, u*sn+t*c
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
	}
	return image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX)), int(math.Ceil(maxY)))
}

// againWindows gives the parts of the top-down image (w×h) to look at
// again (againWindow of each side, long and m as there), overlapping ones
// merged, the longest segments' first, at most againMaxShare of the image.
func againWindows(sides []againSide, long, m float64, w, h int) []image.Rectangle {
	sort.SliceStable(sides, func(i, j int) bool { return sides[i].seg.length() > sides[j].seg.length() })
	bounds := image.Rect(0, 0, w, h)
	budget := againMaxShare * float64(w*h)
	var wins []image.Rectangle
	area := func(r image.Rectangle) float64 { return float64(r.Dx() * r.Dy()) }
	for _, s := range sides {
		r := againWindow(s, long, m).Intersect(bounds)
		if r.Empty() {
			continue
		}
		// Merged with those it overlaps, until none does.
		kept := wins
		for merged := true; merged; {
			merged = false
			for i := range wins {
				if wins[i].Overlaps(r) {
					r = r.Union(wins[i])
					wins = append(wins[:i:i], wins[i+1:]...)
					merged = true
					break
				}
			}
		}
		total := area(r)
		for _, x := range wins {
			total += area(x)
		}
		if total > budget {
			wins = kept // this window would pass the budget: the others stay
			continue
		}
		wins = append(wins, r)
	}
	return wins
}

// clipToRect clips a convex polygon to a rectangle (Sutherland–Hodgman)
// and moves it by -r.Min.
func clipToRect(poly []models.Point, r image.Rectangle) []models.Point {
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X-1), float64(r.Max.Y-1)
	clip := func(in []models.Point, inside func(p models.Point) bool, cross func(a, b models.Point) models.Point) []models.Point {
		var out []models.Point
		for i := range in {
			a, b := in[i], in[(i+1)%len(in)]
			ia, ib := inside(a), inside(b)
			if ia {
				out = append(out, a)
			}
			if ia != ib {
				out = append(out, cross(a, b))
			}
		}
		return out
	}
	atX := func(x float64) func(a, b models.Point) models.Point {
		return func(a, b models.Point) models.Point {
			t := (x - a.X) / (b.X - a.X)
			return models.Point{X: x, Y: a.Y + t*(b.Y-a.Y)}
		}
	}
	atY := func(y float64) func(a, b models.Point) models.Point {
		return func(a, b models.Point) models.Point {
			t := (y - a.Y) / (b.Y - a.Y)
			return models.Point{X: a.X + t*(b.X-a.X), Y: y}
		}
	}
	p := poly
	p = clip(p, func(q models.Point) bool { return q.X >= x0 }, atX(x0))
	p = clip(p, func(q models.Point) bool { return q.X <= x1 }, atX(x1))
	p = clip(p, func(q models.Point) bool { return q.Y >= y0 }, atY(y0))
	p = clip(p, func(q models.Point) bool { return q.Y <= y1 }, atY(y1))
	for i := range p {
		p[i].X -= x0
		p[i].Y -= y0
	}
	return p
}

// lookAgain finds the standard cards that the searches before missed (see
// the top of this file) around the segments the side search left
// (findSidedCards, which must have run this frame), in what no card found
// (found) explains. dets are the matched cards. The windows it looked in
// are kept for lookAgainHalf, and the three-sided cards it found for
// findUnderCards (outline_three.go), this frame.
func (o *outlineFinder) lookAgain(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown) []stackedCard {
	b := &o.again
	b.wins, b.faint, b.three = b.wins[:0], b.faint[:0], b.three[:0]
	shape := outlineShapeOf(v, models.KindStandard)
	foundQuads := quadsOfPlaced(found)
	outer := make([]models.Quad, 0, len(found))
	for _, q := range foundQuads {
		outer = append(outer, grow(q, sideFoundMarginMM*v.pxPerMM))
	}
	grid := gridLines(v)
	underUnits := cellsAwaitingSites(found, v)
	var sides []againSide
	for _, s := range o.sides.segs {
		// No card's side is longer than its long side: a longer straight
		// edge is the mat's, the table's or the frame's. Nor is a grid
		// line's edge a card's side: a line drawn broad has its edges on
		// either side of it, farther off than a card's side along it is
		// taken for the line (sideGridTolMM); nor the edge along a card
		// found a little off, nor the mat's own edge or print beyond the
		// grid, nor the edge of what the camera frame shows, nor an edge
		// in a cell where a unit was found and no site: the site under
		// the unit shows there, which the covered-site search looks for
		// (covered.go).
		if s.length() < againMinShare*shape.short || s.length() > (1+sizeTolerance)*shape.long || insideAny(s.mid(), outer) ||
			onLine(s, grid, againGridTolMM*v.pxPerMM) || alongQuadSide(s, foundQuads, againFoundTolMM*v.pxPerMM) || matEdge(s, v) ||
			alongPolygon(s, o.within, 2*inFrameGrowPx) || inAnyRect(s.mid(), underUnits) {
			continue
		}
		for _, dir := range []float64{-1, 1} {
			if freeBeside(s, dir, shape.short, outer) {
				sides = append(sides, againSide{s, dir})
			}
		}
	}
	W, H := gray.Cols(), gray.Rows()
	b.wins = append(b.wins, againWindows(sides, shape.long, againMarginMM*v.pxPerMM, W, H)...)
	var out []stackedCard
	o.lookIn(gray, v, points, dets, found, shows, true, func(look func(r image.Rectangle, more []segment) bool, _ func([]segment) []segment, _ []models.Quad, _, _ float64) {
		for _, r := range b.wins {
			if !look(r, nil) {
				return
			}
		}
	}, &out)
	return out
}

// lookIn sets up the second look's checks against the cards found (found)
// and calls run with them: look finds the cards the segments of window r
// propose on its edges (full-resolution segments, and more), and gives
// false when the edges cannot be found; keep leaves out the segments no
// card's side may lie on; hidden are the quads Canny leaves out (the
// cards found, less their borders); low and high are the thresholds. Cards found
// are appended to out. With three, the rectangles whose fourth side crosses
// the quads hidden (threeSidedRectangles) that no card found explains are
// kept in o.again.three.
func (o *outlineFinder) lookIn(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown, three bool, run func(look func(r image.Rectangle, more []segment) bool, keep func([]segment) []segment, hidden []models.Quad, low, high float64), out *[]stackedCard) {
	b := &o.again
	if len(b.wins) == 0 {
		return
	}
	W, H := gray.Cols(), gray.Rows()
	grey, ok := frameEdgeMap(o.sides.grey, W, H)
	if !ok {
		return
	}
	shape := outlineShapeOf(v, models.KindStandard)
	foundQuads := quadsOfPlaced(found)
	grid := gridLines(v)
	var cardSized []models.Quad
	for _, q := range foundQuads {
		if a := quadArea(q) / (shape.short * shape.long); a > 0.7 && a < 1.4 {
			cardSized = append(cardSized, q)
		}
	}
	// The cards found, less their borders: their faces' edges are no
	// card's sides, and Canny leaves them out as it leaves out o.hidden.
	inner := make([]models.Quad, 0, len(found))
	for _, q := range foundQuads {
		inner = append(inner, grow(q, -knownInsetMM*v.pxPerMM))
	}
	hiddenAll := append(append([]models.Quad(nil), o.hidden...), inner...)
	outlines := outlineSides(foundQuads)
	all := found
	keep := func(ws []segment) []segment {
		var segs []segment
		for _, sg := range ws {
			if onLine(sg, grid, sideGridTolMM*v.pxPerMM) || alongSides(sg, outlines, stackSnapPx) || insideAny(sg.mid(), inner) {
				continue
			}
			segs = append(segs, sg)
		}
		return segs
	}
	low, high := o.againThresholds()
	look := func(r image.Rectangle, more []segment) bool {
		ws, thinPix, _, err := o.windowSegments(b, gray, r, hiddenAll, low, high, sideMinShare*shape.short)
		if err != nil {
			return false
		}
		if thinPix == nil {
			return true
		}
		thin := edgeMap{pix: thinPix, w: r.Dx(), h: r.Dy(), off: r.Min}
		segs := append(keep(ws), more...)
		take := func(cs []stackedCard) {
			for _, c := range cs {
				if bareMat(c.quad, grid, grey, sideContrastMM*v.pxPerMM, sideGridTolMM*v.pxPerMM) {
					continue
				}
				*out = append(*out, c)
				all = append(all[:len(all):len(all)], placed{c.quad, c.kind})
				cardSized = append(cardSized, c.quad)
			}
		}
		take(cardsFromSegments(segs, thin, grey, v, shape, points, dets, all, quadsOfPlaced(all), cardSized, shows, nil, nil))
		if three && len(segs) >= 2 { // (cardsFromSegments sorted and may have cut them)
			if len(segs) > sideMaxSegments {
				segs = segs[:sideMaxSegments]
			}
			skip := func(q models.Quad) bool { return sameCardAsAny(q, cardSized) }
			rects := threeSidedRectangles(sideCandidates(segs, shape), thin, grey, v, shape, skip, hiddenAll, false)
			for _, c := range keptCards(rects, v, points, dets, all, quadsOfPlaced(all), cardSized, shows) {
				if !covered(c.quad, quadsOfRects(b.three)) {
					b.three = append(b.three, rectangle{quad: c.quad, shape: shape})
				}
			}
		}
		return true
	}
	run(look, keep, hiddenAll, low, high)
}

// windowSegments runs Canny again, with buffers b, over window r of the
// top-down image gray at thresholds low and high, within o.within and with
// the quads hidden (top-down pixels) left out, and gives the straight runs
// of its edges at least minLen long (segmentsOf) in the top-down image's
// pixels, and the window's thin and blurred edges (b's, kept until its
// next use). A window outside o.within gives no edges (nil).
func (o *outlineFinder) windowSegments(b *againBuffers, gray gocv.Mat, r image.Rectangle, hidden []models.Quad, low, high, minLen float64) (segs []segment, thinPix, greyPix []byte, err error) {
	off := models.Point{X: float64(r.Min.X), Y: float64(r.Min.Y)}
	if thinPix, greyPix, err = o.windowEdges(b, gray, r, hidden, low, high); thinPix == nil || err != nil {
		return nil, nil, nil, err
	}
	if b.px, err = b.edges.markDirections(b.thin, b.grey, b.px); err != nil {
		return nil, nil, nil, err
	}
	segs, b.codes = segmentsOf(thinPix, b.px, r.Dx(), b.codes, minLen)
	for i := range segs {
		sg := &segs[i]
		c, sn := math.Cos(sg.theta), math.Sin(sg.theta)
		sg.rho += off.X*c + off.Y*sn
		d := -off.X*sn + off.Y*c
		sg.t0, sg.t1 = sg.t0+d, sg.t1+d
	}
	return segs, thinPix, greyPix, nil
}

// windowEdges runs Canny again, with buffers b, over window r of the
// top-down image gray at thresholds low and high, within o.within and with
// the quads hidden (top-down pixels) left out, and gives the window's thin
// edges and blurred image (b's, kept until its next use). A window outside
// o.within gives no edges (nil).
func (o *outlineFinder) windowEdges(b *againBuffers, gray gocv.Mat, r image.Rectangle, hidden []models.Quad, low, high float64) (thinPix, greyPix []byte, err error) {
	off := models.Point{X: float64(r.Min.X), Y: float64(r.Min.Y)}
	poly := []models.Point{{X: 0, Y: 0}, {X: float64(r.Dx() - 1), Y: 0}, {X: float64(r.Dx() - 1), Y: float64(r.Dy() - 1)}, {X: 0, Y: float64(r.Dy() - 1)}}
	if len(o.within) > 0 {
		if poly = clipToRect(o.within, r); len(poly) < 3 {
			return nil, nil, nil
		}
	}
	moved := make([]models.Quad, 0, len(hidden))
	for _, q := range hidden {
		var m models.Quad
		for i, p := range q {
			m[i] = models.Point{X: p.X - off.X, Y: p.Y - off.Y}
		}
		moved = append(moved, m)
	}
	src := gray.Region(r)
	err = b.edges.cannyWidth(src, b.noMsk, &b.thin, low, high, cannyOptions{blur: true, within: poly, hidden: moved, blurred: &b.grey}, widestVectors)
	src.Close()
	if err != nil {
		return nil, nil, err
	}
	if thinPix, err = b.thin.DataPtrUint8(); err != nil {
		return nil, nil, err
	}
	if greyPix, err = b.grey.DataPtrUint8(); err != nil {
		return nil, nil, err
	}
	return thinPix, greyPix, nil
}

// againGridTolMM is how near a grid line a segment along it lies to be
// taken for one of its edges, not looked around.
const againGridTolMM = 4.0

// againFreeShare: a segment is looked around when on one side of it, over
// its length and a card's short side deep, at least this share of the
// image lies on no card found (quads): there a card may lie that nothing
// found explains. The side of a card found a little off, or of a card
// under it, has cards found on both sides.
const againFreeShare = 0.8

// freeBeside reports whether on side dir (-1 or 1, along its normal) of
// segment s, over its length and depth deep, at least againFreeShare of
// the points (on a lattice) lie in none of the quads.
func freeBeside(s segment, dir, depth float64, quads []models.Quad) bool {
	c, sn := math.Cos(s.theta), math.Sin(s.theta)
	const steps = 6
	free := 0
	for i := 0; i < steps; i++ {
		t := s.t0 + (float64(i)+0.5)*s.length()/steps
		for j := 0; j < steps; j++ {
			u := s.rho + dir*(float64(j)+0.5)*depth/steps
			if !insideAny(models.Point{X: u*c - t*sn, Y: u*sn + t*c}, quads) {
				free++
			}
		}
	}
	return float64(free) >= againFreeShare*steps*steps
}

// cellsAwaitingSites gives the rectangles (top-down pixels, grown by
// againGridTolMM) of the cells that hold a card found (found) that is no
// site, and no site: where findCoveredSites looks for a site under it.
func cellsAwaitingSites(found []placed, v *view) []image.Rectangle {
	type holds struct{ site, unit bool }
	cells := map[models.Cell]holds{}
	for _, p := range found {
		c, ok := v.cellAt(p.quad.Center())
		if !ok {
			continue
		}
		h := cells[c]
		if p.kind == models.KindSite {
			h.site = true
		} else {
			h.unit = true
		}
		cells[c] = h
	}
	var out []image.Rectangle
	for c, h := range cells {
		if h.unit && !h.site {
			out = append(out, v.cellRect(c, againGridTolMM))
		}
	}
	return out
}

// inAnyRect reports whether p lies in any of the rectangles.
func inAnyRect(p models.Point, rects []image.Rectangle) bool {
	for _, r := range rects {
		if p.X >= float64(r.Min.X) && p.X < float64(r.Max.X) && p.Y >= float64(r.Min.Y) && p.Y < float64(r.Max.Y) {
			return true
		}
	}
	return false
}

// matEdge reports whether segment s lies beyond the realm's grid (its
// middle more than againGridTolMM outside its outer lines) along the edge
// it lies beyond (parallel to that edge's grid line within
// sideParallelDeg): the mat's edge or a border printed on it, not a card's
// side. A side square to that edge is a card's lying off the grid, on the
// mat beside the realm or cut by the camera frame's edge, whose sides run
// out from the grid (a mat's edge and its printed borders run along it).
func matEdge(s segment, v *view) bool {
	tol := sideParallelDeg * math.Pi / 180
	// theta is the direction square to the segment: 0 for one running down
	// the image (along the grid's columns), π/2 for one across it.
	down, across := dirDiff(s.theta, 0) <= tol, dirDiff(s.theta, math.Pi/2) <= tol
	if !down && !across {
		return false
	}
	m, in := s.mid(), againGridTolMM*v.pxPerMM
	x0, y0 := v.marginMM*v.pxPerMM, v.marginMM*v.pxPerMM
	x1, y1 := x0+v.geo.WidthMM()*v.pxPerMM, y0+v.geo.HeightMM()*v.pxPerMM
	besideX, besideY := m.X < x0-in || m.X > x1+in, m.Y < y0-in || m.Y > y1+in
	return (besideX && down) || (besideY && across)
}

// againFoundTolMM: a segment parallel to a side of a card found (within
// sideParallelDeg twice), whose middle lies this near it and beside it, is
// that card's edge, the card found a little off.
const againFoundTolMM = 8.0

// alongQuadSide reports whether segment s lies along a side of one of the
// quads (see againFoundTolMM): its middle within tolPx of the side's line
// and between its ends.
func alongQuadSide(s segment, quads []models.Quad, tolPx float64) bool {
	for _, q := range quads {
		if alongPolygon(s, q[:], tolPx) {
			return true
		}
	}
	return false
}

// alongPolygon reports whether segment s lies along a side of the polygon
// (see alongQuadSide).
func alongPolygon(s segment, poly []models.Point, tolPx float64) bool {
	for i := range poly {
		if liesAlong(s, sideSegment(poly[i], poly[(i+1)%len(poly)]), tolPx, 2*sideParallelDeg) {
			return true
		}
	}
	return false
}
