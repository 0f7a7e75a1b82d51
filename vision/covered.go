package vision

import (
	"image"
	"image/color"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A site under a unit shows only what the unit leaves of it: its two short
// ends, about 12 mm each beside a portrait card centred on it, or more of
// one side when the unit lies off-centre. Too few keypoints for the free fit
// of matchFrame, and no whole outline for findUnknownCards. But the realm's
// geometry is known: once rectified, a site lies nearly axis-aligned (turned
// 0° or 180°, by its owner) in its cell, at scale 1. So each cell that holds
// a unit and no site is searched for one under it: first where its outline
// would lie (sitePlacements), then which site face explains what shows
// (nameSiteAt), named only where what shows looks like a site or its
// outline clearly shows. A site whose outline shows clearly but that no
// face explains is reported as an unknown site.
const (
	coveredMinAreaMM2 = 400 // visible area beside the cards on top below which a cell is not searched
	// An unnamed site is reported only when its outline clearly shows: this
	// much of it visible, this share of that on edges, and one short end
	// mostly visible and on edges.
	coveredOutlineMinMM  = 70
	coveredOutlineOnEdge = 0.6
	coveredEndMinMM      = 40
	coveredEndOnEdge     = 0.6
	coveredStubMinMM     = 4
	coveredStubOnEdge    = 0.4
	stripHiddenPad       = 3.0 // top-down pixels around a card on top left out of naming
	// A face leading the others names a site only where a site is seen to
	// lie at all: what shows correlates this much with the layout every
	// site shares (the mean site face: frame, title bar, text box), or the
	// outline clearly shows. The mat's texture beside a lone unit can set
	// one face ahead by chance (a face with large plain areas most often),
	// but it has neither a site's layout nor its outline.
	coveredMinLayout = 0.5
	// A site named by the colours of what shows (namePart) is looked for
	// only where its outline shows clearly, or its visible outline lies
	// this much on edges.
	coveredPartOnEdge = 0.8
	// A cell that holds no card is searched too when the cards of the
	// cells beside it cover this share of where its site would lie.
	coveredBesideShare = 0.2
	// A site found by its outline, unnamed, of which the cards on top
	// leave this share showing, showed its face whole to the feature
	// matching and to the look (appearance.go), which both left it
	// unnamed: the grey comparison, which a face's panel tones can carry
	// (a catalog of few faces names every site it lacks after the one
	// whose tones are nearest the missing faces', at 0.54-0.64), names it
	// only when it correlates strongly (nameRivalsFrom), as a whole face
	// of little texture (which gives the feature matching few corners)
	// does.
	coveredWholeShare = 0.9
)

// placed is a card found in the top-down image, named or not.
type placed struct {
	quad models.Quad
	kind models.CardKind
}

// coveredSite is a site found under other cards: named (ok with a detection)
// or only seen by its outline (kind site, unnamed).
type coveredSite struct {
	det   detection
	named bool
	quad  models.Quad // top-down pixels
	// replaces is the place in found of the unnamed site (found by its
	// outline) that this one names, or -1.
	replaces int
}

// findCoveredSites looks, in every cell that holds a unit or token and no
// named site, for a site lying under it. A card found by its outline but
// not named that may be a site (its place in found is a key of unnamed) is
// searched for too: with it on top (a unit turned sideways on the site),
// else without it (it is the site), and then the site named there replaces
// it (coveredSite.replaces).
func (a *Analyzer) findCoveredSites(gray gocv.Mat, v *view, found []placed, unnamed unnamedSites) []coveredSite {
	var out []coveredSite
	search := &a.covered
	var cells [models.Rows * models.Columns]cellHolds
	var empty []models.Cell // cells holding no card, too little covered by the cards beside
	var shares []float64    // how much the cards beside cover of their sites
	for row := 0; row < models.Rows; row++ {
		for col := 0; col < models.Columns; col++ {
			cell := models.Cell{Col: col, Row: row}
			h := cellHolding(v, cell, found, unnamed)
			if !h.site && !h.unit && h.outlined < 0 {
				// A card lying across the cell's border from the next cell
				// may cover much of a site here. Only a site named there is
				// taken: an outline alone, beside the card, is as likely a
				// card under it that the search for cards under cards
				// finds.
				h.share = siteAreaCovered(v, cell, found, nil)
				h.beside = h.share >= coveredBesideShare
				if !h.beside {
					empty = append(empty, cell)
					shares = append(shares, h.share)
				}
			}
			if h.outlined >= 0 && !h.site && !h.unit {
				// A card from the next cell may lie over a site found by
				// its outline and left unnamed, too: its cell holds no
				// unit of its own, and the site is searched for as under
				// one when the cards beside cover as much of it.
				onTop := allBut(found, h.outlined)
				h.unit = 1-quadShownShare(v, found[h.outlined].quad, onTop) >= coveredBesideShare
			}
			cells[row*models.Columns+col] = h
		}
	}
	// So may an arm reaching over the realm, which then lies on top like
	// a card (covered_hand.go).
	var arm *armCover
	if len(empty) > 0 {
		arm = a.armOver(v, found, empty, shares)
	}
	for _, cell := range empty {
		h := &cells[cell.Row*models.Columns+cell.Col]
		h.beside = arm != nil && siteAreaCovered(v, cell, found, arm) >= coveredBesideShare
		h.arm = h.beside
	}
	for row := 0; row < models.Rows; row++ {
		for col := 0; col < models.Columns; col++ {
			cell := models.Cell{Col: col, Row: row}
			h := cells[row*models.Columns+col]
			hasSite, hasUnit, outlined, beside := h.site, h.unit || h.beside, h.outlined, h.beside
			cover := found
			if h.arm {
				cover = append(found[:len(found):len(found)], arm.near(v.cellRect(cell, armReachMM))...)
			}
			if hasSite || !hasUnit {
				continue
			}
			if search.faces == nil {
				f, ok := newSiteFaces(a.index)
				if !ok {
					f = siteFaces{}
				}
				search.faces = &f
			}
			// A card found by its outline may lie on the site (a unit
			// turned sideways) or be the site: the search looks with it on
			// top first, then without it.
			if outlined >= 0 {
				// The site's own outline, with the cards on top hidden,
				// may name it by its look.
				if d, ok := a.namePartOn(v, found, outlined); ok {
					out = withSite(out, coveredSite{det: d, named: true, quad: d.quad, replaces: outlined})
					continue
				}
			}
			s, ok := a.siteUnder(gray, v, cell, cover, search)
			if ok && (s.named || (outlined < 0 && !beside)) {
				s.replaces = -1
				out = withSite(out, s)
				continue
			}
			if outlined < 0 {
				continue
			}
			onTop := allBut(found, outlined)
			whole := quadShownShare(v, found[outlined].quad, onTop) >= coveredWholeShare
			if s, ok := a.siteUnder(gray, v, cell, onTop, search); ok && s.named && (!whole || s.det.score >= nameRivalsFrom) {
				s.replaces = outlined
				out = withSite(out, s)
			}
		}
	}
	return out
}

// withSite adds site s to the covered sites found, unless it is one of
// them: the searches of two cells (a unit's, and the next one's that the
// unit covers much of) can each find the site that lies under the unit,
// and a card is reported once. Of two covered sites where either's centre
// lies inside the other (sites of two cells lie a cell apart), the one
// that renames a site found by its outline is kept, else a named one,
// else the better scored.
func withSite(sites []coveredSite, s coveredSite) []coveredSite {
	for i, o := range sites {
		if !inside(s.quad.Center(), o.quad) && !inside(o.quad.Center(), s.quad) {
			continue
		}
		if o.replaces >= 0 && s.replaces >= 0 {
			break // two outlines found apart: two cards
		}
		if siteRanksAbove(s, o) {
			sites[i] = s
		}
		return sites
	}
	return append(sites, s)
}

// siteRanksAbove reports whether covered site s is a better report of a
// card than o (see withSite).
func siteRanksAbove(s, o coveredSite) bool {
	if (s.replaces >= 0) != (o.replaces >= 0) {
		return s.replaces >= 0
	}
	if s.named != o.named {
		return s.named
	}
	return s.det.score > o.det.score
}

// cellHolds is what a cell holds of the cards found, for the covered-site
// search.
type cellHolds struct {
	// site and unit: a site, and a card of another kind, centred in it
	// (unit also when the cards beside cover much of its unnamed
	// outlined site).
	site, unit bool
	// outlined is the place in found of an unnamed site in it (see
	// unnamedSites), or -1.
	outlined int
	// beside tells that it holds no card, and the cards beside it (or an
	// arm, then arm is set) cover much of where its site would lie; share
	// is how much the cards beside cover.
	beside, arm bool
	share       float64
}

// cellHolding tells what the cell holds of the cards found.
func cellHolding(v *view, cell models.Cell, found []placed, unnamed unnamedSites) cellHolds {
	h := cellHolds{outlined: -1}
	for i, p := range found {
		c, ok := v.cellAt(p.quad.Center())
		if !ok || c != cell {
			continue
		}
		if _, bare := unnamed[i]; bare && h.outlined < 0 {
			h.outlined = i
			// One lying on a card is taken for a unit (see
			// unnamedSites), and may be one.
			h.unit = h.unit || p.kind != models.KindSite
			continue
		}
		if p.kind == models.KindSite {
			h.site = true
		} else {
			h.unit = true
		}
	}
	return h
}

// siteAreaCovered gives the share of where a site centred on a cell would
// lie that the found cards other than sites, or the arm (when not nil),
// cover (read on a grid of points 4 mm apart).
func siteAreaCovered(v *view, cell models.Cell, found []placed, arm *armCover) float64 {
	r := v.cellRect(cell, 0)
	cx, cy := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
	var quads []models.Quad
	for _, p := range found {
		if p.kind != models.KindSite {
			quads = append(quads, p.quad)
		}
	}
	if len(quads) == 0 && arm == nil {
		return 0
	}
	const stepMM = 4
	nx, ny := int(math.Round(models.CardLongMM/stepMM)), int(math.Round(models.CardShortMM/stepMM))
	covered := 0
	for j := 0; j < ny; j++ {
		for i := 0; i < nx; i++ {
			x := cx + (float64(i)+0.5-float64(nx)/2)*stepMM*v.pxPerMM
			y := cy + (float64(j)+0.5-float64(ny)/2)*stepMM*v.pxPerMM
			if p := (models.Point{X: x, Y: y}); insideAny(p, quads) || arm.on(p) {
				covered++
			}
		}
	}
	return float64(covered) / float64(nx*ny)
}

// quadShownShare gives the share of a quad (in top-down pixels) that the
// cards in on leave showing, read on a grid of points about 4 mm apart.
func quadShownShare(v *view, q models.Quad, on []placed) float64 {
	const stepMM = 4
	nx := max(2, int(math.Round(math.Hypot(q[1].X-q[0].X, q[1].Y-q[0].Y)/v.pxPerMM/stepMM)))
	ny := max(2, int(math.Round(math.Hypot(q[3].X-q[0].X, q[3].Y-q[0].Y)/v.pxPerMM/stepMM)))
	return float64(nx*ny-quadPointsCovered(q, quadsOfPlaced(on), nx, ny)) / float64(nx*ny)
}

// quadPointsCovered counts the points of an nx × ny grid spread evenly
// over quad q (the middles of its cells, bilinear between its corners,
// top-left clockwise) that lie inside one of the quads.
func quadPointsCovered(q models.Quad, quads []models.Quad, nx, ny int) int {
	in := 0
	for j := 0; j < ny; j++ {
		t := (float64(j) + 0.5) / float64(ny)
		for i := 0; i < nx; i++ {
			u := (float64(i) + 0.5) / float64(nx)
			x := (1-t)*((1-u)*q[0].X+u*q[1].X) + t*((1-u)*q[3].X+u*q[2].X)
			y := (1-t)*((1-u)*q[0].Y+u*q[1].Y) + t*((1-u)*q[3].Y+u*q[2].Y)
			if insideAny(models.Point{X: x, Y: y}, quads) {
				in++
			}
		}
	}
	return in
}

func quadsOfPlaced(ps []placed) []models.Quad {
	out := make([]models.Quad, len(ps))
	for i, p := range ps {
		out[i] = p.quad
	}
	return out
}

// coveredSearch is what the covered-site search keeps from frame to frame:
// the catalog's site faces, gathered for the first cell that needs them
// (the index does not change), and the buffers of a cell's edge sums.
type coveredSearch struct {
	faces *siteFaces
	sums  edgeSums
}

// cellRect gives a cell's rectangle in top-down pixels, grown by growMM on
// every side.
func (v *view) cellRect(c models.Cell, growMM float64) image.Rectangle {
	g := v.geo
	x0, x1 := float64(c.Col)*g.CellWidthMM-growMM, float64(c.Col+1)*g.CellWidthMM+growMM
	y0, y1 := float64(c.Row)*g.CellHeightMM-growMM, float64(c.Row+1)*g.CellHeightMM+growMM
	s := v.pxPerMM
	px := func(x float64) int { return int(math.Round((x + v.marginMM) * s)) }
	py := func(y float64) int { return int(math.Round((g.HeightMM() + v.marginMM - y) * s)) }
	return image.Rect(px(x0), py(y1), px(x1), py(y0))
}

// siteUnder searches one cell for a covered site.
func (a *Analyzer) siteUnder(gray gocv.Mat, v *view, cell models.Cell, found []placed, search *coveredSearch) (coveredSite, bool) {
	faces := search.faces
	r := v.cellRect(cell, 0).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 32 || r.Dy() < 32 {
		return coveredSite{}, false
	}
	// Only what the cards on top leave visible.
	mask := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), r.Dy(), r.Dx(), gocv.MatTypeCV8U)
	defer mask.Close()
	fillGrownQuads(&mask, r.Min, found, 0, color.RGBA{})
	if float64(gocv.CountNonZero(mask)) < coveredMinAreaMM2*v.pxPerMM*v.pxPerMM {
		return coveredSite{}, false
	}
	places := sitePlacements(gray, v, cell, found, &search.sums, false)
	if len(places) == 0 {
		return coveredSite{}, false
	}
	s, ok := a.siteNamedAt(gray, v, found, faces, places)
	if ok && !a.showsOnlyMatBeside(s.quad, v, quadsOfPlaced(found)) {
		return s, true
	}
	// The best placement may owe its lead to the mat's grid lines
	// (hideGridLines): when an end or side of it lies on one, the site is
	// looked for again near the cell's centre with the lines unread, and
	// taken only named. Only then: a site's own side within
	// placeGridPadMM of a line goes unread too, and the placements found
	// with every edge read lie nearer it.
	if onGridLine(places[0], v) {
		if alt := sitePlacements(gray, v, cell, found, &search.sums, true); len(alt) > 0 && apartFromAll(alt[0], places, v.pxPerMM) {
			if s, ok := a.siteNamedAt(gray, v, found, faces, alt); ok && s.named && !a.showsOnlyMatBeside(s.quad, v, quadsOfPlaced(found)) {
				return s, true
			}
		}
	}
	if p := places[0]; outlineShows(p) {
		return coveredSite{quad: p.quad(v.pxPerMM)}, true
	}
	return coveredSite{}, false
}

