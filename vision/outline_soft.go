package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// A camera far from the table shows the realm at well under a pixel a
// millimetre, and the top-down image enlarges its frame two times or
// more: each of the camera's pixels, and its noise (the sensor's grain,
// the compression's blocks), spreads over several top-down pixels. The
// outline search's 5×5 blur leaves that noise as it is, and Canny follows
// it: a card's side, a soft step over several pixels, comes out wobbly and
// broken, and its art's edges run into it, so that no contour closes around
// the card's face alone, though the card shows plainly.
//
// So on such a frame the outline search looks once more, for the steps
// themselves rather than their thin edges, on the image shrunk to about
// the camera's own scale (softShrink) and blurred over about a camera
// pixel (the noise fades, while a side, spread over more than
// that already, keeps its step), and every pixel where it rises steeply
// (softBandSteps) is marked. A side's step is several pixels wide and
// marks an unbroken band where Canny's thin line breaks. The grid lines'
// bands are taken out where they run alone (outline_lines.go), and only
// the outer contour of each marked piece is followed: whatever the art
// draws inside a card is inside it and does not matter. A contour that
// fills outlineFill of its minimum-area rectangle gives a rectangle a little
// larger than the card (the band spreads outside its side), so each side
// is then moved to where the blurred image's step across it is steepest,
// averaged along the side (refineSoftSides): a card is kept when all four
// sides show a step there along most of their length, and the rectangle
// they make has a card's size (cardOutline, as on the first search's
// edges). Patches of a painted mat or of a hand rarely have four straight
// steps at a card's size and angle.

// softShrink is the scale of the image the soft search works on to the
// top-down image's: a frame enlarged twice or more holds no more at full
// scale, and the search costs a quarter as much.
const softShrink = 0.5

// softEnlargement is the least enlargement of the camera frame (top-down
// pixels a camera pixel) at which the soft search runs: below it the
// camera's noise is about a top-down pixel, as the first search's blur
// expects, and its edges close. It runs on a frame enlarged less too when
// the frame is soft in both directions as the camera shows it (out of
// focus, or a camera just nearer than the far ones: sharpenIfSoft sharpens
// it, outlineFinder.softFocus): its sides spread over several pixels as a
// far frame's do, and their edges break up the same way. On c2/0013, the
// realm at 0.80 px/mm enlarged 1.499 times and as soft as the far frames,
// 9 of its 13 cards were missed (6 at least half visible), 5 (3) with the
// search.
const softEnlargement = 1.5

// softBandSteps are the rises of the blurred image (as Canny's thresholds
// count them: the 3×3 Sobel's |dx|+|dy|, over a top-down pixel; over a
// shrunk one a soft step rises 1/softShrink times as much) that mark the
// bands, tried in
// turn: the lowest marks a faint card's sides whole, the higher ones part a
// bright card from the fainter grid lines, shadows and cards about it.
// (The soft frame's Canny thresholds are 15 and 45.) Each marking is
// looked at as it is and opened (eroded, then dilated) by a disc a little
// over two camera pixels across, which cuts the thin bridges (a grid
// line's crossing, a speck of noise) that join a card's band to another.
func softBandSteps() [5]float64 { return [...]float64{20, 30, 40, 60, 80} }

// The side refinement (refineSoftSides): each side is looked for from
// softInwardPx camera pixels inside the band's rectangle to softOutwardPx
// outside it, in steps of softSideStepPx shrunk pixels, over the middle
// softSideShare of its length. A side is found where the blurred image
// steps by at least softSideStep grey levels over two top-down pixels on
// average (over two shrunk pixels, 1/softShrink times as much), and by
// at least half that the same way at softSideCover of its points.
const (
	softInwardPx, softOutwardPx = 4.0, 1.0
	softSideStepPx              = 0.25
	softSideShare               = 0.8
	softSideStep                = 4.0
	softSideCover               = 0.6
)

// softApartMM is how far a card the soft search finds lies from every
// card found before it, at least: a card lying on another, or partly under
// it, shows a rectangle of some card's size too (the part of a site that
// a unit leaves showing is about a token's), which the searches for
// stacked cards, which know what lies on what, look at.
const softApartMM = 2.0

// softBuffers are the soft search's images, kept from frame to frame.
type softBuffers struct {
	small, blurred, dx, dy, rise, band, inFrame gocv.Mat
	hierarchy                                   gocv.Mat // the contours'
	// frames are the cards softFrames proposed in the frame read last,
	// each as the outlines it may have (outline_soft_frame.go).
	frames [][]models.Quad
}

func newSoftBuffers() softBuffers {
	return softBuffers{small: gocv.NewMat(), blurred: gocv.NewMat(), dx: gocv.NewMat(), dy: gocv.NewMat(), rise: gocv.NewMat(), band: gocv.NewMat(), inFrame: gocv.NewMat(), hierarchy: gocv.NewMat()}
}

