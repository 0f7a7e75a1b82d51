package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A card lying partly under a card found (a unit on the end of a site, an
// avatar half under a minion) shows no closed outline and only three sides,
// or two, of its own: the rest runs under the card on top. Nor need its
// face give keypoints enough to start the stacked-card search: a flat,
// low-texture face leaves none. But where it shows, its sides are straight
// edges that no card found explains (the side search's leftover segments,
// outline_sides.go), and they end where the card on top begins.
//
// findUnderCards starts from those segments: one end on no card found (a
// corner of the card, or near it: corners are rounded), the other running
// under a card found. Such a segment is a side of a card lying along it, on
// either side of it, either its short or its long side; the card's corner
// at the free end is sought square to it on the edges (the outermost line
// nearly as full as the fullest near the end), and its far side parallel
// to it a card's other side away. The rectangle is taken when the visible
// part of its border (the part no card found covers) lies on edges as the
// side search's rectangles do (each side mostly, all together more), is
// most of its border, and stands out from what lies around it; and when
// its hidden part lies under cards found, none of whose centres it holds
// (a site under a unit centred on it is the covered-site search's:
// covered.go; letting a card on it hold its centre found more cards on
// still frames but misread tapped units in recorded games).
//
// The part of the top-down image that the camera frame does not show
// (black) hides a card as a card found does: a card cut by the frame's
// edge shows three sides, or two, and a segment running into that edge
// starts the search as one running under a card found.

// underEndMM: a segment's end this near a card found (inside its outline
// grown by it) runs under that card.
const underEndMM = 8.0

// underCoverMM is how far around a card found its outline hides a card
// under it: the side search's edge map leaves its outline out this far
// (sideFoundMarginMM), and its edges blur a little beyond.
const underCoverMM = sideFoundMarginMM + 1.0

// The visible part of a card under others: at least underMinShown of its
// border and underMinArea of its inside shows, and at least underMinHidden
// of its border is hidden (else the side search's business).
const (
	underMinShown  = 0.45
	underMinArea   = 0.45
	underMinHidden = 0.05
)

// A corner at a segment's free end: its square side is sought from
// stackSnapPx inside the end to underCornerOutMM beyond it (a rounded
// corner's straight run ends short of it, and a side's run breaks where
// the face along it turns from lighter than the mat to darker), and must
// lie on edges over underCornerShare of its visible length.
const (
	underCornerOutMM = 20.0
	underCornerShare = 0.5
)

// underMaxCandidates bounds the segments looked at in one frame (the
// longest first).
const underMaxCandidates = 24

// findUnderCards finds the standard cards partly under the cards found
// (found; dets are the matched ones) whose visible sides the side search
// (findSidedCards, which must have run this frame) left as segments (see
// the top of this file).
func (o *outlineFinder) findUnderCards(gray gocv.Mat, v *view, found []placed) []stackedCard {
	b := &o.sides
	W, H := gray.Cols(), gray.Rows()
	// What the camera frame does not show hides a card cut by the
	// frame's edge, as a card found hides one under it.
	var frame, frameEnds [][3]float64
	if W == v.size.X && H == v.size.Y {
		frame = framePlanes(v, underFrameInPx)
		for _, h := range frame {
			frameEnds = append(frameEnds, [3]float64{h[0], h[1], h[2] - (underEndMM*v.pxPerMM - underFrameInPx)})
		}
	}
	if len(b.segs) == 0 || (len(found) == 0 && frame == nil) {
		return nil
	}
	thin, okThin := frameEdgeMap(b.thin, W, H)
	grey, okGrey := frameEdgeMap(b.grey, W, H)
	if !okThin || !okGrey {
		return nil
	}
	shape := outlineShapeOf(v, models.KindStandard)
	foundQuads := quadsOfPlaced(found)
	ends := make([]models.Quad, len(foundQuads))
	cover := make([]models.Quad, len(foundQuads))
	for i, q := range foundQuads {
		ends[i] = grow(q, underEndMM*v.pxPerMM)
		cover[i] = grow(q, underCoverMM*v.pxPerMM)
	}
	// The segments that run under a card found from a free end.
	type start struct {
		seg        segment
		free, hide models.Point
	}
	// The segments that may be a card's sides: as those the second look
	// looks around (outline_again.go), none along a grid line's broad
	// edges, the mat's edge beyond the grid, the edge of what the frame
	// shows or a card found a little off.
	grid := gridLines(v)
	segs := make([]segment, 0, len(b.segs))
	for _, s := range b.segs {
		if s.length() > (1+stackSizeTolerance)*shape.long || onLine(s, grid, againGridTolMM*v.pxPerMM) || matEdge(s, v) ||
			alongPolygon(s, o.within, 2*inFrameGrowPx) || alongQuadSide(s, foundQuads, againFoundTolMM*v.pxPerMM) {
			continue
		}
		segs = append(segs, s)
	}
	var starts []start
	for _, s := range segs {
		e0, e1 := s.ends()
		h0, h1 := insideAny(e0, ends) || beyond(e0, frameEnds), insideAny(e1, ends) || beyond(e1, frameEnds)
		switch {
		case h1 && !h0:
			starts = append(starts, start{s, e0, e1})
		case h0 && !h1:
			starts = append(starts, start{s, e1, e0})
		}
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].seg.length() > starts[j].seg.length() })
	if len(starts) > underMaxCandidates {
		starts = starts[:underMaxCandidates]
	}
	u := newUnderSearch(thin, grey, cover, v.pxPerMM)
	u.grid, u.dims, u.frame = grid, [2]float64{shape.short, shape.long}, frame
	var rects []rectangle
	for _, st := range starts {
		// Unit vectors: along the side from the free end to the hidden
		// one, and square to it.
		l := math.Hypot(st.hide.X-st.free.X, st.hide.Y-st.free.Y)
		if l == 0 {
			continue
		}
		d := models.Point{X: (st.hide.X - st.free.X) / l, Y: (st.hide.Y - st.free.Y) / l}
		n := models.Point{X: -d.Y, Y: d.X}
		for _, dims := range [2][2]float64{{shape.short, shape.long}, {shape.long, shape.short}} {
			along, across := dims[0], dims[1]
			if st.seg.length() > (1+stackSizeTolerance)*along {
				continue
			}
			for _, side := range []float64{-1, 1} {
				nn := models.Point{X: side * n.X, Y: side * n.Y}
				if q, score, ok := u.rectangleFrom(st.free, d, nn, along, across); ok {
					rects = append(rects, rectangle{quad: q, shape: shape, support: score - sideSizeWeight*sizeError(q, shape)})
				}
			}
		}
	}
	// The rectangles that pairs of parallel segments propose (as the side
	// search's), a part of whose border runs under cards found.
	for _, c := range sideCandidates(segs, shape) {
		if !u.partHidden(rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1)) {
			continue
		}
		q := u.snapped(c)
		e, sized := sizedAs(q, shape)
		if !sized {
			continue
		}
		if score, ok := u.check(q); ok {
			rects = append(rects, rectangle{quad: clockwiseFromTopLeft(q), shape: shape, support: score - sideSizeWeight*e})
		}
	}
	sort.Slice(rects, func(i, j int) bool { return rects[i].support > rects[j].support })
	// Then the cards the second look found three sides of, the fourth
	// within a card found (outline_three.go): once the cards under cards
	// are, the card under one (its hidden side there) is found as one,
	// and named by its part showing.
	rects = append(rects, o.again.three...)
	within := make([]models.Quad, len(foundQuads))
	for i, q := range foundQuads {
		within[i] = grow(q, 2*v.pxPerMM)
	}
	var out []stackedCard
	var taken []models.Quad
	for _, r := range rects {
		q := r.quad
		if covered(q, taken) || sameCardAsAny(q, foundQuads) || cornersWithin(q, within) >= 3 || holdsCentre(q, foundQuads) {
			continue
		}
		if bareMat(q, grid, u.grey, sideContrastMM*v.pxPerMM, sideGridTolMM*v.pxPerMM) {
			continue
		}
		taken = append(taken, q)
		out = append(out, r.card(found))
	}
	return out
}

