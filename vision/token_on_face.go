package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// Tokens on named cards. A token played onto a site (or a unit) whose face
// was named shows no closed outline of its own, and its sides run along the
// card's: the token searches (outline_tokens.go) leave the named card's face
// out of their edges, and look for tokens only where no card was named. A
// token of few keypoints (far, blurred, smooth art) is then missed. But a
// named card's face is known: where a part of it the size of a token does
// not look like the face, something lies on it. Each named card's face is
// laid over what the camera shows of it (colour thumbnails at lookPxPerMM,
// both blurred alike), its tone fitted channel by channel (a gain and an
// offset, refitted on the half of the pixels that agree best), and the
// pixels that disagree (by more than the face's noise, and than each of the
// nine face pixels about theirs: the outline may be a pixel off) are
// counted in every token-sized box over it, a token possibly lying partly
// off it. Where a box holds enough and mostly such pixels, the token's
// rectangle is sought about it on the thumbnail grown by a token's long
// side all round: each pixel on the face scores by whether it disagrees,
// each on no card found by whether it differs from the mat's median colour
// there (the cards on top, the other cards found and what the camera frame
// does not show score nothing), and the token-sized rectangle, turned a few
// degrees either way from the face's axes and the grid's, whose inside
// scores most is proposed, and a few millimetres off it along either axis
// as its alternatives. The token is kept only when its look names a token
// (nameToken), as the other token searches' are; a proposal reaching
// beyond the camera frame is none (what the frame does not show is black,
// which a face never is there). Only the named cards whose matched
// keypoints leave room for a token are compared (token_on_face_gate.go).
const (
	// faceTokenMinShare: a token-sized box over the face must hold
	// disagreeing pixels over this share of a token's area, and
	// faceTokenMinDiffer of the face's pixels it covers must disagree.
	faceTokenMinShare  = 0.1
	faceTokenMinDiffer = 0.6
	// faceDiffFloor is the least residual (summed over the three
	// channels, 8-bit levels) a pixel disagrees by, and faceDiffNoise the
	// multiple it must exceed besides of the residual that faceNoiseRank
	// percent of the pixels stay under (the face's noise: a token may
	// cover most of the rest).
	faceDiffFloor = 45.0
	faceDiffNoise = 3.0
	faceNoiseRank = 10
	// faceEdgeMM: pixels this near a named card's outline are not scored
	// in the search for the token's rectangle (the outline may be a
	// little off, and its rim blurs).
	faceEdgeMM = 2.0
	// The token's rectangle is sought within faceTokenShiftMM of the box's
	// centre, at steps of a thumbnail pixel (2 mm), turned by up to
	// faceTokenTurnDeg (in faceTokenTurnStep steps) either way from the
	// face's axes and the grid's. Its inside must score faceTokenMinScore
	// on average (1: all of it disagrees or differs from the mat).
	faceTokenShiftMM  = 8
	faceTokenTurnDeg  = 8.0
	faceTokenTurnStep = 4.0
	faceTokenMinScore = 0.5
	// faceTokenAltMM: the rectangle moved so far along either axis, either
	// way, gives the alternatives the look tries in turn (the box is read
	// at 2 mm a pixel).
	faceTokenAltMM = 4.0
	// faceTokenMaxAnchor bounds the tokens proposed in one frame.
	faceTokenMaxAnchor = 6
)

