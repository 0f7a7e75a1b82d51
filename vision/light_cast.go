package vision

import (
	"math"

	"gocv.io/x/gocv"
)

// The light's colour. A warm lamp over the table, or a camera whose white
// balance is set for other light, tints every card of a frame alike: red
// a quarter up and blue a third down turn a card's channel ratios
// (toneSpread) half a unit of log apart from its face's, past
// toneMaxSpread, and every card named by its look or by a weak fit would
// be refused. The cards the keypoints name firmly (firmFit) show the cast:
// for each, the log ratio of each channel to its face's, less the mean of
// the three (the light's brightness), and for each channel the median over
// those cards is the frame's cast, which toneSpread takes out. Feature
// matching is grey, and the look's correlation takes each channel's gain
// out, so neither needs it. A frame with fewer than castMinCards firm
// cards is taken to have no cast.

// castMinCards is the fewest cards named firmly whose colours the frame's
// cast is read from: the median of two or more keeps one card of odd
// colours (a foil, a sleeve's tint, glare over most of it) from setting it.
const castMinCards = 2

// castStep is the step, in thumbnail pixels along rows and columns, of the
// pixels whose colours the cast is read from: a card's median over a
// quarter of them is as sure, and the frame's cards cost a quarter.
const castStep = 2

// lightCast is a frame's colour cast: for each channel (BGR), the log of
// its gain over the mean of the three channels' (zero: no cast).
type lightCast [3]float64

// readCast reads the frame's colour cast off the cards of dets named
// firmly (see above), through the view v; the other fits may lie on them
// (all is placedFits(dets)).
func (a *Analyzer) readCast(dets []detection, all []placed, v *view) lightCast {
	var per [3][]float64
	for _, d := range dets {
		if !firmFit(d) {
			continue
		}
		m, ok := a.toneRatios(v, &a.index.refs[d.ref], d.quad, a.lyingOn(d, all), castStep)
		if !ok {
			continue
		}
		mean := (m[0] + m[1] + m[2]) / 3
		for c := range per {
			per[c] = append(per[c], m[c]-mean)
		}
	}
	var cast lightCast
	if len(per[0]) < castMinCards {
		return cast
	}
	for c, r := range per {
		cast[c] = median(r)
	}
	return cast
}

// remove takes the cast out of a BGR image in place: each channel is
// scaled by the inverse of its gain (clipped at 255). The hand test calls
// it only for a strong cast the cards' paper shows too (seenOnPaper).
func (c lightCast) remove(img gocv.Mat) {
	if img.Channels() != 3 {
		return
	}
	data, err := img.DataPtrUint8()
	if err != nil {
		return
	}
	scaleChannels(data, [3]float64{math.Exp(-c[0]), math.Exp(-c[1]), math.Exp(-c[2])})
}

// seenOnPaper says whether the hand test should take the cast out: a
// strong cast (beyond the tint paper may have, paperTint either way, in
// some channel) that the cards' white paper (paper, see paperShares)
// shows too, tinted along the cast's direction by more than that tint.
// A cast within paper's tint is left: the hand test's skin colours were
// measured under lamps of every colour that light tables (the
// renderer's warm and cool lamps, within that tint), and taking such a
// cast out lost hands seen so. balanceWhite takes a stronger cast out only
// as far as the paper shows it beyond that tint, and leaves the tint: a
// warm lamp then turned the wooden table and warm card art skin-toned;
// the cards' faces measure the cast whole. But they measure it against
// the catalog's faces: scans made under a warm lamp make a camera in
// daylight read cool, while its paper is white. The light's own cast
// tints the paper as well.
func (c lightCast) seenOnPaper(paper [3]float64) bool {
	tol := math.Log(paperTint)
	norm := math.Sqrt(c[0]*c[0] + c[1]*c[1] + c[2]*c[2])
	if max(math.Abs(c[0]), math.Abs(c[1]), math.Abs(c[2])) <= tol || norm == 0 {
		return false
	}
	var along float64
	mean := (math.Log(paper[0]) + math.Log(paper[1]) + math.Log(paper[2])) / 3
	for ch := range c {
		along += (math.Log(paper[ch]) - mean) * c[ch] / norm
	}
	return along > tol
}
