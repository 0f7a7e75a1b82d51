package vision

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"math/bits"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A card whose whole outline shows is a rectangle of a known size on the
// top-down image, at any angle, whose four sides lie on straight edges.
// findUnknownCards finds it only as a closed contour, which breaks when the
// card's border touches the mat's printed rings and lines or a neighbouring
// card; findStackedCards only where unexplained keypoints cluster (a busy
// face). findSidedCards proposes the rectangles from the straight edge
// segments of the part of the image no found card explains: two parallel
// segments a card's width or length apart are two of a card's sides, and
// the segments' ends, and those of the segments square to them between
// them, tell where along them its other two sides may lie. Each rectangle
// proposed is checked on the edge map as the stacked-card search checks its
// own (its sides moved onto the edges, and lying on them all round).
//
// Only standard cards are looked for: at a token's size, the panels printed
// on a card's face pass for cards. The realm's grid lines and the found
// cards' outlines propose nothing.

// sideBuffers are the images of the side search: the thin edges and the
// blurred image that findUnknownCards's edge detection leaves (the faces
// of the matched cards left out), kept for findSidedCards in the same
// frame, the edge pixels listed and their marks.
type sideBuffers struct {
	thin, grey gocv.Mat
	// raw holds thin's edges as found, before the cards found are left
	// out: a card lying on one found shows its side there.
	raw   gocv.Mat
	ready bool // thin and grey hold this frame's
	px    []int32
	codes []byte
	segs  []segment // the segments no card found explains, this frame's once searched
	// oneFaint holds this frame's rectangles whose fourth side shows too
	// faintly, on the mat, for the side search (see oneSideFaint).
	oneFaint []rectangle
}

func newSideBuffers() sideBuffers {
	return sideBuffers{thin: gocv.NewMat(), grey: gocv.NewMat(), raw: gocv.NewMat()}
}

func (b *sideBuffers) close() {
	b.thin.Close()
	b.grey.Close()
	b.raw.Close()
}

// Straight segments: runs of edge pixels, 8-connected, whose gradients
// point within sideDirTolDeg of the run's mean direction, at least
// sideMinShare of a card's short side long, within sideMaxSpreadPx of their
// line and at least sideMinDensity pixels per pixel of length.
const (
	sideDirTolDeg   = 20.0
	sideMinShare    = 0.4
	sideMaxSpreadPx = 1.5
	sideMinDensity  = 0.5
)

// sideOutliers is the share of a run's pixels that may lie off its line.
const sideOutliers = 0.1

// Two segments are a card's opposite sides when they are parallel within
// sideParallelDeg and their distance is a card's short or long side
// within stackSizeTolerance.
const sideParallelDeg = 2.0

// sideFoundMarginMM is how far around a card found its edges are left out
// of the side search: its outline's, a little off where it was found.
const sideFoundMarginMM = 1.5

// sideSizeWeight is how much a rectangle's size error (the relative
// errors of its sides, summed) counts against its support in choosing
// among those of one card: one side on the card's inner frame, a few
// millimetres in, is supported as well as the card's outline.
const sideSizeWeight = 4.0

// sideEndSlackPx: a segment's end this near where a segment square to it
// puts a card's side proposes no side of its own (a card's corners are
// rounded: its sides' straight runs end short of them).
const sideEndSlackPx = 8.0

// sideMaxSegments bounds the segments paired in one frame (the longest).
const sideMaxSegments = 400

// segment is a straight run of edge pixels (top-down pixels): its
// gradient's direction theta in [0, π), the line's distance rho from the
// origin along it, and its extent t0 < t1 along the line (direction
// theta + π/2).
type segment struct {
	theta, rho, t0, t1 float64
}

func (s segment) length() float64 { return s.t1 - s.t0 }

// mid gives the segment's middle.
func (s segment) mid() models.Point {
	c, sn := math.Cos(s.theta), math.Sin(s.theta)
	t := (s.t0 + s.t1) / 2
	return models.Point{X: s.rho*c - t*sn, Y: s.rho*sn + t*c}
}

// frame gives a point's coordinates in the segment's frame: u across it
// (the segment lies at u = rho), w along it (from t0 to t1).
func (s segment) frame() func(p models.Point) (u, w float64) {
	c, sn := math.Cos(s.theta), math.Sin(s.theta)
	return func(p models.Point) (u, w float64) { return p.X*c + p.Y*sn, -p.X*sn + p.Y*c }
}

// ends gives the segment's two ends.
func (s segment) ends() (models.Point, models.Point) {
	c, sn := math.Cos(s.theta), math.Sin(s.theta)
	return models.Point{X: s.rho*c - s.t0*sn, Y: s.rho*sn + s.t0*c}, models.Point{X: s.rho*c - s.t1*sn, Y: s.rho*sn + s.t1*c}
}

// dirDiff is the angle between two directions modulo a half turn.
func dirDiff(a, b float64) float64 {
	d := math.Mod(math.Abs(a-b), math.Pi)
	return math.Min(d, math.Pi-d)
}

// dirCode is the mark of an edge pixel whose direction is step s: never
// zero (off the edges), step 0 taken for its neighbour 1.
func dirCode(s uint8) byte { return max(s, 1) }

