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
	steadyBlur(gray, &s.blur)
	return s
}

func (s *stableFrame) close() { s.blur.Close() }

// steadyBlur blurs a top-down grey image before it is compared:
// gocv.GaussianBlur(gray, dst, image.Pt(5, 5), 0, 0, gocv.BorderReplicate),
// by the own blur where it can (grey images: the same pixels, see blur).
func steadyBlur(gray gocv.Mat, dst *gocv.Mat) {
	if blur(gray, dst) != nil {
		gocv.GaussianBlur(gray, dst, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
	}
}

// changed reports whether any tile of the new top-down grey image differs
// from the stable one.
func (s *stableFrame) changed(gray gocv.Mat) bool {
	return len(s.changedTiles(gray)) > 0
}

// changedTiles lists the tiles (in top-down pixels) that differ.
func (s *stableFrame) changedTiles(gray gocv.Mat) []image.Rectangle {
	blur := gocv.NewMat()
	defer blur.Close()
	steadyBlur(gray, &blur)
	diff := gocv.NewMat()
	defer diff.Close()
	gocv.AbsDiff(blur, s.blur, &diff)
	gocv.Threshold(diff, &diff, pixelDelta, 255, gocv.ThresholdBinary)
	tile := int(tileMM * s.view.pxPerMM)
	// Each band of tiles is summed down its columns in one call (255 per
	// changed pixel), and the sums are added up tile by tile here: a call
	// per tile cost more than the counting.
	sums := gocv.NewMat()
	defer sums.Close()
	var out []image.Rectangle
	for y := 0; y < diff.Rows(); y += tile {
		band := diff.Region(image.Rect(0, y, diff.Cols(), min(y+tile, diff.Rows())))
		gocv.Reduce(band, &sums, 0, gocv.ReduceSum, gocv.MatTypeCV32F) // exact: at most 255 times a tile's height
		band.Close()
		columns, err := sums.DataPtrFloat32()
		if err != nil || len(columns) != diff.Cols() {
			// Not expected from OpenCV; count as changed, so the frame is read.
			return []image.Rectangle{image.Rect(0, 0, diff.Cols(), diff.Rows())}
		}
		for x := 0; x < diff.Cols(); x += tile {
			r := image.Rect(x, y, min(x+tile, diff.Cols()), min(y+tile, diff.Rows()))
			n := 0
			for _, c := range columns[r.Min.X:r.Max.X] {
				n += int(c)
			}
			if float64(n/255) > tileShare*float64(r.Dx()*r.Dy()) {
				out = append(out, r)
			}
		}
	}
	return out
}