// sizeError is how far q's sides are off a card's of shape (the sum of
// both sides' relative errors): of the rectangles of one card, that of its
// outline ranks before that of a line a few millimetres in, as in the side
// search (candidateRectangles).
func sizeError(q models.Quad, shape outlineShape) float64 {
	e, _ := sizedAs(q, shape)
	return e
}

// sizedAs gives q's sizeError and whether each of its sides is within
// stackSizeTolerance of a card's of shape.
func sizedAs(q models.Quad, shape outlineShape) (e float64, ok bool) {
	a, b := sideLen(q, 0), sideLen(q, 1)
	es, el := math.Abs(math.Min(a, b)/shape.short-1), math.Abs(math.Max(a, b)/shape.long-1)
	return es + el, es <= stackSizeTolerance && el <= stackSizeTolerance
}

// underSearch holds what findUnderCards checks its rectangles on: the side
// search's edges and blurred image, and the cards found (grown by
// underCoverMM) that hide what lies under them.
type underSearch struct {
	thin, grey edgeMap
	cover      []models.Quad
	px         float64    // top-down pixels per millimetre
	grid       []segment  // the mat's grid lines
	dims       [2]float64 // a card's short and long sides
	sides      []quadSides
	bounds     [][4]float64 // of cover, min x, y, max x, y
	// frame, when the camera frame does not show all of the top-down
	// image, bounds the part it shows less underFrameInPx (half-planes
	// a·x + b·y + c ≥ 0): what lies beyond is hidden, as under a card found.
	frame [][3]float64
}