// dirSteps is how many steps a whole turn of direction is cut in.
const dirSteps = 256

// dirStep gives the step of the direction of (x, y), not both zero: a fast
// arctangent, within a fifth of a degree.
func dirStep(x, y float64) uint8 {
	ax, ay := math.Abs(x), math.Abs(y)
	var a float64
	if ax >= ay {
		z := ay / ax
		a = z * (math.Pi/4 + 0.273*(1-z))
	} else {
		z := ax / ay
		a = math.Pi/2 - z*(math.Pi/4+0.273*(1-z))
	}
	if x < 0 {
		a = math.Pi - a
	}
	if y < 0 {
		a = 2*math.Pi - a
	}
	return uint8(int(math.Round(a*dirSteps/(2*math.Pi))) & (dirSteps - 1))
}

// stepCos and stepSin are the cosines and sines of the steps' directions.
var stepCos, stepSin = func() (c, s [dirSteps]float64) {
	for i := range c {
		a := float64(i) * 2 * math.Pi / dirSteps
		c[i], s[i] = math.Cos(a), math.Sin(a)
	}
	return c, s
}()

// segmentsOf finds the straight segments at least minLen long among the
// edge pixels px of a direction map (marked by edgeDetector.markDirections,
// w pixels wide, none in its border rows and columns): runs of
// them, 8-connected (a run's next pixel is one of its eight neighbours;
// the directions are Sobel's on the blurred image, steady enough along a
// thin edge's staircase within sideDirTolDeg). The map's pixels are
// cleared as they join a run (those left to look at are the edge pixels
// still marked), and their marks put back at the end from codes, which
// holds them meanwhile (codes is given back, to be used again).
func segmentsOf(dirs []byte, px []int32, w int, codes []byte, minLen float64) ([]segment, []byte) {
	tol := int8(math.Round(sideDirTolDeg * dirSteps / 360))
	codes = codes[:0]
	for _, i := range px {
		codes = append(codes, dirs[i])
	}
	var out []segment
	var region []runPixel
	for _, i := range px {
		ang := dirs[i]
		if ang == 0 { // in a run already
			continue
		}
		dirs[i] = 0
		x0, y0 := int(i)%w, int(i)/w
		region = append(region[:0], runPixel{i, int32(x0), int32(y0)})
		c1, s1 := stepCos[ang], stepSin[ang]
		x1, y1 := x0, y0
		for k := 0; k < len(region); k++ {
			p := region[k]
			// The eight neighbours still marked, a row of three at a time
			// (the pixel itself left out), in the order of their offsets:
			// row by row, left to right.
			for r := -1; r <= 1; r++ {
				base := int(p.i) + r*w - 1 // the row's left neighbour
				var word uint32
				switch r {
				case -1:
					word = binary.LittleEndian.Uint32(dirs[base:]) & 0xffffff
				case 0:
					word = binary.LittleEndian.Uint32(dirs[base:]) & 0xff00ff
				default: // the last row: the word ends at its right neighbour
					word = binary.LittleEndian.Uint32(dirs[base-1:]) >> 8
				}
				for word != 0 {
					b := bits.TrailingZeros32(word) / 8
					bj := byte(word >> (8 * b))
					word &^= 0xff << (8 * b)
					if d := int8(bj - ang); d > tol || d < -tol {
						continue
					}
					j := base + b
					dirs[j] = 0
					x, y := int(p.x)+b-1, int(p.y)+r
					region = append(region, runPixel{int32(j), int32(x), int32(y)})
					c1, s1 = c1+stepCos[bj], s1+stepSin[bj]
					if n := len(region); n&(n-1) == 0 || n%16 == 0 { // now and then
						ang = dirCode(dirStep(c1, s1))
					}
					x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
				}
			}
		}
		if float64(len(region)) < sideMinDensity*minLen || math.Hypot(float64(x1-x0), float64(y1-y0)) < minLen {
			continue
		}
		if s, ok := fitSegment(region, minLen); ok {
			out = append(out, s)
		}
	}
	for k, i := range px {
		dirs[i] = codes[k]
	}
	return out, codes
}

// runPixel is a pixel of a run: its index in the image (y·w + x) and x, y.
type runPixel struct{ i, x, y int32 }

// fitSegment fits a line to the pixels of a region (principal axis) and
// gives its segment when the region is a straight one at least minLen long.
func fitSegment(region []runPixel, minLen float64) (segment, bool) {
	n := float64(len(region))
	var mx, my float64
	for _, k := range region {
		mx += float64(k.x)
		my += float64(k.y)
	}
	mx, my = mx/n, my/n
	var sxx, syy, sxy float64
	for _, k := range region {
		dx, dy := float64(k.x)-mx, float64(k.y)-my
		sxx += dx * dx
		syy += dy * dy
		sxy += dx * dy
	}
	// The line's direction is the principal axis; its normal, theta.
	lineDir := 0.5 * math.Atan2(2*sxy, sxx-syy)
	theta := lineDir + math.Pi/2
	theta = math.Mod(theta+2*math.Pi, math.Pi)
	c, s := math.Cos(theta), math.Sin(theta)
	rho := mx*c + my*s
	t0, t1 := math.Inf(1), math.Inf(-1)
	off := 0
	for _, k := range region {
		x, y := float64(k.x), float64(k.y)
		if math.Abs(x*c+y*s-rho) > sideMaxSpreadPx+0.5 {
			off++
			continue
		}
		t := -x*s + y*c
		t0, t1 = min(t0, t), max(t1, t)
	}
	if float64(off) > sideOutliers*n {
		return segment{}, false
	}
	if t1-t0 < minLen || n-float64(off) < sideMinDensity*(t1-t0) {
		return segment{}, false
	}
	return segment{theta: theta, rho: rho, t0: t0, t1: t1}, true
}

