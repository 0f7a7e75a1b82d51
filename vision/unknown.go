package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// unknownCard is a card-shaped outline that no reference face explains: a
// card missing from the catalog, or one too blurred or glared to match.
type unknownCard struct {
	quad models.Quad // top-down pixels, clockwise from the top-left corner as seen
	kind models.CardKind
	// tapped: a landscape card of a standard card's size that lies on
	// another card is a unit turned sideways, not a site (see cardOutline).
	tapped bool
	// rot is the card's turn as its layout shows it, when turned is set
	// (see Analyzer.turned).
	rot    models.Rotation
	turned bool
}

// unknownConfidence is what an unidentified card is reported with.
const unknownConfidence = 0.2

// sizeTolerance is how far an outline's sides may be from a card's.
const sizeTolerance = 0.1

// outlineFinder looks for card outlines, keeping its images and its edge
// detector's buffers from frame to frame.
type outlineFinder struct {
	edges *edgeDetector
	edged *framedEdges // spent by the contour search
	// lineless is a copy of edged with the grid lines taken out, spent by
	// the contour search's second look (outline_lines.go).
	lineless *framedEdges
	// The part of the top-down image the edges are looked for in (see
	// maskFaces): within a polygon (none: all of it), less the hidden quads.
	within []models.Point
	hidden []models.Quad
	noMask gocv.Mat     // empty
	stack  stackBuffers // the stacked-card search's (outline_stack.go)
	sides  sideBuffers  // the side search's (outline_sides.go)
	again  againBuffers // the second look's (outline_again.go)
	tokens againBuffers // the token search's in cells (outline_tokens.go)
	soft   softBuffers  // the far camera's search (outline_soft.go)
	// softFocus is set while the frame read is soft in both directions as
	// the camera shows it (sharpenIfSoft sharpened it): the soft search
	// runs on it however little the top-down image enlarges it.
	softFocus bool
	// The frame's Canny thresholds (see sharpness.go), set by
	// findUnknownCards for the searches after it.
	low, high float64
	// plainSideCounts, set by tests, has the stacked-card search count
	// each side's edge pixels point by point (see newSquareMemo).
	plainSideCounts bool
	// loneSides has the token search look around the places a lone
	// straight edge proposes too (see Lone sides in outline_tokens.go):
	// set when the catalog holds a token face with few corners of its own.
	loneSides bool
}

func newOutlineFinder() *outlineFinder {
	low, high := cannyThresholds(1)
	return &outlineFinder{edges: newEdgeDetector(), edged: newFramedEdges(), lineless: newFramedEdges(), noMask: gocv.NewMat(), stack: newStackBuffers(), sides: newSideBuffers(), again: newAgainBuffers(), tokens: newAgainBuffers(), soft: newSoftBuffers(), low: low, high: high}
}

func (o *outlineFinder) close() {
	o.edges.close()
	o.edged.close()
	o.lineless.close()
	o.noMask.Close()
	o.stack.close()
	o.sides.close()
	o.again.close()
	o.tokens.close()
	o.soft.close()
}

// knownInsetMM is how far inside an identified card's outline its face is
// left out of the outline search: an outline whose centre lies on an
// identified card is not reported anyway, and the art of the faces holds
// most of the frame's edges. The card's own outline, and a few millimetres
// inside it for a match that is a little off, keep their edges.
const knownInsetMM = 3.0

// findUnknownCards looks for card-sized rectangular outlines in the top-down
// grey image that no identified card (known, top-down quads) covers.
// sharpness is the image's, as viewSharpness measures it (its softer
// axis's).
func (o *outlineFinder) findUnknownCards(gray gocv.Mat, sharpness float64, v *view, known []models.Quad) ([]unknownCard, error) {
	o.maskFaces(gray, v, known)
	o.low, o.high = cannyThresholds(edgeScale(sharpness))
	edges := o.edged.sized(gray.Rows(), gray.Cols())
	// The thin edges and the blurred image as well, for the side search
	// (findSidedCards) later in the frame.
	o.sides.ready = false
	o.sides.oneFaint = o.sides.oneFaint[:0] // this frame's, once the side search runs
	if err := o.edges.cannyWidth(gray, o.noMask, &o.sides.thin, o.low, o.high, cannyOptions{blur: true, within: o.within, hidden: o.hidden, thickToo: edges, blurred: &o.sides.grey}, widestVectors); err != nil {
		return nil, err
	}
	o.sides.ready = true
	found, err := o.outlines(*edges, v, known)
	if err != nil {
		return nil, err
	}
	// A far camera's noise breaks the outlines up (outline_soft.go).
	soft, err := o.softOutlines(gray, v, known, found)
	if err != nil {
		return nil, err
	}
	return append(found, soft...), nil
}

