package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// toneSpread compares the colour of what shows of a card named under
// others, or by its look, with its face's colour over the same pixels:
// for each channel the median, over those pixels, of the log ratio of the
// image's value to the face's (toneRatios), less the frame's colour cast
// (a.cast, see readCast), and it gives how far apart the largest and the
// smallest of the three lie. The light's brightness scales all three
// alike, and its colour, once the cast is taken out, a little each; a red
// face where a blue card shows sets them far apart, which the grey
// comparison of covered_name.go and the look's correlation (each channel
// less its flat tone) cannot see. quad is the face's outline in top-down
// pixels (its top-left first, clockwise), onTop the outlines of the cards
// found on it. ok is false when too little shows or the face has no look.
//
// A lamp's glare, or its reflection off a glossy card or a sleeve, adds
// white light over part of a card rather than scaling it: a dark channel
// gains far more than a bright one, so a blue face under a broad glare
// shows its red raised most, and its ratios as far apart as a wrong
// face's. When the ratios lie apart on a card that mostly shows
// (glareMinShown), the card is read again with the glare taken out
// (deglared), and the larger of two spreads counts when it is the
// smaller: that of the part of the card least brightened (the third of
// its pixels whose intensity, the sum of the three channels, is raised
// least over the face's), and that of the whole card once each pixel's
// glare is taken out (the white light the channels share beyond the
// gains that part shows). A face of other colours differs from what shows
// in both: intensity does not depend on which channel holds which colour,
// so the least brightened part of such a face is the true face's, and
// white light taken out leaves its colours as wrong as before.
// (A third of what shows of a card mostly covered is too little to tell
// a face's colours by.)
func (a *Analyzer) toneSpread(v *view, ref *reference, quad models.Quad, onTop []models.Quad) (float64, bool) {
	px, ok := a.tonePixels(v, ref, quad, onTop, 1)
	if !ok {
		return 0, false
	}
	spreadOf := func(m [3]float64) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for c, r := range m {
			lo, hi = min(lo, r-a.cast[c]), max(hi, r-a.cast[c])
		}
		return hi - lo
	}
	spread := spreadOf(medianRatios(px))
	w, h := faceSizePx(ref.Kind, lookPxPerMM)
	if spread > toneCloseSpread && float64(len(px)) >= glareMinShown*float64((w-2*lookBorder)*(h-2*lookBorder)) {
		least, deglared := deglared(px)
		if s := max(spreadOf(least), spreadOf(deglared)); s < spread {
			spread = s
		}
	}
	return spread, true
}

// glareMinShown is the least share of a card's face that must show for
// its colours to be read with a glare taken out (toneSpread).
const glareMinShown = 0.5

// deglared gives the channels' median log ratios (see toneRatios) of the
// third of the pixels px whose intensity is raised least over the face's
// (least), and of all of them once each pixel's glare is taken out: the
// light all three channels hold beyond what least's gains give the face
// (at most the least of the three excesses; none where a channel holds
// less).
func deglared(px []tonePixel) (least, deglared [3]float64) {
	lift := make([]float64, len(px))
	for i, p := range px {
		lift[i] = math.Log((p.img[0] + p.img[1] + p.img[2] + 3*toneFloor) / (p.face[0] + p.face[1] + p.face[2] + 3*toneFloor))
	}
	limit := kthSmallest(append([]float64(nil), lift...), len(px)/3)
	dim := make([]tonePixel, 0, len(px)/3+1)
	for i, p := range px {
		if lift[i] <= limit {
			dim = append(dim, p)
		}
	}
	least = medianRatios(dim)
	var gain [3]float64
	for c := range gain {
		gain[c] = math.Exp(least[c])
	}
	unglared := make([]tonePixel, len(px))
	for i, p := range px {
		glare := math.Inf(1)
		for c := range p.img {
			glare = min(glare, p.img[c]+toneFloor-gain[c]*(p.face[c]+toneFloor))
		}
		glare = max(glare, 0)
		unglared[i] = p
		for c := range p.img {
			unglared[i].img[c] -= glare
		}
	}
	return least, medianRatios(unglared)
}

// tonePixel is a pixel of a card that shows and its face's pixel there:
// their channels (BGR).
type tonePixel struct{ img, face [3]float64 }

// medianRatios gives, for each channel, the median over px of the log
// ratio of the image's value to its face's.
func medianRatios(px []tonePixel) [3]float64 {
	var m [3]float64
	if len(px) == 0 {
		return m
	}
	r := make([]float64, len(px))
	for c := range m {
		for i, p := range px {
			// A few grey levels more on each side keep a dark
			// channel's ratio from running off.
			r[i] = math.Log((p.img[c] + toneFloor) / (p.face[c] + toneFloor))
		}
		m[c] = kthSmallest(r, len(r)/2)
	}
	return m
}