// tokensOnFaces proposes the tokens lying on the named cards (see Tokens on
// named cards) whose matched keypoints leave room for one (mayHoldToken);
// f are the frame's keypoints, found the cards found so far.
func (a *Analyzer) tokensOnFaces(f features, v *view, named []namedCard, found []placed) []stackedCard {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 {
		return nil
	}
	var out []stackedCard
	for _, n := range named {
		ref := &a.index.refs[n.det.ref]
		if ref.Kind == models.KindToken {
			continue
		}
		onTop := a.lyingOn(n.det, found)
		if !a.mayHoldToken(f, v, n.det, onTop) {
			continue
		}
		box, fit, ok := a.differingBox(v, ref, n.det.quad, onTop)
		if !ok {
			continue
		}
		q, ok := a.tokenAround(v, n.det.quad, ref, box, fit, onTop, found)
		if !ok || sameCardAsAny(q, quadsOfPlaced(found)) || sameCardAsAny(q, quadsOfStacked(out)) {
			continue
		}
		out = append(out, stackedCard{quad: q, kind: models.KindToken, tapped: landscape(q), alts: shiftedQuads(q, faceTokenAltMM*v.pxPerMM)})
		if len(out) >= faceTokenMaxAnchor {
			break
		}
	}
	return out
}

// quadsOfStacked gives the cards' quads.
func quadsOfStacked(cards []stackedCard) []models.Quad {
	out := make([]models.Quad, len(cards))
	for i, c := range cards {
		out[i] = c.quad
	}
	return out
}

// faceResidual is a named card's look compared with its face.
type faceResidual struct {
	gain  [3]float64 // img ≈ gain·face + off, channel by channel
	off   [3]float64
	limit float64 // the residual a pixel disagrees by
}

// faceSamples are pixels of what the camera shows of a named card: their
// colours (img, BGR) and where each lies on the face's thumbnail (at, a
// pixel of the fw × fh face).
type faceSamples struct {
	img    []byte
	at     []int
	face   []byte
	fw, fh int
}

// fitFace fits the tone of the samples to the face, twice: the second time
// on the half of the samples the first fit leaves the smaller residuals
// at. It gives each sample's residual (for one that disagrees with its own
// pixel of the face, the least over that pixel and the eight about it: the
// outline may be a pixel off) and the residual a pixel disagrees by.
func fitFace(s faceSamples, b *faceTokenBuffers) (faceResidual, []float64, bool) {
	var r faceResidual
	if len(s.at) < 50 {
		return r, nil, false
	}
	use := sized(&b.use, len(s.at))
	for i := range use {
		use[i] = true
	}
	res := sized(&b.sampleRes, len(s.at))
	for pass := 0; pass < 2; pass++ {
		r.fit(s, use)
		for i := range s.at {
			res[i] = r.residualAt(s, i, s.at[i])
		}
		if pass == 0 {
			med := quantile(res, 50)
			for i := range use {
				use[i] = res[i] <= med
			}
		}
	}
	r.limit = math.Max(faceDiffFloor, faceDiffNoise*quantile(res, faceNoiseRank))
	for i := range s.at {
		if res[i] > r.limit {
			res[i] = r.residualNear(s, i)
		}
	}
	return r, res, true
}

// fit sets the gain and offset, channel by channel, that fit the samples
// marked use best (least squares).
func (r *faceResidual) fit(s faceSamples, use []bool) {
	for c := range 3 {
		var n, sx, sy, sxx, sxy float64
		for i, u := range use {
			if !u {
				continue
			}
			x, y := float64(s.face[3*s.at[i]+c]), float64(s.img[3*i+c])
			n, sx, sy, sxx, sxy = n+1, sx+x, sy+y, sxx+x*x, sxy+x*y
		}
		den := n*sxx - sx*sx
		switch {
		case n == 0:
			r.gain[c], r.off[c] = 1, 0
		case den < 1e-6:
			r.gain[c], r.off[c] = 0, sy/n
		default:
			r.gain[c] = (n*sxy - sx*sy) / den
			r.off[c] = (sy - r.gain[c]*sx) / n
		}
	}
}

// quantile gives the q-th percentile of residuals (0 to 765: three
// channels' levels), read off their histogram.
func quantile(res []float64, q int) float64 {
	var hist [766]int
	for _, v := range res {
		hist[min(max(int(v), 0), 765)]++
	}
	want, n := len(res)*q/100, 0
	for v, c := range hist {
		if n += c; n > want {
			return float64(v)
		}
	}
	return 765
}

