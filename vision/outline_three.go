package vision

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// A card lying over a card found shows its side there on the frame's
// edges, but the second look (outline_again.go) leaves the faces of the
// cards found out of its edges, as their print is no card's side: a faint
// card lying partly over one (a grey card on grey felt, over a unit) then
// shows three sides there, and the fourth, across the card found, none.
// The side search, which wants all four on edges, finds no card.
// threeSidedRectangles proposes those cards: three sides on edges, the
// fourth across the faces of the cards found (where the second look found
// no edges), put a card's side from the one opposite it. The second look
// keeps them (againBuffers.three) for the search for cards under cards
// (findUnderCards), which takes them after its own: a card partly under a
// card found shows three sides as well, its fourth under that card, and
// that search names it by the part showing.

// threeSidedRectangles gives the rectangles of shape that the proposals
// (cands) make whose three sides lie on the edges thin, moved onto them
// (sideSnapper.outermost), each over stackSideSupport of its length and
// over stackMeanSupport together, and stand out from what lies around them
// on the blurred image grey (their median contrast at least
// sideContrastLevels), while the fourth passes near edges over less than
// sideRoughShare of its length and would pass were its points within the
// quads hidden on edges (see roughSides): it is put a card's side (its
// size as proposed) from the one opposite it. With partial, also those
// whose fourth side shows over only part of its length (see weakSide).
// Best supported first; skip as for candidateRectangles.
func threeSidedRectangles(cands []sideCandidate, thin, grey edgeMap, v *view, shape outlineShape, skip func(q models.Quad) bool, hidden []models.Quad, partial bool) []rectangle {
	if len(cands) == 0 {
		return nil
	}
	snap := sideSnapper{edges: thin, done: map[snapKey]float64{}, lines: map[lineKey]*lineCounts{}}
	var rects []rectangle
	for _, c := range cands {
		q0 := rectangleOf(c.alpha, c.u0, c.u1, c.w0, c.w1)
		if skip(q0) {
			continue
		}
		missing := missingSide(q0, thin, hidden)
		if missing < 0 {
			if !partial {
				continue
			}
			if on, _ := roughSides(q0, thin, nil); !on {
				continue
			}
			// All four sides near edges: the fourth may show in part.
			q := snap.outermost(c.alpha, c.u0, c.u1, c.w0, c.w1)
			e, sized := sizedAs(q, shape)
			if !sized {
				continue
			}
			if weak := weakSide(q, thin); weak >= 0 {
				if r, ok := threeSidesShown(q, weak, e, thin, grey, v, shape); ok {
					rects = append(rects, r)
				}
			}
			continue
		}
		q := snap.outermost(c.alpha, c.u0, c.u1, c.w0, c.w1)
		// The sides moved, read back along and across alpha; the
		// missing one is put back a card's side from its opposite.
		ca, sa := math.Cos(c.alpha), math.Sin(c.alpha)
		u0, w0 := q[0].X*ca+q[0].Y*sa, -q[0].X*sa+q[0].Y*ca
		u1, w1 := q[2].X*ca+q[2].Y*sa, -q[2].X*sa+q[2].Y*ca
		switch missing { // rectangleOf's sides: w = w0, u = u1, w = w1, u = u0
		case 0:
			w0 = w1 - (c.w1 - c.w0)
		case 1:
			u1 = u0 + (c.u1 - c.u0)
		case 2:
			w1 = w0 + (c.w1 - c.w0)
		case 3:
			u0 = u1 - (c.u1 - c.u0)
		}
		q = rectangleOf(c.alpha, u0, u1, w0, w1)
		e, sized := sizedAs(q, shape)
		if !sized {
			continue
		}
		if r, ok := threeSidesShown(q, missing, e, thin, grey, v, shape); ok {
			rects = append(rects, r)
		}
	}
	sort.Slice(rects, func(i, j int) bool { return rects[i].support > rects[j].support })
	return rects
}

// threeSidesShown gives q (of sizeError e) as a rectangle of shape when
// its sides but the missing one lie on the edges thin (threeSidesSupport)
// and stand out on grey.
func threeSidesShown(q models.Quad, missing int, e float64, thin, grey edgeMap, v *view, shape outlineShape) (rectangle, bool) {
	sup, ok := threeSidesSupport(q, missing, thin.onNear)
	if !ok || !threeSidesStandOut(q, missing, grey, sideContrastMM*v.pxPerMM) {
		return rectangle{}, false
	}
	return rectangle{quad: q, shape: shape, support: sup - sideSizeWeight*e}, true
}

