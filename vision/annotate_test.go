package vision

import (
	"image"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestLabelBox checks where a label box goes: at its place when that is
// free, else the nearest free place below or above, inside the image.
func TestLabelBox(t *testing.T) {
	bounds := image.Rect(0, 0, 640, 480)
	free := labelBox(image.Pt(100, 200), 80, 1, nil, bounds)
	h := free.Dy() + 2
	for _, tc := range []struct {
		name  string
		org   image.Point
		taken []image.Rectangle
		want  image.Rectangle
	}{
		{"free", image.Pt(100, 200), nil, free},
		{"taken: below", image.Pt(100, 200), []image.Rectangle{free}, free.Add(image.Pt(0, h))},
		{"taken and below taken: above", image.Pt(100, 200), []image.Rectangle{free, free.Add(image.Pt(0, h))}, free.Add(image.Pt(0, -h))},
		{"a box that only touches is free", image.Pt(100, 200), []image.Rectangle{free.Add(image.Pt(0, free.Dy()))}, free},
		{"at the bottom edge: above", image.Pt(100, 480-22), []image.Rectangle{free.Add(image.Pt(0, 480-22-200))}, free.Add(image.Pt(0, 480-22-200-h))},
	} {
		if got := labelBox(tc.org, 80, 1, tc.taken, bounds); got != tc.want {
			t.Errorf("%s: box %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAnnotateLabelsApart checks on real pixels that the labels of a unit
// and of the site under it, which share a centre, are both readable: the
// black label boxes cover about twice the pixels one card's does.
func TestAnnotateLabelsApart(t *testing.T) {
	black := func(cards ...models.CardObservation) int {
		frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), 720, 1280, gocv.MatTypeCV8UC3)
		defer frame.Close()
		out := Annotate(frame, models.FrameObservation{Cards: cards}, nil)
		defer out.Close()
		n := 0
		for y := 0; y < out.Rows(); y++ {
			for x := 0; x < out.Cols(); x++ {
				v := out.GetVecbAt(y, x)
				if v[0] == 0 && v[1] == 0 && v[2] == 0 {
					n++
				}
			}
		}
		return n
	}
	name := func(s string) *string { return &s }
	site := models.CardObservation{Name: name("Arid Desert"), Owner: models.South, Confidence: 0.9,
		Quad: models.Quad{{X: 200, Y: 200}, {X: 330, Y: 200}, {X: 330, Y: 290}, {X: 200, Y: 290}}}
	unit := models.CardObservation{Name: name("Foot Soldier"), Owner: models.North, Rotation: 180, Confidence: 0.9,
		Quad: models.Quad{{X: 300, Y: 300}, {X: 230, Y: 300}, {X: 230, Y: 190}, {X: 300, Y: 190}}}
	one, two := black(site), black(site, unit)
	if one < 500 {
		t.Fatalf("one card's label box covers %d black pixels: not a test", one)
	}
	if float64(two) < 1.7*float64(one) {
		t.Errorf("two labels at one centre cover %d black pixels, one label %d: they overlap", two, one)
	}
}
