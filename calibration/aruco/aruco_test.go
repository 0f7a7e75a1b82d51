package aruco_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/calibration/aruco"
)

// canvas draws markers of side px at the given top-left positions on white.
func canvas(t testing.TB, side int, at map[int]image.Point) gocv.Mat {
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 480, 640, gocv.MatTypeCV8UC1)
	for id, p := range at {
		m, err := aruco.DrawMarker(aruco.Dict4X4_50, id, side)
		if err != nil {
			t.Fatal(err)
		}
		roi := img.Region(image.Rect(p.X, p.Y, p.X+side, p.Y+side))
		m.CopyTo(&roi)
		roi.Close()
		m.Close()
	}
	return img
}

func TestDetect(t *testing.T) {
	at := map[int]image.Point{0: {40, 300}, 1: {500, 300}, 2: {500, 40}, 3: {40, 40}}
	img := canvas(t, 100, at)
	defer img.Close()
	ms, err := aruco.Detect(img, aruco.Dict4X4_50)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 {
		t.Fatalf("found %d markers, want 4", len(ms))
	}
	for _, m := range ms {
		p, ok := at[m.ID]
		if !ok {
			t.Errorf("unexpected id %d", m.ID)
			continue
		}
		c := m.Center()
		// The centre of pixels p..p+side-1 is p+(side-1)/2.
		if math.Hypot(c.X-(float64(p.X)+49.5), c.Y-(float64(p.Y)+49.5)) > 1 {
			t.Errorf("marker %d centre %v, want (%g,%g)", m.ID, c, float64(p.X)+49.5, float64(p.Y)+49.5)
		}
		// Corners go clockwise from the marker's own top-left.
		if m.Corners[0].X > m.Corners[1].X || m.Corners[1].Y > m.Corners[2].Y {
			t.Errorf("marker %d corners %v are not clockwise from the top-left", m.ID, m.Corners)
		}
	}
	if _, err := aruco.Detect(gocv.NewMat(), aruco.Dict4X4_50); err == nil {
		t.Error("Detect(empty) gave no error")
	}
	if _, err := aruco.DrawMarker(aruco.Dict4X4_50, 1, 3); err == nil {
		t.Error("DrawMarker with a 3 px side gave no error")
	}
	if _, err := aruco.DrawMarker(aruco.Dict4X4_50, 999, 60); err == nil {
		t.Error("DrawMarker of id 999 in a 50-marker dictionary gave no error")
	}
}

func ExampleDetect() {
	marker, err := aruco.DrawMarker(aruco.Dict4X4_50, 2, 120)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer marker.Close()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(255, 255, 255, 0), 240, 320, gocv.MatTypeCV8UC1)
	defer img.Close()
	roi := img.Region(image.Rect(100, 60, 220, 180))
	marker.CopyTo(&roi)
	roi.Close()

	found, err := aruco.Detect(img, aruco.Dict4X4_50)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range found {
		c := m.Center()
		fmt.Printf("marker %d centred at (%.1f,%.1f)\n", m.ID, c.X, c.Y)
	}
	// Output: marker 2 centred at (159.5,119.5)
}