func (b *softBuffers) close() {
	for _, m := range []*gocv.Mat{&b.small, &b.blurred, &b.dx, &b.dy, &b.rise, &b.band, &b.inFrame, &b.hierarchy} {
		m.Close()
	}
}

// enlargement is how many top-down pixels of view v one camera pixel
// spreads over (along each axis, on average over the realm).
func enlargement(v *view) float64 {
	cam := cameraScale(v.corners, v.geo)
	if cam <= 0 {
		return 1
	}
	return v.pxPerMM / cam
}

// softOutlines finds, on a frame the top-down image of view v enlarges at
// least softEnlargement times, or a soft one (see softEnlargement), the
// card outlines that the steps of the
// blurred grey image show (see the top of this file) and that neither a
// known quad nor one of the outlines found before covers. It looks in the
// part of the image maskFaces set. It also proposes the cards whose
// frames the rises show (softFramed, outline_soft_frame.go).
func (o *outlineFinder) softOutlines(gray gocv.Mat, v *view, known []models.Quad, found []unknownCard) ([]unknownCard, error) {
	o.soft.frames = o.soft.frames[:0]
	spread := enlargement(v)
	if (spread < softEnlargement && !o.softFocus) || gray.Type() != gocv.MatTypeCV8UC1 {
		return nil, nil
	}
	b := &o.soft
	// The search works on the image shrunk (softShrink), where a camera
	// pixel spreads over work pixels.
	sv := v.scaled(softShrink)
	work := spread * softShrink
	gocv.Resize(gray, &b.small, image.Pt(int(math.Round(float64(gray.Cols())*softShrink)), int(math.Round(float64(gray.Rows())*softShrink))), 0, 0, gocv.InterpolationArea)
	gocv.GaussianBlur(b.small, &b.blurred, image.Point{}, work, work, gocv.BorderReplicate)
	gocv.Sobel(b.blurred, &b.dx, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(b.blurred, &b.dy, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	gocv.ConvertScaleAbs(b.dx, &b.dx, 1, 0)
	gocv.ConvertScaleAbs(b.dy, &b.dy, 1, 0)
	gocv.Add(b.dx, b.dy, &b.rise) // saturates at 255, far above the steps
	o.maskSoft(&b.rise, softShrink)
	pix, err := b.blurred.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("vision: soft outline search: %w", err)
	}
	img := greyImage{pix: pix, w: b.blurred.Cols(), h: b.blurred.Rows()}
	shapes, small := outlineShapes(v), outlineShapes(sv)
	minArea := 0.5 * small[1].short * small[1].long
	var out []unknownCard
	size := 2*int(math.Round(work)) + 1
	disc := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(size, size))
	defer disc.Close()
	steps := softBandSteps()
	for pass := range 2 * len(steps) {
		// A soft step rises over a shrunk pixel by as much as over 1/softShrink
		// of the top-down image's.
		step := steps[pass%len(steps)] / softShrink
		gocv.Threshold(b.rise, &b.band, float32(step), 255, gocv.ThresholdBinary)
		if pass >= len(steps) {
			gocv.MorphologyEx(b.band, &b.band, gocv.MorphOpen, disc)
		}
		band, err := b.band.DataPtrUint8()
		if err != nil {
			return nil, fmt.Errorf("vision: soft outline bands: %w", err)
		}
		eraseGridLinesIn(band, b.band.Cols(), b.band.Rows(), b.band.Cols(), sv)
		// Every piece's outer contour, those inside another's hole too (the
		// mat's border, or the frame's, marks a band around all the cards).
		contours := gocv.FindContoursWithParams(b.band, &b.hierarchy, gocv.RetrievalCComp, gocv.ChainApproxSimple)
		for i := range contours.Size() {
			if b.hierarchy.GetVeciAt(0, i)[3] >= 0 {
				continue // a hole
			}
			c := contours.At(i)
			area := gocv.ContourArea(c)
			if area < minArea {
				continue
			}
			r := gocv.MinAreaRect(c)
			if len(r.Points) != 4 || area < outlineFill*float64(r.Width*r.Height) || !softReach(r, small, work) {
				continue
			}
			sides, ok := refineSoftSides(img, rectOfCorners(r.Points), work, softSideStep/softShrink)
			if !ok {
				continue
			}
			before := append(found[:len(found):len(found)], out...)
			u, ok := cardOutline(sides.filled(1/softShrink), shapes, known, before)
			if ok && !touchesCards(u.quad, softApartMM*v.pxPerMM, known, before) {
				out = append(out, u)
			}
		}
		contours.Close()
	}
	// The cards whose pieces the bands did not part (outline_soft_frame.go).
	o.maskSoft(&b.dx, softShrink)
	o.maskSoft(&b.dy, softShrink)
	dx, err := b.dx.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("vision: soft outline frames: %w", err)
	}
	dy, err := b.dy.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("vision: soft outline frames: %w", err)
	}
	before := append(found[:len(found):len(found)], out...)
	b.frames = softFrames(b.frames, dx, dy, b.dx.Cols(), b.dx.Rows(), img, work, shapes, small, known, before, softApartMM*v.pxPerMM)
	return out, nil
}

