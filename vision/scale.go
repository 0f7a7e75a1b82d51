package vision

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// Playmats differ in cell size: tight mats whose cells barely hold a site,
// roomy ones, other aspect ratios. The calibration states a cell size (by
// default models.DefaultRealm()), and the top-down view maps the realm's
// corners to a realm of that size; on a mat whose cells are larger, every
// card then looks smaller than its reference face, and the searches that
// rely on a card's known size (outlines, sites under units) miss. A card
// identified by its keypoints carries its own scale (the fit's), so the
// cards of a frame tell the mat's true cell size: when they agree that it is
// clearly off, the frame is read again at the size they show, and the
// analyzer keeps that size for the frames after it.
const (
	// scaleConfidentInliers is how many keypoint inliers make a card's fit
	// a measurement: a card in plain view has dozens, and so a scale known
	// to a percent or two.
	scaleConfidentInliers = 24
	// scaleMinCards cards must measure the scale: one or two can be a
	// printing at another size (an oversized card) or a bad fit.
	scaleMinCards = 3
	// scaleAgree is how close to the median a card's scale must be to count
	// as agreeing; most of the measuring cards must agree.
	scaleAgree      = 0.04
	scaleAgreeShare = 0.6
	// scaleOff is how far from 1 the cards' scale must be for the frame to
	// be read again: within it, a card's size in the top-down image is as
	// its reference face within what the fits and the searches tolerate
	// (the corners' error of a detected realm moves it a percent or two).
	scaleOff = 0.06
)

// matScale is what the analyzer has learned of the mat's cell size: the
// size the cards showed (learned) when the calibration stated another
// (stated). It applies to every calibration that states the same size, so
// that a knocked camera, found again, does not pay to learn it again.
type matScale struct {
	stated, learned models.RealmGeometry
	// confirmed is the last cell size at which the cards were measured
	// along x and y and found right.
	confirmed models.RealmGeometry
	// pool holds the last cards measured along x and y at poolGeo.
	pool    []axisScale
	poolGeo models.RealmGeometry
}

// geometry is the cell size to read a frame by when the calibration states
// stated (zero means the default).
func (m *matScale) geometry(stated models.RealmGeometry) models.RealmGeometry {
	stated = orDefault(stated)
	if m.learned != (models.RealmGeometry{}) && m.stated == stated {
		return m.learned
	}
	return stated
}

// orDefault is g, or models.DefaultRealm() when g has no size.
func orDefault(g models.RealmGeometry) models.RealmGeometry {
	if g.CellWidthMM <= 0 || g.CellHeightMM <= 0 {
		return models.DefaultRealm()
	}
	return g
}

// check measures the cards matched in a frame read at geometry geo. When
// they show that geo is clearly off, off is true and shown is the cell size
// they show: the frame is to be read again at that size.
func (m *matScale) check(x *catalogIndex, f features, dets []detection, geo models.RealmGeometry) (shown models.RealmGeometry, off bool) {
	var scale axisScale
	measured := false
	if m.confirmed != geo {
		// The mat is the same from frame to frame: cards measured in the
		// frames before this one count too (a frame of a mat much off the
		// stated size may have only one or two cards fitted well enough).
		if m.poolGeo != geo {
			m.pool, m.poolGeo = m.pool[:0], geo
		}
		rng := rand.New(rand.NewPCG(uint64(len(f.Points)), 13))
		m.pool = append(m.pool, x.axisScales(f, dets, rng)...)
		if len(m.pool) > aspectPool {
			m.pool = append(m.pool[:0], m.pool[len(m.pool)-aspectPool:]...)
		}
		scale, measured = medianAxisScale(m.pool)
		if !measured {
			// Not the fits' scales instead: on a mat of another aspect
			// they are a compromise, which would lead astray.
			return models.RealmGeometry{}, false
		}
		if math.Abs(scale.x-1) <= scaleOff && math.Abs(scale.y-1) <= scaleOff {
			m.confirmed = geo
			return models.RealmGeometry{}, false
		}
	}
	if !measured {
		s, ok := cardScale(dets)
		if !ok {
			return models.RealmGeometry{}, false
		}
		scale = axisScale{s, s}
	}
	if math.Abs(scale.x-1) <= scaleOff && math.Abs(scale.y-1) <= scaleOff {
		return models.RealmGeometry{}, false
	}
	// A card that looks s times its size in a view of geo-sized cells lies
	// on cells 1/s times that size.
	g := models.RealmGeometry{CellWidthMM: roundMM(geo.CellWidthMM / scale.x), CellHeightMM: roundMM(geo.CellHeightMM / scale.y)}
	if g.Validate() != nil {
		return models.RealmGeometry{}, false
	}
	return g, true
}

