package vision

import (
	"math"
	"slices"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
)

// A camera far from the table, or of low resolution, shows the realm at
// a pixel or less a millimetre: a card is some 40 by 55 pixels. The
// top-down image at 2 px/mm would enlarge such a frame two or three times,
// and every step in it (a card's side, its frame, its art's corners)
// spreads over several pixels, too shallow for the outline searches' Canny
// and for ORB's corners. Unless Options.PxPerMM states a scale, a frame is
// therefore read at fullReadScale when that enlarges the camera's own
// scale at most maxEnlargement times, and at lowReadScale otherwise: at
// 1 px/mm the outlines of cards break up and the art's detail is lost.
// On independent scenes whose realms showed at 0.5–1 px/mm, reading at
// 1.2 px/mm found 78% of the cards at least half visible, against 61% at
// 2 px/mm (1.5 px/mm: 74%; 1 px/mm: 75%, with a tenth of what it found
// false). From 1 px/mm up, 2 px/mm read about as well as 1.5 (95.9%
// against 95.7% between 1 and 1.5 px/mm) and better than 1.2, and the
// hand tests are tuned at 2.
const (
	fullReadScale  = 2.0 // the default Options.PxPerMM
	lowReadScale   = 1.2
	maxEnlargement = 2.0
)

// cameraScale is the camera frame's mean scale over the realm, in pixels a
// millimetre: the square root of the realm's area in the frame over its
// area on the mat.
func cameraScale(corners models.Quad, geo models.RealmGeometry) float64 {
	mm := geo.WidthMM() * geo.HeightMM()
	if mm <= 0 {
		return 0
	}
	return math.Sqrt(math.Abs(corners.Area()) / mm)
}

// readScaleFor is the scale (top-down pixels a millimetre) to read a frame
// whose realm the camera shows at cam pixels a millimetre (see
// lowReadScale).
func readScaleFor(cam float64) float64 {
	if fullReadScale <= maxEnlargement*cam {
		return fullReadScale
	}
	return lowReadScale
}

// readerFor is the analyzer that reads frames of the realm cal calibrates:
// a itself, or, when the camera shows the realm too small for a's scale
// and Options.PxPerMM states none, an analyzer at a lower one (made at the
// first such frame: its index is built, or read from the disk cache, then).
func (a *Analyzer) readerFor(cal *calibration.Calibration) (*Analyzer, error) {
	if a.opts.PxPerMM > 0 {
		return a, nil
	}
	s := readScaleFor(cameraScale(cal.Corners, a.scale.geometry(cal.Geometry)))
	if s == a.opts.pxPerMM() {
		return a, nil
	}
	if r, ok := a.lowRes[s]; ok {
		return r, nil
	}
	opts := a.opts
	opts.PxPerMM = s
	r, err := NewAnalyzer(a.cat, opts)
	if err != nil {
		return nil, err
	}
	r.laps, r.scale = a.laps, a.scale
	r.scale.pool = slices.Clone(a.scale.pool)
	if a.lowRes == nil {
		a.lowRes = map[float64]*Analyzer{}
	}
	a.lowRes[s] = r
	return r, nil
}
