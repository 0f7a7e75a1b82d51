package calibration

import (
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
)

// A webcam that cuts off a corner of the mat, or a strip along one of its
// sides, leaves part of the realm outside the frame: the cards in the cells
// cut off are not seen, but the realm is still where its visible lines say.
// The ridge score reads only the part of each line the frame shows, so it
// cannot tell such a lattice from the same lattice moved a cell further off
// the frame: what that one gives up on one side it may gain unseen on the
// other. A lattice with a corner outside the frame is therefore believed
// only on evidence that does not look past the frame's edge: its lines
// show where the frame shows them, and each lattice a cell over loses
// clearly to it on the cell sides the frame shows that only one of the two
// has (see endsAtSeenBorder).

// beyondFrame judges the profile search's lattices with a corner outside
// the frame: raw (straight from the line profiles, polished here as
// settleFaint polishes) and, when it is not the zero value, polished (a
// lattice polished off the frame's edge). It returns the clearest of them
// that it believes, and whether there is one: a lattice the frame does not
// hold whole (one moved back into it was judged already), not refused,
// whose lines are fairly clear (a ridge score of minConfirmedRidgeScore,
// endsAtSeenBorder standing for the edges' confirmation: the ridge score
// counts a border line the frame hides most of as empty), whose cells are
// of the shape a pinhole camera sees (see maxPinholeInconsistency), and
// that ends at its border where the frame shows it (see endsAtSeenBorder).
func beyondFrame(rm *ridgeMap, g models.RealmGeometry, raw []gridFit, polished gridFit, refused []homography) (gridFit, bool) {
	var candidates []gridFit
	if polished.h != (homography{}) {
		candidates = append(candidates, polished)
	}
	if len(raw) > 0 {
		candidates = append(candidates, settleFaint(rm, g, raw))
	}
	if rm.detrendPencil {
		// The last retry's (see detrended.go): each of the best few
		// settled on its own too, as the one the polish raises most
		// may not end at its border, and hide one that does.
		candidates = append(candidates, settledApart(rm, g, raw, detrendedApart)...)
	}
	w, hgt := float64(rm.w), float64(rm.h)
	best, found := gridFit{score: math.Inf(-1)}, false
	for _, c := range candidates {
		if c.score <= best.score || c.score < minConfirmedRidgeScore || sameAsAny(c.h, refused, g) ||
			insideFrame(c.h, g, w, hgt) || cameraInconsistency(c.h, w, hgt) > maxPinholeInconsistency {
			continue
		}
		if rm.endsAtSeenBorder(c.h, g) {
			best, found = c, true
		}
	}
	return best, found
}

// minSeenShare is the least share of a cell side's samples at which the
// line response reads that side for endsAtSeenBorder: a side cut by the
// frame's edge shows only a stub, too little to tell a line from noise.
const minSeenShare = 0.75

// seenSides are those of sides that the frame shows under lattice h (at
// least minSeenShare of their samples read).
func (m *ridgeMap) seenSides(h homography, g models.RealmGeometry, sides []cellSide, light bool) []cellSide {
	var out []cellSide
	for _, s := range sides {
		gl := s.line(g)
		want := int(math.Hypot(gl.p1.X-gl.p0.X, gl.p1.Y-gl.p0.Y)/segmentStep) + 1
		if _, n := m.lineEvidence(h, gl, segmentStep, ridgeClip, light); float64(n) >= minSeenShare*float64(want) {
			out = append(out, s)
		}
	}
	return out
}

// endsAtSeenBorder says whether the grid under h, some of which lies
// outside the frame, shows where the frame shows it and ends at h's border
// there, so that no lattice a cell over explains the frame's lines as well:
//
//   - at least half of the realm's cell sides are in the frame and show clearly
//     drawn lines (their mean capped evidence, see sideEvidence, at least
//     minSeenSideEvidence), the odd lines of each axis like its even ones
//     (a lattice of half the spacing has its odd lines across the cells'
//     middles);
//   - for each lattice a cell over, the sides the frame shows that only h
//     has show more clearly than those that only the moved one has, by
//     minSeenBorderContrast. When the frame shows none of the sides that
//     only the moved lattice has (its new line lies outside), h's own must
//     show as clearly drawn lines: the moved lattice's realm would end a
//     cell short of them. When the frame shows none of the sides that only
//     h has (h's whole border row or column lies outside), h is not
//     believed: only the moved lattice's new line, in the frame, would tell
//     the two apart, and a line under an arm or a row of cards shows as
//     little as one that is not drawn.
func (m *ridgeMap) endsAtSeenBorder(h homography, g models.RealmGeometry) bool {
	light := m.lightGrid(h, g)
	own := realmSides()
	seen := m.seenSides(h, g, own, light)
	ownEvidence := m.sideEvidence(h, g, seen, light)
	if 2*len(seen) < len(own) || ownEvidence < minSeenSideEvidence {
		return false
	}
	for _, p := range paritySides() {
		even := m.sideEvidence(h, g, m.seenSides(h, g, p[0], light), light)
		odd := m.sideEvidence(h, g, m.seenSides(h, g, p[1], light), light)
		if math.Min(even, odd) < minParityRatio*math.Max(even, odd) {
			return false
		}
	}
	for _, s := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		moved := cellSides(s[0], models.Columns+s[0], s[1], models.Rows+s[1])
		kept := m.seenSides(h, g, without(own, moved), light)
		gained := m.seenSides(h, g, without(moved, own), light)
		if len(kept) == 0 {
			return false
		}
		keptEvidence, gainedEvidence := m.sideEvidence(h, g, kept, light), 0.0
		if len(gained) > 0 {
			gainedEvidence = m.sideEvidence(h, g, gained, light)
		} else if keptEvidence < minSeenSideEvidence {
			return false
		}
		if keptEvidence-gainedEvidence < minSeenBorderContrast {
			return false
		}
	}
	return true
}

// minSeenSideEvidence and minSeenBorderContrast are endsAtSeenBorder's
// bars, set above endsAtBorder's (minSideEvidence, minBorderContrast): a
// lattice partly outside the frame is judged on fewer sides, and a lattice
// a cell off the realm is a wrong realm, worse than none. Right realms with
// a corner outside the frame (two unseen scenes and the package's own)
// showed 1.07–2.0 on their sides in the frame and won against every
// lattice a cell over by 0.64 and more; a lattice a few percent off the
// realm, found on the package's scene undistorted through a strong lens,
// won against its neighbour a column over by only 0.22.
const (
	minSeenSideEvidence   = 0.8
	minSeenBorderContrast = 0.5
)

// detrendedApart is how many of the best raw lattices beyondFrame settles
// each on its own in the detrended retry (see detrended.go).
const detrendedApart = 4

// settledApart settles each of the n best of fits (by score) on its own
// (see settleFaint).
func settledApart(rm *ridgeMap, g models.RealmGeometry, fits []gridFit, n int) []gridFit {
	sorted := append([]gridFit(nil), fits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].score > sorted[j].score })
	var out []gridFit
	for i := 0; i < min(len(sorted), n); i++ {
		out = append(out, settleFaint(rm, g, sorted[i:i+1]))
	}
	return out
}
