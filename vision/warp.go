package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "warp.h"
import "C"

import (
	"errors"
	"image"
	"math"
	"unsafe"

	"gocv.io/x/gocv"
)

// errWarp is returned when OpenCV fails inside warpPerspective.
var errWarp = errors.New("vision: perspective warp failed")

// warpPerspective makes dst, of the given size and src's type, with
// dst(p) = src(toSrc(p)): OpenCV's bilinear WarpPerspective with an inverse
// map and black outside src, for a fraction of the cost (see warp.cpp).
// dst's buffer is reused when it has the size and type already.
func warpPerspective(src gocv.Mat, dst *gocv.Mat, toSrc homography, size image.Point) error {
	return warpPerspectiveWidth(src, dst, toSrc, size, widestVectors)
}

// warpPerspectiveWidth is warpPerspective with vector instructions up to
// width (see vectorWidth): the same result at every width.
func warpPerspectiveWidth(src gocv.Mat, dst *gocv.Mat, toSrc homography, size image.Point, width vectorWidth) error {
	m := [9]C.double{}
	for i, v := range toSrc {
		m[i] = C.double(v)
	}
	if C.tablecam_warp_perspective(unsafe.Pointer(src.Ptr()), unsafe.Pointer(dst.Ptr()), &m[0], C.int(size.X), C.int(size.Y), C.int(width)) != 0 {
		return errWarp
	}
	return nil
}

// warpSource is the part of a camera frame (size pixels) that the warp of
// view v reads: the bounding box of the top-down pixels' source positions
// and their neighbours, with a margin for the warp's single precision (the
// whole frame when part of the view lies at or beyond the horizon, where
// the warp reads nothing).
func (v *view) warpSource(size image.Point) image.Rectangle {
	frame := image.Rectangle{Max: size}
	h := v.toImage
	// The top-down image lies in front of the camera when its corners do
	// (w is linear); a projective map then takes it to the convex
	// quadrilateral of its corners' images.
	W, H := float64(v.size.X-1), float64(v.size.Y-1)
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{0, 0}, {W, 0}, {W, H}, {0, H}} {
		w := h[6]*c[0] + h[7]*c[1] + h[8]
		if !(w > 0) {
			return frame
		}
		x, y := (h[0]*c[0]+h[1]*c[1]+h[2])/w, (h[3]*c[0]+h[4]*c[1]+h[5])/w
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	const margin = 2
	if !(x1-x0 < 1e6 && y1-y0 < 1e6) {
		return frame
	}
	return image.Rect(int(math.Floor(x0))-margin, int(math.Floor(y0))-margin, int(math.Ceil(x1))+margin+2, int(math.Ceil(y1))+margin+2).Intersect(frame)
}

// grayFrameInto writes into dst a grey copy of the part of a BGR camera
// frame that v's warp reads (warpSource; grayInto's grey, the same
// pixels): the rest of dst, as big as the frame, keeps what it held. A
// grey frame is copied whole.
func (v *view) grayFrameInto(frame gocv.Mat, dst *gocv.Mat) error {
	if frame.Type() != gocv.MatTypeCV8UC3 {
		grayInto(frame, dst)
		return nil
	}
	return grayRegionInto(frame, dst, v.warpSource(image.Pt(frame.Cols(), frame.Rows())), widestVectors)
}

// bgrGrayInto writes grayInto's grey of an image into dst, by the own
// conversion for BGR ones (see grayRegionInto).
func bgrGrayInto(img gocv.Mat, dst *gocv.Mat) error {
	if img.Type() != gocv.MatTypeCV8UC3 {
		grayInto(img, dst)
		return nil
	}
	return grayRegionInto(img, dst, image.Rect(0, 0, img.Cols(), img.Rows()), widestVectors)
}

// grayRegionInto makes dst a grey image of the BGR image src's size and
// writes into it the grey of src's pixels in r (inside src): exactly
// gocv.CvtColor's BGR to grey, with vector instructions up to width; the
// rest of dst keeps what it held.
func grayRegionInto(src gocv.Mat, dst *gocv.Mat, r image.Rectangle, width vectorWidth) error {
	if C.tablecam_gray_region(unsafe.Pointer(src.Ptr()), unsafe.Pointer(dst.Ptr()), C.int(r.Min.X), C.int(r.Min.Y), C.int(r.Dx()), C.int(r.Dy()), C.int(width)) != 0 {
		return errWarp
	}
	return nil
}