// toneRatios gives, for each channel (BGR), the median over the pixels
// that show of a card (see toneSpread), every step-th of them along rows
// and columns, of the log ratio of the image's value to its face's. The
// median leaves out the pixels of a card on top that was not found.
func (a *Analyzer) toneRatios(v *view, ref *reference, quad models.Quad, onTop []models.Quad, step int) ([3]float64, bool) {
	px, ok := a.tonePixels(v, ref, quad, onTop, step)
	if !ok {
		return [3]float64{}, false
	}
	return medianRatios(px), true
}

// tonePixels gives the pixels of a card's thumbnail that show (see
// toneRatios), with its face's.
func (a *Analyzer) tonePixels(v *view, ref *reference, quad models.Quad, onTop []models.Quad, step int) ([]tonePixel, bool) {
	colour := a.images.small
	if colour.Empty() || v.size.X <= 0 {
		return nil, false
	}
	w, h := faceSizePx(ref.Kind, lookPxPerMM)
	if len(ref.Look) != 3*w*h {
		return nil, false
	}
	img, ok := a.shownLook(v, quad, w, h)
	if !ok {
		return nil, false
	}
	shown, ok := shownMask([4]models.Point(quad), w, h, hiddenBy(onTop))
	if !ok {
		return nil, false
	}
	inner := ((w - 2*lookBorder + step - 1) / step) * ((h - 2*lookBorder + step - 1) / step)
	px := make([]tonePixel, 0, inner)
	for y := lookBorder; y < h-lookBorder; y += step {
		for x := lookBorder; x < w-lookBorder; x += step {
			if !shown[y*w+x] {
				continue
			}
			i := 3 * (y*w + x)
			var p tonePixel
			for c := range 3 {
				p.img[c], p.face[c] = float64(img[i+c]), float64(ref.Look[i+c])
			}
			px = append(px, p)
		}
	}
	if len(px) < inner/5 {
		return nil, false
	}
	return px, true
}