// roundMM rounds a learned length to a tenth of a millimetre, finer than
// any fit measures it.
func roundMM(mm float64) float64 { return math.Round(mm*10) / 10 }

// cardScale is the scale at which the confidently fitted cards lie in the
// top-down image against their reference faces (1 when the view's cell
// size is the mat's): the median of their fits' scales, when enough cards
// measure it and most agree.
func cardScale(dets []detection) (float64, bool) {
	var scales []float64
	for _, d := range dets {
		if d.score == 0 && d.inliers >= scaleConfidentInliers {
			scales = append(scales, d.sim.scale())
		}
	}
	if len(scales) < scaleMinCards {
		return 0, false
	}
	med := median(scales)
	n := len(scales)
	agree := 0
	for _, s := range scales {
		if math.Abs(s/med-1) <= scaleAgree {
			agree++
		}
	}
	if agree < scaleMinCards || float64(agree) < scaleAgreeShare*float64(n) {
		return 0, false
	}
	return med, true
}

// rereadAt reads a frame again at the cell size its cards showed, and keeps
// that size for the frames after it.
func (a *Analyzer) rereadAt(frame gocv.Mat, cal *calibration.Calibration, geo models.RealmGeometry) (models.FrameObservation, error) {
	a.scale.stated, a.scale.learned = orDefault(cal.Geometry), geo
	v, err := newView(cal.Corners, geo, frame.Cols(), frame.Rows(), a.opts)
	if err != nil {
		return models.FrameObservation{}, fmt.Errorf("vision: calibration corners %v: %w", cal.Corners, err)
	}
	obs, _, err := a.analyzeView(frame, v, false) // a frame is read at most twice
	return obs, err
}

// Geometry is the cell size the analyzer reads frames by when the
// calibration states stated (zero means models.DefaultRealm()): the size
// the cards showed, once they showed another one, and stated otherwise.
// Keep it with the calibration (its Geometry) so that the next run starts
// from it.
func (a *Analyzer) Geometry(stated models.RealmGeometry) models.RealmGeometry {
	if a.reader != nil && a.reader != a {
		return a.reader.Geometry(stated)
	}
	return a.scale.geometry(stated)
}

// A similarity, which is what a card's fit is, cannot show a mat whose
// cells have another aspect than the stated one (100×64 mm read as
// 100×75: every card stretched 17% along y): its scale is some compromise.
// So until the cards have confirmed the aspect of a view's cell size, the
// most confident cards are measured along x and y apart: their keypoints
// matched anew to their face near where the fit puts them, and a scale
// along each axis fitted with RANSAC. Once confirmed, only the fits'
// scales are checked, which costs nothing.
const (
	aspectCards         = 6    // cards measured at most in a frame
	aspectPool          = 12   // cards measured in the last frames that decide
	aspectMinFitInliers = 12   // a card's fit's inliers for it to be measured
	aspectSearchPx      = 40.0 // how far from the fit's prediction a face keypoint is looked for
	aspectMaxHamming    = 48
	aspectRatio         = 0.8
	aspectInlierPx      = 3.0
	aspectMinSpreadPx   = 40.0 // the two pairs of a RANSAC draw lie this far apart along each axis
	aspectRounds        = 300
	aspectMinInliers    = 20
	aspectMinAxisScale  = 0.7
	aspectMaxAxisScale  = 1.45
)

// axisScale is one card's scale along the top-down image's x and y.
type axisScale struct{ x, y float64 }