// residualAt is how far sample i lies from face pixel j, toned.
func (r *faceResidual) residualAt(s faceSamples, i, j int) float64 {
	d := 0.0
	for c := range 3 {
		d += math.Abs(float64(s.img[3*i+c]) - r.gain[c]*float64(s.face[3*j+c]) - r.off[c])
	}
	return d
}

// residualNear is the least residualAt of sample i over its pixel of the
// face and the eight about it.
func (r *faceResidual) residualNear(s faceSamples, i int) float64 {
	x0, y0 := s.at[i]%s.fw, s.at[i]/s.fw
	best := math.Inf(1)
	for y := max(y0-1, 0); y <= min(y0+1, s.fh-1); y++ {
		for x := max(x0-1, 0); x <= min(x0+1, s.fw-1); x++ {
			best = math.Min(best, r.residualAt(s, i, y*s.fw+x))
		}
	}
	return best
}

// differingBox finds, on the face of ref named in quad (top-down pixels,
// from the face's top-left clockwise), with the cards on top (onTop) left
// out, the token-sized box that holds most disagreeing pixels; it gives the
// box's centre in top-down pixels. ok is false when no box holds enough
// (faceTokenMinShare, faceTokenMinDiffer).
func (a *Analyzer) differingBox(v *view, ref *reference, quad models.Quad, onTop []models.Quad) (models.Point, faceResidual, bool) {
	w, h := faceSizePx(ref.Kind, lookPxPerMM)
	if len(ref.Look) != 3*w*h {
		return models.Point{}, faceResidual{}, false
	}
	b := &a.faceTokens
	img, ok := a.shownLook(v, quad, w, h)
	if !ok {
		return models.Point{}, faceResidual{}, false
	}
	img = blurredLookInto(sized(&b.img, len(img)), sized(&b.rows, len(img)), img, w, h)
	shown, ok := shownMask([4]models.Point(quad), w, h, hiddenBy(onTop))
	if !ok {
		return models.Point{}, faceResidual{}, false
	}
	toView, err := models.NewHomography([4]models.Point{{X: 0, Y: 0}, {X: float64(w), Y: 0}, {X: float64(w), Y: float64(h)}, {X: 0, Y: float64(h)}}, [4]models.Point(quad))
	if err != nil {
		return models.Point{}, faceResidual{}, false
	}
	whole := quadInCameraFrame(v, quad) // then every point of it is
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if x < lookBorder || y < lookBorder || x >= w-lookBorder || y >= h-lookBorder ||
				(!whole && !inCameraFrame(v, toView.Apply(models.Point{X: float64(x) + 0.5, Y: float64(y) + 0.5}))) {
				shown[y*w+x] = false
			}
		}
	}
	samples := faceSamples{face: a.faceTokens.looks.of(ref), fw: w, fh: h, at: b.at[:0], img: b.sampleImg[:0]}
	for i, sh := range shown {
		if sh {
			samples.at = append(samples.at, i)
			samples.img = append(samples.img, img[3*i], img[3*i+1], img[3*i+2])
		}
	}
	b.at, b.sampleImg = samples.at, samples.img
	fit, sampleRes, ok := fitFace(samples, b)
	if !ok {
		return models.Point{}, faceResidual{}, false
	}
	res := sized(&b.res, w*h)
	for k, i := range samples.at {
		res[i] = sampleRes[k]
	}
	// +1 where the face disagrees, -1 where it agrees, 0 where hidden,
	// padded by a token's long side all round (a token may lie partly
	// off the card), summed into an integral image.
	tl := int(math.Round(models.TokenLongMM * lookPxPerMM))
	ts := int(math.Round(models.TokenShortMM * lookPxPerMM))
	pw, ph := w+2*tl, h+2*tl
	sum := sized(&b.sum, (pw+1)*(ph+1))   // signed
	diff := sized(&b.diff, (pw+1)*(ph+1)) // disagreeing pixels
	for y := 0; y < ph; y++ {
		row, drow := 0, 0
		for x := 0; x < pw; x++ {
			fx, fy := x-tl, y-tl
			if fx >= 0 && fy >= 0 && fx < w && fy < h && shown[fy*w+fx] {
				if res[fy*w+fx] > fit.limit {
					row++
					drow++
				} else {
					row--
				}
			}
			sum[(y+1)*(pw+1)+x+1] = sum[y*(pw+1)+x+1] + row
			diff[(y+1)*(pw+1)+x+1] = diff[y*(pw+1)+x+1] + drow
		}
	}
	boxSum := func(s []int, x, y, bw, bh int) int {
		return s[(y+bh)*(pw+1)+x+bw] - s[y*(pw+1)+x+bw] - s[(y+bh)*(pw+1)+x] + s[y*(pw+1)+x]
	}
	best, bx, by, bw, bh := math.MinInt, 0, 0, 0, 0
	for _, d := range [2][2]int{{ts, tl}, {tl, ts}} {
		for y := tl - d[1]/2; y+d[1] <= ph-(tl-d[1]/2); y++ {
			for x := tl - d[0]/2; x+d[0] <= pw-(tl-d[0]/2); x++ {
				if s := boxSum(sum, x, y, d[0], d[1]); s > best {
					best, bx, by, bw, bh = s, x, y, d[0], d[1]
				}
			}
		}
	}
	if best == math.MinInt {
		return models.Point{}, faceResidual{}, false
	}
	nd := boxSum(diff, bx, by, bw, bh)
	shownIn := nd + (nd - best) // disagreeing + agreeing
	if float64(nd) < faceTokenMinShare*float64(ts*tl) || float64(nd) < faceTokenMinDiffer*float64(shownIn) {
		return models.Point{}, faceResidual{}, false
	}
	return models.Point{X: float64(bx-tl) + float64(bw)/2, Y: float64(by-tl) + float64(bh)/2}, fit, true
}