// inFrameGrowPx is how far beyond the part of the top-down image that the
// camera frame shows the outline search still looks for edges: the pixels
// farther out are black, and so are those around them that the 5×5 blur
// and the 3×3 derivatives reach (three pixels either way, a diagonal's
// 4.3); none can be an edge.
const inFrameGrowPx = 5

// maskFaces sets the part of the top-down image (gray, of view v) that
// cardEdges looks for edges in: the part the camera frame shows (see
// inFramePolygon), less the faces of the identified cards (known,
// top-down quads), each less a border of knownInsetMM.
func (o *outlineFinder) maskFaces(gray gocv.Mat, v *view, known []models.Quad) {
	o.within = o.within[:0]
	if shown, ok := inFramePolygon(v, inFrameGrowPx); ok && gray.Cols() == v.size.X && gray.Rows() == v.size.Y {
		o.within = append(o.within, shown...)
	}
	o.hidden = o.hidden[:0]
	for _, q := range known {
		o.hidden = append(o.hidden, grow(q, -knownInsetMM*v.pxPerMM))
	}
}

// cardEdges marks the edges of a top-down grey image, lightly blurred (5×5
// Gaussian) first, in dst, three pixels thick, only in the part maskFaces
// set.
func (o *outlineFinder) cardEdges(gray gocv.Mat, dst *gocv.Mat) error {
	return o.edges.cannyWidth(gray, o.noMask, dst, o.low, o.high, cannyOptions{blur: true, thick: true, within: o.within, hidden: o.hidden}, widestVectors)
}

// Card outlines are closed contours on the edge map: at least half a
// token's area, filling outlineFill of their minimum-area rectangle.
const outlineFill = 0.8

// outlineShape is a card kind's outline size in top-down pixels.
type outlineShape struct {
	kind        models.CardKind
	short, long float64
	// sleeve and sleeveSkew are sleeveMM and sleeveSkewMM in top-down
	// pixels.
	sleeve, sleeveSkew float64
}

// sleeveMM is how much longer a sleeved card's closed outline may be than
// the card along each side: a sleeve adds a millimetre or two to each
// edge, and the edge map's outline lies a pixel outside the card's edge
// all round. That weighs most on a token, whose sides sizeTolerance
// allows least. Both sides grow by about as much (within sleeveSkewMM),
// so that a sleeved card keeps its sides' difference.
const (
	sleeveMM     = 6.0
	sleeveSkewMM = 3.0
)

// fits reports whether a closed outline's short and long sides are those
// of the shape: within sizeTolerance, or as a sleeve makes them.
func (sh outlineShape) fits(short, long float64) bool {
	if math.Abs(short/sh.short-1) <= sizeTolerance && math.Abs(long/sh.long-1) <= sizeTolerance {
		return true
	}
	ds, dl := short-sh.short, long-sh.long
	return ds >= 0 && dl >= 0 && ds <= sh.sleeve && dl <= sh.sleeve && math.Abs(ds-dl) <= sh.sleeveSkew
}

// outlineShapes are the outlines a card may have in view v.
func outlineShapes(v *view) []outlineShape {
	s := v.pxPerMM
	return []outlineShape{
		{models.KindStandard, models.CardShortMM * s, models.CardLongMM * s, sleeveMM * s, sleeveSkewMM * s},
		{models.KindToken, models.TokenShortMM * s, models.TokenLongMM * s, sleeveMM * s, sleeveSkewMM * s},
	}
}

