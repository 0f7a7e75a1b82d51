package vision

import (
	"image"
	"image/color"
	"math"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A site under a unit centred on it shows only its two short ends, about
// 12 mm each beside a portrait card: too few keypoints for the free fit of
// matchFrame, and no outline for findUnknownCards. But the realm's geometry
// is known: once rectified, a site lies roughly axis-aligned (turned 0° or
// 180°, by its owner) in its cell, at scale 1. A fit with only a shift free
// needs far fewer inliers to be trusted, so each cell that holds a unit and
// no site is searched for one under it, among the site faces only.
const (
	coveredEdgePad     = 6    // pixels around a card on top whose keypoints are not trusted (their patch overlaps its edge)
	coveredSearchMM    = 8.0  // how far beyond the cell the visible ends may reach
	coveredMinInliers  = 7    // inliers to name a covered site
	coveredMaxHamming  = 60   // a keypoint match farther than this is noise
	coveredMaxTurnDeg  = 8.0  // how far from axis-aligned a site may lie
	coveredThreshold   = 4.0  // inlier distance, pixels
	coveredSiteRatio   = 0.85 // best site distance must be below this × the best on another site
	coveredMinAreaMM2  = 400  // visible area beside the cards on top below which a cell is not searched
	coveredOutlineMin  = 0.55 // share of the visible outline that must lie on edges to report an unnamed site
	coveredOutlineSide = 0.45 // share of each short end that must lie on edges
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
}

// findCoveredSites looks, in every cell that holds a unit or token and no
// site, for a site lying under it.
func (a *Analyzer) findCoveredSites(gray gocv.Mat, v *view, found []placed) []coveredSite {
	var out []coveredSite
	for row := 0; row < models.Rows; row++ {
		for col := 0; col < models.Columns; col++ {
			cell := models.Cell{Col: col, Row: row}
			hasSite, hasUnit := false, false
			for _, p := range found {
				c, ok := v.cellAt(p.quad.Center())
				if !ok || c != cell {
					continue
				}
				if p.kind == models.KindSite {
					hasSite = true
				} else {
					hasUnit = true
				}
			}
			if hasSite || !hasUnit {
				continue
			}
			if s, ok := a.siteUnder(gray, v, cell, found); ok {
				out = append(out, s)
			}
		}
	}
	return out
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
func (a *Analyzer) siteUnder(gray gocv.Mat, v *view, cell models.Cell, found []placed) (coveredSite, bool) {
	r := v.cellRect(cell, coveredSearchMM).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 32 || r.Dy() < 32 {
		return coveredSite{}, false
	}
	// Only what the cards on top leave visible, away from their edges.
	mask := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 0, 0, 0), r.Dy(), r.Dx(), gocv.MatTypeCV8U)
	defer mask.Close()
	fillGrownQuads(&mask, r.Min, found, coveredEdgePad, color.RGBA{})
	if float64(gocv.CountNonZero(mask)) < coveredMinAreaMM2*v.pxPerMM*v.pxPerMM {
		return coveredSite{}, false
	}
	if d, ok := a.nameCoveredSite(gray, v, cell, r, mask); ok {
		return coveredSite{det: d, named: true, quad: d.quad}, true
	}
	if q, ok := siteOutlineUnder(gray, v, cell, found); ok {
		if d, ok := a.nameSiteByEnds(gray, q, found); ok {
			return coveredSite{det: d, named: true, quad: d.quad}, true
		}
		return coveredSite{quad: q}, true
	}
	return coveredSite{}, false
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

// nameCoveredSite matches the visible part of a cell (mask over the region
// r of the top-down image) against the site faces, fitting a shift with the
// site axis-aligned. ok is false unless one site clearly wins.
func (a *Analyzer) nameCoveredSite(gray gocv.Mat, v *view, cell models.Cell, r image.Rectangle, mask gocv.Mat) (detection, bool) {
	x := a.index
	roi := gray.Region(r)
	f, err := detect(&a.regionORB, roi, mask)
	roi.Close()
	if err != nil || len(f.Points) < coveredMinInliers {
		return detection{}, false
	}
	offsets := x.descriptorOffsets()
	byRef := map[int][]pointPair{}
	for qi := range f.Descs {
		n, ok := x.lsh.queryKind(&f.Descs[qi], x.siteRef)
		if !ok || n.dist > coveredMaxHamming || float64(n.dist) >= coveredSiteRatio*float64(n.second) {
			continue
		}
		ri := int(n.ref)
		rp, fp := x.refs[ri].Feat.Points[int(n.id)-offsets[ri]], f.Points[qi]
		byRef[ri] = append(byRef[ri], pointPair{float64(rp.X), float64(rp.Y), float64(fp.X) + float64(r.Min.X), float64(fp.Y) + float64(r.Min.Y)})
	}
	// The site's centre must lie in the cell, give or take the search margin.
	cr := v.cellRect(cell, coveredSearchMM/2)
	type fit struct {
		ref     int
		sim     similarity
		inliers int
		matches int
	}
	var best, second fit
	for ri, pairs := range byRef {
		if len(pairs) < 3 {
			continue
		}
		ref := &x.refs[ri]
		sim, n := fitAxisAligned(pairs, ref, cr)
		fi := fit{ref: ri, sim: sim, inliers: n, matches: len(pairs)}
		switch {
		case n > best.inliers || (n == best.inliers && ri < best.ref):
			second, best = best, fi
		case n > second.inliers:
			second = fi
		}
	}
	// One site clearly ahead: a chance alignment rarely gathers many
	// inliers, and never on two faces at once.
	if best.inliers < coveredMinInliers || best.inliers < 2*second.inliers+2 {
		return detection{}, false
	}
	ref := &x.refs[best.ref]
	d := detection{ref: best.ref, sim: best.sim, inliers: best.inliers, matches: best.matches}
	w, h := float64(ref.W), float64(ref.H)
	for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
		px, py := best.sim.apply(c[0], c[1])
		d.quad[k] = models.Point{X: px, Y: py}
	}
	return d, true
}