// tokenAround gives the token's rectangle (top-down quad, clockwise from
// its top-left) about c, the centre (face thumbnail pixels) of the box
// where the face of ref, named in quad, disagrees (fit: the tone fitted
// there), onTop the cards on it: see Tokens on named cards. The search runs
// on the face's thumbnail grown by a token's long side all round.
func (a *Analyzer) tokenAround(v *view, quad models.Quad, ref *reference, c models.Point, fit faceResidual, onTop []models.Quad, found []placed) (models.Quad, bool) {
	colour := a.images.small
	w, h := faceSizePx(ref.Kind, lookPxPerMM)
	pad := int(math.Round(models.TokenLongMM * lookPxPerMM))
	ew, eh := w+2*pad, h+2*pad
	toView, err := models.NewHomography([4]models.Point{{X: 0, Y: 0}, {X: float64(w), Y: 0}, {X: float64(w), Y: float64(h)}, {X: 0, Y: float64(h)}}, [4]models.Point(quad))
	if err != nil {
		return models.Quad{}, false
	}
	// ext is what the camera shows of the grown thumbnail, blurred as the
	// face is; at gives a thumbnail pixel's top-down point.
	at := func(x, y float64) models.Point {
		return toView.Apply(models.Point{X: x - float64(pad), Y: y - float64(pad)})
	}
	src := [4]models.Point{at(0, 0), at(float64(ew), 0), at(float64(ew), float64(eh)), at(0, float64(eh))}
	buf := &a.faceTokens
	ext, ok := warpLookInto(sized(&buf.ext, 3*ew*eh), colour, float64(colour.Cols())/float64(v.size.X), src, ew, eh)
	if !ok {
		return models.Quad{}, false
	}
	ext = blurredLookInto(sized(&buf.img, len(ext)), sized(&buf.rows, len(ext)), ext, ew, eh)
	face := a.faceTokens.looks.of(ref)
	// Only the cards over the grown thumbnail can hide it or lie on it.
	window := models.Quad(src)
	hidden := overlapping(hiddenBy(onTop), window)
	outer := grow(quad, faceEdgeMM*v.pxPerMM)
	var others []models.Quad
	for _, p := range found {
		if p.quad != quad {
			others = append(others, grow(p.quad, faceEdgeMM*v.pxPerMM))
		}
	}
	others = overlapping(others, window)
	whole := quadInCameraFrame(v, window) // then every point of it is
	one := faceSamples{img: make([]byte, 3), at: []int{0}, face: face, fw: w, fh: h}
	score := sized(&buf.score, ew*eh)
	matAt := buf.matAt[:0]
	var mat [3][]int
	for k := range mat {
		mat[k] = buf.mat[k][:0]
	}
	for y := 0; y < eh; y++ {
		for x := 0; x < ew; x++ {
			p := at(float64(x)+0.5, float64(y)+0.5)
			fx, fy := x-pad, y-pad
			i := y*ew + x
			switch {
			case !whole && !inCameraFrame(v, p):
			case fx >= lookBorder && fy >= lookBorder && fx < w-lookBorder && fy < h-lookBorder:
				if insideAny(p, hidden) {
					continue
				}
				copy(one.img, ext[3*i:3*i+3])
				one.at[0] = fy*w + fx
				// (residualNear is the least over the pixel and those
				// about it: read only when the pixel's own disagrees.)
				if fit.residualAt(one, 0, one.at[0]) > fit.limit && fit.residualNear(one, 0) > fit.limit {
					score[i] = 1
				} else {
					score[i] = -1
				}
			case inside(p, outer) || insideAny(p, others):
			default:
				matAt = append(matAt, i)
				for k := range 3 {
					mat[k] = append(mat[k], int(ext[3*i+k]))
				}
			}
		}
	}
	buf.matAt, buf.mat = matAt, mat
	// The mat where no card was found: scored by how far it lies from its
	// median colour.
	if len(matAt) > 20 {
		var med [3]float64
		for k := range 3 {
			med[k] = float64(medianLevel(mat[k]))
		}
		res := sized(&buf.sampleRes, len(matAt))
		for n := range matAt {
			for k := range 3 {
				res[n] += math.Abs(float64(mat[k][n]) - med[k])
			}
		}
		limit := math.Max(faceDiffFloor, faceDiffNoise*quantile(res, faceNoiseRank))
		for n, i := range matAt {
			if res[n] > limit {
				score[i] = 1
			} else {
				score[i] = -1
			}
		}
	}
	// The rectangles: turned about the face's axes and the grid's.
	ux, uy := quad[1].X-quad[0].X, quad[1].Y-quad[0].Y
	gridAngle := -math.Atan2(uy, ux)
	gridAngle -= math.Round(gridAngle/(math.Pi/2)) * (math.Pi / 2)
	bases := []float64{0}
	if math.Abs(gridAngle) > 1e-3 {
		bases = append(bases, gridAngle)
	}
	const steps = 9 // sample lattice across the short side
	ts, tl := models.TokenShortMM*lookPxPerMM, models.TokenLongMM*lookPxPerMM
	shift := int(math.Round(faceTokenShiftMM * lookPxPerMM))
	cx, cy := c.X+float64(pad), c.Y+float64(pad)
	bestScore := math.Inf(-1)
	var bx, by, bth float64
	var bdims [2]float64
	for _, base := range bases {
		for t := -faceTokenTurnDeg; t <= faceTokenTurnDeg+1e-9; t += faceTokenTurnStep {
			th := base + t*math.Pi/180
			cs, sn := math.Cos(th), math.Sin(th)
			for _, dims := range [2][2]float64{{ts, tl}, {tl, ts}} {
				l := buf.lattice(cx, cy, cs, sn, dims[0], dims[1], steps, ew)
				for dy := -shift; dy <= shift; dy++ {
					for dx := -shift; dx <= shift; dx++ {
						if sc := l.score(score, ew, eh, dx, dy); sc > bestScore {
							bestScore, bx, by, bth, bdims = sc, cx+float64(dx), cy+float64(dy), th, dims
						}
					}
				}
			}
		}
	}
	if bestScore < faceTokenMinScore {
		return models.Quad{}, false
	}
	var q models.Quad
	cs, sn := math.Cos(bth), math.Sin(bth)
	for k, d := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		px, py := d[0]*bdims[0]/2, d[1]*bdims[1]/2
		q[k] = at(bx+px*cs-py*sn, by+px*sn+py*cs)
		if !inCameraFrame(v, q[k]) {
			return models.Quad{}, false // a token cut by the frame's edge
		}
	}
	return clockwiseFromTopLeft(q), true
}