// underFrameInPx: the top-down pixels this near the part the camera frame
// shows, or beyond it, are hidden (black beyond it; the blur reaches in).
const underFrameInPx = 3.0

// framePlanes gives the half-planes (a·x + b·y + c ≥ 0 inside, a and b a
// unit normal) of the part of the top-down image of view v that the camera
// frame shows, moved in by in pixels; none when it shows all of the image
// (or no part of it can be told).
func framePlanes(v *view, in float64) [][3]float64 {
	poly, ok := inFramePolygon(v, 0)
	if !ok || len(poly) < 3 {
		return nil
	}
	W, H := float64(v.size.X), float64(v.size.Y)
	area := 0.0
	for i, a := range poly {
		b := poly[(i+1)%len(poly)]
		area += a.X*b.Y - b.X*a.Y
	}
	if math.Abs(area)/2 >= 0.999*W*H {
		return nil
	}
	var c models.Point
	for _, p := range poly {
		c.X += p.X / float64(len(poly))
		c.Y += p.Y / float64(len(poly))
	}
	var planes [][3]float64
	for i, a := range poly {
		b := poly[(i+1)%len(poly)]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l < 1e-9 {
			continue
		}
		nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
		if nx*(c.X-a.X)+ny*(c.Y-a.Y) < 0 {
			nx, ny = -nx, -ny
		}
		planes = append(planes, [3]float64{nx, ny, -(nx*a.X + ny*a.Y) - in})
	}
	return planes
}

// beyond reports whether the top-down pixel p lies outside the half-planes.
func beyond(p models.Point, planes [][3]float64) bool {
	for _, h := range planes {
		if h[0]*p.X+h[1]*p.Y+h[2] < 0 {
			return true
		}
	}
	return false
}

// outsideQuads gives, for each of the half-planes' lines, a quad reaching
// far from it on its outer side: the part of a card beyond the frame, for
// naming it by the part that shows.
func outsideQuads(planes [][3]float64, far float64) []models.Quad {
	var out []models.Quad
	for _, h := range planes {
		// The line's point nearest the origin, and its direction.
		p := models.Point{X: -h[2] * h[0], Y: -h[2] * h[1]}
		d := models.Point{X: -h[1], Y: h[0]}
		at := func(s, t float64) models.Point {
			return models.Point{X: p.X + s*d.X - t*h[0], Y: p.Y + s*d.Y - t*h[1]}
		}
		out = append(out, models.Quad{at(-far, 0), at(far, 0), at(far, far), at(-far, far)})
	}
	return out
}