// onLine reports whether segment s lies along one of the lines (top-down
// pixels: theta, rho as a segment's) within tolPx and sideParallelDeg.
func onLine(s segment, lines []segment, tolPx float64) bool {
	m := s.mid()
	for _, l := range lines {
		if dirDiff(s.theta, l.theta) > sideParallelDeg*math.Pi/180 {
			continue
		}
		if math.Abs(m.X*math.Cos(l.theta)+m.Y*math.Sin(l.theta)-l.rho) <= tolPx {
			return true
		}
	}
	return false
}

// alongSides reports whether segment s lies along one of the sides
// (top-down pixels, as outlineSides gives them) within tolPx and
// sideParallelDeg: its middle near the side's line and between its ends.
// Cards in a row lie aligned, and the line of a found card's side runs on
// along the side of the next card, which it does not explain.
func alongSides(s segment, sides []segment, tolPx float64) bool {
	for _, l := range sides {
		if liesAlong(s, l, tolPx, sideParallelDeg) {
			return true
		}
	}
	return false
}

// liesAlong reports whether segment s lies along side within tolPx and
// maxDeg: parallel to it, its middle near the side's line and between the
// side's ends.
func liesAlong(s, side segment, tolPx, maxDeg float64) bool {
	if dirDiff(s.theta, side.theta) > maxDeg*math.Pi/180 {
		return false
	}
	m := s.mid()
	c, sn := math.Cos(side.theta), math.Sin(side.theta)
	t := -m.X*sn + m.Y*c
	return math.Abs(m.X*c+m.Y*sn-side.rho) <= tolPx && t >= side.t0 && t <= side.t1
}

// gridLines gives the realm's grid lines (its cells' borders, its edges
// included) in the top-down image of view v, as segments.
func gridLines(v *view) []segment {
	var out []segment
	if v.geo.CellWidthMM <= 0 || v.geo.CellHeightMM <= 0 {
		return nil
	}
	s, m := v.pxPerMM, v.marginMM
	w, h := v.geo.WidthMM(), v.geo.HeightMM()
	for x := 0.0; x <= w+1e-6; x += v.geo.CellWidthMM {
		out = append(out, segment{theta: 0, rho: (x + m) * s, t0: m * s, t1: (h + m) * s})
	}
	for y := 0.0; y <= h+1e-6; y += v.geo.CellHeightMM {
		out = append(out, segment{theta: math.Pi / 2, rho: (y + m) * s, t0: -(w + m) * s, t1: -m * s})
	}
	return out
}

// sideGridTolMM is how near a grid line a segment along it lies to be
// taken for it.
const sideGridTolMM = 2.0

// outlineSides gives the sides of the quads as segments.
func outlineSides(quads []models.Quad) []segment {
	var out []segment
	for _, q := range quads {
		for i := range q {
			out = append(out, sideSegment(q[i], q[(i+1)%4]))
		}
	}
	return out
}

// sideSegment gives the side from a to b of a quad as a segment: its
// normal's angle, its distance from the origin and its extent along it.
func sideSegment(a, b models.Point) segment {
	dir := math.Atan2(b.Y-a.Y, b.X-a.X)
	theta := math.Mod(dir+math.Pi/2+2*math.Pi, math.Pi)
	c, s := math.Cos(theta), math.Sin(theta)
	ta, tb := -a.X*s+a.Y*c, -b.X*s+b.Y*c
	return segment{theta: theta, rho: a.X*c + a.Y*s, t0: math.Min(ta, tb), t1: math.Max(ta, tb)}
}

// blurredGrey gives the blurred top-down grey image that findUnknownCards
// left for this frame (gray's size), when it did.
func (o *outlineFinder) blurredGrey(gray gocv.Mat) (edgeMap, bool) {
	if !o.sides.ready {
		return edgeMap{}, false
	}
	return frameEdgeMap(o.sides.grey, gray.Cols(), gray.Rows())
}

// frameEdgeMap gives m, one of the side search's buffers over the whole
// top-down image, as an edge map when it holds one of w×h pixels.
func frameEdgeMap(m gocv.Mat, w, h int) (edgeMap, bool) {
	if m.Rows() != h || m.Cols() != w {
		return edgeMap{}, false
	}
	pix, err := m.DataPtrUint8()
	if err != nil {
		return edgeMap{}, false
	}
	return edgeMap{pix: pix, w: w, h: h}, true
}