// rectLattice is a lattice of points over a rectangle turned about its
// centre (see lattice), as the pixels of a score image (w pixels wide) each
// lies in: x[k], y[k], and at[k] = y[k]·w + x[k], with their bounds.
type rectLattice struct {
	x, y, at               []int
	minX, minY, maxX, maxY int
}

// lattice gives the lattice of steps points across the short side of the
// rectangle bw × bh centred at (cx, cy) (pixels of a score image w pixels
// wide), turned by the angle whose cosine and sine are cs, sn (and as many
// points as keep them as far apart along its long side), in the buffers'
// scratch.
func (b *faceTokenBuffers) lattice(cx, cy, cs, sn, bw, bh float64, steps, w int) rectLattice {
	ny := int(math.Round(float64(steps) * bh / bw))
	if bh < bw {
		ny = steps
		steps = int(math.Round(float64(ny) * bw / bh))
	}
	n := steps * ny
	l := rectLattice{x: sized(&b.latX, n), y: sized(&b.latY, n), at: sized(&b.latAt, n),
		minX: math.MaxInt, minY: math.MaxInt, maxX: math.MinInt, maxY: math.MinInt}
	k := 0
	for j := 0; j < ny; j++ {
		py := (float64(j)+0.5)/float64(ny)*bh - bh/2
		for i := 0; i < steps; i++ {
			px := (float64(i)+0.5)/float64(steps)*bw - bw/2
			x, y := int(math.Floor(cx+px*cs-py*sn)), int(math.Floor(cy+px*sn+py*cs))
			l.x[k], l.y[k], l.at[k] = x, y, y*w+x
			l.minX, l.maxX = min(l.minX, x), max(l.maxX, x)
			l.minY, l.maxY = min(l.minY, y), max(l.maxY, y)
			k++
		}
	}
	return l
}

