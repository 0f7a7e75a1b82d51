package vision

import (
	"image"
	"math"
	"slices"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Tokens on stacks. A token is often played onto a unit or a site, on top
// of the stack, where its whole outline shows but touches the edges of the
// cards under it: no closed contour of its own. With busy art the frame's
// keypoints name it; with smooth art nothing does, and the stacked-card
// search, which starts from clusters of unexplained keypoints, never looks
// there. At a token's size, too, the panels printed on a card's face pass
// for cards. So tokens are looked for where a card may lie that no face
// named: around the centres that pairs of the side search's segments a
// token's side apart propose, or two of them meeting square at a corner
// (a token on a mat of its tone may show no more), and around the centre
// of each cell holding a card found but not named, a rectangle
// of a token's size whose four sides lie on straight edges: first on the
// side search's own edges (the proposals' sides moved onto the edges, as
// the side search checks a card, but not held to stand out from what lies
// around: a token's face may be of the mat's tone: sidedTokens), then,
// around the
// proposals those leave, with a card's plain border just inside
// (rectanglesAround), and last, where neither found one, on edges found
// again around the proposal at the second look's lower thresholds (a
// token's pale rim faint on a mat of its tone). What is found is kept only
// when its look names it as a token (nameByLook's rule): a printed panel,
// or a token the catalog lacks, is dropped, not reported unknown.

// tokenSideSupport: a token's rectangle proposed by the side search's
// segments (sidedTokens) is taken when each of its sides lies on edges
// over this share of its length (a card's: stackSideSupport), all four
// over stackMeanSupport together as for a card. A token's side is short,
// and art printed up to its border in the border's tone (a light disc on a
// poster face), or a light print of the mat or glare just outside it, takes
// a long stretch of it off the edges: 34 of 63 points on one side, the other
// three whole, on a fully visible token. What the token search finds is
// kept only when its look names it as a token, so the lower floor reports
// nothing unnamed (a card found by its sides is reported unknown: its floor
// stays).
const tokenSideSupport = 0.5

// sideFloorOf is the share of each side's length that a rectangle of a
// kind's shape must have on edges (see tokenSideSupport).
func sideFloorOf(kind models.CardKind) float64 {
	if kind == models.KindToken {
		return tokenSideSupport
	}
	return stackSideSupport
}

// tokenMaxCentres bounds the places searched for a token in one frame.
const tokenMaxCentres = 8

// tokenApartMM: proposals whose centres lie this near one place are one.
const tokenApartMM = 8.0

// Of two rectangles proposed for one token (sameCardAsAny), the better
// supported by the edges is taken, and the other kept as its alternative:
// a token's rim beside a card's edge can make a rectangle a few
// millimetres off it the best supported, and the look, which decides,
// names no token there. tokenMaxAlts bounds the alternatives a token keeps.
const tokenMaxAlts = 2

// nameToken names the token the token search proposed (t) by its look:
// in its rectangle, else in its alternatives in turn; ok is false when the
// look names no token in any (onTop: the cards found, as for nameByLook).
func (a *Analyzer) nameToken(t stackedCard, v *view, onTop []models.Quad) (detection, bool) {
	for _, q := range append([]models.Quad{t.quad}, t.alts...) {
		if d, ok := a.nameByLook(q, v, onTop); ok && a.index.refs[d.ref].Kind == models.KindToken {
			return d, true
		}
	}
	return detection{}, false
}

// tokenProposal is a rectangle proposed for a token and its alternatives.
type tokenProposal struct {
	quad models.Quad
	alts []models.Quad
}

// proposeToken adds q (proposed after those in out, so less well supported)
// to out: as an alternative of the proposal for the same token when there
// is one, else, unless a proposal covers it, as a new proposal.
func proposeToken(out []tokenProposal, q models.Quad) []tokenProposal {
	for i := range out {
		if sameCardAsAny(q, []models.Quad{out[i].quad}) {
			if len(out[i].alts) < tokenMaxAlts {
				out[i].alts = append(out[i].alts, q)
			}
			return out
		}
	}
	for _, p := range out {
		if covered(q, []models.Quad{p.quad}) {
			return out
		}
	}
	return append(out, tokenProposal{quad: q})
}

// findStackedTokens gives the token-sized rectangles whose four sides show,
// around where the straight segments the side search found (no card found
// explains them: outline_sides.go) propose a token: two parallel ones a
// token's side apart. Those within a named card (named, top-down quads)
// are left out, and so are those of a token found already (found).
func (o *outlineFinder) findStackedTokens(gray gocv.Mat, v *view, found []placed, named []models.Quad) []stackedCard {
	shape := outlineShapeOf(v, models.KindToken)
	segs := o.sides.segs
	if shape.short <= 0 {
		return nil
	}
	cands := append(sideCandidates(segs, shape), cornerCandidates(segs, shape)...)
	taken := make([]models.Quad, 0, len(found))
	for _, f := range found {
		if f.kind == models.KindToken {
			taken = append(taken, f.quad)
		}
	}
	var out []stackedCard
	take := func(p tokenProposal) {
		taken = append(taken, p.quad)
		out = append(out, stackedCard{quad: p.quad, kind: models.KindToken, tapped: landscape(p.quad), alts: p.alts})
	}
	// The tokens whose four sides the side search's edges show.
	for _, p := range o.sidedTokens(gray, cands, v, shape, named, taken) {
		take(p)
	}
	var centres []models.Point
	propose := func(cands []sideCandidate, most int) {
		for _, c := range cands {
			if len(centres) >= most {
				return
			}
			p := rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1).Center()
			if insideAny(p, named) || insideAny(p, taken) {
				continue
			}
			near := false
			for _, q := range centres {
				near = near || math.Hypot(q.X-p.X, q.Y-p.Y) < tokenApartMM*v.pxPerMM
			}
			if !near {
				centres = append(centres, p)
			}
		}
	}
	propose(cands, tokenMaxCentres)
	// The places lone sides propose, after those of pairs, are searched
	// at the faint stage only (below).
	var loneSquares []image.Rectangle
	if o.loneSides {
		before := len(centres)
		propose(loneSideCandidates(segs, v, shape, found), before+tokenMaxLone)
		for _, c := range centres[before:] {
			if sq := tokenSquare(gray, v, c, 0.5*models.TokenLongMM+tokenApartMM); !sq.Empty() {
				loneSquares = append(loneSquares, sq)
			}
		}
		centres = centres[:before]
	}
	var span image.Rectangle
	squares := make([]image.Rectangle, 0, len(centres))
	for _, c := range centres {
		sq := tokenSquare(gray, v, c, 0.5*models.TokenLongMM+tokenApartMM)
		span = span.Union(sq)
		squares = append(squares, sq)
	}
	// A card found but not named may carry a token whose edges its own
	// outline hides from the side search: its cell is searched whole, by
	// the sides its own edges show (cellTokens), then around its centre.
	var cells []models.Cell
	var cellSquares []image.Rectangle
	for _, f := range found {
		if f.kind == models.KindToken || sameCardAsAny(f.quad, named) {
			continue
		}
		cell, ok := v.cellAt(f.quad.Center())
		if !ok || slices.Contains(cells, cell) {
			continue
		}
		cells = append(cells, cell)
		r := v.cellRect(cell, 0)
		c := models.Point{X: float64(r.Min.X+r.Max.X) / 2, Y: float64(r.Min.Y+r.Max.Y) / 2}
		sq := tokenSquare(gray, v, c, 0.5*math.Hypot(v.geo.CellWidthMM, v.geo.CellHeightMM))
		centres = append(centres, c)
		span = span.Union(sq)
		squares = append(squares, sq)
		cellSquares = append(cellSquares, sq)
	}
	for _, p := range o.cellTokens(gray, v, cellSquares, shape, named, taken, o.low, o.high) {
		take(p)
	}
	var faint []image.Rectangle
	e, err := o.stackEdges(gray, span, squares)
	if err != nil {
		return out
	}
	for i, c := range centres {
		before := len(out)
		for _, r := range e.rectanglesAround(squares[i], v, c, []outlineShape{shape}) {
			if sameCardAsAny(r.quad, taken) {
				continue
			}
			take(tokenProposal{quad: clockwiseFromTopLeft(r.quad)})
		}
		if len(out) == before && !squares[i].Empty() {
			faint = append(faint, squares[i])
		}
	}
	// A token whose border is faint on one side (a pale rim on a pale
	// mat, art of the mat's tone up to the border) leaves that side off
	// the frame's edges: the squares where nothing was found are searched
	// again at the second look's thresholds (againThresholdScale).
	low, high := o.againThresholds()
	for _, p := range o.cellTokens(gray, v, faint, shape, named, taken, low, high) {
		take(p)
	}
	// A lone side's token may be found a few millimetres off along it (its
	// far side fainter than the rim the rectangle settled on): moved by
	// loneShiftMM each way along each axis, its alternatives, named in turn.
	for _, p := range o.cellTokens(gray, v, loneSquares, shape, named, taken, low, high) {
		p.alts = append(p.alts, shiftedQuads(p.quad, loneShiftMM*v.pxPerMM)...)
		take(p)
	}
	return out
}