// findSidedCards finds the standard cards whose four sides show on the
// edges that findUnknownCards's search left (see the top of this file),
// in what no card found so far (found) explains. dets are the matched
// cards, whose faces showing inside a rectangle (see underMatchedCard) make
// it no card on top.
func (o *outlineFinder) findSidedCards(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown) []stackedCard {
	b := &o.sides
	b.segs = b.segs[:0]
	if !b.ready {
		return nil
	}
	w, h := gray.Cols(), gray.Rows()
	thin, okThin := frameEdgeMap(b.thin, w, h)
	grey, okGrey := frameEdgeMap(b.grey, w, h)
	if !okThin || !okGrey {
		return nil
	}
	b.ready = false
	shape := outlineShapeOf(v, models.KindStandard)
	// The cards found, their outlines with them, are explained: their
	// edges propose no side. (The grid lines' are left in: a card's side
	// near one, cut where they meet, would break into runs too short.)
	// But a card lying over the edge of one found shows its side there
	// (the card under it found by its face, the quad the face gives
	// reaching under the card on top): the rectangles proposed are
	// checked on the edges less only the outlines of the cards found
	// (raw: a band sideFoundMarginMM either side of them).
	raw := thin
	if len(found) > 0 {
		b.thin.CopyTo(&b.raw)
		if r, ok := frameEdgeMap(b.raw, w, h); ok {
			raw = r
		}
		grown := make([]models.Quad, 0, len(found))
		for _, f := range found {
			grown = append(grown, grow(f.quad, sideFoundMarginMM*v.pxPerMM))
		}
		fillEach(&b.thin, pixelPolygons(grown, image.Point{}), color.RGBA{})
		eraseOutlines(&b.raw, quadsOfPlaced(found), image.Point{}, sideFoundMarginMM*v.pxPerMM)
	}
	// Each edge pixel marked with its direction (an edge still, for the
	// sides' support and snapping below).
	var err error
	if b.px, err = o.edges.markDirections(b.thin, b.grey, b.px); err != nil {
		return nil
	}
	var segs []segment
	segs, b.codes = segmentsOf(thin.pix, b.px, w, b.codes, sideMinShare*shape.short)
	// What the grid and the cards found explain proposes nothing.
	foundQuads := make([]models.Quad, 0, len(found))
	inner := make([]models.Quad, 0, len(found))
	for _, f := range found {
		foundQuads = append(foundQuads, f.quad)
		inner = append(inner, grow(f.quad, -knownInsetMM*v.pxPerMM))
	}
	// The cards found of a standard card's size: a token found (or a
	// panel of a face taken for one) is no card this search finds again.
	var cardSized []models.Quad
	for _, q := range foundQuads {
		if a := quadArea(q) / (shape.short * shape.long); a > 0.7 && a < 1.4 {
			cardSized = append(cardSized, q)
		}
	}
	grid, outlines := gridLines(v), outlineSides(foundQuads)
	keptSegs := segs[:0]
	for _, s := range segs {
		if onLine(s, grid, sideGridTolMM*v.pxPerMM) || alongSides(s, outlines, stackSnapPx) || insideAny(s.mid(), inner) {
			continue
		}
		keptSegs = append(keptSegs, s)
	}
	segs = keptSegs
	b.segs = append(b.segs[:0], segs...) // for the token search (outline_tokens.go)
	unmasked := func(cands []sideCandidate, skip func(q models.Quad) bool) []rectangle {
		return o.unmaskedRectangles(gray, cands, grey, v, shape, foundQuads, skip)
	}
	out := cardsFromSegments(segs, raw, grey, v, shape, points, dets, found, foundQuads, cardSized, shows, o.hidden, unmasked)
	b.oneFaint = oneSideFaint(segs, raw, grey, v, shape, append(foundQuads[:len(foundQuads):len(foundQuads)], quadsOfPlaced(placedOf(out))...), cardSized, b.oneFaint[:0])
	return out
}

// cardsFromSegments finds the rectangles of a standard card's shape that
// pairs of the segments propose (see sideCandidates) whose four sides lie
// on the edges thin and that stand out on the blurred image grey, and
// gives those that are cards no card found (found, foundQuads, cardSized:
// those of a standard card's size) explains (see findSidedCards).
//
// The proposals whose sides miss thin's edges only where they cross the
// quads hidden (the matched cards' faces, left out of thin's edges), when
// unmasked is not nil, are checked by unmasked (on edges found with no
// face left out).
func cardsFromSegments(segs []segment, thin, grey edgeMap, v *view, shape outlineShape, points []keypoint, dets []detection, found []placed, foundQuads, cardSized []models.Quad, shows faceShown, hidden []models.Quad, unmasked func(cands []sideCandidate, skip func(q models.Quad) bool) []rectangle) []stackedCard {
	if len(segs) < 2 {
		return nil
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].length() > segs[j].length() })
	if len(segs) > sideMaxSegments {
		segs = segs[:sideMaxSegments]
	}
	skip := func(q models.Quad) bool { return sameCardAsAny(q, cardSized) }
	if unmasked == nil {
		hidden = nil
	}
	rects, masked := candidateRectangles(sideCandidates(segs, shape), thin, grey, v, shape, skip, hidden)
	if len(masked) > 0 {
		rects = append(rects, unmasked(masked, skip)...)
		sort.SliceStable(rects, func(i, j int) bool { return rects[i].support > rects[j].support })
	}
	return keptCards(rects, v, points, dets, found, foundQuads, cardSized, shows)
}