// siteNamedAt names the site at one of the placements (best first), or
// reports a site the catalog lacks there (named false, ok true).
func (a *Analyzer) siteNamedAt(gray gocv.Mat, v *view, found []placed, faces *siteFaces, places []sitePlacement) (coveredSite, bool) {
	var lead *detection
	if len(faces.refs) > 0 {
		n, named := a.nameSiteAt(gray, v, faces, places, found, outlineShows(places[0]))
		lead = n.lead
		if (named || n.lookAlike) && (n.layout >= coveredMinLayout || outlineShows(n.place) || outlineShows(places[0])) {
			// A face that leads only by a look-alike's tones still shows
			// where a site the catalog lacks lies.
			return coveredSite{det: n.det, named: named, quad: n.det.quad}, true
		}
	}
	// Smooth art shows too little detail in grey: what shows is named by
	// its colours (appearance_masked.go).
	onTop := quadsOfPlaced(found)
	if lead != nil {
		// The outline's placement is often a few millimetres or degrees
		// off (a grid line beside the site's edge, the card on top's own
		// edges), more than the colour thumbnail's 2 mm moves make up
		// for; the grey comparison's leading face, moved and aligned onto
		// what shows, lies where the site does even when it correlates
		// too weakly to be named (smooth art, a soft frame). What shows is
		// named there by its colours only when they name that same face:
		// a face the colours name at a placement fitted for another may
		// owe its lead to the placement. Measured on the independent
		// sets' half-covered sites under a unit at 1 px/mm or more: by
		// colour, 0 of 6 named at the outline's placement, 5 of 6 at the
		// true one, 2 of 6 here; on blurred poster scenes
		// (halfCoveredScene, 400 sites), 21 more named, none wrongly
		// (without the agreement, on 300 others, one named wrongly).
		d, ok := a.namePart(lead.quad, v, models.KindSite, onTop)
		if ok && a.index.refs[d.ref].card.Name == a.index.refs[lead.ref].card.Name {
			return coveredSite{det: d, named: true, quad: d.quad}, true
		}
	}
	for _, p := range places {
		if !outlineShows(p) && p.onEdge < coveredPartOnEdge {
			continue
		}
		if d, ok := a.namePart(p.quad(v.pxPerMM), v, models.KindSite, onTop); ok {
			return coveredSite{det: d, named: true, quad: d.quad}, true
		}
	}
	return coveredSite{}, false
}