// softFramed gives the cards the soft search proposed by their frames in
// the frame read last (see softFrames), each as the outlines it may have,
// the likeliest first: to be kept only when one of them is named.
func (o *outlineFinder) softFramed() [][]models.Quad {
	return o.soft.frames
}

// softReach reports whether a band's rectangle r may give a card of one
// of the shapes once its sides are moved (each by softInwardPx camera
// pixels in at most, softOutwardPx out), for a frame enlarged spread times.
func softReach(r gocv.RotatedRect, shapes []outlineShape, spread float64) bool {
	w, h := float64(r.Width), float64(r.Height)
	short, long := math.Min(w, h), math.Max(w, h)
	in, out := 2*softInwardPx*spread, 2*softOutwardPx*spread
	for _, sh := range shapes {
		// The largest a card of the shape may show (sleeved), and the least.
		maxShort, maxLong := math.Max(sh.short*(1+sizeTolerance), sh.short+sh.sleeve), math.Max(sh.long*(1+sizeTolerance), sh.long+sh.sleeve)
		minShort, minLong := sh.short*(1-sizeTolerance), sh.long*(1-sizeTolerance)
		if short-in <= maxShort && long-in <= maxLong && short+out >= minShort && long+out >= minLong {
			return true
		}
	}
	return false
}

// maskSoft clears the rises (of the top-down image shrunk by shrink)
// outside the part of the image maskFaces set: outside the polygon the
// camera frame shows, and inside the identified cards' faces.
func (o *outlineFinder) maskSoft(rise *gocv.Mat, shrink float64) {
	black := color.RGBA{}
	if len(o.within) >= 3 {
		m := &o.soft.inFrame
		if m.Rows() != rise.Rows() || m.Cols() != rise.Cols() {
			m.Close()
			*m = gocv.NewMatWithSize(rise.Rows(), rise.Cols(), gocv.MatTypeCV8UC1)
		}
		m.SetTo(gocv.NewScalar(0, 0, 0, 0))
		fillPolygon(m, o.within, shrink, color.RGBA{255, 255, 255, 255})
		gocv.BitwiseAnd(*rise, *m, rise)
	}
	for _, q := range o.hidden {
		fillPolygon(rise, q[:], shrink, black)
	}
}