// fitAxisAligned finds the placement of a site face, turned 0° or 180° at
// scale 1 and shifted so that its centre lies in the rectangle cr, that most
// pairs agree with: every pair proposes a shift, the one most others agree
// with wins, and a similarity is refined on its inliers (kept only if it
// stays near axis-aligned and at scale 1).
func fitAxisAligned(pairs []pointPair, ref *reference, cr image.Rectangle) (similarity, int) {
	t2 := coveredThreshold * coveredThreshold
	cx, cy := float64(ref.W)/2, float64(ref.H)/2
	var best similarity
	bestN := 0
	for _, a := range []float64{1, -1} { // turned 0° or 180°
		for i := range pairs {
			p := pairs[i]
			s := similarity{A: a, Tx: p.fx - a*p.rx, Ty: p.fy - a*p.ry}
			mx, my := s.apply(cx, cy)
			if !(image.Point{X: int(mx), Y: int(my)}).In(cr) {
				continue
			}
			if n := countInliers(pairs, s, t2); n > bestN {
				best, bestN = s, n
			}
		}
	}
	if bestN < 3 {
		return similarity{}, 0
	}
	// Refine on the inliers (the site may lie a few degrees off).
	var in []pointPair
	for _, q := range pairs {
		x, y := best.apply(q.rx, q.ry)
		if (x-q.fx)*(x-q.fx)+(y-q.fy)*(y-q.fy) <= t2 {
			in = append(in, q)
		}
	}
	if s, ok := fitSimilarity(in); ok && math.Abs(s.scale()-1) < 0.08 && turnOff(s, best) <= coveredMaxTurnDeg {
		if n := countInliers(pairs, s, t2); n >= bestN {
			best, bestN = s, n
		}
	}
	return best, bestN
}

// turnOff is the angle in degrees between two similarities' turns.
func turnOff(s, t similarity) float64 {
	d := math.Abs(s.angle() - t.angle())
	if d > 180 {
		d = 360 - d
	}
	return d
}

func countInliers(pairs []pointPair, s similarity, t2 float64) int {
	n := 0
	for _, q := range pairs {
		x, y := s.apply(q.rx, q.ry)
		if (x-q.fx)*(x-q.fx)+(y-q.fy)*(y-q.fy) <= t2 {
			n++
		}
	}
	return n
}

// queryKind is query restricted to the references accept takes: the
// nearest such descriptor, and the nearest on another such reference.
func (x *lshIndex) queryKind(d *descriptor, accept []bool) (n nearest, ok bool) {
	n = nearest{id: -1, ref: -1, dist: 257, second: 256}
	for ti := range x.tables {
		t := &x.tables[ti]
		k := t.key(d)
		for _, id := range t.ids[t.offsets[k]:t.offsets[k+1]] {
			ref := x.owner[id]
			if id == n.id || !accept[ref] {
				continue
			}
			n.offer(id, ref, hamming(d, &x.descs[id]))
		}
	}
	return n, n.id >= 0
}