// namePartOn names by look the site found by its outline at place i of
// found, with the other cards found hidden (those on top of it).
func (a *Analyzer) namePartOn(v *view, found []placed, i int) (detection, bool) {
	q := found[i].quad
	if found[i].kind != models.KindSite && !landscape(q) {
		return detection{}, false
	}
	var onTop []models.Quad
	for j, p := range found {
		if j != i {
			onTop = append(onTop, p.quad)
		}
	}
	return a.namePart(q, v, models.KindSite, onTop)
}

// outlineShows reports whether a placement's outline shows clearly enough
// to report a site there without a name.
func outlineShows(p sitePlacement) bool {
	if p.visibleMM < coveredOutlineMinMM || p.onEdge < coveredOutlineOnEdge {
		return false
	}
	for e := range p.endMM {
		if p.endMM[e] < coveredEndMinMM || p.endOnEdge[e] < coveredEndOnEdge {
			continue
		}
		// Both corners of that end: a printed line on the mat has none.
		corners := true
		for side := range p.stubMM[e] {
			if p.stubMM[e][side] < coveredStubMinMM || p.stubOnEdge[e][side] < coveredStubOnEdge {
				corners = false
			}
		}
		if corners {
			return true
		}
	}
	return false
}

// grow moves a quad's corners d pixels away from its centre.
func grow(q models.Quad, d float64) models.Quad {
	c := q.Center()
	var out models.Quad
	for i, p := range q {
		dx, dy := p.X-c.X, p.Y-c.Y
		n := math.Hypot(dx, dy)
		if n < 1e-9 {
			out[i] = p
			continue
		}
		f := (n + d*math.Sqrt2) / n
		out[i] = models.Point{X: c.X + dx*f, Y: c.Y + dy*f}
	}
	return out
}