// kthSmallest is the k-th smallest of v (from 0), what v[k] would be once
// v is sorted; it reorders v. A selection by partitions about a median of
// three, in linear time on average: a frame's colour checks take a
// hundred thousand ratios' medians, which a sort took three times as
// long over.
func kthSmallest(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for hi > lo {
		// Median of three as the pivot, the three put in order.
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		// v[lo..j] ≤ pivot ≤ v[i..hi], and v[j+1..i-1] equal the pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}

// toneFloor is the grey level added to each channel's values before their
// ratio is taken.
const toneFloor = 16

// toneMaxSpread is the widest spread of channel ratios (toneSpread, in
// natural log) a named face may leave: a ratio of 1.5 between the
// channels' gains. Faces named right on synthetic and independently
// rendered frames, colour casts included, stay under 0.32; faces of the
// same pattern in other colours lie above 0.49.
const toneMaxSpread = 0.42

// toneCloseSpread is the spread within which a face has closely the
// colours of what shows: half toneMaxSpread.
const toneCloseSpread = toneMaxSpread / 2

// toneAgrees reports whether a card named by what shows of it (its face's
// outline quad, the cards lying on it onTop) has its face's colours there
// (toneSpread); when the colours cannot be compared it does not say no.
func (a *Analyzer) toneAgrees(v *view, ref *reference, quad models.Quad, onTop []models.Quad) bool {
	spread, ok := a.toneSpread(v, ref, quad, onTop)
	return !ok || spread <= toneMaxSpread
}

// shownMask tells, for each pixel of a w × h thumbnail of the outline quad
// (top-down pixels, its top-left first, clockwise), whether no quad of
// hidden covers its centre. ok is false when the outline is degenerate.
func shownMask(quad [4]models.Point, w, h int, hidden []models.Quad) ([]bool, bool) {
	hm, err := models.NewHomography([4]models.Point{{X: 0, Y: 0}, {X: float64(w), Y: 0}, {X: float64(w), Y: float64(h)}, {X: 0, Y: float64(h)}}, quad)
	if err != nil {
		return nil, false
	}
	// Only the quads over the outline can hide it.
	minX, minY, maxX, maxY := quadBounds(models.Quad(quad))
	var near []models.Quad
	for _, q := range hidden {
		if x0, y0, x1, y1 := quadBounds(q); x1 >= minX && x0 <= maxX && y1 >= minY && y0 <= maxY {
			near = append(near, q)
		}
	}
	shown := make([]bool, w*h)
	if len(near) == 0 {
		for i := range shown {
			shown[i] = true
		}
		return shown, true
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			tx, ty := float64(x)+0.5, float64(y)+0.5
			wz := hm[6]*tx + hm[7]*ty + hm[8]
			pt := models.Point{X: (hm[0]*tx + hm[1]*ty + hm[2]) / wz, Y: (hm[3]*tx + hm[4]*ty + hm[5]) / wz}
			v := true
			for _, q := range near {
				if inside(pt, q) {
					v = false
					break
				}
			}
			shown[y*w+x] = v
		}
	}
	return shown, true
}

// hiddenBy gives what the cards on top (onTop) hide of a card under them:
// their outlines grown by the few pixels around them where their edges
// blur (stripHiddenPad).
func hiddenBy(onTop []models.Quad) []models.Quad {
	hidden := make([]models.Quad, len(onTop))
	for i, q := range onTop {
		hidden[i] = grow(q, stripHiddenPad)
	}
	return hidden
}

// A fit of a face to a card's keypoints that explains few of the matches
// to that face (a weak fit) can be a chance alignment: two faces whose art
// has long straight bands of the same slant give many matches along them,
// and a similarity turned to lay one face's bands on the other's explains
// a few dozen of those matches (a blue card read as a green one, turned
// by a quarter of a right angle from the card it lies on). The keypoints
// are grey, so only the colours tell. A weak fit is kept only when its
// face has the colours of what shows in its outline (toneAgrees).
//
// weakFitShare is the share of the face's matches below which a fit is
// weak. Measured over every card named by its keypoints on the sample,
// poster, independently rendered and 640 × 360 sets: faces named right
// with a share below 0.3 all lie within a spread of 0.27 (toneSpread),
// well inside toneMaxSpread; the wrong fit above lies at 0.98.
const weakFitShare = 0.3

// weakFitInliers is the inliers below which a fit is weak whatever its
// share: a face fitted by a handful of keypoints on a small patch of a
// card (an outline named by its own keypoints, where the shortlisted face
// had few matches to explain) can explain most of them by chance. Faces
// named right with fewer inliers lie within a spread of 0.31 on the same
// sets; a poster card read from 11 of 16 matches as a face of other
// colours lay at 0.75.
const weakFitInliers = 2 * minInliers

// inItsColours reports whether a card named by the keypoint fit d is
// either no weak fit (weakFitShare, weakFitInliers) or has its face's
// colours where it shows (toneAgrees) and its look (weakFitMinLook), and
// its sides stand out there (sidesShow). others are the other cards found; those over d's
// outline that may lie on it (liesOn) are left out of the comparison.
func (a *Analyzer) inItsColours(d detection, v *view, others []placed) bool {
	if firmFit(d) {
		return true
	}
	over := a.lyingOn(d, others)
	if d.inliers < weakFitSideInliers && !a.sidesShow(v, d.quad, over) {
		return false
	}
	if !a.toneAgrees(v, &a.index.refs[d.ref], d.quad, over) {
		return false
	}
	look, ok := a.faceLookShown(d, v, over)
	return !ok || look >= weakFitMinLook
}

// weakFitMinLook is the least correlation of a weak fit's face with what
// shows of its outline (faceLookShown) for the fit to stand. A card
// missing from the catalog whose art repeats another face's shapes in
// other colours (a creature drawn from one template, recoloured) fits
// that face's keypoints a few dozen times, and its channel gains
// (toneAgrees) can pass where the face's frame and text box are most of
// what shows; its art's colours do not follow the face's, and the look
// correlates at or below nothing. Measured on two independently rendered
// sets with the whole catalog and with 20 of its 40 faces, and on the
// sample stills: weak fits named right at 0.04 and above (0.11 and above
// with the whole catalog), weak fits of a missing card's template twin at
// -0.22 to 0.01 (and two others at 0.18 and 0.24, which colours alone do
// not tell from right ones).
const weakFitMinLook = 0.02

// firmFit reports whether the keypoint fit d is no weak fit (see
// weakFitShare and weakFitInliers): one found by its look or its outline
// (a score), or one that explains many of its face's matches.
func firmFit(d detection) bool {
	return d.score > 0 || (d.inliers >= weakFitInliers && float64(d.inliers) >= weakFitShare*float64(max(d.matches, 1)))
}

// lyingOn gives the outlines of the cards of others that may lie on the
// card d names (liesOn) and overlap it.
func (a *Analyzer) lyingOn(d detection, others []placed) []models.Quad {
	kind := a.index.refs[d.ref].Kind
	var over []models.Quad
	for _, p := range others {
		if p.quad != d.quad && liesOn(p.kind, kind) && boxesOverlap(p.quad, d.quad) {
			over = append(over, p.quad)
		}
	}
	return over
}

// A weak fit can also lay a face where no card lies: turned off the cards
// its keypoints came from, or shifted onto the mat, where a card's sides
// would stand out and nothing does. A weak fit of fewer than
// weakFitSideInliers inliers is kept only when its outline's sides stand
// out from what lies beside them (sideContrastLevels between the grey
// sideContrastMM inside and outside) over weakFitSideShare of the points
// along them that no card over it hides. Measured over the weak fits of
// the sample, poster (5, 10 and all faces), 640 × 360, 1920 × 1080 and
// foreign-object sets: right ones of fewer inliers at 0.46 and above (a
// half-covered unit whose cover was not yet found), chance alignments at
// 0.18 to 0.43 (those above 0.3 were dropped later by the name check).
// Dozens of inliers are no chance alignment, whatever their share: a
// quarter-visible avatar fitted by 89 of its 1,527 matches stood out on a
// quarter of its sides (the cards over it not yet found).
const (
	weakFitSideShare   = 0.3
	weakFitSideInliers = 2 * weakFitInliers
)

// sideSteps is the fewest points along an outline's sides, not hidden,
// that sidesShow judges by.
const sideSteps = 8

// sidesShow reports whether the sides of quad (top-down pixels) stand out
// where no quad of hidden covers them (see weakFitSideShare), read on the
// half-resolution grey image, each point the mean of the 3 × 3 pixels about
// it. With too few points to judge it does not say no.
func (a *Analyzer) sidesShow(v *view, quad models.Quad, hidden []models.Quad) bool {
	grey := a.images.smallGray
	pix, err := grey.DataPtrUint8()
	if err != nil || grey.Empty() || v.size.X <= 0 || grey.Channels() != 1 {
		return true
	}
	w, h := grey.Cols(), grey.Rows()
	f := float64(w) / float64(v.size.X)
	mean := func(p models.Point) (int, bool) {
		x, y := int(p.X*f), int(p.Y*f)
		if x < 1 || y < 1 || x >= w-1 || y >= h-1 {
			return 0, false
		}
		sum := 0
		for dy := -1; dy <= 1; dy++ {
			row := pix[(y+dy)*w+x-1 : (y+dy)*w+x+2]
			sum += int(row[0]) + int(row[1]) + int(row[2])
		}
		return sum / 9, true
	}
	d := sideContrastMM * v.pxPerMM
	c := quad.Center()
	n, stands := 0, 0
	for i := range quad {
		alongSide(quad[i], quad[(i+1)%4], c, func(x, y, nx, ny float64) {
			on, out, in := models.Point{X: x, Y: y}, models.Point{X: x + d*nx, Y: y + d*ny}, models.Point{X: x - d*nx, Y: y - d*ny}
			for _, q := range hidden {
				if inside(on, q) || inside(out, q) || inside(in, q) {
					return
				}
			}
			gOut, ok1 := mean(out)
			gIn, ok2 := mean(in)
			if !ok1 || !ok2 {
				return
			}
			n++
			if absInt(gIn-gOut) >= sideContrastLevels {
				stands++
			}
		})
	}
	return n < sideSteps || float64(stands) >= weakFitSideShare*float64(n)
}

// liesOn reports whether a card of kind top may lie on one of kind under
// where they overlap: units lie on sites and tokens on units, never the
// other way; of two cards of a kind either may be on top.
func liesOn(top, under models.CardKind) bool {
	rank := func(k models.CardKind) int {
		switch k {
		case models.KindSite:
			return 0
		case models.KindToken:
			return 2
		}
		return 1
	}
	return rank(top) >= rank(under)
}

// placedFits gives the outline and kind of each keypoint fit of dets.
func (a *Analyzer) placedFits(dets []detection) []placed {
	all := make([]placed, len(dets))
	for i, d := range dets {
		all[i] = placed{d.quad, a.index.refs[d.ref].Kind}
	}
	return all
}

// inTheirColours keeps the frame's keypoint fits that are in their faces'
// colours (inItsColours); all is placedFits(dets).
func (a *Analyzer) inTheirColours(dets []detection, all []placed, v *view) []detection {
	kept := dets[:0:0]
	for _, d := range dets {
		if a.inItsColours(d, v, all) {
			kept = append(kept, d)
		}
	}
	return kept
}