// keptCards gives the cards of the rectangles (best first) that no card
// found (found, foundQuads, cardSized: those of a standard card's size)
// nor one kept before explains (see cardsFromSegments).
func keptCards(rects []rectangle, v *view, points []keypoint, dets []detection, found []placed, foundQuads, cardSized []models.Quad, shows faceShown) []stackedCard {
	var out []stackedCard
	var taken []models.Quad
	within := make([]models.Quad, 0, len(found))
	for _, f := range found {
		within = append(within, grow(f.quad, 2*v.pxPerMM))
	}
	// A card found by its face that lies across q shows its face within
	// q (underMatchedCard); one found by its outline alone (or its sides)
	// does not, and q holding its centre is q under it (holdsCentre), as
	// is q holding the whole of one found by its face (a token on it, or
	// the card itself, its face's fit a little small). A card found by its
	// face whose centre q holds, reaching beyond q, whose face shows
	// nowhere in q, lies under q: a site under the unit across it.
	unmatched, matched := splitMatched(foundQuads, dets)
	for _, r := range rects {
		if covered(r.quad, taken) || sameCardAsAny(r.quad, cardSized) || cornersWithin(r.quad, within) >= 3 {
			continue
		}
		if underMatchedCard(r.quad, dets, points, v.pxPerMM, shows) || holdsCentre(r.quad, unmatched) || holdsWhole(grow(r.quad, 2*v.pxPerMM), matched) {
			continue
		}
		taken = append(taken, r.quad)
		out = append(out, r.card(found))
	}
	return out
}

// sidedRectangles gives the rectangles of shape that pairs of the segments
// (the longest first) propose (see sideCandidates), best supported first,
// whose four sides lie on the edges thin (moved onto them) and that stand
// out on the blurred image grey; skip, when it reports a proposal (as
// proposed, before its sides are moved), leaves it out.
func sidedRectangles(segs []segment, thin, grey edgeMap, v *view, shape outlineShape, skip func(q models.Quad) bool) []rectangle {
	rects, _ := candidateRectangles(sideCandidates(segs, shape), thin, grey, v, shape, skip, nil)
	return rects
}

// candidateRectangles is sidedRectangles of the rectangles proposed
// (cands). The proposals whose sides pass the first look at thin's edges
// (roughSides) only when their points in the quads hidden count as on
// edges are given apart (masked), unchecked.
func candidateRectangles(cands []sideCandidate, thin, grey edgeMap, v *view, shape outlineShape, skip func(q models.Quad) bool, hidden []models.Quad) (rects []rectangle, masked []sideCandidate) {
	if len(cands) == 0 {
		return nil, nil
	}
	snap := sideSnapper{edges: thin, done: map[snapKey]float64{}, lines: map[lineKey]*lineCounts{}}
	for _, c := range cands {
		if skip(rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1)) {
			continue
		}
		// A first look, a few points of each side: most proposals
		// have a side on no edge at all.
		if on, unmasked := roughSides(rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1), thin, hidden); !on {
			if unmasked {
				masked = append(masked, c)
			}
			continue
		}
		q := snap.outermost(c.alpha, c.u0, c.u1, c.w0, c.w1)
		e, sized := sizedAs(q, shape)
		if !sized {
			continue
		}
		sup, good := sidesSupportOver(q, -1, thin.onNear, sideFloorOf(shape.kind))
		// A token is kept only when its look names it (outline_tokens.go),
		// which no rectangle printed on the mat passes: its face may be of
		// the mat's tone.
		if !good || (shape.kind != models.KindToken && !standsOut(q, grey, sideContrastMM*v.pxPerMM)) {
			continue
		}
		rects = append(rects, rectangle{quad: q, shape: shape, support: sup - sideSizeWeight*e})
	}
	sort.Slice(rects, func(i, j int) bool { return rects[i].support > rects[j].support })
	return rects, masked
}

// sideUnmaskedMarginPx is how far around a proposed rectangle the edges
// are found again for unmaskedRectangles: its sides moved (stackSnapPx),
// the blur's and the derivatives' reach.
const sideUnmaskedMarginPx = stackSnapPx + 8

