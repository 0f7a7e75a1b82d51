package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"
)

// TestSkinTonedGradientMat paints a mat whose colour runs smoothly from
// green in the south to a tan in the north, past the realm's north
// border, with no grid printed over it: the tan end is skin-toned, not the
// mat's commonest colour, and reaches the realm's edge like an arm, but
// its skin ends where the colour crosses skin's range, with no step (see
// outlineStepped), and it is no hand. An arm reaching in over the same mat
// is one.
func TestSkinTonedGradientMat(t *testing.T) {
	geo, w, h, at, coarse := straightDownRealm(t)
	green, tan := [3]float64{60, 110, 60}, [3]float64{215, 170, 130} // RGB
	gradient := func(frame *gocv.Mat) {
		for y := 0; y < h; y++ {
			// Green up to a cell south of the realm's middle, tan from
			// a cell north of its north border.
			from, to := at(0, geo.HeightMM()/2-geo.CellHeightMM).Y, at(0, geo.HeightMM()+geo.CellHeightMM).Y
			k := min(max(float64(from-y)/float64(from-to), 0), 1)
			c := color.RGBA{uint8(green[0] + k*(tan[0]-green[0])), uint8(green[1] + k*(tan[1]-green[1])), uint8(green[2] + k*(tan[2]-green[2])), 0}
			gocv.Line(frame, image.Pt(0, y), image.Pt(w-1, y), c, 1)
		}
	}
	checkPaintedHands(t, w, h, coarse, color.RGBA{}, []paintedHand{
		{"a mat running from green to tan", gradient, false},
		{"an arm over it", func(frame *gocv.Mat) {
			gradient(frame)
			skin := color.RGBA{225, 172, 140, 0}
			gocv.Rectangle(frame, image.Rectangle{Min: at(180, 90), Max: at(250, -straightDownMarginMM)}, skin, -1)
			gocv.Circle(frame, at(215, 100), 45, skin, -1)
		}, true},
	})
}