// hidden reports whether the top-down pixel p lies under a card found, or
// beyond what the camera frame shows.
func (u underSearch) hidden(p models.Point) bool {
	if u.frame != nil && beyond(p, u.frame) {
		return true
	}
	for i := range u.sides {
		if b := &u.bounds[i]; p.X >= b[0] && p.Y >= b[1] && p.X <= b[2] && p.Y <= b[3] && u.sides[i].holds(p.X, p.Y) {
			return true
		}
	}
	return false
}

// meeting appends to out the places in cover of the cards whose bounds
// meet the line from a to b's, a pixel wider all round (and a little more
// far from the origin): all of them when a or b is not a number.
func (u underSearch) meeting(a, b models.Point, out []int32) []int32 {
	pad := 1 + 1e-9*(math.Abs(a.X)+math.Abs(a.Y)+math.Abs(b.X)+math.Abs(b.Y))
	x0, y0, x1, y1 := min(a.X, b.X)-pad, min(a.Y, b.Y)-pad, max(a.X, b.X)+pad, max(a.Y, b.Y)+pad
	all := math.IsNaN(x0+y0+x1+y1) || math.IsInf(x0+y0+x1+y1, 0)
	for i, bd := range u.bounds {
		if all || (bd[0] <= x1 && bd[2] >= x0 && bd[1] <= y1 && bd[3] >= y0) {
			out = append(out, int32(i))
		}
	}
	return out
}

// hiddenBy is hidden with only the cards found at places near in cover
// looked at (those that may hide p).
func (u underSearch) hiddenBy(p models.Point, near []int32) bool {
	if u.frame != nil && beyond(p, u.frame) {
		return true
	}
	for _, i := range near {
		if b := &u.bounds[i]; p.X >= b[0] && p.Y >= b[1] && p.X <= b[2] && p.Y <= b[3] && u.sides[i].holds(p.X, p.Y) {
			return true
		}
	}
	return false
}

// newUnderSearch gives the search over the edges thin and blurred image
// grey, under the cards cover.
func newUnderSearch(thin, grey edgeMap, cover []models.Quad, pxPerMM float64) underSearch {
	u := underSearch{thin: thin, grey: grey, cover: cover, px: pxPerMM}
	for _, q := range cover {
		u.sides = append(u.sides, newQuadSides(q))
		minX, minY, maxX, maxY := quadBounds(q)
		u.bounds = append(u.bounds, [4]float64{minX, minY, maxX, maxY})
	}
	return u
}

// lineOn counts the points two pixels apart on the line from a to b that no
// card found hides (shown) and those of them on an edge (hits).
func (u underSearch) lineOn(a, b models.Point) (hits, shown, all int) {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	n := int(l / 2)
	// Only the cards found whose bounds meet the line's (a pixel wider
	// all round, for the points' rounding) can hide one of its points.
	var room [16]int32
	near := u.meeting(a, b, room[:0])
	for j := 0; j <= n; j++ {
		t := 0.0
		if n > 0 {
			t = float64(j) / float64(n)
		}
		p := models.Point{X: a.X + t*(b.X-a.X), Y: a.Y + t*(b.Y-a.Y)}
		all++
		if u.hiddenBy(p, near) {
			continue
		}
		shown++
		if u.thin.onNear(p.X, p.Y) {
			hits++
		}
	}
	return hits, shown, all
}