// missingSide gives the one side of q (side i from q[i] to q[i+1]) that
// passes near the edges thin over less than sideRoughShare of its length
// (see roughSides) while the three others pass, or -1. With hidden (not
// nil), the side missing must pass were its points within the quads
// hidden on edges.
func missingSide(q models.Quad, thin edgeMap, hidden []models.Quad) int {
	c := q.Center()
	missing := -1
	for i := range q {
		hits, veiled, n := roughSide(q[i], q[(i+1)%4], c, thin, hidden, hidden != nil)
		if n < 2 {
			return -1
		}
		need := sideRoughShare * float64(n-1)
		if float64(hits) < need {
			if missing >= 0 || (hidden != nil && float64(hits+veiled) < need) {
				return -1
			}
			missing = i
		}
	}
	return missing
}

// threeSidesSupport is support over q's sides but the missing one (-1:
// all four sides), with on telling the edge pixels.
func threeSidesSupport(q models.Quad, missing int, on func(x, y float64) bool) (float64, bool) {
	return sidesSupportOver(q, missing, on, stackSideSupport)
}

// sidesSupportOver is threeSidesSupport with each side on edges over
// floor of its length (in place of stackSideSupport).
func sidesSupportOver(q models.Quad, missing int, on func(x, y float64) bool, floor float64) (float64, bool) {
	var total, hits int
	for i := range q {
		if i == missing {
			continue
		}
		h, n := sideSupport(q[i], q[(i+1)%4], on)
		if n < 3 || float64(h) < floor*float64(n) {
			return 0, false
		}
		total += n
		hits += h
	}
	s := float64(hits) / float64(total)
	return s, s >= stackMeanSupport
}

// threeSidesStandOut is standsOut over q's sides but the missing one.
func threeSidesStandOut(q models.Quad, missing int, grey edgeMap, d float64) bool {
	c := q.Center()
	var diffs []int
	for i := range q {
		if i != missing {
			diffs = appendSideDiffs(diffs, q[i], q[(i+1)%4], c, grey, d)
		}
	}
	return len(diffs) > 0 && medianCount(diffs) >= sideContrastLevels
}

// A card alone on the mat whose rim is as dark as the mat (a black-bordered
// card on navy felt, in a soft or low-resolution frame) shows three sides on
// the frame's edges and the fourth too faintly: the side search, which
// wants all four, finds no card. oneSideFaint proposes it as
// threeSidedRectangles does with nothing hidden: three sides on edges, the
// fourth put a card's side from the one opposite it. Three sides make no
// card (a site's panel and a grid line make three), so such a rectangle is
// kept only when its look names a card (Analyzer.readCards).

// oneFaintMax bounds the rectangles oneSideFaint keeps in one frame.
const oneFaintMax = 8

// oneSideFaint appends to out the rectangles of shape, best supported
// first, that pairs of the segments (sorted longest first) propose whose
// three sides lie on the edges thin and stand out on the blurred image grey
// while the fourth does not or does over only part of its length (see
// threeSidedRectangles, partial), and that neither
// the quads explained nor a rectangle kept before covers. Those of a card
// found of a standard card's size (cardSized) are not looked at.
func oneSideFaint(segs []segment, thin, grey edgeMap, v *view, shape outlineShape, explained, cardSized []models.Quad, out []rectangle) []rectangle {
	if len(segs) < 2 {
		return out
	}
	if len(segs) > sideMaxSegments {
		segs = segs[:sideMaxSegments]
	}
	skip := func(q models.Quad) bool { return sameCardAsAny(q, cardSized) }
	for _, r := range threeSidedRectangles(sideCandidates(segs, shape), thin, grey, v, shape, skip, nil, true) {
		if len(out) >= oneFaintMax {
			break
		}
		if covered(r.quad, explained) || covered(r.quad, quadsOfRects(out)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// oneSideFaint gives this frame's rectangles whose fourth side shows too
// faintly (see oneSideFaint); the caller leaves out those the cards found
// cover as it names them.
func (o *outlineFinder) oneSideFaint() []models.Quad {
	return quadsOfRects(o.sides.oneFaint)
}

// A card lying over the edge of another whose rim is pale where it
// crosses that card's face (a lamp's glare over both, or a pale card on a
// pale one) shows its fourth side there only in part: too much for the
// side missing that threeSidedRectangles wants, too little for the side
// search, which wants every side on edges over stackSideSupport of its
// length. threeSidedRectangles proposes those cards too when partial (for
// oneSideFaint), so that they are kept only when their look names a card.

// weakSideFloor is the least share of its length the weak side of a
// rectangle (weakSide) lies on edges.
const weakSideFloor = 0.4

// weakSide gives the one side of q (side i from q[i] to q[i+1]) that lies
// on the edges thin over less than stackSideSupport of its length but
// over weakSideFloor, the three others over stackSideSupport; or -1.
func weakSide(q models.Quad, thin edgeMap) int {
	weak := -1
	for i := range q {
		h, n := sideSupport(q[i], q[(i+1)%4], thin.onNear)
		if float64(h) >= stackSideSupport*float64(n) {
			continue
		}
		if weak >= 0 || float64(h) < weakSideFloor*float64(n) {
			return -1
		}
		weak = i
	}
	return weak
}
