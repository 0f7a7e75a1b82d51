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
	return warpPerspectiveSIMD(src, dst, toSrc, size, true)
}

// warpPerspectiveSIMD is warpPerspective, with AVX2 instructions (where
// the processor has them) only when simd is true.
func warpPerspectiveSIMD(src gocv.Mat, dst *gocv.Mat, toSrc homography, size image.Point, simd bool) error {
	m := [9]C.double{}
	for i, v := range toSrc {
		m[i] = C.double(v)
	}
	s := C.int(0)
	if simd {
		s = 1
	}
	if C.tablecam_warp_perspective(unsafe.Pointer(src.Ptr()), unsafe.Pointer(dst.Ptr()), &m[0], C.int(size.X), C.int(size.Y), s) != 0 {
		return errWarp
	}
	return nil
}