// score is the mean score (w × h, row by row) of the lattice's points moved
// by (dx, dy) pixels; points off the scores score 0.
func (l rectLattice) score(score []float32, w, h, dx, dy int) float64 {
	var s float32
	if l.minX+dx >= 0 && l.minY+dy >= 0 && l.maxX+dx < w && l.maxY+dy < h {
		off := dy*w + dx
		for _, i := range l.at {
			s += score[i+off]
		}
		return float64(s) / float64(len(l.at))
	}
	for k := range l.x {
		x, y := l.x[k]+dx, l.y[k]+dy
		if x >= 0 && y >= 0 && x < w && y < h {
			s += score[y*w+x]
		}
	}
	return float64(s) / float64(len(l.x))
}

// medianLevel is the median of levels (0 to 255), the one at half their
// number once sorted.
func medianLevel(levels []int) int {
	var hist [256]int
	for _, v := range levels {
		hist[min(max(v, 0), 255)]++
	}
	want, n := len(levels)/2, 0
	for v, c := range hist {
		if n += c; n > want {
			return v
		}
	}
	return 255
}

// overlapping gives the quads whose bounds overlap q's.
func overlapping(quads []models.Quad, q models.Quad) []models.Quad {
	x0, y0, x1, y1 := quadBounds(q)
	var out []models.Quad
	for _, o := range quads {
		if ox0, oy0, ox1, oy1 := quadBounds(o); ox1 >= x0 && ox0 <= x1 && oy1 >= y0 && oy0 <= y1 {
			out = append(out, o)
		}
	}
	return out
}

// blurredLooks holds the faces' colour thumbnails blurred (blurredLook), by
// slug, each made when first wanted.
type blurredLooks struct{ px map[string][]byte }