// rectangleFrom gives the card rectangle whose side of length along runs
// from near free in direction d, lying on side nn (a unit normal) of it,
// across deep: its corner at free and its far side moved onto the edges.
// ok is false when the rectangle is no card partly under cards found (see
// findUnderCards); score ranks those of one card.
func (u underSearch) rectangleFrom(free, d, nn models.Point, along, across float64) (models.Quad, float64, bool) {
	at := func(s, t float64) models.Point { // s along d from free, t along nn
		return models.Point{X: free.X + s*d.X + t*nn.X, Y: free.Y + s*d.Y + t*nn.Y}
	}
	// The corner's side, square to the segment: the outermost line (from
	// the free end outward) nearly as full as the fullest.
	best, bestAt := 0.0, math.NaN()
	type line struct{ s, share float64 }
	var lines []line
	for s := -underCornerOutMM * u.px; s <= stackSnapPx; s++ {
		h, shown, _ := u.lineOn(at(s, 0), at(s, across))
		if shown < int(0.15*across) {
			continue
		}
		sh := float64(h) / float64(shown)
		lines = append(lines, line{s, sh})
		best = math.Max(best, sh)
	}
	if best < underCornerShare {
		return models.Quad{}, 0, false
	}
	for _, l := range lines { // outermost (most negative s) first
		if l.share >= 0.8*best {
			bestAt = l.s
			break
		}
	}
	s0 := bestAt
	// The far side, parallel to the segment a card's other side away: the
	// fullest line, the nearest of equals (the outermost line nearly as
	// full found more cards on still frames, but took a line beyond a
	// tapped unit across a site in recorded games).
	bestT, bestN := math.NaN(), -1.0
	for t := across * (1 - stackSizeTolerance); t <= across*(1+stackSizeTolerance); t++ {
		h, shown, _ := u.lineOn(at(s0, t), at(s0+along, t))
		if shown < int(0.1*along) {
			continue
		}
		if sh := float64(h) / float64(shown); sh > bestN {
			bestN, bestT = sh, t
		}
	}
	if math.IsNaN(bestT) || bestN < stackSideSupport {
		return models.Quad{}, 0, false
	}
	// The segment's own line, moved onto its edge.
	bestT0, bestN0 := 0.0, -1.0
	for t := -float64(stackSnapPx) / 2; t <= float64(stackSnapPx)/2; t++ {
		h, _, _ := u.lineOn(at(s0, t), at(s0+along, t))
		if fh := float64(h); fh > bestN0 {
			bestN0, bestT0 = fh, t
		}
	}
	q := models.Quad{at(s0, bestT0), at(s0+along, bestT0), at(s0+along, bestT), at(s0, bestT)}
	score, ok := u.check(q)
	return clockwiseFromTopLeft(q), score, ok
}

// check tells whether rectangle q is a card partly under cards found: what
// shows of its border lies on edges (each side that shows over a quarter of
// its length, stackSideSupport of it; all of it, stackMeanSupport), at
// least underMinShown of the border shows and underMinHidden is hidden,
// underMinArea of its inside shows, and it stands out from what lies around
// it where it shows. score is the share of its shown border on edges.
func (u underSearch) check(q models.Quad) (float64, bool) {
	var hits, shown, all int
	for i := range q {
		h, s, a := u.lineOn(q[i], q[(i+1)%4])
		if 4*s >= a && float64(h) < stackSideSupport*float64(s) {
			return 0, false
		}
		hits, shown, all = hits+h, shown+s, all+a
	}
	if all == 0 || float64(shown) < underMinShown*float64(all) || float64(all-shown) < underMinHidden*float64(all) {
		return 0, false
	}
	score := float64(hits) / float64(shown)
	if score < stackMeanSupport {
		return 0, false
	}
	if !u.pinned(q) || !u.cornersEnd(q) || u.bareMat(q) {
		return 0, false
	}
	// The inside that shows, on a lattice a few millimetres apart.
	c := q.Center()
	step := 4 * u.px
	ux, uy := (q[1].X - q[0].X), (q[1].Y - q[0].Y)
	wx, wy := (q[3].X - q[0].X), (q[3].Y - q[0].Y)
	nu, nw := int(math.Hypot(ux, uy)/step), int(math.Hypot(wx, wy)/step)
	in, inShown := 0, 0
	for i := 0; i < nu; i++ {
		for j := 0; j < nw; j++ {
			a, b := (float64(i)+0.5)/float64(nu), (float64(j)+0.5)/float64(nw)
			in++
			if !u.hidden(models.Point{X: q[0].X + a*ux + b*wx, Y: q[0].Y + a*uy + b*wy}) {
				inShown++
			}
		}
	}
	if in == 0 || float64(inShown) < underMinArea*float64(in) {
		return 0, false
	}
	// It stands out where it shows.
	d := sideContrastMM * u.px
	var diffs []int
	for i := range q {
		alongSide(q[i], q[(i+1)%4], c, func(x, y, nx, ny float64) {
			if u.hidden(models.Point{X: x + d*nx, Y: y + d*ny}) || u.hidden(models.Point{X: x - d*nx, Y: y - d*ny}) {
				return
			}
			out, ok1 := u.grey.value(x+d*nx, y+d*ny)
			in, ok2 := u.grey.value(x-d*nx, y-d*ny)
			if ok1 && ok2 {
				diffs = append(diffs, absInt(int(in)-int(out)))
			}
		})
	}
	if len(diffs) == 0 || medianCount(diffs) < sideContrastLevels {
		return 0, false
	}
	return score, true
}