// siteOutlineUnder looks for the outline of a site lying under the cards on
// top of a cell: the two short ends and the stubs of the long sides that
// stick out. It tries every placement of an axis-aligned site (near 0° or
// 180°, which look alike) with its centre near the cell's, and keeps the one
// whose visible outline lies most on edges. ok is false unless enough of the
// outline shows and lies on edges, both short ends included.
func siteOutlineUnder(gray gocv.Mat, v *view, cell models.Cell, found []placed) (models.Quad, bool) {
	s := v.pxPerMM
	r := v.cellRect(cell, coveredSearchMM+4).Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows()))
	if r.Dx() < 32 || r.Dy() < 32 {
		return models.Quad{}, false
	}
	roi := gray.Region(r)
	blur := gocv.NewMat()
	gocv.GaussianBlur(roi, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	roi.Close()
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(blur, &edges, 40, 120)
	blur.Close()
	k := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	gocv.Dilate(edges, &edges, k)
	k.Close()
	data, err := edges.DataPtrUint8()
	if err != nil {
		return models.Quad{}, false
	}
	w, h := edges.Cols(), edges.Rows()
	hidden := newCoverMask(r, found, 3)
	// Outline samples of a site centred at the origin, 1 mm apart, in
	// pixels: which short end (0, 1) or long side (-1) each belongs to.
	type sample struct {
		x, y float64
		end  int
	}
	hw, hh := models.CardLongMM/2*s, models.CardShortMM/2*s
	var outline []sample
	for t := -hh; t <= hh; t += s {
		outline = append(outline, sample{-hw, t, 0}, sample{hw, t, 1})
	}
	for t := -hw; t <= hw; t += s {
		outline = append(outline, sample{t, -hh, -1}, sample{t, hh, -1})
	}
	cellC := models.Point{X: float64(v.cellRect(cell, 0).Min.X+v.cellRect(cell, 0).Max.X) / 2, Y: float64(v.cellRect(cell, 0).Min.Y+v.cellRect(cell, 0).Max.Y) / 2}
	type score struct {
		share          float64 // of the visible outline on edges
		ok             bool
		cx, cy, angDeg float64
	}
	eval := func(cx, cy, angDeg float64) score {
		ca, sa := math.Cos(angDeg*math.Pi/180), math.Sin(angDeg*math.Pi/180)
		var on, vis int
		var endOn, endVis [2]int
		for _, p := range outline {
			x := cx + ca*p.x - sa*p.y
			y := cy + sa*p.x + ca*p.y
			ix, iy := int(math.Round(x))-r.Min.X, int(math.Round(y))-r.Min.Y
			if ix < 0 || iy < 0 || ix >= w || iy >= h || hidden.data[iy*w+ix] != 0 {
				continue
			}
			vis++
			edge := data[iy*w+ix] != 0
			if edge {
				on++
			}
			if p.end >= 0 {
				endVis[p.end]++
				if edge {
					endOn[p.end]++
				}
			}
		}
		sc := score{share: float64(on) / float64(max(vis, 1)), cx: cx, cy: cy, angDeg: angDeg}
		// Each short end must mostly show (a site sticks out on both sides
		// of a unit centred on it) and lie on edges.
		endLen := int(models.CardShortMM)
		for e := 0; e < 2; e++ {
			share := float64(endOn[e]) / float64(max(endVis[e], 1))
			if endVis[e] < endLen/2 || share < coveredOutlineSide {
				return sc
			}
		}
		sc.ok = sc.share >= coveredOutlineMin
		return sc
	}
	var best score
	better := func(c score) {
		if c.ok && (!best.ok || c.share > best.share) {
			best = c
		}
	}
	// Coarse: 2 mm and 3° steps; then 0.5 mm and 1° around the best.
	rangeX := (v.geo.CellWidthMM - models.CardLongMM) / 2 * s
	rangeY := (v.geo.CellHeightMM - models.CardShortMM) / 2 * s
	rangeX, rangeY = max(rangeX, 6*s)+4*s, max(rangeY, 6*s)+4*s
	for dy := -rangeY; dy <= rangeY; dy += 2 * s {
		for dx := -rangeX; dx <= rangeX; dx += 2 * s {
			for _, a := range []float64{-3, 0, 3} {
				better(eval(cellC.X+dx, cellC.Y+dy, a))
			}
		}
	}
	if !best.ok {
		return models.Quad{}, false
	}
	c := best
	for dy := -1.5 * s; dy <= 1.5*s; dy += s / 2 {
		for dx := -1.5 * s; dx <= 1.5*s; dx += s / 2 {
			for da := -1.5; da <= 1.5; da += 0.5 {
				better(eval(c.cx+dx, c.cy+dy, c.angDeg+da))
			}
		}
	}
	ca, sa := math.Cos(best.angDeg*math.Pi/180), math.Sin(best.angDeg*math.Pi/180)
	var q models.Quad
	for i, p := range [4][2]float64{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}} {
		q[i] = models.Point{X: best.cx + ca*p[0] - sa*p[1], Y: best.cy + sa*p[0] + ca*p[1]}
	}
	return q, true
}