// fillGrownQuads paints each found card's quad, grown by pad, into img,
// whose top-left pixel is origin in the top-down image (cards wholly
// outside it are left out). Each quad is filled whole, where two overlap
// too (fillEach: a unit pushed onto another, or onto a site beside), or
// the card on top's own edges and face there are read as the covered
// site's, placing and naming it off.
func fillGrownQuads(img *gocv.Mat, origin image.Point, found []placed, pad float64, c color.RGBA) {
	w, h := float64(img.Cols()), float64(img.Rows())
	polys := make([][]image.Point, 0, len(found))
	for _, p := range found {
		g := grow(p.quad, pad)
		x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, q := range g {
			x, y := q.X-float64(origin.X), q.Y-float64(origin.Y)
			x0, x1 = math.Min(x0, x), math.Max(x1, x)
			y0, y1 = math.Min(y0, y), math.Max(y1, y)
		}
		if x1 < -1 || y1 < -1 || x0 > w+1 || y0 > h+1 {
			continue
		}
		poly := make([]image.Point, 0, len(g))
		for _, q := range g {
			poly = append(poly, image.Pt(int(math.Round(q.X))-origin.X, int(math.Round(q.Y))-origin.Y))
		}
		polys = append(polys, poly)
	}
	fillEach(img, polys, c)
}

// allBut gives a copy of found without its i-th card: the cards that may
// lie on it.
func allBut(found []placed, i int) []placed {
	return append(append(make([]placed, 0, len(found)-1), found[:i]...), found[i+1:]...)
}