// namePartUnder names by look the card s partly under cards found (found),
// from the part of it that shows (appearance_masked.go). A landscape one is
// a site, or a unit turned sideways under a token or another unit (its kind
// guessed from the cards it lies across, landscapeCard, does not tell what
// lies under them): both kinds are tried, the one guessed first.
func (a *Analyzer) namePartUnder(s stackedCard, v *view, found []placed) (detection, bool) {
	var onTop []models.Quad
	for _, f := range found {
		if quadsOverlap(s.quad, f.quad) {
			onTop = append(onTop, f.quad)
		}
	}
	// The part beyond what the camera frame shows (black) is left out too.
	if frame := framePlanes(v, underFrameInPx); frame != nil {
		for _, p := range s.quad {
			if beyond(p, frame) {
				onTop = append(onTop, outsideQuads(frame, float64(v.size.X+v.size.Y))...)
				break
			}
		}
	}
	kind := s.kind
	if kind != models.KindSite {
		kind = models.KindStandard
	}
	if d, ok := a.namePart(s.quad, v, kind, onTop); ok || !landscape(s.quad) {
		return d, ok
	}
	other := models.KindSite
	if kind == models.KindSite {
		other = models.KindStandard
	}
	return a.namePart(s.quad, v, other, onTop)
}

// quadsOverlap reports whether two convex quads share some of their
// inside: a corner of one lies in the other, or their centres do.
func quadsOverlap(a, b models.Quad) bool {
	for _, p := range a {
		if inside(p, b) {
			return true
		}
	}
	for _, p := range b {
		if inside(p, a) {
			return true
		}
	}
	return inside(a.Center(), b) || inside(b.Center(), a)
}

// partHidden reports whether some of q's border (its corners, or points a
// quarter of a side apart) lies under a card found.
func (u underSearch) partHidden(q models.Quad) bool {
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		for _, t := range []float64{0, 0.25, 0.5, 0.75} {
			if u.hidden(models.Point{X: a.X + t*(b.X-a.X), Y: a.Y + t*(b.Y-a.Y)}) {
				return true
			}
		}
	}
	return false
}

// snapped gives the rectangle c with each side moved, within stackSnapPx,
// onto the outermost line nearly as full of edges (where no card found
// hides it) as the fullest.
func (u underSearch) snapped(c sideCandidate) models.Quad {
	ca, sa := math.Cos(c.alpha), math.Sin(c.alpha)
	at := func(uu, w float64) models.Point { return models.Point{X: uu*ca - w*sa, Y: uu*sa + w*ca} }
	snap := func(pos, outward float64, line func(p float64) (models.Point, models.Point)) float64 {
		var counts [2*stackSnapPx + 1]int
		best := 0
		for k := range counts {
			a, b := line(pos + float64(k-stackSnapPx))
			counts[k], _, _ = u.lineOn(a, b)
			best = max(best, counts[k])
		}
		if best == 0 {
			return pos
		}
		for k := stackSnapPx; k >= -stackSnapPx; k-- { // outermost first
			if 10*counts[int(outward)*k+stackSnapPx] >= 8*best {
				return pos + outward*float64(k)
			}
		}
		return pos
	}
	alongU := func(p float64) (models.Point, models.Point) { return at(p, c.w0), at(p, c.w1) }
	alongW := func(p float64) (models.Point, models.Point) { return at(c.u0, p), at(c.u1, p) }
	return rectangleOf(c.alpha, snap(c.u0, -1, alongU), snap(c.u1, 1, alongU), snap(c.w0, -1, alongW), snap(c.w1, 1, alongW))
}

