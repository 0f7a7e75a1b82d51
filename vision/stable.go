package vision

import (
	"image"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// stableFrame is the last frame read in full: its top-down image, lightly
// blurred, and the cards found in it. A new frame whose every tile matches it
// has the same cards, so the analyzer need not read them again.
type stableFrame struct {
	view  *view
	blur  gocv.Mat
	cards []models.CardObservation
}

// Change detection thresholds: a tile changed when more than tileShare of its
// pixels differ by more than pixelDelta grey levels after the blur.
const (
	tileMM     = 25.0
	pixelDelta = 28
	tileShare  = 0.04
)

func newStableFrame(gray gocv.Mat, v *view, cards []models.CardObservation) *stableFrame {
	s := &stableFrame{view: v, blur: gocv.NewMat(), cards: append([]models.CardObservation(nil), cards...)}
	gocv.GaussianBlur(gray, &s.blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	return s
}

func (s *stableFrame) close() { s.blur.Close() }

// changed reports whether any tile of the new top-down grey image differs
// from the stable one.
func (s *stableFrame) changed(gray gocv.Mat) bool {
	return len(s.changedTiles(gray)) > 0
}

// changedTiles lists the tiles (in top-down pixels) that differ.
func (s *stableFrame) changedTiles(gray gocv.Mat) []image.Rectangle {
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(gray, &blur, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(blur, s.blur, &diff)
	gocv.Threshold(diff, &diff, pixelDelta, 255, gocv.ThresholdBinary)
	tile := int(tileMM * s.view.pxPerMM)
	var out []image.Rectangle
	for y := 0; y < diff.Rows(); y += tile {
		for x := 0; x < diff.Cols(); x += tile {
			r := image.Rect(x, y, min(x+tile, diff.Cols()), min(y+tile, diff.Rows()))
			roi := diff.Region(r)
			n := gocv.CountNonZero(roi)
			roi.Close()
			if float64(n) > tileShare*float64(r.Dx()*r.Dy()) {
				out = append(out, r)
			}
		}
	}
	return out
}