// unmaskedRectangles checks the proposals (cands) as candidateRectangles
// does, on the edges of the top-down image found again around them at the
// frame's thresholds with no matched card's face left out: proposals whose
// sides cross a matched card's face (o.hidden), where the frame's edges
// were not looked for. A unit lying across a site matched by its two ends
// crosses its face; a card lying over the edge of a matched one, its face
// reaching under it, has a side there. skip as for candidateRectangles.
func (o *outlineFinder) unmaskedRectangles(gray gocv.Mat, cands []sideCandidate, grey edgeMap, v *view, shape outlineShape, found []models.Quad, skip func(q models.Quad) bool) []rectangle {
	W, H := gray.Cols(), gray.Rows()
	bounds := image.Rect(0, 0, W, H)
	budget := againMaxShare * float64(W*H)
	type window struct {
		r     image.Rectangle
		cands []sideCandidate
	}
	var wins []window
	for _, c := range cands {
		minX, minY, maxX, maxY := quadBounds(rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1))
		m := float64(sideUnmaskedMarginPx)
		r := image.Rect(int(math.Floor(minX-m)), int(math.Floor(minY-m)), int(math.Ceil(maxX+m)), int(math.Ceil(maxY+m))).Intersect(bounds)
		if r.Empty() {
			continue
		}
		// Within a window already, or merged with those it overlaps.
		merged := window{r: r, cands: []sideCandidate{c}}
		kept := wins[:0:0]
		for _, w := range wins {
			if w.r.Overlaps(merged.r) {
				merged.r = merged.r.Union(w.r)
				merged.cands = append(merged.cands, w.cands...)
			} else {
				kept = append(kept, w)
			}
		}
		total := float64(merged.r.Dx() * merged.r.Dy())
		for _, w := range kept {
			total += float64(w.r.Dx() * w.r.Dy())
		}
		if total > budget {
			continue // this proposal would pass the budget: the others stay
		}
		wins = append(kept, merged)
	}
	var out []rectangle
	for _, w := range wins {
		thinPix, _, err := o.windowEdges(&o.again, gray, w.r, nil, o.low, o.high)
		if err != nil || thinPix == nil {
			continue
		}
		eraseOutlines(&o.again.thin, found, w.r.Min, sideFoundMarginMM*v.pxPerMM)
		thin := edgeMap{pix: thinPix, w: w.r.Dx(), h: w.r.Dy(), off: w.r.Min}
		rects, _ := candidateRectangles(w.cands, thin, grey, v, shape, skip, nil)
		out = append(out, rects...)
	}
	return out
}

// eraseOutlines clears the edges of m (whose top-left pixel is off in
// the top-down image) within margin pixels of the quads' sides.
func eraseOutlines(m *gocv.Mat, quads []models.Quad, off image.Point, margin float64) {
	if len(quads) == 0 {
		return
	}
	pv := gocv.NewPointsVectorFromPoints(pixelPolygons(quads, off))
	gocv.Polylines(m, pv, true, color.RGBA{}, 2*int(math.Round(margin))+1)
	pv.Close()
}

// pixelPolygons gives the quads (top-down pixels) as polygons of the
// nearest pixels of an image whose top-left pixel is off in the top-down
// image.
func pixelPolygons(quads []models.Quad, off image.Point) [][]image.Point {
	polys := make([][]image.Point, 0, len(quads))
	for _, q := range quads {
		poly := make([]image.Point, 0, 4)
		for _, p := range q {
			poly = append(poly, pt(p).Sub(off))
		}
		polys = append(polys, poly)
	}
	return polys
}

// cornersWithin gives the most corners of q that lie in any one of quads.
func cornersWithin(q models.Quad, quads []models.Quad) int {
	best := 0
	for _, o := range quads {
		n := 0
		for _, p := range q {
			if inside(p, o) {
				n++
			}
		}
		best = max(best, n)
	}
	return best
}

// sideCandidate is a rectangle proposed by segments: between the lines
// u = u0, u1 along alpha and w = w0, w1 along alpha + π/2.
type sideCandidate struct {
	alpha, u0, u1, w0, w1 float64
}

// sideCandidates proposes the rectangles of a card's shape that pairs of
// parallel segments a card's side apart make, where along them the
// segments' ends and the segments square to them put the other two sides.
func sideCandidates(segs []segment, shape outlineShape) []sideCandidate {
	par := sideParallelDeg * math.Pi / 180
	dims := [2]float64{shape.short, shape.long}
	var out []sideCandidate
	for i := range segs {
		a := segs[i]
		proj := a.frame()
		for j := i + 1; j < len(segs); j++ {
			b := segs[j]
			if dirDiff(a.theta, b.theta) > par {
				continue
			}
			bm := b.mid()
			ub, _ := proj(bm)
			dist := math.Abs(ub - a.rho)
			for k, dim := range dims {
				if math.Abs(dist/dim-1) > stackSizeTolerance {
					continue
				}
				along := dims[1-k]
				u0, u1 := math.Min(a.rho, ub), math.Max(a.rho, ub)
				e0, e1 := b.ends()
				_, bw0 := proj(e0)
				_, bw1 := proj(e1)
				if bw0 > bw1 {
					bw0, bw1 = bw1, bw0
				}
				// Both segments lie along one card's side: within a
				// side's length of each other.
				if math.Max(a.t0, bw0)-math.Min(a.t1, bw1) > 0.5*along {
					continue
				}
				// Where the segments square to these, between them, put
				// the card's other sides, and failing those where the
				// segments end.
				starts := make([]float64, 0, 8)
				for _, c := range segs {
					if dirDiff(c.theta, a.theta+math.Pi/2) > par {
						continue
					}
					c0, c1 := c.ends()
					cu0, cw := proj(c0)
					cu1, _ := proj(c1)
					if math.Min(math.Max(cu0, cu1), u1)-math.Max(math.Min(cu0, cu1), u0) < 0.3*(u1-u0) {
						continue
					}
					starts = append(starts, cw, cw-along)
				}
				squared := len(starts)
				for _, w0 := range []float64{a.t0, a.t1 - along, bw0, bw1 - along} {
					near := false
					for _, o := range starts[:squared] {
						near = near || math.Abs(o-w0) < sideEndSlackPx
					}
					if !near {
						starts = append(starts, w0)
					}
				}
				sort.Float64s(starts)
				last := math.Inf(-1)
				for _, w0 := range starts {
					if w0-last < 2 {
						continue
					}
					last = w0
					// Each segment lies along the card's side over a good part of it.
					if overlap(w0, w0+along, a.t0, a.t1) < 0.3*along || overlap(w0, w0+along, bw0, bw1) < 0.3*along {
						continue
					}
					out = append(out, sideCandidate{alpha: a.theta, u0: u0, u1: u1, w0: w0, w1: w0 + along})
				}
			}
		}
	}
	return out
}