// axisScales measures the most confident cards along x and y (see above).
func (x *catalogIndex) axisScales(f features, dets []detection, rng *rand.Rand) []axisScale {
	var confident []int
	for i, d := range dets {
		if d.score == 0 && d.inliers >= aspectMinFitInliers {
			confident = append(confident, i)
		}
	}
	sort.Slice(confident, func(a, b int) bool { return dets[confident[a]].inliers > dets[confident[b]].inliers })
	var out []axisScale
	for _, i := range confident[:min(len(confident), aspectCards)] {
		if s, ok := x.axisScale(f, dets[i], rng); ok {
			out = append(out, s)
		}
	}
	return out
}

// axisScale measures one card: f = diag(kx, ky)·R·r + t, with R the turn
// of its fit, r a point of its face and f the frame point matched to it.
func (x *catalogIndex) axisScale(f features, d detection, rng *rand.Rand) (axisScale, bool) {
	ref := &x.refs[d.ref]
	s := d.sim.scale()
	if s == 0 {
		return axisScale{}, false
	}
	cos, sin := d.sim.A/s, d.sim.B/s
	grid := newPointGrid(ref.Feat.Points, 16)
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range d.quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	grow := 0.1 * math.Max(maxX-minX, maxY-minY)
	type pair struct{ ux, uy, fx, fy float64 }
	var pairs []pair
	f.describe(f.within(minX-grow, minY-grow, maxX+grow, maxY+grow))
	for i, p := range f.Points {
		fx, fy := float64(p.X), float64(p.Y)
		if fx < minX-grow || fx > maxX+grow || fy < minY-grow || fy > maxY+grow {
			continue
		}
		// Where the fit puts this point on the face.
		dx, dy := fx-d.sim.Tx, fy-d.sim.Ty
		rx, ry := (cos*dx+sin*dy)/s, (-sin*dx+cos*dy)/s
		best, second, bestID := 257, 257, int32(-1)
		grid.near(rx, ry, aspectSearchPx, func(id int32) {
			q := ref.Feat.Points[id]
			if math.Abs(float64(q.X)-rx) > aspectSearchPx || math.Abs(float64(q.Y)-ry) > aspectSearchPx {
				return
			}
			h := hamming(&f.Descs[i], &ref.Feat.Descs[id])
			switch {
			case h < best:
				best, second, bestID = h, best, id
			case h < second:
				second = h
			}
		})
		if bestID < 0 || best > aspectMaxHamming || float64(best) >= aspectRatio*float64(second) {
			continue
		}
		q := ref.Feat.Points[bestID]
		qx, qy := float64(q.X), float64(q.Y)
		pairs = append(pairs, pair{ux: cos*qx - sin*qy, uy: sin*qx + cos*qy, fx: fx, fy: fy})
	}
	if len(pairs) < aspectMinInliers {
		return axisScale{}, false
	}
	inliers := func(kx, tx, ky, ty float64, keep []bool) int {
		n := 0
		for i, p := range pairs {
			in := math.Abs(kx*p.ux+tx-p.fx) <= aspectInlierPx && math.Abs(ky*p.uy+ty-p.fy) <= aspectInlierPx
			if keep != nil {
				keep[i] = in
			}
			if in {
				n++
			}
		}
		return n
	}
	var bkx, btx, bky, bty float64
	bestN := 0
	for range aspectRounds {
		a, b := pairs[rng.IntN(len(pairs))], pairs[rng.IntN(len(pairs))]
		if math.Abs(a.ux-b.ux) < aspectMinSpreadPx || math.Abs(a.uy-b.uy) < aspectMinSpreadPx {
			continue
		}
		kx, ky := (a.fx-b.fx)/(a.ux-b.ux), (a.fy-b.fy)/(a.uy-b.uy)
		if kx < aspectMinAxisScale || kx > aspectMaxAxisScale || ky < aspectMinAxisScale || ky > aspectMaxAxisScale {
			continue
		}
		tx, ty := a.fx-kx*a.ux, a.fy-ky*a.uy
		if n := inliers(kx, tx, ky, ty, nil); n > bestN {
			bkx, btx, bky, bty, bestN = kx, tx, ky, ty, n
		}
	}
	if bestN < aspectMinInliers {
		return axisScale{}, false
	}
	// Refine each axis by least squares on the inliers.
	keep := make([]bool, len(pairs))
	inliers(bkx, btx, bky, bty, keep)
	var xs, ys [][2]float64
	for i, p := range pairs {
		if keep[i] {
			xs = append(xs, [2]float64{p.ux, p.fx})
			ys = append(ys, [2]float64{p.uy, p.fy})
		}
	}
	kx, okX := slope(xs)
	ky, okY := slope(ys)
	if !okX || !okY {
		return axisScale{}, false
	}
	return axisScale{kx, ky}, true
}

