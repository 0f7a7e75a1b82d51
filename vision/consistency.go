package vision

import (
	"math"
	"math/rand/v2"

	"github.com/tablecam/tablecam/models"
)

// The consistency check: a name is given by a fit of a face to some of a
// card's keypoints, and the ratio test and the generic marks (markGeneric)
// keep the layout every card shares from naming a card only when other
// faces of its kind compete for it. With a catalog of one deck, or a few
// scanned cards, nothing competes: a card missing from the catalog whose
// title bar, type line and text box read like a face in it (every avatar
// of a set shares them, only the art differs) fits that face with a
// hundred inliers. So once a frame's cards are all fitted, every named
// card's face is laid over what the camera shows of it, cut into a coarse
// grid of cells, and each cell is asked whether its keypoints agree with
// the face there. A part of the card the size of an art window that
// disagrees, and that no card lying on top explains, contradicts the name:
// the card is reported unknown, with its outline, kind and turn.
const (
	// checkCols × checkRows cells of about 16 × 22 mm cut a face: an art
	// window covers several of them.
	checkCols = 4
	checkRows = 4
	// checkMinKeypoints is the fewest checked keypoints (see
	// faceAgreement) a cell needs to be judged.
	checkMinKeypoints = 8
	// checkCellAgree is the share of its checked keypoints below which a
	// cell disagrees with the face. On the face that is there, a cell's
	// keypoints agree at 60–95% (bundled stills, unseen seeds, blurred,
	// dim and glared copies); on another face, where its art differs,
	// at 0–30%.
	checkCellAgree = 0.35
	// A name is contradicted when the cells that disagree hold at least
	// checkContradictShare of the card's checked keypoints and at least
	// checkContradictMin of them: on a face of one size, an art window is
	// a third of it or more, while what a true card shows disagrees in a
	// cell or two at most (a reflection, a blurred corner).
	checkContradictShare = 0.3
	checkContradictMin   = 40
	// checkBetweenMM is how far around a card lying on top of it a card's
	// keypoints are not checked: a third card may lie between the two,
	// showing a strip beside the top card's edge.
	checkBetweenMM = 12
	// At checkCloseHamming, where a keypoint of another card's art seldom
	// agrees by chance, a name is contradicted too when the cells where
	// fewer than checkCellClose of the keypoints agree so hold
	// checkContradictClose of them (a face dense with keypoints, where
	// chance agreement within maxHamming runs high: a catalog of one
	// face fits it wherever it can).
	checkCloseHamming    = 48
	checkCellClose       = 0.2
	checkContradictClose = 0.6
)

// cellTally counts, in one cell of a face's grid, the frame keypoints
// checked there (near a keypoint of the face: see faceAgreement) and those
// whose descriptor agrees (within maxHamming), and closely (within
// checkCloseHamming).
type cellTally struct{ checked, agree, close int }

// faceTally is a card's cellTally, cell by cell, row by row.
type faceTally [checkRows * checkCols]cellTally

// against lists the cells that disagree with the face (see
// checkCellAgree), those that disagree closely (see checkCellClose), and
// counts the keypoints checked in all cells and in those. Cells with
// fewer than minKeypoints are not judged.
func (t *faceTally) against(minKeypoints int) (cells, closeCells [checkRows * checkCols]bool, checked, disagreeing, disagreeingClose int) {
	for k, c := range t {
		checked += c.checked
		if c.checked < minKeypoints {
			continue
		}
		if float64(c.agree) < checkCellAgree*float64(c.checked) {
			cells[k] = true
			disagreeing += c.checked
		}
		if float64(c.close) < checkCellClose*float64(c.checked) {
			closeCells[k] = true
			disagreeingClose += c.checked
		}
	}
	return cells, closeCells, checked, disagreeing, disagreeingClose
}

// contradicts reports whether the tally contradicts the name (see
// checkContradictShare and checkContradictClose).
func (t *faceTally) contradicts() bool {
	_, _, checked, against, againstClose := t.against(checkMinKeypoints)
	return (against >= checkContradictMin && float64(against) >= checkContradictShare*float64(checked)) ||
		(againstClose >= checkContradictMin && float64(againstClose) >= checkContradictClose*float64(checked))
}