// overlap gives the length two intervals share.
func overlap(a0, a1, b0, b1 float64) float64 {
	return math.Max(0, math.Min(a1, b1)-math.Max(a0, b0))
}

// insideAny reports whether p lies in any of the quads.
func insideAny(p models.Point, quads []models.Quad) bool {
	for _, q := range quads {
		if inside(p, q) {
			return true
		}
	}
	return false
}

// roughSides reports whether every side of q passes near edges (within
// stackSnapPx across it, at points sideRoughStepPx apart) over at least
// sideRoughShare of its length (on), and whether q would pass were its
// points within the quads hidden on edges (unmasked: false when on, or
// when none is).
func roughSides(q models.Quad, thin edgeMap, hidden []models.Quad) (on, unmasked bool) {
	c := q.Center()
	on, unmasked = true, len(hidden) > 0
	someHidden := false
	for i := range q {
		hits, veiled, n := roughSide(q[i], q[(i+1)%4], c, thin, hidden, unmasked)
		if n < 2 {
			return false, false
		}
		need := sideRoughShare * float64(n-1)
		if float64(hits) < need {
			on = false
			if !unmasked {
				return false, false
			}
			if float64(hits+veiled) < need {
				return false, false
			}
			someHidden = true
		}
	}
	return on, !on && someHidden
}

// roughSide gives, of the points sideRoughStepPx apart along the side
// from a to b of a quad centred at c (its ends left out; n-1 points), how
// many pass near edges (within stackSnapPx across it: hits) and, when
// unmasked, how many of the others lie in the quads hidden (veiled). A
// side shorter than two steps gives n < 2.
func roughSide(a, b, c models.Point, thin edgeMap, hidden []models.Quad, unmasked bool) (hits, veiled, n int) {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	n = int(l / sideRoughStepPx)
	if n < 2 {
		return 0, 0, n
	}
	// The side's normal, outward, one pixel long.
	nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
	if mx, my := (a.X+b.X)/2-c.X, (a.Y+b.Y)/2-c.Y; nx*mx+ny*my < 0 {
		nx, ny = -nx, -ny
	}
	for j := 1; j < n; j++ {
		t := float64(j) / float64(n)
		x, y := a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		hit := false
		for k := -stackSnapPx; k <= stackSnapPx; k += 2 {
			if thin.onNear(x+float64(k)*nx, y+float64(k)*ny) {
				hit = true
				break
			}
		}
		switch {
		case hit:
			hits++
		case unmasked && insideAny(models.Point{X: x, Y: y}, hidden):
			veiled++
		}
	}
	return hits, veiled, n
}

// The first look at a proposed rectangle (roughSides).
const (
	sideRoughStepPx = 6.0
	sideRoughShare  = 0.5
)

// A card stands out from what lies around it: across its sides, the grey
// levels sideContrastMM inside and outside differ by sideContrastLevels
// or more (their median over the sides). A rectangle printed on the mat,
// a thin line with the mat on both sides, does not. (Tokens are not held
// to it: see candidateRectangles.)
const (
	sideContrastMM     = 4.0
	sideContrastLevels = 16
)

// standsOut reports whether the grey levels (of the blurred image grey)
// d pixels inside and outside the sides of q differ by sideContrastLevels
// or more, their median over points along all four sides.
func standsOut(q models.Quad, grey edgeMap, d float64) bool {
	c := q.Center()
	var diffs []int
	for i := range q {
		diffs = appendSideDiffs(diffs, q[i], q[(i+1)%4], c, grey, d)
	}
	if len(diffs) == 0 {
		return false
	}
	return medianCount(diffs) >= sideContrastLevels
}

// sideContrast gives the median, over points along the side from a to b of
// a quad centred at c, of how much the grey levels (of the blurred image
// grey) d pixels inside and outside it differ; ok is false when no point
// can be read.
func sideContrast(a, b, c models.Point, grey edgeMap, d float64) (int, bool) {
	diffs := appendSideDiffs(nil, a, b, c, grey, d)
	if len(diffs) == 0 {
		return 0, false
	}
	return medianCount(diffs), true
}

// appendSideDiffs appends to diffs, for points every sideRoughStepPx along
// the side from a to b of a quad centred at c (its corners left out), how
// much the grey levels of grey d pixels inside and outside it differ,
// where both can be read.
func appendSideDiffs(diffs []int, a, b, c models.Point, grey edgeMap, d float64) []int {
	alongSide(a, b, c, func(x, y, nx, ny float64) {
		out, ok1 := grey.value(x+d*nx, y+d*ny)
		in, ok2 := grey.value(x-d*nx, y-d*ny)
		if ok1 && ok2 {
			diffs = append(diffs, absInt(int(in)-int(out)))
		}
	})
	return diffs
}

