package vision

import (
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Lighting over a real table is uneven: a lamp lights one end of the mat,
// the lens darkens the corners, an evening room is dim. ORB's corner test
// has a fixed grey-level threshold, so a card in shadow yields few
// keypoints and goes unread. Contrast-limited adaptive histogram
// equalisation, tile by tile, gives every part of the realm the same
// contrast before keypoints are looked for; its clip limit of 1 keeps it
// from amplifying the mat's texture and the sensor's noise into keypoints.
// Only keypoint detection sees the equalised image: outlines, hashes and
// covered sites read the camera's grey levels.
const (
	contrastClip   = 1.0
	contrastTileMM = 100.0 // a cell's width: one tile spans about one lighting level
)

// contrastEqualizer equalises top-down grey images tile by tile.
type contrastEqualizer struct {
	pxPerMM float64
	tiles   image.Point
	clahe   gocv.CLAHE
	ready   bool
}

func newContrastEqualizer(pxPerMM float64) *contrastEqualizer {
	return &contrastEqualizer{pxPerMM: pxPerMM}
}

// equalize writes the equalised gray into dst.
func (e *contrastEqualizer) equalize(gray gocv.Mat, dst *gocv.Mat) {
	tile := contrastTileMM * e.pxPerMM
	tiles := image.Pt(max(1, int(math.Round(float64(gray.Cols())/tile))), max(1, int(math.Round(float64(gray.Rows())/tile))))
	if !e.ready || tiles != e.tiles {
		if e.ready {
			e.clahe.Close()
		}
		e.clahe = gocv.NewCLAHEWithParams(contrastClip, tiles)
		e.tiles, e.ready = tiles, true
	}
	e.clahe.Apply(gray, dst)
}

func (e *contrastEqualizer) close() {
	if e.ready {
		e.clahe.Close()
		e.ready = false
	}
}