// outlineShapeOf is the outline shape of kind (standard or token) in the
// view; the zero shape for another kind.
func outlineShapeOf(v *view, kind models.CardKind) outlineShape {
	for _, sh := range outlineShapes(v) {
		if sh.kind == kind {
			return sh
		}
	}
	return outlineShape{}
}

// outlines finds the card-shaped outlines of an edge map that no known
// quad covers (the map may be overwritten: see filledRects).
func (o *outlineFinder) outlines(edges gocv.Mat, v *view, known []models.Quad) ([]unknownCard, error) {
	shapes := outlineShapes(v)
	// The contours are followed as the edges show them, then with the
	// grid lines taken out (outline_lines.go): a card whose side lies
	// along a line may close its outline only with the line, one lying
	// across a line only without it.
	lineless, err := o.withoutGridLines(edges, v) // before the contours overwrite edges
	if err != nil {
		return nil, err
	}
	var found []unknownCard
	for _, m := range []gocv.Mat{edges, lineless} {
		rects, err := o.edges.filledRects(m, 0.5*shapes[1].short*shapes[1].long, outlineFill, true) // canny's edges
		if err != nil {
			return nil, err
		}
		for _, rr := range rects {
			if u, ok := cardOutline(rr, shapes, known, found); ok {
				found = append(found, u)
			}
		}
	}
	return found, nil
}

// cardOutline is the card whose outline a filled rectangle is, when it has
// one of the shapes' sizes and neither a known quad nor one of the outlines
// found before covers it.
func cardOutline(rr filledRect, shapes []outlineShape, known []models.Quad, found []unknownCard) (unknownCard, bool) {
	w, h := float64(rr.width), float64(rr.height)
	short, long := math.Min(w, h), math.Max(w, h)
	for _, sh := range shapes {
		if !sh.fits(short, long) {
			continue
		}
		q := uprightQuad(rr)
		if covered(q, known) || covered(q, quadsOf(found)) {
			return unknownCard{}, false
		}
		u := unknownCard{quad: q, kind: sh.kind}
		if landscape(q) {
			// A site until shown to lie on a card (onCards).
			u.tapped, u.kind = landscapeCard(q, sh.kind, nil)
		}
		return u, true
	}
	return unknownCard{}, false
}

// landscapeCard tells what a landscape card of kind shape, whose whole
// outline shows (q), is: a site, or a unit or token turned sideways
// (tapped). Sites lie on the mat and nothing lies under them; a card
// lying across another card is a unit or token, so it is taken for a
// tapped one. A token is never a site.
func landscapeCard(q models.Quad, shape models.CardKind, under []models.Quad) (tapped bool, kind models.CardKind) {
	if shape == models.KindToken {
		return true, models.KindToken
	}
	for _, o := range under {
		if liesAcross(q, o) {
			return true, models.KindStandard
		}
	}
	return false, models.KindSite
}

// liesAcross reports whether q, whose whole outline shows, lies on o: it
// overlaps o without holding it whole (see overlapsFromAbove), and one's
// centre lies within the other. Cards side by side in the grid, a corner
// or an edge over the next card's, are not one on the other.
func liesAcross(q, o models.Quad) bool {
	return overlapsFromAbove(q, o) && (inside(q.Center(), o) || inside(o.Center(), q))
}

// onCards settles what the landscape outlines lie on: an outline lies on
// a matched card (dets, whose inliers are among points) that it overlaps
// when none of that card's inliers lies within it (a few millimetres
// inside its border): the card's face does not show there, so the outline
// covers it. (Its outline alone cannot tell: the matched cards' faces are
// left out of the edges it was found on.) One lying on a card is taken
// for a tapped unit (see landscapeCard).
func onCards(us []unknownCard, dets []detection, points []keypoint, pxPerMM float64) []unknownCard {
	for i, u := range us {
		if !landscape(u.quad) {
			continue
		}
		inner := grow(u.quad, -knownInsetMM*pxPerMM)
		var under []models.Quad
		for _, d := range dets {
			if !liesAcross(u.quad, d.quad) {
				continue
			}
			if !faceShows(d, points, inner, 1) {
				under = append(under, d.quad)
			}
		}
		us[i].tapped, us[i].kind = landscapeCard(u.quad, u.kind, under)
	}
	return us
}