// Lone sides. A token whose face is of the mat's tone may show a single
// straight edge at the frame's thresholds (its name band's border along
// one of its ends, the rest of its outline a pale rim too faint), so
// neither a pair of parallel segments nor a corner proposes it. A segment
// about as long as a token's side (loneSideMinShare) proposes the two tokens
// it may be the side of, one either side of it, when the token would lie
// in a cell, off the grid lines (loneGridMM) and off the outlines of the
// cards found (loneOutlineMM: their shadows and print), and the cards found
// cover little of it (loneMaxCovered). Their places are searched at the
// second look's thresholds only (cellTokens), at most tokenMaxLone a
// frame. The search runs only for a catalog with a token face of few
// corners of its own (fewCornersToken): a token of rich art is named by
// its keypoints wherever it lies.
const (
	tokenMaxLone   = 8
	loneGridMM     = 4.0
	loneOutlineMM  = 3.0
	loneMaxCovered = 0.3
	loneShiftMM    = 8.0
	// tokenFewCorners: a token face with fewer keypoints than this that
	// no other face shares has few corners of its own. The sample
	// catalog's tokens have over 300, poster tokens under 70.
	tokenFewCorners = 150
)

// A segment proposes a token's side of some length when its own length is
// loneSideMinShare to loneSideMaxShare of it (a rounded corner or a rim
// shortens it).
const (
	loneSideMinShare = 0.6
	loneSideMaxShare = 1.1
)