// checkStride is the sample of a card's keypoints read first: every
// checkStride-th. A name the sample contradicts in no way
// (mayContradict) stands; else all of them are read.
const checkStride = 5

// mayContradict reports whether the tally of every stride-th keypoint
// leaves room for a contradiction when all are counted: its disagreeing
// cells, judged with checkMinKeypoints/stride keypoints, hold half the
// share and count that contradicts.
func (t *faceTally) mayContradict(stride int) bool {
	_, _, checked, against, againstClose := t.against((checkMinKeypoints + stride - 1) / stride)
	return (against*stride >= checkContradictMin/2 && float64(against) >= checkContradictShare/2*float64(checked)) ||
		(againstClose*stride >= checkContradictMin/2 && float64(againstClose) >= checkContradictClose/2*float64(checked))
}

// cellOf gives the cell of a face of w × h that (rx, ry) lies in.
func cellOf(rx, ry, w, h float64) int {
	return min(max(int(ry*checkRows/h), 0), checkRows-1)*checkCols + min(max(int(rx*checkCols/w), 0), checkCols-1)
}

// nameChecker checks named cards against what the camera shows of them. It
// keeps, for each face it has checked, all its keypoints by position (the
// generic ones too: the layout a card shares with others still has to be
// there).
type nameChecker struct {
	spots map[int]*spotGrid
	// frame holds the frame's described keypoints by position, its
	// buffers kept from frame to frame; cells and rows are frameSpots'
	// scratch, a value for each keypoint.
	frame       spotGrid
	cells, rows []int32
}

// frameSpots gives the described keypoints of f by position, in frameGridCell
// cells: newSpotGrid's grid, built into the checker's buffers.
func (c *nameChecker) frameSpots(f features) *spotGrid {
	g := &c.frame
	g.cell, g.w, g.h = frameGridCell, 0, 0
	// Each described keypoint's column and row first, then its cell
	// (cellOf's, once the grid's size is known); -1: not described.
	c.cells = resized(c.cells, len(f.Points))
	rows := resized(c.rows, len(f.Points))
	c.rows = rows
	n := 0
	for i, p := range f.Points {
		if f.lazy != nil && !f.lazy.done[i] {
			c.cells[i] = -1
			continue
		}
		cx, cy := int(p.X/g.cell), int(p.Y/g.cell)
		g.w, g.h = max(g.w, cx+1), max(g.h, cy+1)
		c.cells[i], rows[i] = int32(cx), int32(cy)
		n++
	}
	g.offsets = resized(g.offsets, g.w*g.h+1)
	clear(g.offsets)
	for i, cx := range c.cells {
		if cx < 0 {
			continue
		}
		k := min(max(int(rows[i]), 0), g.h-1)*g.w + min(max(int(cx), 0), g.w-1)
		c.cells[i] = int32(k)
		g.offsets[k+1]++
	}
	for k := 1; k < len(g.offsets); k++ {
		g.offsets[k] += g.offsets[k-1]
	}
	g.ids = resized(g.ids, n)
	if cap(g.spots) < n {
		g.spots = make([]spot, n)
	}
	g.spots = g.spots[:n]
	// Each cell's points in the order of f's: offsets[k] counts up as
	// cell k fills, and is moved back after.
	for i, k := range c.cells {
		if k < 0 {
			continue
		}
		at := g.offsets[k]
		p := f.Points[i]
		g.ids[at] = int32(i)
		g.spots[at] = spot{p.X, p.Y, int32(i)}
		g.offsets[k]++
	}
	copy(g.offsets[1:], g.offsets[:len(g.offsets)-1])
	g.offsets[0] = 0
	return g
}

// resized gives buf with n values, reusing its memory when it can.
func resized(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	return buf[:n]
}

// faceSpots gives all the keypoints of face ref by position.
func (c *nameChecker) faceSpots(x *catalogIndex, ref int) *spotGrid {
	if c.spots == nil {
		c.spots = map[int]*spotGrid{}
	}
	g, ok := c.spots[ref]
	if !ok {
		pts := x.refs[ref].Feat.Points
		all := make([]bool, len(pts))
		for i := range all {
			all[i] = true
		}
		g = newSpotGrid(pts, all, faceGridCell)
		c.spots[ref] = g
	}
	return g
}

