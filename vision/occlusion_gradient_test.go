package vision

import (
	"image"
	"image/color"
	"testing"

	"github.com/tablecam/tablecam/models"

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
	const marginMM = 100.0
	geo := models.DefaultRealm()
	w, h := int(geo.WidthMM()+2*marginMM), int(geo.HeightMM()+2*marginMM)
	// A camera looking straight down at 1 px/mm.
	at := func(x, y float64) image.Point {
		return image.Pt(int(marginMM+x), int(marginMM+geo.HeightMM()-y))
	}
	corners := models.Quad{}
	for i, p := range []image.Point{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())} {
		corners[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	v, err := newView(corners, geo, w, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	coarse := v.scaled(0.5)
	green, tan := [3]float64{60, 110, 60}, [3]float64{215, 170, 130} // RGB
	gradient := func(frame *gocv.Mat) {
		for y := 0; y < h; y++ {
			// Green up to a cell south of the realm's middle, tan from
			// a cell north of its north border.
			t := (float64(at(0, geo.HeightMM()/2-geo.CellHeightMM).Y) - float64(y)) / float64(at(0, geo.HeightMM()/2-geo.CellHeightMM).Y-at(0, geo.HeightMM()+geo.CellHeightMM).Y)
			t = min(max(t, 0), 1)
			c := color.RGBA{uint8(green[0] + t*(tan[0]-green[0])), uint8(green[1] + t*(tan[1]-green[1])), uint8(green[2] + t*(tan[2]-green[2])), 0}
			gocv.Line(frame, image.Pt(0, y), image.Pt(w-1, y), c, 1)
		}
	}
	for _, tc := range []struct {
		what  string
		paint func(frame *gocv.Mat)
		hand  bool
	}{
		{"a mat running from green to tan", gradient, false},
		{"an arm over it", func(frame *gocv.Mat) {
			gradient(frame)
			skin := color.RGBA{225, 172, 140, 0}
			gocv.Rectangle(frame, image.Rectangle{Min: at(180, 90), Max: at(250, -marginMM)}, skin, -1)
			gocv.Circle(frame, at(215, 100), 45, skin, -1)
		}, true},
	} {
		frame := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
		tc.paint(&frame)
		top := coarse.warp(frame)
		if got := handCovers(top, coarse, nil); got != tc.hand {
			t.Errorf("%s: hand %v, want %v", tc.what, got, tc.hand)
		}
		top.Close()
		frame.Close()
	}
}