// fillPolygon fills a polygon of img with c, its pixel coordinates scaled
// by f.
func fillPolygon(img *gocv.Mat, poly []models.Point, f float64, c color.RGBA) {
	pts := make([]image.Point, len(poly))
	for i, p := range poly {
		pts[i] = image.Pt(int(math.Round(p.X*f)), int(math.Round(p.Y*f)))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	gocv.FillPoly(img, pv, c)
}

// greyImage is an 8-bit grey image's pixels, row by row.
type greyImage struct {
	pix  []byte
	w, h int
}

// at is the image's grey at (x, y), interpolated between the four pixels
// about it (pixel centres at whole numbers); ok is false outside it.
func (g greyImage) at(x, y float64) (grey float64, ok bool) {
	x0, y0 := math.Floor(x), math.Floor(y)
	if x0 < 0 || y0 < 0 || int(x0)+1 >= g.w || int(y0)+1 >= g.h {
		return 0, false
	}
	fx, fy := x-x0, y-y0
	i := int(y0)*g.w + int(x0)
	top := float64(g.pix[i])*(1-fx) + float64(g.pix[i+1])*fx
	bottom := float64(g.pix[i+g.w])*(1-fx) + float64(g.pix[i+g.w+1])*fx
	return top*(1-fy) + bottom*fy, true
}

// softRect is a rectangle as its centre, its unit axes and its half
// sides along them.
type softRect struct {
	cx, cy         float64
	ux, uy, vx, vy float64 // v is u turned a quarter clockwise (image y down)
	halfU, halfV   float64
}

// rectOfCorners is the rectangle of a minimum-area rectangle's corners,
// in order around it.
func rectOfCorners(p []image.Point) softRect {
	var r softRect
	for _, q := range p {
		r.cx += float64(q.X) / 4
		r.cy += float64(q.Y) / 4
	}
	ex, ey := float64(p[1].X-p[0].X), float64(p[1].Y-p[0].Y)
	fx, fy := float64(p[2].X-p[1].X), float64(p[2].Y-p[1].Y)
	lu, lv := math.Hypot(ex, ey), math.Hypot(fx, fy)
	if lu == 0 || lv == 0 {
		return r
	}
	r.ux, r.uy, r.halfU = ex/lu, ey/lu, lu/2
	r.vx, r.vy, r.halfV = fx/lv, fy/lv, lv/2
	return r
}

// refineSoftSides moves each side of r, a band's rectangle, to where the
// blurred image img steps most steeply across it (see the top of this
// file), for a frame whose camera pixel spreads over spread of img's, and
// gives the rectangle the four sides make; ok is false when a side shows
// no step of minStep (see softSideStep).
func refineSoftSides(img greyImage, r softRect, spread, minStep float64) (refined softRect, ok bool) {
	if r.halfU <= 0 || r.halfV <= 0 {
		return softRect{}, false
	}
	// Each side: its outward normal, its direction, its half length, and
	// where it lies now (its distance from the centre).
	type side struct {
		nx, ny, tx, ty, along, at float64
	}
	sides := [4]side{
		{r.ux, r.uy, r.vx, r.vy, r.halfV, r.halfU},
		{-r.ux, -r.uy, r.vx, r.vy, r.halfV, r.halfU},
		{r.vx, r.vy, r.ux, r.uy, r.halfU, r.halfV},
		{-r.vx, -r.vy, r.ux, r.uy, r.halfU, r.halfV},
	}
	var dist [4]float64
	for k, s := range sides {
		best, bestRise := 0.0, 0.0
		reach := softSideShare * s.along
		for d := s.at - softInwardPx*spread; d <= s.at+softOutwardPx*spread; d += softSideStepPx {
			if rise, _, ok := sideStep(img, r.cx, r.cy, s.nx, s.ny, s.tx, s.ty, d, reach, minStep); ok && math.Abs(rise) > math.Abs(bestRise) {
				best, bestRise = d, rise
			}
		}
		if math.Abs(bestRise) < minStep {
			return softRect{}, false
		}
		if _, cover, _ := sideStep(img, r.cx, r.cy, s.nx, s.ny, s.tx, s.ty, best, reach, minStep); cover < softSideCover {
			return softRect{}, false
		}
		dist[k] = best
	}
	// The centre moves along each axis by half the difference of its two
	// sides' distances.
	refined = r
	refined.cx += r.ux*(dist[0]-dist[1])/2 + r.vx*(dist[2]-dist[3])/2
	refined.cy += r.uy*(dist[0]-dist[1])/2 + r.vy*(dist[2]-dist[3])/2
	refined.halfU, refined.halfV = (dist[0]+dist[1])/2, (dist[2]+dist[3])/2
	if refined.halfU <= 0 || refined.halfV <= 0 {
		return softRect{}, false
	}
	return refined, true
}

// filled is the rectangle as the outline search's contours give theirs,
// its coordinates scaled by f.
func (r softRect) filled(f float64) filledRect {
	var rr filledRect
	for i, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x := r.cx + s[0]*r.halfU*r.ux + s[1]*r.halfV*r.vx
		y := r.cy + s[0]*r.halfU*r.uy + s[1]*r.halfV*r.vy
		rr.corners[i] = image.Pt(int(math.Round(x*f)), int(math.Round(y*f)))
	}
	rr.center = image.Pt(int(math.Round(r.cx*f)), int(math.Round(r.cy*f)))
	rr.width, rr.height = int(math.Round(2*r.halfU*f)), int(math.Round(2*r.halfV*f))
	return rr
}

// sideStep measures the step of img across a side at distance d from the
// centre (cx, cy) along its outward normal n, over reach either way along
// the side (t), a pixel apart: rise is the mean rise over two pixels
// outward across it, cover the share of its points that rise by at least
// minStep/2 the way the mean does. ok is false when the side runs out of
// the image.
func sideStep(img greyImage, cx, cy, nx, ny, tx, ty, d, reach, minStep float64) (rise, cover float64, ok bool) {
	var sum float64
	var up, down, n int
	for t := -reach; t <= reach; t++ {
		x, y := cx+d*nx+t*tx, cy+d*ny+t*ty
		out, ok1 := img.at(x+nx, y+ny)
		in, ok2 := img.at(x-nx, y-ny)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		r := out - in
		sum += r
		n++
		switch {
		case r >= minStep/2:
			up++
		case r <= -minStep/2:
			down++
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	rise = sum / float64(n)
	if rise < 0 {
		up = down
	}
	return rise, float64(up) / float64(n), true
}

// touchesCards reports whether q, grown by apart, overlaps one of the
// known quads or of the outlines found (see quadsOverlap).
func touchesCards(q models.Quad, apart float64, known []models.Quad, found []unknownCard) bool {
	g := grow(q, apart)
	for _, k := range known {
		if quadsOverlap(g, k) {
			return true
		}
	}
	for _, u := range found {
		if quadsOverlap(g, u.quad) {
			return true
		}
	}
	return false
}