// faceAgreement maps keypoint i of f onto d's face (spots: its keypoints):
// on says whether it lands on the face, at (rx, ry); checked whether a
// keypoint of the face lies within inlierThreshold of it there; agree
// whether one of those has a descriptor within maxHamming, close within
// checkCloseHamming.
func (x *catalogIndex) faceAgreement(d *detection, spots *spotGrid, f features, i int) (rx, ry float64, on, checked, agree, close bool) {
	ref := &x.refs[d.ref]
	s2 := d.sim.A*d.sim.A + d.sim.B*d.sim.B
	if s2 < 1e-9 {
		return 0, 0, false, false, false, false
	}
	p := f.Points[i]
	dx, dy := float64(p.X)-d.sim.Tx, float64(p.Y)-d.sim.Ty
	rx, ry = (d.sim.A*dx+d.sim.B*dy)/s2, (-d.sim.B*dx+d.sim.A*dy)/s2
	if rx < 0 || ry < 0 || rx >= float64(ref.W) || ry >= float64(ref.H) {
		return rx, ry, false, false, false, false
	}
	r2 := inlierThreshold * inlierThreshold / s2
	x0, x1, y0, y1 := spots.cellsNear(rx, ry, math.Sqrt(r2))
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, q := range spots.at(x, y) {
				if ex, ey := float64(q.X)-rx, float64(q.Y)-ry; ex*ex+ey*ey > r2 {
					continue
				}
				checked = true
				if h := hamming(&f.Descs[i], &ref.Feat.Descs[q.ID]); h <= checkCloseHamming {
					return rx, ry, true, true, true, true
				} else if h <= maxHamming {
					agree = true
				}
			}
		}
	}
	return rx, ry, true, checked, agree, false
}

// checkedKeypoint is a keypoint checked against a face: its cell there,
// and whether it agrees, and closely (see faceAgreement).
type checkedKeypoint struct {
	id           int32
	cell         int
	agree, close bool
}

// check checks the keypoints ids of f against d's face.
func (a *Analyzer) check(d *detection, f features, ids []int32) []checkedKeypoint {
	ref := &a.index.refs[d.ref]
	spots := a.names.faceSpots(a.index, d.ref)
	out := make([]checkedKeypoint, 0, len(ids))
	for _, i := range ids {
		if rx, ry, on, checked, agree, close := a.index.faceAgreement(d, spots, f, int(i)); on && checked {
			out = append(out, checkedKeypoint{i, cellOf(rx, ry, float64(ref.W), float64(ref.H)), agree, close})
		}
	}
	return out
}

// tallyOf counts checked keypoints by cell.
func tallyOf(ks []checkedKeypoint) faceTally {
	var t faceTally
	for _, k := range ks {
		t[k.cell].checked++
		if k.agree {
			t[k.cell].agree++
		}
		if k.close {
			t[k.cell].close++
		}
	}
	return t
}

// contradicted reports whether the keypoints ks of f, checked against
// d's face, contradict d's name. The keypoints of the cells that disagree
// may show part of another card of the catalog, lying between d and a card
// on top of it or barely seen: those that another face fits (see
// explainedElsewhere) do not count.
func (a *Analyzer) contradicted(d *detection, f features, ks []checkedKeypoint) bool {
	t := tallyOf(ks)
	if !t.contradicts() {
		return false
	}
	cells, closeCells, _, _, _ := t.against(checkMinKeypoints)
	var suspects []int
	for _, k := range ks {
		if (cells[k.cell] && !k.agree) || (closeCells[k.cell] && !k.close) {
			suspects = append(suspects, int(k.id))
		}
	}
	explained := a.index.explainedElsewhere(f, suspects, d.ref)
	if len(explained) == 0 {
		return true
	}
	kept := ks[:0]
	for _, k := range ks {
		if !explained[int(k.id)] {
			kept = append(kept, k)
		}
	}
	t = tallyOf(kept)
	return t.contradicts()
}