// slope is the least-squares slope of v on u over the pairs (u, v), when u spreads.
func slope(uv [][2]float64) (float64, bool) {
	n := float64(len(uv))
	var mu, mv float64
	for _, p := range uv {
		mu += p[0] / n
		mv += p[1] / n
	}
	var suu, suv float64
	for _, p := range uv {
		suu += (p[0] - mu) * (p[0] - mu)
		suv += (p[0] - mu) * (p[1] - mv)
	}
	if suu < n*aspectMinSpreadPx*aspectMinSpreadPx/4 {
		return 0, false
	}
	return suv / suu, true
}

// medianAxisScale is the median card's scale along x and along y, when
// enough cards measure it and most agree on both.
func medianAxisScale(scales []axisScale) (axisScale, bool) {
	if len(scales) < scaleMinCards {
		return axisScale{}, false
	}
	xs, ys := make([]float64, len(scales)), make([]float64, len(scales))
	for i, s := range scales {
		xs[i], ys[i] = s.x, s.y
	}
	med := axisScale{median(xs), median(ys)}
	agree := 0
	for _, s := range scales {
		if math.Abs(s.x/med.x-1) <= scaleAgree && math.Abs(s.y/med.y-1) <= scaleAgree {
			agree++
		}
	}
	if agree < scaleMinCards || float64(agree) < scaleAgreeShare*float64(len(scales)) {
		return axisScale{}, false
	}
	return med, true
}

// median of values (sorted in place).
func median(v []float64) float64 {
	slices.Sort(v)
	n := len(v)
	return (v[(n-1)/2] + v[n/2]) / 2
}

// In the top-down view every card has its reference face's size, up to
// the fit's and the calibration's error, and the frame's cards share any
// error of the view's cell size. A fit at a size offSizeBy or more off
// the frame's cards' median (1 with fewer than scaleMinCards cards) is
// kept only on strong evidence: scaleConfidentInliers inliers and
// offSizeMinShare of its matches. A face with few corners of its own
// (flat art, a name band and a cost disc) matches the text and discs of
// every card in the frame, and its fits, a few dozen inliers among
// hundreds of matches, land at any size on a pile of cards; an oversized
// printing in plain view fits with most of its matches.
const (
	offSizeBy       = 0.1
	offSizeMinShare = 0.15
)

// sizedAsTheirFellows drops the detections fitted at a size unlike the
// frame's other cards' without strong evidence (offSizeBy).
func sizedAsTheirFellows(dets []detection) []detection {
	expected := fellowsScale(dets)
	out := dets[:0:0]
	for _, d := range dets {
		if offSizeWeakly(d, expected) && d.score == 0 {
			continue
		}
		out = append(out, d)
	}
	return out
}

// fellowsScale gives the size the frame's cards are fitted at: their
// median scale, 1 with fewer than scaleMinCards of them.
func fellowsScale(dets []detection) float64 {
	if len(dets) < scaleMinCards {
		return 1
	}
	scales := make([]float64, len(dets))
	for i, d := range dets {
		scales[i] = d.sim.scale()
	}
	slices.Sort(scales)
	return scales[len(scales)/2]
}

// offSizeWeakly reports whether a fit lies offSizeBy or more off the
// expected scale without strong evidence for it (see offSizeBy).
func offSizeWeakly(d detection, expected float64) bool {
	off := math.Abs(d.sim.scale()/expected-1) >= offSizeBy
	strong := d.inliers >= scaleConfidentInliers && float64(d.inliers) >= offSizeMinShare*float64(max(d.matches, 1))
	return off && !strong
}
