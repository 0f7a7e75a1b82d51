package aruco

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include "aruco.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// Dictionary is one of OpenCV's predefined marker dictionaries.
type Dictionary int

// Dict4X4_50 is cv::aruco::DICT_4X4_50: 4×4 bits, 50 markers.
const Dict4X4_50 Dictionary = 0

// maxMarkers bounds how many markers Detect reports.
const maxMarkers = 64

// ErrOpenCV is wrapped when OpenCV raises an exception.
var ErrOpenCV = errors.New("aruco: OpenCV error")

// Marker is one detected marker: its id and its four corners in image
// pixels, starting at the marker's own top-left and going clockwise.
type Marker struct {
	ID      int
	Corners [4]models.Point
}

// Center is the crossing of the marker's diagonals (exact under perspective).
func (m Marker) Center() models.Point {
	a, b, c, d := m.Corners[0], m.Corners[1], m.Corners[2], m.Corners[3]
	// Solve a + s(c−a) = b + t(d−b).
	ex, ey := c.X-a.X, c.Y-a.Y
	fx, fy := d.X-b.X, d.Y-b.Y
	den := ex*fy - ey*fx
	if den == 0 {
		return models.Quad(m.Corners).Center()
	}
	s := ((b.X-a.X)*fy - (b.Y-a.Y)*fx) / den
	return models.Point{X: a.X + s*ex, Y: a.Y + s*ey}
}

// Detect finds the markers of dict in a grey or BGR image.
func Detect(img gocv.Mat, dict Dictionary) ([]Marker, error) {
	if img.Empty() {
		return nil, fmt.Errorf("aruco: empty image")
	}
	ids := make([]C.int, maxMarkers)
	corners := make([]C.float, maxMarkers*8)
	n := int(C.Aruco_Detect(unsafe.Pointer(img.Ptr()), C.int(dict), maxMarkers, &ids[0], &corners[0]))
	if n < 0 {
		return nil, fmt.Errorf("detecting markers: %w", ErrOpenCV)
	}
	if n > maxMarkers {
		n = maxMarkers
	}
	out := make([]Marker, n)
	for i := range out {
		out[i].ID = int(ids[i])
		for k := 0; k < 4; k++ {
			out[i].Corners[k] = models.Point{X: float64(corners[i*8+k*2]), Y: float64(corners[i*8+k*2+1])}
		}
	}
	return out, nil
}

// DrawMarker renders marker id of dict as a side×side grey image with a
// one-cell black border. The caller closes it.
func DrawMarker(dict Dictionary, id, side int) (gocv.Mat, error) {
	if side < 6 {
		return gocv.Mat{}, fmt.Errorf("aruco: marker side %d px is too small", side)
	}
	out := gocv.NewMat()
	if C.Aruco_Draw(C.int(dict), C.int(id), C.int(side), 1, unsafe.Pointer(out.Ptr())) != 0 {
		out.Close()
		return gocv.Mat{}, fmt.Errorf("drawing marker %d: %w", id, ErrOpenCV)
	}
	return out, nil
}