// explainedElsewhere gives the keypoints ids of f that another face than
// ref's (and than any face of its name) fits: looked up in all the hash
// tables, those of a face that a similarity fits with minInliers of them.
func (x *catalogIndex) explainedElsewhere(f features, ids []int, ref int) map[int]bool {
	if len(ids) < minInliers {
		return nil
	}
	byRef := x.matchKeypoints(f, ids, len(x.lsh.tables))
	params := ransacParams{threshold: inlierThreshold, minScale: regionMinScale, maxScale: regionMaxScale, iterations: ransacRounds}
	rng := rand.New(rand.NewPCG(uint64(ref), 11))
	name := x.refs[ref].card.Name
	var out map[int]bool
	for r, ms := range byRef {
		if r == ref || len(ms) < minInliers || x.refs[r].card.Name == name {
			continue
		}
		pairs := make([]pointPair, len(ms))
		for k, m := range ms {
			rp, fp := x.refs[r].Feat.Points[m.refPoint], f.Points[m.frame]
			pairs[k] = pointPair{float64(rp.X), float64(rp.Y), float64(fp.X), float64(fp.Y)}
		}
		_, flags, n := ransacSimilarity(pairs, params, rng)
		if n < minInliers {
			continue
		}
		if out == nil {
			out = map[int]bool{}
		}
		for k, in := range flags {
			if in {
				out[ms[k].frame] = true
			}
		}
	}
	return out
}

// namedCard is a card the frame's reading named: its place among the
// frame's cards and the fit that named it.
type namedCard struct {
	card int
	det  detection
	// wholeLook: named by its look in its whole outline (nameByLook),
	// which may stand against its keypoints (lookOverKeypoints).
	wholeLook bool
}

// confirmNames checks every named card against the frame's keypoints f
// once all the frame's cards are found (found: the top-down outlines of
// all of them but the covered sites, named or not), and reports those
// whose name the frame contradicts as unknown cards. A card unnamed so
// neither explains nor hides what lies under it: the cards it overlaps
// are checked again.
func (a *Analyzer) confirmNames(f features, v *view, cards []models.CardObservation, named []namedCard, found []placed) {
	if len(named) == 0 {
		return
	}
	grid := a.names.frameSpots(f)
	isNamed := make(map[models.Quad]bool, len(named))
	for _, n := range named {
		isNamed[n.det.quad] = true
	}
	var unnamed []models.Quad
	for _, p := range found {
		if !isNamed[p.quad] {
			unnamed = append(unnamed, p.quad)
		}
	}
	active := make([]bool, len(named))
	recheck := make([]bool, len(named))
	for k := range named {
		active[k], recheck[k] = true, true
	}
	for {
		var dropped []models.Quad
		for k := range named {
			if !recheck[k] {
				continue
			}
			recheck[k] = false
			// A sample of the card's keypoints first: most names it
			// leaves beyond doubt.
			d := &named[k].det
			sample, _ := a.visibleKeypoints(f, grid, k, named, active, unnamed, checkStride)
			byLayout, weakly := false, false
			if d.score == 0 {
				checked, agree, _ := a.ownAgreement(d, f, sample)
				byLayout = mayRestOnLayout(checked, agree, checkStride)
				weakly = mayBeCoveredWeakly(checked, agree, checkStride)
			}
			if t := tallyOf(sample); !t.mayContradict(checkStride) && !byLayout && !weakly {
				continue
			}
			ks, onTop := a.visibleKeypoints(f, grid, k, named, active, unnamed, 1)
			contra := a.contradicted(d, f, ks)
			layout := !contra && byLayout && a.restsOnLayout(d, f, ks)
			if !contra && !layout && weakly && len(onTop) > 0 {
				// Partly under cards named on it (see coveredOwnMin).
				checked, agree, _ := a.ownAgreement(d, f, ks)
				layout = coveredWeakly(checked, agree) && !a.partLookAgrees(*d, v, onTop)
			}
			if (contra || layout) && !a.lookAgrees(*d, v) && !(named[k].wholeLook && a.lookOverKeypoints(*d, f)) {
				active[k] = false
				unname(&cards[named[k].card])
				dropped = append(dropped, named[k].det.quad)
			}
		}
		if len(dropped) == 0 {
			return
		}
		for k := range named {
			for _, q := range dropped {
				if active[k] && boxesOverlap(named[k].det.quad, q) {
					recheck[k] = true
				}
			}
		}
	}
}