// of gives ref's thumbnail blurred.
func (b *blurredLooks) of(ref *reference) []byte {
	if px, ok := b.px[ref.Slug]; ok {
		return px
	}
	if b.px == nil {
		b.px = map[string][]byte{}
	}
	w, h := faceSizePx(ref.Kind, lookPxPerMM)
	px := blurredLook(ref.Look, w, h)
	b.px[ref.Slug] = px
	return px
}

// faceTokenBuffers are the search for tokens on named cards' faces
// blurred and its scratch buffers, kept from frame to frame.
type faceTokenBuffers struct {
	looks               blurredLooks
	img, sampleImg      []byte
	rows, at, sum, diff []int
	use                 []bool
	sampleRes, res      []float64
	score               []float32
	matAt               []int
	mat                 [3][]int
	ext                 []byte
	latX, latY, latAt   []int
	keys, inliers       []models.Point // mayHoldToken's
}

// sized gives (*buf)[:n] zeroed, growing *buf when it is too short.
func sized[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
		return *buf
	}
	*buf = (*buf)[:n]
	clear(*buf)
	return *buf
}

// blurredLook is a face's thumbnail (BGR, w × h) blurred by the 3 × 3
// binomial kernel, as the camera's softer image shows it (at the edges, by
// the part of the kernel within the thumbnail). The kernel is applied
// along rows, then along columns, in whole numbers, divided once.
func blurredLook(px []byte, w, h int) []byte {
	return blurredLookInto(make([]byte, len(px)), make([]int, len(px)), px, w, h)
}

// blurredLookInto is blurredLook written into out, with rows (as long as
// px) its scratch.
func blurredLookInto(out []byte, rows []int, px []byte, w, h int) []byte {
	if w < 1 || h < 1 {
		copy(out, px)
		return out
	}
	// weight gives the kernel's sum within the thumbnail at i of n.
	weight := func(i, n int) int {
		wt := 2
		if i > 0 {
			wt++
		}
		if i < n-1 {
			wt++
		}
		return wt
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := range 3 {
				i := 3*(y*w+x) + c
				sum := 2 * int(px[i])
				if x > 0 {
					sum += int(px[i-3])
				}
				if x < w-1 {
					sum += int(px[i+3])
				}
				rows[i] = sum
			}
		}
	}
	for y := 0; y < h; y++ {
		wy := weight(y, h)
		for x := 0; x < w; x++ {
			wt := wy * weight(x, w)
			for c := range 3 {
				i := 3*(y*w+x) + c
				sum := 2 * rows[i]
				if y > 0 {
					sum += rows[i-3*w]
				}
				if y < h-1 {
					sum += rows[i+3*w]
				}
				out[i] = byte((sum + wt/2) / wt)
			}
		}
	}
	return out
}

// quadInCameraFrame reports whether the camera frame shows all of quad
// (top-down pixels): its corners, as what the frame shows is convex.
func quadInCameraFrame(v *view, q models.Quad) bool {
	for _, p := range q {
		if !inCameraFrame(v, p) {
			return false
		}
	}
	return true
}

// frameMarginPx: a top-down point the camera frame shows lies this many
// camera pixels inside its edge (the warp blurs what lies beyond it in).
const frameMarginPx = 2.0

// inCameraFrame reports whether the camera frame shows top-down point p.
func inCameraFrame(v *view, p models.Point) bool {
	f := v.toImage
	if f[6]*p.X+f[7]*p.Y+f[8] <= 0 {
		return false
	}
	return inCameraImage(v, f.Apply(p))
}

// inCameraImage reports whether camera pixel q lies frameMarginPx or more
// inside the camera frame's edge.
func inCameraImage(v *view, q models.Point) bool {
	return q.X >= frameMarginPx && q.Y >= frameMarginPx && q.X <= float64(v.imgSize.X)-1-frameMarginPx && q.Y <= float64(v.imgSize.Y)-1-frameMarginPx
}