// faceShows reports whether at least n of matched card d's inliers (among
// points) lie within q: its face shows there.
func faceShows(d detection, points []keypoint, q models.Quad, n int) bool {
	shows := 0
	for _, k := range d.used {
		if k >= 0 && k < len(points) && inside(models.Point{X: float64(points[k].X), Y: float64(points[k].Y)}, q) {
			if shows++; shows >= n {
				return true
			}
		}
	}
	return false
}

// uprightQuad gives a rotated rectangle's corners clockwise from the corner
// nearest the top-left of the image.
func uprightQuad(rr filledRect) models.Quad {
	pts := make([]models.Point, 0, 4)
	for _, p := range rr.corners {
		pts = append(pts, models.Point{X: float64(p.X), Y: float64(p.Y)})
	}
	var q models.Quad
	cx, cy := float64(rr.center.X), float64(rr.center.Y)
	// Order clockwise (image y down) by angle around the centre, starting top-left.
	start, best := 0, math.Inf(1)
	for i, p := range pts {
		if d := p.X + p.Y; d < best {
			start, best = i, d
		}
	}
	ang := func(p models.Point) float64 { return math.Atan2(p.Y-cy, p.X-cx) }
	sorted := append([]models.Point(nil), pts...)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if ang(sorted[j]) < ang(sorted[i]) {
				sorted[i], sorted[j] = sorted[j], sorted[i]
			}
		}
	}
	first := pts[start]
	for i, p := range sorted {
		if p == first {
			start = i
			break
		}
	}
	for i := 0; i < 4; i++ {
		q[i] = sorted[(start+i)%4]
	}
	return q
}

// landscape reports whether a quad's top side is its long side.
func landscape(q models.Quad) bool {
	top := math.Hypot(q[1].X-q[0].X, q[1].Y-q[0].Y)
	side := math.Hypot(q[2].X-q[1].X, q[2].Y-q[1].Y)
	return top > side
}

func quadsOf(us []unknownCard) []models.Quad {
	out := make([]models.Quad, len(us))
	for i, u := range us {
		out[i] = u.quad
	}
	return out
}

// covered reports whether q's centre lies inside one of the quads, or most
// of its corners do.
func covered(q models.Quad, quads []models.Quad) bool {
	for _, k := range quads {
		if inside(q.Center(), k) {
			return true
		}
		n := 0
		for _, p := range q {
			if inside(p, k) {
				n++
			}
		}
		if n >= 3 {
			return true
		}
	}
	return false
}

// inside reports whether p lies in the convex quad q (see quadSides).
func inside(p models.Point, q models.Quad) bool {
	return quadHolds(&q, p.X, p.Y)
}

// observation reports the outline as an unidentified card. Without a face
// the turn is a guess: upright for the player on whose half of the realm it
// lies, tapped when it is taken for a tapped unit (see landscapeCard).
func (u unknownCard) observation(v *view) models.CardObservation {
	c := u.quad.Center()
	_, y := v.mm(c)
	owner := models.South
	if y > v.geo.HeightMM()/2 {
		owner = models.North
	}
	rot := models.RotationFor(owner, u.tapped)
	if u.turned {
		rot, owner = u.rot, u.rot.Owner()
	}
	o := models.CardObservation{
		Kind: u.kind, Token: u.kind == models.KindToken, Owner: owner, Rotation: rot, Tapped: u.tapped,
		Quad: v.toImageQuad(u.quad), Confidence: unknownConfidence,
	}
	if cell, ok := v.cellAt(c); ok {
		o.Cell = &cell
	}
	return o
}