// Naming a covered site by its visible ends: once its outline is placed,
// the ends are compared, pixel by pixel at 1 px/mm, with every site face
// turned both ways (normalized cross-correlation over the pixels no card
// hides). A site is named only when one face correlates well and clearly
// better than any other.
const (
	stripMinNCC     = 0.55 // correlation the best face needs
	stripMinLead    = 0.2  // by how much it must beat the best other face
	stripMinPixels  = 250  // visible face pixels (mm²) needed to compare
	stripBorderPx   = 2    // thumbnail pixels along the face's edge left out (placement error)
	stripHiddenPad  = 3.0  // top-down pixels around a card on top left out
	stripConfidence = 0.8  // the most a site named by its ends is reported with
	stripShortlist  = 8    // faces also tried at the shifted placements
)

// nameSiteByEnds names the site whose outline is q (top-down pixels, the
// corners of an upright landscape face from its top-left, clockwise, for
// a site turned 0°) by the parts no card hides.
func (a *Analyzer) nameSiteByEnds(gray gocv.Mat, q models.Quad, found []placed) (detection, bool) {
	x := a.index
	var bound image.Rectangle
	for i, p := range q {
		pr := image.Rect(int(p.X)-8, int(p.Y)-8, int(p.X)+9, int(p.Y)+9)
		if i == 0 {
			bound = pr
		} else {
			bound = bound.Union(pr)
		}
	}
	hidden := newCoverMask(bound.Intersect(image.Rect(0, 0, gray.Cols(), gray.Rows())), found, stripHiddenPad)
	type turnView struct {
		sim  similarity // face pixels (index scale) → top-down pixels
		quad models.Quad
		px   []byte
		diff []float64 // px less the mean site face
		vis  []bool
		n    int
	}
	var views []turnView
	var tw, th int
	for _, r := range x.refs {
		if r.Kind == models.KindSite && len(r.Thumb) > 0 {
			tw, th = r.W/2, r.H/2
			break
		}
	}
	if tw == 0 {
		return detection{}, false
	}
	// The outline may be a millimetre off: try it shifted by a thumbnail
	// pixel (1 mm) each way too.
	for view := 0; view < 18; view++ {
		turn, shift := view/9, view%9
		// Turned 180°, the face's top-left corner lies at the outline's bottom-right.
		qq := q
		if turn == 1 {
			qq = models.Quad{q[2], q[3], q[0], q[1]}
		}
		sx, sy := float64(shift%3-1)*2, float64(shift/3-1)*2 // top-down pixels
		for i := range qq {
			qq[i].X += sx
			qq[i].Y += sy
		}
		fw := float64(tw * 2)
		sim, ok := similarityFrom2(pointPair{0, 0, qq[0].X, qq[0].Y}, pointPair{fw, 0, qq[1].X, qq[1].Y})
		if !ok {
			return detection{}, false
		}
		// Thumbnail pixel → top-down pixel.
		hm := homography{2 * sim.A, -2 * sim.B, sim.Tx, 2 * sim.B, 2 * sim.A, sim.Ty, 0, 0, 1}
		m := homographyMat(hm)
		warped := gocv.NewMat()
		gocv.WarpPerspectiveWithParams(gray, &warped, m, image.Pt(tw, th), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, color.RGBA{})
		m.Close()
		px := warped.ToBytes()
		warped.Close()
		vis := make([]bool, tw*th)
		n := 0
		for v := stripBorderPx; v < th-stripBorderPx; v++ {
			for u := stripBorderPx; u < tw-stripBorderPx; u++ {
				t := hm.Apply(models.Point{X: float64(u) + 0.5, Y: float64(v) + 0.5})
				tx, ty := t.X, t.Y
				if hidden.visible(tx, ty) {
					vis[v*tw+u] = true
					n++
				}
			}
		}
		views = append(views, turnView{sim: sim, quad: qq, px: px, vis: vis, n: n})
	}
	if views[4].n < stripMinPixels {
		return detection{}, false
	}
	// What every site face shares (frame, title bar, text box) says
	// nothing about which one this is: compare what differs from the mean.
	mean := x.meanSiteThumb
	if len(mean) != tw*th {
		return detection{}, false
	}
	for t := range views {
		views[t].diff = make([]float64, tw*th)
		for i, p := range views[t].px {
			views[t].diff[i] = float64(p) - mean[i]
		}
	}
	// Every site face at the outline as found (both turns), then the few
	// best of them at the shifted placements too.
	type cand struct {
		ref   int
		score float64
		view  int
	}
	scoreRef := func(ri int, viewIdx []int, refDiff []float64) cand {
		for i, p := range x.refs[ri].Thumb {
			refDiff[i] = float64(p) - mean[i]
		}
		c := cand{ref: ri, score: -1}
		for _, vi := range viewIdx {
			if sc := ncc(views[vi].diff, refDiff, views[vi].vis); sc > c.score {
				c.score, c.view = sc, vi
			}
		}
		return c
	}
	refDiff := make([]float64, tw*th)
	var cands []cand
	for ri := range x.refs {
		if r := &x.refs[ri]; r.Kind == models.KindSite && len(r.Thumb) == tw*th {
			cands = append(cands, scoreRef(ri, []int{4, 13}, refDiff))
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	all := make([]int, len(views))
	for i := range all {
		all[i] = i
	}
	best, bestTurn, bestScore, otherScore := -1, 0, -1.0, -1.0
	if len(cands) > stripShortlist {
		otherScore = cands[stripShortlist].score
	}
	for _, c := range cands[:min(stripShortlist, len(cands))] {
		c = scoreRef(c.ref, all, refDiff)
		switch {
		case c.score > bestScore:
			otherScore = max(otherScore, bestScore)
			best, bestTurn, bestScore = c.ref, c.view, c.score
		case c.score > otherScore:
			otherScore = c.score
		}
	}
	if best < 0 || bestScore < stripMinNCC || bestScore-otherScore < stripMinLead {
		return detection{}, false
	}
	tv := views[bestTurn]
	d := detection{ref: best, sim: tv.sim, quad: tv.quad, score: math.Min(bestScore, stripConfidence)}
	return d, true
}

// ncc is the normalized cross-correlation of two grey images over the
// pixels mask marks.
func ncc(a, b []float64, mask []bool) float64 {
	var n, sa, sb float64
	for i, m := range mask {
		if m {
			n++
			sa += a[i]
			sb += b[i]
		}
	}
	if n == 0 {
		return -1
	}
	ma, mb := sa/n, sb/n
	var sab, saa, sbb float64
	for i, m := range mask {
		if m {
			da, db := a[i]-ma, b[i]-mb
			sab += da * db
			saa += da * da
			sbb += db * db
		}
	}
	if saa < 1e-9 || sbb < 1e-9 {
		return -1
	}
	return sab / math.Sqrt(saa*sbb)
}

// coverMask marks, over a rectangle of the top-down image, the pixels that
// cards lying on top hide (with a margin around each).
type coverMask struct {
	r    image.Rectangle
	data []byte // non-zero where hidden, row by row over r
}

func newCoverMask(r image.Rectangle, found []placed, pad float64) coverMask {
	m := coverMask{r: r}
	if r.Empty() {
		return m
	}
	mat := gocv.NewMatWithSize(r.Dy(), r.Dx(), gocv.MatTypeCV8U)
	defer mat.Close()
	mat.SetTo(gocv.NewScalar(0, 0, 0, 0))
	fillGrownQuads(&mat, r.Min, found, pad, color.RGBA{255, 255, 255, 0})
	m.data = mat.ToBytes()
	return m
}

// fillGrownQuads paints each found card's quad, grown by pad, into img,
// whose top-left pixel is origin in the top-down image.
func fillGrownQuads(img *gocv.Mat, origin image.Point, found []placed, pad float64, c color.RGBA) {
	if len(found) == 0 {
		return
	}
	polys := make([][]image.Point, 0, len(found))
	for _, p := range found {
		var poly []image.Point
		for _, q := range grow(p.quad, pad) {
			poly = append(poly, image.Pt(int(math.Round(q.X))-origin.X, int(math.Round(q.Y))-origin.Y))
		}
		polys = append(polys, poly)
	}
	pv := gocv.NewPointsVectorFromPoints(polys)
	defer pv.Close()
	gocv.FillPoly(img, pv, c)
}

// visible reports whether the top-down pixel at (x, y) lies in the mask's
// rectangle and no card hides it.
func (m coverMask) visible(x, y float64) bool {
	ix, iy := int(math.Floor(x))-m.r.Min.X, int(math.Floor(y))-m.r.Min.Y
	if ix < 0 || iy < 0 || ix >= m.r.Dx() || iy >= m.r.Dy() {
		return false
	}
	return m.data[iy*m.r.Dx()+ix] == 0
}