// A name given by keypoints may rest on the layout alone: a card missing
// from the catalog that prints as a face in it does (frame, cost, type
// line, rarity, threshold marks: a card of the same kind, cost and
// element; a catalog of some of a set's faces has no other face of that
// layout for the ratio test to weigh against) fits that face with a few
// dozen inliers, while its art, smooth, shows too few keypoints in each
// cell of the check above for a cell to be judged. The face's own
// keypoints (those markGeneric did not find on another face of its kind)
// tell: the card shows them disagreeing nearly all. Measured on the
// independent sets read against 20 or 30 of their 40 faces: on the 11
// missing cards named so, 67 to 174 of the face's own keypoints checked,
// 3–18% of them agreeing; on the cards named right in plain view 35–65%.
// Cards named right under others can fall below: in the full catalogs,
// one (the bundled stills' 0068 E4, 44% showing under a card not found,
// 6 of 64 agreeing) is now reported unknown; with 30 faces, one more
// (c1/0048 E4, 62% showing, 18 of 96).
const (
	// layoutOwnMin is the fewest of the face's own keypoints that must be
	// checked: fewer show on a card mostly covered.
	layoutOwnMin = 60
	// layoutOwnAgree is the share of them below which the name rests on
	// the layout.
	layoutOwnAgree = 0.2
)

// ownAgreement counts, of the keypoints ks checked against d's face, those
// that lie by one of the face's own keypoints (not generic: see
// markGeneric), and those that agree with one, and lists those that do
// not. All are empty when the face has no generic marks.
func (a *Analyzer) ownAgreement(d *detection, f features, ks []checkedKeypoint) (checked, agree int, against []int) {
	own := a.index.faceSpots[d.ref]
	if own == nil {
		return 0, 0, nil
	}
	for _, k := range ks {
		if _, _, on, c, ag, _ := a.index.faceAgreement(d, own, f, int(k.id)); on && c {
			checked++
			if ag {
				agree++
			} else {
				against = append(against, int(k.id))
			}
		}
	}
	return checked, agree, against
}

// restsOnLayout reports whether d's name rests on its face's layout alone:
// of the face's own keypoints that the keypoints ks of f lie by, at least
// layoutOwnMin checked, under layoutOwnAgree of them agree. Those that
// disagree but that another face fits (explainedElsewhere: a card lying
// on d that was not found) are left out, as in contradicted.
func (a *Analyzer) restsOnLayout(d *detection, f features, ks []checkedKeypoint) bool {
	checked, agree, against := a.ownAgreement(d, f, ks)
	if !layoutAlone(checked, agree) {
		return false
	}
	explained := a.index.explainedElsewhere(f, against, d.ref)
	return layoutAlone(checked-len(explained), agree)
}

// layoutAlone reports whether checked of a face's own keypoints, agree of
// them agreeing, say that a name rests on the layout alone.
func layoutAlone(checked, agree int) bool {
	return checked >= layoutOwnMin && float64(agree) < layoutOwnAgree*float64(checked)
}

// mayRestOnLayout reports whether the counts of every stride-th keypoint
// leave room for layoutAlone when all are counted: half the keypoints,
// at twice the share.
func mayRestOnLayout(checked, agree, stride int) bool {
	return checked*stride >= layoutOwnMin/2 && float64(agree) < 2*layoutOwnAgree*float64(checked)
}

