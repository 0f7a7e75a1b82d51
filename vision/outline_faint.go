package vision

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// A faint card's sides, a few grey levels off what lies around them, leave
// at the second look's thresholds edges that the mat's texture and the
// camera's noise push a pixel or two off their line, now one side, now the
// other: short crooked runs, no straight segment. At half the resolution
// each pixel averages four, the noise is halved while a side's step keeps
// its height, and a blur or a smear spans half the pixels: there the same
// sides leave straight runs. halfSegments finds the straight edges of a
// window at half resolution; the second look proposes cards from them
// besides those at full resolution, and checks every proposal as before,
// on the full-resolution edges.

// halfBuffers are the images of the second look at half resolution (its
// window's), kept from frame to frame.
type halfBuffers struct {
	againBuffers
	small gocv.Mat // the window at half resolution
}

func newHalfBuffers() *halfBuffers {
	return &halfBuffers{againBuffers: newAgainBuffers(), small: gocv.NewMat()}
}

func (b *halfBuffers) close() {
	b.againBuffers.close()
	b.small.Close()
}

// halfSegments gives the straight runs of edges at least minLen long
// (top-down pixels) that Canny at thresholds low and high finds in window
// r of the top-down image gray made half as big (each pixel the mean of
// four), within o.within and with the quads hidden (top-down pixels) left
// out, in the top-down image's pixels.
func (o *outlineFinder) halfSegments(b *halfBuffers, gray gocv.Mat, r image.Rectangle, hidden []models.Quad, low, high, minLen float64) ([]segment, error) {
	w, h := r.Dx()/2, r.Dy()/2
	if w < 3 || h < 3 {
		return nil, nil
	}
	src := gray.Region(image.Rect(r.Min.X, r.Min.Y, r.Min.X+2*w, r.Min.Y+2*h))
	gocv.Resize(src, &b.small, image.Pt(w, h), 0, 0, gocv.InterpolationArea)
	src.Close()
	// Top-down pixel p is half-resolution pixel (p - r.Min)/2 - 1/4 (pixel
	// centres at whole numbers).
	half := func(p models.Point) models.Point {
		return models.Point{X: (p.X-float64(r.Min.X))/2 - 0.25, Y: (p.Y-float64(r.Min.Y))/2 - 0.25}
	}
	poly := []models.Point{{X: 0, Y: 0}, {X: float64(w - 1), Y: 0}, {X: float64(w - 1), Y: float64(h - 1)}, {X: 0, Y: float64(h - 1)}}
	if len(o.within) > 0 {
		within := make([]models.Point, 0, len(o.within))
		for _, p := range o.within {
			within = append(within, half(p))
		}
		if poly = clipToRect(within, image.Rect(0, 0, w, h)); len(poly) < 3 {
			return nil, nil
		}
	}
	moved := make([]models.Quad, 0, len(hidden))
	for _, q := range hidden {
		var m models.Quad
		for i, p := range q {
			m[i] = half(p)
		}
		moved = append(moved, m)
	}
	if err := b.edges.cannyWidth(b.small, b.noMsk, &b.thin, low, high, cannyOptions{blur: true, within: poly, hidden: moved, blurred: &b.grey}, widestVectors); err != nil {
		return nil, err
	}
	thinPix, err := b.thin.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	if b.px, err = b.edges.markDirections(b.thin, b.grey, b.px); err != nil {
		return nil, err
	}
	var segs []segment
	segs, b.codes = segmentsOf(thinPix, b.px, w, b.codes, minLen/2)
	// Back to top-down pixels: scaled by 2 about the window's corner, half
	// a pixel on (the inverse of half), then moved by r.Min.
	off := models.Point{X: float64(r.Min.X) + 0.5, Y: float64(r.Min.Y) + 0.5}
	for i := range segs {
		sg := &segs[i]
		c, sn := math.Cos(sg.theta), math.Sin(sg.theta)
		sg.rho, sg.t0, sg.t1 = 2*sg.rho+off.X*c+off.Y*sn, 2*sg.t0, 2*sg.t1
		d := -off.X*sn + off.Y*c
		sg.t0, sg.t1 = sg.t0+d, sg.t1+d
	}
	return segs, nil
}

// lookAgainHalf looks again in the windows lookAgain looked in this frame,
// with their straight edges at half resolution as well: a faint card's
// sides, crooked at full resolution (see the top of this file). It runs
// once the cards found after lookAgain (the tokens on stacks) are in found
// as well: a card found here under a token would hide the token from the
// token search, which leaves out the cards named.
func (o *outlineFinder) lookAgainHalf(gray gocv.Mat, v *view, points []keypoint, dets []detection, found []placed, shows faceShown) []stackedCard {
	b := &o.again
	if len(b.wins) == 0 {
		return nil
	}
	if b.half == nil {
		b.half = newHalfBuffers()
	}
	shape := outlineShapeOf(v, models.KindStandard)
	var out []stackedCard
	o.lookIn(gray, v, points, dets, found, shows, false, func(look func(r image.Rectangle, more []segment) bool, keep func([]segment) []segment, hidden []models.Quad, low, high float64) {
		for _, r := range b.wins {
			hs, err := o.halfSegments(b.half, gray, r, hidden, low, high, sideMinShare*shape.short)
			if err != nil {
				return
			}
			if hs = keep(hs); len(hs) > 0 && !look(r, hs) {
				return
			}
		}
	}, &out)
	return out
}

// tookFaint records a card that lookAgainHalf found, reported as c.
func (o *outlineFinder) tookFaint(c models.CardObservation) {
	o.again.faint = append(o.again.faint, c.Quad)
}

// notFaint gives the cards less those lookAgainHalf found in the last
// frame read (tookFaint), and less the cards not named that lie partly
// under one of them (found from its sides, by the search for cards under
// cards), for the hand test: a card found only by its faint straight
// edges may be one that fingers lie across (the look names it all the
// same), and the hand test takes what lies on a card for the card's art.
func (o *outlineFinder) notFaint(cards []models.CardObservation) []models.CardObservation {
	if len(o.again.faint) == 0 {
		return cards
	}
	out := make([]models.CardObservation, 0, len(cards))
	for _, c := range cards {
		faint := false
		for _, q := range o.again.faint {
			faint = faint || q == c.Quad || c.Name == nil && quadsOverlap(q, c.Quad)
		}
		if !faint {
			out = append(out, c)
		}
	}
	return out
}