// loneSideCandidates proposes the tokens of shape that each segment alone
// may be a side of (see Lone sides), the cards found (found) left out.
func loneSideCandidates(segs []segment, v *view, shape outlineShape, found []placed) []sideCandidate {
	quads := quadsOfPlaced(found)
	grid, outlines := gridLines(v), outlineSides(quads)
	dims := [2]float64{shape.short, shape.long}
	var out []sideCandidate
	for _, sg := range segs {
		if onLine(sg, grid, loneGridMM*v.pxPerMM) || alongSides(sg, outlines, loneOutlineMM*v.pxPerMM) {
			continue
		}
		l, wm := sg.length(), (sg.t0+sg.t1)/2
		for k, along := range dims {
			if l < loneSideMinShare*along || l > loneSideMaxShare*along {
				continue
			}
			across := dims[1-k]
			for _, c := range []sideCandidate{
				{alpha: sg.theta, u0: sg.rho, u1: sg.rho + across, w0: wm - along/2, w1: wm + along/2},
				{alpha: sg.theta, u0: sg.rho - across, u1: sg.rho, w0: wm - along/2, w1: wm + along/2},
			} {
				q := rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1)
				if _, in := v.cellAt(q.Center()); in && coveredShare(q, quads) <= loneMaxCovered {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// shiftedQuads gives q moved by d along each of its two axes, either way.
func shiftedQuads(q models.Quad, d float64) []models.Quad {
	var out []models.Quad
	for i := range 2 {
		ax, ay := q[i+1].X-q[i].X, q[i+1].Y-q[i].Y
		l := math.Hypot(ax, ay)
		if l == 0 {
			continue
		}
		ax, ay = ax/l*d, ay/l*d
		for _, sgn := range []float64{1, -1} {
			var m models.Quad
			for k, p := range q {
				m[k] = models.Point{X: p.X + sgn*ax, Y: p.Y + sgn*ay}
			}
			out = append(out, m)
		}
	}
	return out
}

// fewCornersToken reports whether a token face of the references has few
// keypoints of its own (tokenFewCorners).
func fewCornersToken(refs []reference) bool {
	for i := range refs {
		if refs[i].Kind != models.KindToken {
			continue
		}
		own := 0
		for _, g := range refs[i].Generic {
			if !g {
				own++
			}
		}
		if own < tokenFewCorners {
			return true
		}
	}
	return false
}

// tokenSquare is the square of the top-down image searched around a
// token's proposed centre c.
func tokenSquare(gray gocv.Mat, v *view, c models.Point, halfMM float64) image.Rectangle {
	half := halfMM * v.pxPerMM
	r := image.Rect(int(c.X-half), int(c.Y-half), int(c.X+half), int(c.Y+half)).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < int(models.TokenShortMM*v.pxPerMM) || r.Dy() < int(models.TokenShortMM*v.pxPerMM) {
		return image.Rectangle{}
	}
	return r
}

// namedQuads gives the named cards' quads.
func namedQuads(named []namedCard) []models.Quad {
	out := make([]models.Quad, len(named))
	for i, n := range named {
		out[i] = n.det.quad
	}
	return out
}

// sidedTokens gives the token-sized rectangles (top-down quads, clockwise
// from the top-left) that the side search's proposals (cands, of a
// token's shape) make on its edges (outline_sides.go: the edges of
// what no card found explains), best supported first, none within a named
// card (named) nor of a token found already (taken), none covering
// another (those of one token are its alternatives: proposeToken).
func (o *outlineFinder) sidedTokens(gray gocv.Mat, cands []sideCandidate, v *view, shape outlineShape, named, taken []models.Quad) []tokenProposal {
	if len(cands) == 0 {
		return nil
	}
	thin, okThin := frameEdgeMap(o.sides.thin, gray.Cols(), gray.Rows())
	grey, okGrey := frameEdgeMap(o.sides.grey, gray.Cols(), gray.Rows())
	if !okThin || !okGrey {
		return nil
	}
	skip := func(q models.Quad) bool { return insideAny(q.Center(), named) || sameCardAsAny(q, taken) }
	var out []tokenProposal
	rects, _ := candidateRectangles(cands, thin, grey, v, shape, skip, nil)
	for _, r := range rects {
		if sameCardAsAny(r.quad, taken) {
			continue
		}
		out = proposeToken(out, clockwiseFromTopLeft(r.quad))
	}
	return out
}

// cellTokens gives the token-sized rectangles (as sidedTokens) whose sides
// the edges of the squares of the top-down image show: found again in each
// square, at Canny thresholds low and high, the matched cards' faces left
// out (o.hidden) but not the outlines found by their edges, on which the
// token may lie. Those within a named card (named) or of a token found
// already (taken) are left out.
func (o *outlineFinder) cellTokens(gray gocv.Mat, v *view, squares []image.Rectangle, shape outlineShape, named, taken []models.Quad, low, high float64) []tokenProposal {
	b := &o.tokens
	grid := gridLines(v)
	skip := func(q models.Quad) bool { return insideAny(q.Center(), named) || sameCardAsAny(q, taken) }
	var out []tokenProposal
	for _, r := range squares {
		if r.Empty() {
			continue
		}
		ws, thinPix, greyPix, err := o.windowSegments(b, gray, r, o.hidden, low, high, sideMinShare*shape.short)
		if err != nil {
			return out
		}
		if thinPix == nil {
			continue
		}
		segs := ws[:0]
		for _, sg := range ws {
			if onLine(sg, grid, sideGridTolMM*v.pxPerMM) {
				continue
			}
			segs = append(segs, sg)
		}
		thin := edgeMap{pix: thinPix, w: r.Dx(), h: r.Dy(), off: r.Min}
		grey := edgeMap{pix: greyPix, w: r.Dx(), h: r.Dy(), off: r.Min}
		for _, rc := range sidedRectangles(segs, thin, grey, v, shape, skip) {
			if sameCardAsAny(rc.quad, taken) {
				continue
			}
			out = proposeToken(out, clockwiseFromTopLeft(rc.quad))
		}
	}
	return out
}

// A token on a mat of its own tone may show only two of its sides on the
// frame's edges, meeting at a corner: no pair of parallel segments a
// token's side apart proposes it. cornerCandidates proposes, for each two
// segments square to each other whose ends meet (within sideEndSlackPx of
// where their lines cross), the rectangles of shape that have that corner
// and lie along both, either segment along the long side, when each
// segment is at least cornerMinShare of its side long and no longer than
// the side.
const cornerMinShare = 0.4

// cornerCandidates gives the rectangles of shape that pairs of segments
// meeting square at a corner propose (see cornerMinShare).
func cornerCandidates(segs []segment, shape outlineShape) []sideCandidate {
	par := sideParallelDeg * math.Pi / 180
	var out []sideCandidate
	for i := range segs {
		a := segs[i]
		proj := a.frame()
		for j := i + 1; j < len(segs); j++ {
			b := segs[j]
			if dirDiff(b.theta, a.theta+math.Pi/2) > par {
				continue
			}
			// In a's frame a runs along w at u = a.rho, b along u at about w = wb.
			e0, e1 := b.ends()
			ub0, wb0 := proj(e0)
			ub1, wb1 := proj(e1)
			wb := (wb0 + wb1) / 2
			// The corner: an end of each segment where the lines cross.
			var aFar, bFar float64
			switch {
			case math.Abs(a.t0-wb) <= sideEndSlackPx:
				aFar = a.t1
			case math.Abs(a.t1-wb) <= sideEndSlackPx:
				aFar = a.t0
			default:
				continue
			}
			switch {
			case math.Abs(ub0-a.rho) <= sideEndSlackPx:
				bFar = ub1
			case math.Abs(ub1-a.rho) <= sideEndSlackPx:
				bFar = ub0
			default:
				continue
			}
			lenA, lenB := a.length(), math.Abs(ub1-ub0)
			for _, d := range [2][2]float64{{shape.short, shape.long}, {shape.long, shape.short}} {
				du, dw := d[0], d[1] // across a (along b), and along a
				if lenA < cornerMinShare*dw || lenA > (1+stackSizeTolerance)*dw || lenB < cornerMinShare*du || lenB > (1+stackSizeTolerance)*du {
					continue
				}
				uEnd := a.rho + math.Copysign(du, bFar-a.rho)
				wEnd := wb + math.Copysign(dw, aFar-wb)
				out = append(out, sideCandidate{alpha: a.theta, u0: math.Min(a.rho, uEnd), u1: math.Max(a.rho, uEnd), w0: math.Min(wb, wEnd), w1: math.Max(wb, wEnd)})
			}
		}
	}
	return out
}
