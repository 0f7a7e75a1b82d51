package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "warp.h"
import "C"

import (
	"errors"
	"image"
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