// A name given by keypoints to a card that lies partly under cards named
// on it may rest on its layout with fewer of the face's own keypoints
// checked than layoutOwnMin: what shows beside the card on top may be
// only its title bar, type line and text box, its art under that card,
// and a card missing from the catalog that prints as a face in it shows
// the same (c3/0031 read against 20 of its faces: Vane Acrobat, its art
// under Cinderpaw Lynx, named Cloudstep Monk by 25 inliers; 57 of the
// face's own keypoints checked, 21% agreeing; no cell judged against it).
// Its keypoints cannot tell it from the card whose face it is seen there
// (true cards partly covered agree at 7–22% too), but its colours can:
// such a name stands only when the look of what shows (namePart, the
// cards on top hidden) names the same card, or the whole look does.
// Measured on the independent sets and the bundled stills: no name lost.
const (
	// coveredOwnMin is the fewest of the face's own keypoints checked for
	// the name to be weighed so: fewer say nothing of it.
	coveredOwnMin = 25
	// coveredOwnAgree is the share of them below which the name is
	// weighed by the look: the true cards in plain view agree at 35–65%.
	coveredOwnAgree = 0.25
)

// coveredWeakly reports whether checked of a face's own keypoints, agree
// of them agreeing, on a card with cards named on it, leave its name to
// the look (see coveredOwnMin).
func coveredWeakly(checked, agree int) bool {
	return checked >= coveredOwnMin && float64(agree) < coveredOwnAgree*float64(checked)
}

// mayBeCoveredWeakly reports whether the counts of every stride-th
// keypoint leave room for coveredWeakly when all are counted: half the
// keypoints, at twice the share.
func mayBeCoveredWeakly(checked, agree, stride int) bool {
	return 2*checked*stride >= coveredOwnMin && float64(agree) < 2*coveredOwnAgree*float64(checked)
}

// partLookAgrees reports whether the look of what shows of a card named
// by its keypoints, the cards on top of it hidden (namePart), names the
// same card.
func (a *Analyzer) partLookAgrees(d detection, v *view, onTop []models.Quad) bool {
	l, ok := a.namePart(d.quad, v, a.index.refs[d.ref].Kind, onTop)
	return ok && a.index.refs[l.ref].card.Name == a.index.refs[d.ref].card.Name
}

// lookAgrees reports whether a card named by its keypoints is named the
// same by its look (nameByLook: the colours of the whole face, clearly
// ahead of any other name) in the outline its fit gives. The look is a
// witness the keypoints' check does not hear: a card missing from the
// catalog whose printed frame fits a face in it differs from that face
// in its art, which the look weighs most; a card whose art shows through
// glare, a sleeve or blur that its keypoints disagree with in places
// still looks as its face does.
func (a *Analyzer) lookAgrees(d detection, v *view) bool {
	if d.score > 0 {
		return false // named by look already: the keypoints' check stands
	}
	l, ok := a.nameByLook(d.quad, v, nil)
	return ok && a.index.refs[l.ref].card.Name == a.index.refs[d.ref].card.Name
}

// unname turns a named card's observation into an unknown card's: its
// outline, kind, turn and owner stay.
func unname(o *models.CardObservation) {
	o.Name, o.Slug, o.Type = nil, nil, nil
	o.Confidence = unknownConfidence
}

