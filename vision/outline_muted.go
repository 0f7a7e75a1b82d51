package vision

import (
	"image"
	"image/color"
	"math"
	"slices"
	"sort"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A muted card (a grey border and a face all within a few levels of it, a
// grey sleeve or card back) on a mat of the same grey shows no outline: the
// edge finders' thresholds, set for the frame, find at most the drop shadow
// along two of its sides, and the faint search's segments, a few levels
// high, break up in the mat's texture. Yet the card's size is known and it
// lies in a cell: a site landscape about the cell's centre, a unit anywhere
// in it, either square to the grid within a few degrees. So the search
// here does not ask for edges: it slides a card-sized rectangle over each
// cell, turned by up to mutedMaxDeg, and scores each place by how much its
// four sides step, the blurred grey's gradient across each side summed
// along it (a side of a card steps the same way all along, the mat's
// texture and the face's print to either side cancel out), at half the
// resolution. The best places of each cell and shape that the cards found
// do not cover are proposals, and a proposal is kept only when its look
// names it (nameByLook): a muted face's own shapes and print, faint as
// they are, correlate as well as any face's do once the outline is right.
const (
	mutedMaxDeg  = 4.0 // the most a card is turned off the grid is this and mutedStepDeg/2
	mutedStepDeg = 4.0
	// mutedCoarse: the places first scored are this many pixels apart.
	mutedCoarse = 3
	// mutedMinScore: the least score (its sides' steps over the mean
	// gradient where no card was found) of a place named.
	mutedMinScore = 2.2
	// mutedAlignFrom: a place is aligned on its kind's layout
	// (lookIndex.align) only when its best face correlates this well: a
	// muted card's place found by the search is named as it is, or after a
	// step or two; the many places on the mat that correlate 0.15-0.3
	// with some face would cost the alignment for nothing.
	mutedAlignFrom = 0.3
	// mutedCornerMM is left out at each end of a side (round corners).
	mutedCornerMM = 5.0
	// mutedSiteShiftMM: how far a site's centre is looked for from its
	// cell's; a unit's anywhere in its cell.
	mutedSiteShiftMM = 10.0
	// mutedMaxCovered: a place whose area the cards found cover more than
	// this share of is not proposed.
	mutedMaxCovered = 0.35
	// mutedPerShape: the best places proposed for each cell and shape,
	// mutedApartMM or more apart.
	mutedPerShape = 1
	mutedApartMM  = 12.0
	// mutedEdgeMM: how far beyond a card found its own edges may lie.
	mutedEdgeMM = 3.0
	// mutedFlatSD: a face whose grey levels spread this little (standard
	// deviation, levels, over its thumbnail) is flat: a muted face. The
	// muted faces measured spread 8-12 levels, every other face (sample,
	// poster and independent renderer's catalogs) 23 or more.
	mutedFlatSD = 16.0
)

// mutedBandMM: the bands either side of a side whose grey levels it must
// step between, from and to this far from it.
var mutedBandMM = [2]float64{2, 5}

// mutedCandidate is a card-sized place proposed for a muted card: its quad
// in top-down pixels (full resolution), clockwise from the top-left, and
// its score (the mean gradient across its sides).
type mutedCandidate struct {
	quad  models.Quad
	score float64
}

// mutedBuffers are the muted search's images, kept from frame to frame.
// flat tells whether the catalog holds a flat face (flatFace): only such
// a face can lie unseen on a mat of its grey, and the search, which keeps
// only the places it names, runs only then.
type mutedBuffers struct {
	flat                                                 bool
	blurred, rotated, gx, gy, mask, maskRot, grown, edge gocv.Mat
	outside                                              gocv.Mat // 1 beyond the camera's frame
	rowCum, colCum, maskCum                              []float32
	sum                                                  []int32 // the rotated grey's integral image
}

func newMutedBuffers(refs []reference) *mutedBuffers {
	flat := false
	for i := range refs {
		flat = flat || flatFace(refs[i].Look)
	}
	return &mutedBuffers{flat: flat, blurred: gocv.NewMat(), rotated: gocv.NewMat(), gx: gocv.NewMat(), gy: gocv.NewMat(), mask: gocv.NewMat(), maskRot: gocv.NewMat(), grown: gocv.NewMat(), edge: gocv.NewMat(), outside: gocv.NewMat()}
}

func (b *mutedBuffers) close() {
	for _, m := range []*gocv.Mat{&b.blurred, &b.rotated, &b.gx, &b.gy, &b.mask, &b.maskRot, &b.grown, &b.edge, &b.outside} {
		m.Close()
	}
}

// mutedShape is a card's size in half-resolution pixels and where its
// centre is looked for, relative to its cell's centre.
type mutedShape struct {
	w, h   int
	sx, sy int // the centre's reach either way, pixels
}

// candidates proposes places for muted cards in the top-down grey
// image at half resolution (small, of the view v scaled by a half), the
// cards found (found, top-down pixels at full resolution) left out.
func (b *mutedBuffers) candidates(small gocv.Mat, v *view, found []placed) []mutedCandidate {
	if small.Empty() || small.Channels() != 1 {
		return nil
	}
	hv := v.scaled(0.5)
	s := hv.pxPerMM
	W, H := small.Cols(), small.Rows()
	gocv.GaussianBlur(small, &b.blurred, image.Pt(0, 0), 1.0, 1.0, gocv.BorderReplicate)
	// What the cards found cover, at half resolution.
	if b.mask.Rows() != H || b.mask.Cols() != W {
		b.mask.Close()
		b.mask = gocv.NewMatWithSize(H, W, gocv.MatTypeCV8U)
	}
	b.mask.SetTo(gocv.NewScalar(0, 0, 0, 0))
	if b.edge.Rows() != H || b.edge.Cols() != W {
		b.edge.Close()
		b.edge = gocv.NewMatWithSize(H, W, gocv.MatTypeCV8U)
	}
	b.edge.SetTo(gocv.NewScalar(0, 0, 0, 0))
	g := 2*int(math.Round(mutedEdgeMM*v.pxPerMM/2)) + 1
	for _, p := range found {
		var pts []image.Point
		for _, c := range p.quad {
			pts = append(pts, image.Pt(int(math.Round(c.X/2)), int(math.Round(c.Y/2))))
		}
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		gocv.FillPoly(&b.mask, pv, color.RGBA{1, 1, 1, 0})
		gocv.FillPoly(&b.edge, pv, color.RGBA{1, 1, 1, 0})
		gocv.Polylines(&b.edge, pv, true, color.RGBA{1, 1, 1, 0}, g)
		pv.Close()
	}
	// Beyond the camera's frame the warp fills in a constant, whose edge
	// steps as a card's side does: it is taken as covered, its edge as a
	// card's.
	if fq, ok := frameOutline(hv); ok {
		if b.outside.Rows() != H || b.outside.Cols() != W {
			b.outside.Close()
			b.outside = gocv.NewMatWithSize(H, W, gocv.MatTypeCV8U)
		}
		b.outside.SetTo(gocv.NewScalar(1, 0, 0, 0))
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{fq})
		gocv.FillPoly(&b.outside, pv, color.RGBA{})
		gocv.Polylines(&b.edge, pv, true, color.RGBA{1, 1, 1, 0}, g)
		pv.Close()
		gocv.BitwiseOr(b.mask, b.outside, &b.mask)
		gocv.BitwiseOr(b.edge, b.outside, &b.edge)
	}
	long, short := int(math.Round(models.CardLongMM*s)), int(math.Round(models.CardShortMM*s))
	cw, ch := v.geo.CellWidthMM*s, v.geo.CellHeightMM*s
	site := mutedShape{w: long, h: short, sx: int(mutedSiteShiftMM * s), sy: int(mutedSiteShiftMM * s)}
	unitReachX, unitReachY := int(cw/2), int(ch/2)
	shapes := []mutedShape{site, {w: short, h: long, sx: unitReachX, sy: unitReachY}, {w: long, h: short, sx: unitReachX, sy: unitReachY}}
	corner := int(math.Round(mutedCornerMM * s))
	centre := image.Pt(W/2, H/2)
	type best struct {
		c    mutedCandidate
		cell int
		sh   int
	}
	var all []best
	for deg := -mutedMaxDeg; deg <= mutedMaxDeg+1e-9; deg += mutedStepDeg {
		rot := gocv.GetRotationMatrix2D(centre, deg, 1)
		if deg == 0 { // the same pixels as the warp's, at a copy's cost
			b.blurred.CopyTo(&b.rotated)
			b.mask.CopyTo(&b.maskRot)
			b.edge.CopyTo(&b.grown)
		} else {
			gocv.WarpAffineWithParams(b.blurred, &b.rotated, rot, image.Pt(W, H), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
			gocv.WarpAffineWithParams(b.mask, &b.maskRot, rot, image.Pt(W, H), gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
			gocv.WarpAffineWithParams(b.edge, &b.grown, rot, image.Pt(W, H), gocv.InterpolationNearestNeighbor, gocv.BorderConstant, color.RGBA{})
		}
		var m [6]float64
		for i := range m {
			m[i] = rot.GetDoubleAt(i/3, i%3)
		}
		rot.Close()
		gocv.Sobel(b.rotated, &b.gx, gocv.MatTypeCV32F, 1, 0, 3, 1, 0, gocv.BorderReplicate)
		gocv.Sobel(b.rotated, &b.gy, gocv.MatTypeCV32F, 0, 1, 3, 1, 0, gocv.BorderReplicate)
		noise := b.cums(W, H)
		if noise <= 0 {
			continue
		}
		// inverse of the rotation (rigid): original = Rᵀ (p - t)
		back := func(x, y float64) models.Point {
			x -= m[2]
			y -= m[5]
			return models.Point{X: 2 * (m[0]*x + m[3]*y), Y: 2 * (m[1]*x + m[4]*y)}
		}
		for col := 0; col < models.Columns; col++ {
			for row := 0; row < models.Rows; row++ {
				r := hv.cellRect(models.Cell{Col: col, Row: row}, 0)
				cx0, cy0 := float64(r.Min.X+r.Max.X)/2, float64(r.Min.Y+r.Max.Y)/2
				rcx, rcy := m[0]*cx0+m[1]*cy0+m[2], m[3]*cx0+m[4]*cy0+m[5]
				for si, sh := range shapes {
					for _, c := range b.searchCell(int(math.Round(rcx)), int(math.Round(rcy)), sh, corner, W, H, s) {
						x0, y0 := float64(c.X), float64(c.Y)
						x1, y1 := x0+float64(sh.w), y0+float64(sh.h)
						q := models.Quad{back(x0, y0), back(x1, y0), back(x1, y1), back(x0, y1)}
						all = append(all, best{mutedCandidate{q, c.score / float64(noise)}, col*models.Rows + row, si})
					}
				}
			}
		}
	}
	// The best places of each cell and shape, apart.
	sort.SliceStable(all, func(i, j int) bool { return all[i].c.score > all[j].c.score })
	apart := mutedApartMM * v.pxPerMM
	kept := map[[2]int][]models.Point{}
	var out []mutedCandidate
	for _, c := range all {
		k := [2]int{c.cell, c.sh}
		ctr := c.c.quad.Center()
		near := false
		for _, p := range kept[k] {
			if math.Hypot(p.X-ctr.X, p.Y-ctr.Y) < apart {
				near = true
				break
			}
		}
		if near || len(kept[k]) >= mutedPerShape {
			continue
		}
		kept[k] = append(kept[k], ctr)
		out = append(out, c.c)
	}
	return out
}

type mutedPlace struct {
	X, Y  int // top-left, rotated half-resolution pixels
	score float64
}

// cums sets the row sums of gy and column sums of gx, the gradients where
// the cards found lie (and mutedEdgeMM beyond) taken as nought, and the
// mask's integral image. It gives the mean gradient's size (|gx|+|gy|)
// where no card was found: the texture's and the noise's.
func (b *mutedBuffers) cums(W, H int) float32 {
	gx, _ := b.gx.DataPtrFloat32()
	gy, _ := b.gy.DataPtrFloat32()
	mk, _ := b.maskRot.DataPtrUint8()
	grown, _ := b.grown.DataPtrUint8()
	px, _ := b.rotated.DataPtrUint8()
	if cap(b.rowCum) < H*(W+1) {
		b.rowCum = make([]float32, H*(W+1))
		b.colCum = make([]float32, (H+1)*W)
		b.maskCum = make([]float32, (H+1)*(W+1))
		b.sum = make([]int32, (H+1)*(W+1))
	}
	b.rowCum, b.colCum, b.maskCum, b.sum = b.rowCum[:H*(W+1)], b.colCum[:(H+1)*W], b.maskCum[:(H+1)*(W+1)], b.sum[:(H+1)*(W+1)]
	clear(b.colCum[:W])
	clear(b.sum[:W+1])
	clear(b.maskCum[:W+1])
	// One pass, row by row, for all four.
	var sum float64
	n := 0
	for y := 0; y < H; y++ {
		row := b.rowCum[y*(W+1) : (y+1)*(W+1)]
		prevC, curC := b.colCum[y*W:(y+1)*W], b.colCum[(y+1)*W:(y+2)*W]
		prevS, curS := b.sum[y*(W+1):(y+1)*(W+1)], b.sum[(y+1)*(W+1):(y+2)*(W+1)]
		prevM, curM := b.maskCum[y*(W+1):(y+1)*(W+1)], b.maskCum[(y+1)*(W+1):(y+2)*(W+1)]
		row[0], curS[0], curM[0] = 0, 0, 0
		var rs int32
		var rm float32
		for x := 0; x < W; x++ {
			i := y*W + x
			if grown[i] != 0 {
				gx[i], gy[i] = 0, 0
			} else {
				sum += math.Abs(float64(gx[i])) + math.Abs(float64(gy[i]))
				n++
			}
			row[x+1] = row[x] + gy[i]
			curC[x] = prevC[x] + gx[i]
			rs += int32(px[i])
			curS[x+1] = prevS[x+1] + rs
			rm += float32(mk[i])
			curM[x+1] = prevM[x+1] + rm
		}
	}
	if n == 0 {
		return 0
	}
	return float32(sum / float64(n))
}

// searchCell gives the best places (up to mutedPerShape, apart) of a card
// of shape sh whose centre lies within its reach of (cx, cy), in the
// rotated half-resolution image, that the mask leaves mostly uncovered.
func (b *mutedBuffers) searchCell(cx, cy int, sh mutedShape, corner, W, H int, s float64) []mutedPlace {
	rowSide := func(y, x0, x1 int) float32 { // |Σ gy| along row y, best of y-1..y+1
		var bestV float32
		for o := -1; o <= 1; o++ {
			yy := y + o
			if yy < 0 || yy >= H {
				continue
			}
			r := b.rowCum[yy*(W+1):]
			v := r[x1] - r[x0]
			if v < 0 {
				v = -v
			}
			bestV = max(bestV, v)
		}
		return bestV
	}
	colSide := func(x, y0, y1 int) float32 {
		var bestV float32
		for o := -1; o <= 1; o++ {
			xx := x + o
			if xx < 0 || xx >= W {
				continue
			}
			v := b.colCum[y1*W+xx] - b.colCum[y0*W+xx]
			if v < 0 {
				v = -v
			}
			bestV = max(bestV, v)
		}
		return bestV
	}
	mean := func(x0, y0, x1, y1 int) float32 {
		x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
		if x1 <= x0 || y1 <= y0 {
			return 0
		}
		c := b.sum
		return float32(c[y1*(W+1)+x1]-c[y0*(W+1)+x1]-c[y1*(W+1)+x0]+c[y0*(W+1)+x0]) / float32((x1-x0)*(y1-y0))
	}
	// A side's step is the gradient across it, summed along it, over the
	// Sobel kernel's gain (4) (stepOf), and no more than the difference of
	// the bands either side of it, from mutedBandMM in (capped), so that a
	// thin line (the grid's) along it, no step, counts for nothing.
	d0, d1 := int(math.Round(mutedBandMM[0]*s)), int(math.Round(mutedBandMM[1]*s))
	stepOf := func(grad, l float32) float32 { return grad / l / 4 }
	capped := func(g, in, out float32) float32 {
		d := in - out
		if d < 0 {
			d = -d
		}
		return min(g, d)
	}
	covered := func(x0, y0, x1, y1 int) float32 {
		c := b.maskCum
		return c[y1*(W+1)+x1] - c[y0*(W+1)+x1] - c[y1*(W+1)+x0] + c[y0*(W+1)+x0]
	}
	area := float32(sh.w * sh.h)
	lw, lh := float32(sh.w-2*corner), float32(sh.h-2*corner)
	var out []mutedPlace
	// score gives a place's score, or false when it lies off the image,
	// is covered, or cannot score above beat: its uncapped steps, which the
	// score is at most, do not (the band means are not read then).
	score := func(x0, y0 int, beat float64) (float32, bool) {
		if y0 < 1 || y0+sh.h >= H-1 || x0 < 1 || x0+sh.w >= W-1 {
			return 0, false
		}
		x1, y1 := x0+sh.w, y0+sh.h
		if covered(x0, y0, x1, y1) > mutedMaxCovered*area {
			return 0, false
		}
		xa, xb, ya, yb := x0+corner, x1-corner, y0+corner, y1-corner
		g0, g1 := stepOf(rowSide(y0, xa, xb), lw), stepOf(rowSide(y1, xa, xb), lw)
		g2, g3 := stepOf(colSide(x0, ya, yb), lh), stepOf(colSide(x1, ya, yb), lh)
		if float64(g0+g1+g2+g3) <= beat {
			return 0, false
		}
		return capped(g0, mean(xa, y0+d0, xb, y0+d1), mean(xa, y0-d1, xb, y0-d0)) +
			capped(g1, mean(xa, y1-d1, xb, y1-d0), mean(xa, y1+d0, xb, y1+d1)) +
			capped(g2, mean(x0+d0, ya, x0+d1, yb), mean(x0-d1, ya, x0-d0, yb)) +
			capped(g3, mean(x1-d1, ya, x1-d0, yb), mean(x1+d0, ya, x1+d1, yb)), true
	}
	// Every mutedCoarse pixels first; the best places then at every pixel
	// about them.
	apart := int(mutedApartMM * s)
	for y0 := cy - sh.h/2 - sh.sy; y0 <= cy-sh.h/2+sh.sy; y0 += mutedCoarse {
		for x0 := cx - sh.w/2 - sh.sx; x0 <= cx-sh.w/2+sh.sx; x0 += mutedCoarse {
			beat := math.Inf(-1)
			if len(out) == mutedPerShape {
				beat = out[len(out)-1].score
			}
			sc, ok := score(x0, y0, beat)
			if !ok || (len(out) == mutedPerShape && float64(sc) <= out[len(out)-1].score) {
				continue
			}
			p := mutedPlace{x0, y0, float64(sc)}
			// Keep the best mutedPerShape, apart.
			replaced := false
			for i := range out {
				if abs(out[i].X-x0) < apart && abs(out[i].Y-y0) < apart {
					if p.score > out[i].score {
						out[i] = p
					}
					replaced = true
					break
				}
			}
			if !replaced {
				out = append(out, p)
			}
			sort.Slice(out, func(i, j int) bool { return out[i].score > out[j].score })
			if len(out) > mutedPerShape {
				out = out[:mutedPerShape]
			}
		}
	}
	for i, p := range out {
		for dy := -mutedCoarse + 1; dy < mutedCoarse; dy++ {
			for dx := -mutedCoarse + 1; dx < mutedCoarse; dx++ {
				if sc, ok := score(p.X+dx, p.Y+dy, out[i].score); ok && float64(sc) > out[i].score {
					out[i] = mutedPlace{p.X + dx, p.Y + dy, float64(sc)}
				}
			}
		}
	}
	return out
}

// mutedCards proposes places for muted cards (mutedBuffers.candidates)
// and names each by its look; it gives the cards named, in the order
// found, none of them over another or over a card found (found).
func (a *Analyzer) mutedCards(v *view, found []placed) []detection {
	if a.muted == nil {
		a.muted = newMutedBuffers(a.index.refs)
	}
	if !a.muted.flat {
		return nil
	}
	cands := a.muted.candidates(a.images.smallGray, v, found)
	var out []detection
	taken := quadsOfPlaced(found)
	var tried []models.Quad // a site's place and a landscape unit's may be one
	for _, c := range cands {
		if c.score < mutedMinScore {
			break
		}
		if slices.Contains(tried, c.quad) || coveredShare(c.quad, taken) > mutedMaxCovered {
			continue
		}
		tried = append(tried, c.quad)
		d, ok := a.nameByLookFrom(c.quad, v, taken, mutedAlignFrom)
		if !ok {
			continue
		}
		if coveredShare(d.quad, taken) > mutedMaxCovered || sameAsFound(d.quad, taken, mutedApartMM*v.pxPerMM) {
			continue
		}
		out = append(out, d)
		taken = append(taken, d.quad)
	}
	return out
}

// frameOutline gives the camera frame's outline in the view's top-down
// pixels, when every corner of the frame lies before the horizon.
func frameOutline(v *view) ([]image.Point, bool) {
	w, h := float64(v.imgSize.X), float64(v.imgSize.Y)
	var pts []image.Point
	for _, c := range []models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}} {
		f := v.fromImg
		if f[6]*c.X+f[7]*c.Y+f[8] <= 0 {
			return nil, false
		}
		p := f.Apply(c)
		if math.Abs(p.X) > 1e5 || math.Abs(p.Y) > 1e5 {
			return nil, false
		}
		pts = append(pts, image.Pt(int(math.Round(p.X)), int(math.Round(p.Y))))
	}
	return pts, true
}

// flatFace reports whether a face's thumbnail (BGR, row by row) is flat:
// its grey levels' standard deviation at most mutedFlatSD.
func flatFace(look []byte) bool {
	n := len(look) / 3
	if n == 0 {
		return false
	}
	var s, s2 float64
	for i := 0; i < n; i++ {
		g := (float64(look[3*i]) + float64(look[3*i+1]) + float64(look[3*i+2])) / 3
		s += g
		s2 += g * g
	}
	m := s / float64(n)
	return s2/float64(n)-m*m <= mutedFlatSD*mutedFlatSD
}

// coveredShare gives the share of quad q that the quads cover, on a grid of
// 8 × 8 points.
func coveredShare(q models.Quad, quads []models.Quad) float64 {
	return float64(quadPointsCovered(q, quads, 8, 8)) / 64
}

// sameAsFound reports whether a card found lies about where q does: its
// centre within tol of q's.
func sameAsFound(q models.Quad, quads []models.Quad, tol float64) bool {
	c := q.Center()
	for _, o := range quads {
		oc := o.Center()
		if math.Hypot(oc.X-c.X, oc.Y-c.Y) < tol {
			return true
		}
	}
	return false
}