// bareMat reports whether q is the bare mat that a grid line and the cards
// around it close, not a card: a side of q lies along one of the mat's grid
// lines (within tolPx) with about the same grey levels either side of it
// (sideContrast below twice sideContrastLevels, d pixels in and out: the
// mat beyond the realm's edge may be shaded a little), and most of q's
// inside (bareMatShare of points d apart, d in from its sides) has the grey
// level of what lies beyond that side (within sideContrastLevels of its
// median): the mat. A card's side lying along a grid line stands out from
// the mat beside it, and a card found a little off, its side snapped to
// the line beside its edge, still holds the card.
func bareMat(q models.Quad, grid []segment, grey edgeMap, d, tolPx float64) bool {
	c := q.Center()
	var beyond []int
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		if !onLine(sideSegment(a, b), grid, tolPx) {
			continue
		}
		if contrast, ok := sideContrast(a, b, c, grey, d); !ok || contrast >= 2*sideContrastLevels {
			continue
		}
		beyond = append(beyond, sideGreys(a, b, c, grey, d)...)
	}
	if len(beyond) == 0 {
		return false
	}
	return insideLooksLike(q, grey, d, medianCount(beyond), nil)
}

// insideLooksLike reports whether at least bareMatShare of q's inside, on
// a lattice d apart along its sides (less the points skip reports, when
// set), lies within sideContrastLevels of the grey level mat on the
// blurred image grey.
func insideLooksLike(q models.Quad, grey edgeMap, d float64, mat int, skip func(models.Point) bool) bool {
	u, w := sideLen(q, 0), sideLen(q, 1)
	ux, uy := (q[1].X-q[0].X)/u, (q[1].Y-q[0].Y)/u
	wx, wy := (q[3].X-q[0].X)/w, (q[3].Y-q[0].Y)/w
	n, like := 0, 0
	for s := d; s <= u-d; s += d {
		for t := d; t <= w-d; t += d {
			p := models.Point{X: q[0].X + s*ux + t*wx, Y: q[0].Y + s*uy + t*wy}
			if skip != nil && skip(p) {
				continue
			}
			g, ok := grey.value(p.X, p.Y)
			if !ok {
				continue
			}
			n++
			if absInt(int(g)-mat) < sideContrastLevels {
				like++
			}
		}
	}
	return n > 0 && float64(like) >= bareMatShare*float64(n)
}

// bareMatShare is the share of a rectangle's inside that must look like the
// mat beyond a grid line along its side for it to be the bare mat.
const bareMatShare = 0.8

// sideGreys gives the grey levels (of the blurred image grey) d pixels
// outside the side from a to b of a quad centred at c, at points along it.
func sideGreys(a, b, c models.Point, grey edgeMap, d float64) []int {
	var out []int
	alongSide(a, b, c, func(x, y, nx, ny float64) {
		if g, ok := grey.value(x+d*nx, y+d*ny); ok {
			out = append(out, int(g))
		}
	})
	return out
}

// alongSide calls visit at points every sideRoughStepPx along the side from
// a to b of a quad centred at c, its corners left out, with the side's unit
// normal (nx, ny) pointing out of the quad; a side shorter than two steps
// has none.
func alongSide(a, b, c models.Point, visit func(x, y, nx, ny float64)) {
	l := math.Hypot(b.X-a.X, b.Y-a.Y)
	n := int(l / sideRoughStepPx)
	if l == 0 || n < 2 {
		return
	}
	nx, ny := -(b.Y-a.Y)/l, (b.X-a.X)/l
	if mx, my := (a.X+b.X)/2-c.X, (a.Y+b.Y)/2-c.Y; nx*mx+ny*my < 0 {
		nx, ny = -nx, -ny
	}
	for j := 1; j < n; j++ {
		t := float64(j) / float64(n)
		visit(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y), nx, ny)
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// quadArea gives the area of a convex quad.
func quadArea(q models.Quad) float64 {
	a := 0.0
	for i := range q {
		j := (i + 1) % 4
		a += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	return math.Abs(a) / 2
}

// splitMatched splits the quads into those of no matched card (dets) and
// those of one.
func splitMatched(quads []models.Quad, dets []detection) (unmatched, matched []models.Quad) {
	for _, q := range quads {
		is := false
		for _, d := range dets {
			is = is || d.quad == q
		}
		if is {
			matched = append(matched, q)
		} else {
			unmatched = append(unmatched, q)
		}
	}
	return unmatched, matched
}

// holdsWhole reports whether all four corners of any of the quads lie in q.
func holdsWhole(q models.Quad, quads []models.Quad) bool {
	for _, o := range quads {
		if cornersWithin(o, []models.Quad{q}) == 4 {
			return true
		}
	}
	return false
}

// holdsCentre reports whether the centre of any of the quads (the cards
// found) lies in q: a card found lies on it, and q is a card under it (a
// site under a tapped unit within its outline, which the covered-site
// search names) or no card at all.
func holdsCentre(q models.Quad, quads []models.Quad) bool {
	for _, o := range quads {
		if inside(o.Center(), q) {
			return true
		}
	}
	return false
}