// nameOutline names the card in an outline that no match explains by
// reading the region on its own (identifyRegion), unless the frame's
// matching had as good a look at it already: when the outline holds the
// frame's keypoints (points) as densely as the matched cards (dets) hold
// them, all of this card's keypoints were looked up in every hash table
// and no face fitted them, so the card is missing from the catalog. A
// region's own reading then costs several milliseconds and, against a
// catalog of a few faces whose layout features nothing competes for,
// finds only wrong names. A card the frame's keypoints left sparse (out of
// focus, in shadow) gets its own look, and its face must fit at the size
// of the frame's cards unless many inliers bear it out
// (sizedAsTheirFellows).
func (a *Analyzer) nameOutline(gray gocv.Mat, quad models.Quad, points []keypoint, dets []detection) (detection, bool) {
	if len(dets) > 0 {
		densities := make([]float64, 0, len(dets))
		for _, d := range dets {
			densities = append(densities, keypointDensity(d.quad, points))
		}
		sort.Float64s(densities)
		if keypointDensity(quad, points) >= outlineSeenShare*densities[len(densities)/2] {
			return detection{}, false
		}
	}
	d, ok := a.identifyRegion(gray, quad)
	if ok && offSizeWeakly(d, fellowsScale(dets)) {
		// The outline is a card of its face's size in the top-down view,
		// as every card is: a face fitted in it at another size, on a few
		// inliers, fits chance keypoints (text and discs every card shares).
		return detection{}, false
	}
	return d, ok
}

// outlineSeenShare: an outline holding this share of the matched cards'
// keypoint density (their median) was seen by the frame's matching as
// well as they were.
const outlineSeenShare = 0.5

// keypointDensity gives the keypoints per square pixel inside a convex quad.
func keypointDensity(q models.Quad, points []keypoint) float64 {
	area := 0.0
	for i := range q {
		j := (i + 1) % 4
		area += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	area = math.Abs(area) / 2
	if area < 1 {
		return 0
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range q {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	o := newOutline(q)
	n := 0
	for _, p := range points {
		x, y := float64(p.X), float64(p.Y)
		if x < minX || x > maxX || y < minY || y > maxY {
			continue
		}
		if o.insideDistance(models.Point{X: x, Y: y}) >= 0 {
			n++
		}
	}
	return float64(n) / area
}

// A token-sized outline may be a panel printed on a card's face, between
// its border and a band of its art: it then lies within the card with one
// of its sides along one of the card's, a border's width in (within
// panelSideMM and panelSideDeg). A token played on a card lies anywhere on
// it. Such an outline is left out once the card it lies on has been found
// (notPanels), where it would hide that card from the searches by sides.
const (
	panelSideMM  = 5.0
	panelSideDeg = 4.0
)

// notPanels gives the token outlines (tokens) that are no panel of any of
// the cards' faces (cards, tokens among them left out).
func notPanels(tokens []unknownCard, cards []placed, pxPerMM float64) []unknownCard {
	var out []unknownCard
	for _, t := range tokens {
		panel := false
		for _, c := range cards {
			if c.kind != models.KindToken && panelOf(t.quad, c.quad, pxPerMM) {
				panel = true
				break
			}
		}
		if !panel {
			out = append(out, t)
		}
	}
	return out
}

// panelOf reports whether outline q lies within card c with a side along
// one of c's (see panelSideMM).
func panelOf(q, c models.Quad, pxPerMM float64) bool {
	outer := grow(c, 2*pxPerMM)
	for _, p := range q {
		if !inside(p, outer) {
			return false
		}
	}
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		da := math.Atan2(b.Y-a.Y, b.X-a.X)
		m := models.Point{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		for j := range c {
			p0, p1 := c[j], c[(j+1)%4]
			dc := math.Atan2(p1.Y-p0.Y, p1.X-p0.X)
			d := math.Mod(math.Abs(da-dc), math.Pi)
			if math.Min(d, math.Pi-d) > panelSideDeg*math.Pi/180 {
				continue
			}
			n := math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
			if n < 1e-9 {
				continue
			}
			// The side's middle, a border's width from c's side.
			if dist := math.Abs((p1.X-p0.X)*(m.Y-p0.Y)-(p1.Y-p0.Y)*(m.X-p0.X)) / n; dist <= panelSideMM*pxPerMM {
				return true
			}
		}
	}
	return false
}