// A card's sides end at its corners: beyond a corner, from underPastMM to
// underPastMM+underPastLenMM, a side's line does not lie on edges over
// underPastShare of the points that show (and half of them must show to
// tell). A rectangle pinned along a card's sides by a line across its face
// (its art's, a text box's), the rest under cards found, has the card's
// sides running on past that line.
const (
	underPastMM    = 3.0
	underPastLenMM = 6.0
	underPastShare = 0.6
)

// cornersEnd reports whether q's sides end at its corners (see underPastMM),
// but where the mat's grid lines (grid) run along them.
func (u underSearch) cornersEnd(q models.Quad) bool {
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if l == 0 {
			return false
		}
		dx, dy := (b.X-a.X)/l, (b.Y-a.Y)/l
		for _, end := range [2]struct {
			p    models.Point
			sign float64
		}{{b, 1}, {a, -1}} {
			d0, d1 := underPastMM*u.px, (underPastMM+underPastLenMM)*u.px
			p0 := models.Point{X: end.p.X + end.sign*d0*dx, Y: end.p.Y + end.sign*d0*dy}
			p1 := models.Point{X: end.p.X + end.sign*d1*dx, Y: end.p.Y + end.sign*d1*dy}
			h, shown, all := u.lineOn(p0, p1)
			if 2*shown < all || float64(h) < underPastShare*float64(shown) {
				continue
			}
			if onLine(sideSegment(p0, p1), u.grid, sideGridTolMM*u.px) {
				continue
			}
			return false
		}
	}
	return true
}

// pinned reports whether a side of q shows whole, both its corners and
// most of its length (underPinnedShare) on no card found, and is as long
// as a card's side: its ends tell where the card lies, not only cards
// found hiding them. (A side made of two cards' sides in one line, the
// rest of the rectangle hidden, is seldom a card's length.)
func (u underSearch) pinned(q models.Quad) bool {
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		if u.hidden(a) || u.hidden(b) {
			continue
		}
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		if math.Abs(l/u.dims[0]-1) > underPinnedSize && math.Abs(l/u.dims[1]-1) > underPinnedSize {
			continue
		}
		if _, shown, all := u.lineOn(a, b); float64(shown) >= underPinnedShare*float64(all) {
			return true
		}
	}
	return false
}

// A side that tells where a card lies (see pinned) shows over at least
// underPinnedShare of its length, and its length, from corner to corner,
// is a card's side within underPinnedSize (the rectangle's other sides,
// partly hidden, are taken within stackSizeTolerance).
const (
	underPinnedShare = 0.8
	underPinnedSize  = 0.03
)

// bareMat reports whether q is the bare mat that a grid line, the cards
// found and edges around close (see bareMat in outline_sides.go), from
// what of it shows: a side that shows lies along a grid line with about
// the same grey either side of it, and most of q's inside that shows has
// the grey of the mat beyond that side.
func (u underSearch) bareMat(q models.Quad) bool {
	c := q.Center()
	d := sideContrastMM * u.px
	var beyond []int
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		if !onLine(sideSegment(a, b), u.grid, againGridTolMM*u.px) {
			continue
		}
		var diffs, outs []int
		alongSide(a, b, c, func(x, y, nx, ny float64) {
			po, pi := models.Point{X: x + d*nx, Y: y + d*ny}, models.Point{X: x - d*nx, Y: y - d*ny}
			if u.hidden(po) || u.hidden(pi) {
				return
			}
			out, ok1 := u.grey.value(po.X, po.Y)
			in, ok2 := u.grey.value(pi.X, pi.Y)
			if ok1 && ok2 {
				diffs = append(diffs, absInt(int(in)-int(out)))
				outs = append(outs, int(out))
			}
		})
		if len(diffs) == 0 || medianCount(diffs) >= 2*sideContrastLevels {
			continue
		}
		beyond = append(beyond, outs...)
	}
	if len(beyond) == 0 {
		return false
	}
	return insideLooksLike(q, u.grey, d, medianCount(beyond), u.hidden)
}
