package calibration

import (
	"fmt"
	"image"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/calibration/aruco"
	"github.com/tablecam/tablecam/models"
)

// DefaultMarkerOffsetMM is how far outside each realm corner, along both
// axes, a marker's centre sits by default.
const DefaultMarkerOffsetMM = 30.0

// MarkerLayout says where the printed ArUco markers (DICT_4X4_50) are: id 0
// at the A1 corner, 1 at E1, 2 at E4 and 3 at A4, each with its centre
// OffsetMM outside the corner along both axes (so the A1 marker's centre is
// at (−OffsetMM, −OffsetMM) in realm millimetres, and E4's at
// (width+OffsetMM, height+OffsetMM)). The markers' own rotation does not matter.
type MarkerLayout struct {
	// OffsetMM is the offset of the marker centres; zero means
	// DefaultMarkerOffsetMM, and a negative value puts them inside the realm.
	OffsetMM float64
}

// DefaultMarkerLayout is the layout Detect assumes unless told otherwise.
func DefaultMarkerLayout() MarkerLayout { return MarkerLayout{OffsetMM: DefaultMarkerOffsetMM} }

func (l MarkerLayout) offset() float64 {
	if l.OffsetMM == 0 {
		return DefaultMarkerOffsetMM
	}
	return l.OffsetMM
}

// Centers gives the marker centres for ids 0–3 in realm millimetres.
func (l MarkerLayout) Centers(g models.RealmGeometry) [4]models.Point {
	o := l.offset()
	w, h := g.WidthMM(), g.HeightMM()
	return [4]models.Point{{X: -o, Y: -o}, {X: w + o, Y: -o}, {X: w + o, Y: h + o}, {X: -o, Y: h + o}}
}

// detectMarkers reads the realm corners from the four markers; found is
// false unless all four are seen.
func detectMarkers(frame gocv.Mat, g models.RealmGeometry, layout MarkerLayout) (models.Quad, bool, error) {
	// Markers are searched at half size in large frames: detection costs
	// in proportion to the pixels, and corners stay within a pixel.
	src, scale := frame, 1.0
	if frame.Cols() > 960 {
		small := gocv.NewMat()
		defer small.Close()
		gocv.Resize(frame, &small, image.Pt(frame.Cols()/2, frame.Rows()/2), 0, 0, gocv.InterpolationArea)
		src, scale = small, 2
	}
	ms, err := aruco.Detect(src, aruco.Dict4X4_50)
	if err != nil {
		return models.Quad{}, false, fmt.Errorf("calibration: %w", err)
	}
	for i := range ms {
		for k := range ms[i].Corners {
			ms[i].Corners[k] = models.Point{X: (ms[i].Corners[k].X+0.5)*scale - 0.5, Y: (ms[i].Corners[k].Y+0.5)*scale - 0.5}
		}
	}
	var seen [4]bool
	var centres [4]models.Point
	var area [4]float64
	for _, m := range ms {
		if m.ID < 0 || m.ID > 3 {
			continue
		}
		a := models.Quad(m.Corners).Area()
		if seen[m.ID] && a <= area[m.ID] {
			continue
		}
		seen[m.ID], centres[m.ID], area[m.ID] = true, m.Center(), a
	}
	for _, s := range seen {
		if !s {
			return models.Quad{}, false, nil
		}
	}
	want := layout.Centers(g)
	h, err := fitHomography(want[:], centres[:])
	if err != nil {
		return models.Quad{}, false, fmt.Errorf("calibration: markers: %w", err)
	}
	var q models.Quad
	for i, p := range realmCorners(g) {
		q[i] = h.Apply(p)
	}
	return q, true, nil
}