// visibleKeypoints checks against its face the described keypoints of f
// (grid holds them by position) that named card k shows: inside its
// outline, more than edgeBand in, under none of the unnamed cards (whose
// outline shows whole, so they lie on top of what they overlap) but the
// card itself, and under no other active named card. Of two named cards
// that overlap, the one whose face agrees with more of the keypoints they
// share lies on top, and checkBetweenMM around it are left out too.
// onTop lists the outlines of the named cards found lying on it so.
func (a *Analyzer) visibleKeypoints(f features, grid *spotGrid, k int, named []namedCard, active []bool, unnamed []models.Quad, stride int) (visible []checkedKeypoint, onTop []models.Quad) {
	x := a.index
	d := &named[k].det
	ref := &x.refs[d.ref]
	quad := d.quad
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	o := newOutline(quad)
	var hidden []outline
	for _, q := range unnamed {
		if boxesOverlap(quad, q) && !sameCardAsAny(q, []models.Quad{quad}) {
			hidden = append(hidden, newOutline(grow(q, edgeBand)))
		}
	}
	// Every stride-th keypoint the card shows, checked against its face
	// (cell -1: not on the face, or no keypoint of the face near).
	spots := a.names.faceSpots(x, d.ref)
	var ks []checkedKeypoint
	n := 0
	x0, x1, y0, y1 := grid.cellsNear((minX+maxX)/2, (minY+maxY)/2, math.Max(maxX-minX, maxY-minY)/2)
	for gy := y0; gy <= y1; gy++ {
		for gx := x0; gx <= x1; gx++ {
		next:
			for _, sp := range grid.at(gx, gy) {
				if n++; n%stride != 0 {
					continue
				}
				i, p := sp.ID, models.Point{X: float64(sp.X), Y: float64(sp.Y)}
				if o.insideDistance(p) < edgeBand {
					continue
				}
				for h := range hidden {
					if hidden[h].insideDistance(p) > 0 {
						continue next
					}
				}
				k := checkedKeypoint{id: i, cell: -1}
				if rx, ry, on, checked, agree, close := x.faceAgreement(d, spots, f, int(i)); on && checked {
					k.cell, k.agree, k.close = cellOf(rx, ry, float64(ref.W), float64(ref.H)), agree, close
				}
				ks = append(ks, k)
			}
		}
	}
	for j := range named {
		od := &named[j].det
		if j == k || !active[j] || !boxesOverlap(quad, od.quad) {
			continue
		}
		// The keypoints in the overlap, and which face they agree with.
		other := newOutline(od.quad)
		otherSpots := a.names.faceSpots(x, od.ref)
		mine, theirs := 0, 0
		for _, c := range ks {
			p := models.Point{X: float64(f.Points[c.id].X), Y: float64(f.Points[c.id].Y)}
			if other.insideDistance(p) < edgeBand {
				continue
			}
			if c.agree {
				mine++
			} else if _, _, _, _, ok, _ := x.faceAgreement(od, otherSpots, f, int(c.id)); ok {
				theirs++
			}
		}
		if theirs <= mine {
			continue
		}
		onTop = append(onTop, od.quad)
		kept := ks[:0]
		margin := edgeBand + checkBetweenMM*a.opts.pxPerMM()
		for _, c := range ks {
			if other.insideDistance(models.Point{X: float64(f.Points[c.id].X), Y: float64(f.Points[c.id].Y)}) <= -margin {
				kept = append(kept, c)
			}
		}
		ks = kept
	}
	kept := ks[:0]
	for _, c := range ks {
		if c.cell >= 0 {
			kept = append(kept, c)
		}
	}
	return kept, onTop
}

// boxesOverlap reports whether the bounding boxes of two quads overlap.
func boxesOverlap(a, b models.Quad) bool {
	box := func(q models.Quad) (x0, y0, x1, y1 float64) {
		x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, p := range q {
			x0, x1 = math.Min(x0, p.X), math.Max(x1, p.X)
			y0, y1 = math.Min(y0, p.Y), math.Max(y1, p.Y)
		}
		return x0, y0, x1, y1
	}
	ax0, ay0, ax1, ay1 := box(a)
	bx0, by0, bx1, by1 := box(b)
	return ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1
}

// keypointsInside lists the keypoints of f inside quad, more than
// edgeBand in.
func keypointsInside(f features, quad models.Quad) []int32 {
	o := newOutline(quad)
	var ids []int32
	for i, p := range f.Points {
		if o.insideDistance(models.Point{X: float64(p.X), Y: float64(p.Y)}) >= edgeBand {
			ids = append(ids, int32(i))
		}
	}
	return ids
}

// identifyMinAgree is the share of a single card's checked keypoints that
// must agree with the face that names it. A picture given to Identify
// shows one card and nothing on it: the face that is there agrees with
// half of its keypoints or more (crops of the bundled stills, blurred
// ones too), another face of the same layout with 20–50%.
const identifyMinAgree = 0.5

// identifyMinClose is the share of them that must agree within
// checkCloseHamming: at least 40% on the face that is there, at most a
// third on another face.
const identifyMinClose = 0.35

// agreesWhole reports whether at least identifyMinAgree of the checked
// keypoints ks agree with their face, and identifyMinClose closely.
func agreesWhole(ks []checkedKeypoint) bool {
	agree, close := 0, 0
	for _, k := range ks {
		if k.agree {
			agree++
		}
		if k.close {
			close++
		}
	}
	return float64(agree) >= identifyMinAgree*float64(len(ks)) && float64(close) >= identifyMinClose*float64(len(ks))
}
