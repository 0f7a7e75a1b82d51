package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "contrast.h"
import "C"

import (
	"errors"
	"image"
	"math"
	"unsafe"

	"gocv.io/x/gocv"
)

// Lighting over a real table is uneven: a lamp lights one end of the mat,
// the lens darkens the corners, an evening room is dim. ORB's corner test
// has a fixed grey-level threshold, so a card in shadow yields few
// keypoints and goes unread. Contrast-limited adaptive histogram
// equalisation, tile by tile, gives every part of the realm the same
// contrast before keypoints are looked for; its clip limit of 1 keeps it
// from amplifying the mat's texture and the sensor's noise into keypoints.
// Only keypoint detection sees the equalised image: outlines, hashes and
// covered sites read the camera's grey levels.
const (
	contrastClip   = 1.0
	contrastTileMM = 100.0 // a cell's width: one tile spans about one lighting level
)

// errEqualize is returned when OpenCV fails inside the equalisation.
var errEqualize = errors.New("vision: contrast equalisation failed")

// contrastEqualizer equalises top-down grey images tile by tile: exactly
// OpenCV's CLAHE, for a fraction of its cost (see contrast.cpp), keeping
// its buffers from one image to the next.
type contrastEqualizer struct {
	pxPerMM float64
	p       C.tablecam_equalizer
}

func newContrastEqualizer(pxPerMM float64) *contrastEqualizer {
	return &contrastEqualizer{pxPerMM: pxPerMM, p: C.tablecam_equalizer_new()}
}

// tiles is the tile grid of an image: tiles about contrastTileMM wide.
func (e *contrastEqualizer) tiles(gray gocv.Mat) image.Point {
	tile := contrastTileMM * e.pxPerMM
	return image.Pt(max(1, int(math.Round(float64(gray.Cols())/tile))), max(1, int(math.Round(float64(gray.Rows())/tile))))
}

// equalize writes the equalised gray into dst.
func (e *contrastEqualizer) equalize(gray gocv.Mat, dst *gocv.Mat) error {
	return e.clahe(gray, dst, e.tiles(gray), contrastClip, widestVectors)
}

// vectorWidth is the widest vector instructions an own kernel may use,
// where the processor has them; the results are the same at every width.
type vectorWidth int

const (
	noVectors     vectorWidth = iota // plain C++
	avx2Vectors                      // AVX2
	widestVectors                    // AVX-512 (with its byte permutes, VBMI), else AVX2
)

// clahe writes OpenCV's CLAHE of gray, with the given tile grid and clip
// limit, into dst, with vector instructions up to width.
func (e *contrastEqualizer) clahe(gray gocv.Mat, dst *gocv.Mat, tiles image.Point, clip float64, width vectorWidth) error {
	if gray.Type() != gocv.MatTypeCV8UC1 {
		return errors.New("vision: contrast equalisation wants an 8-bit grey image")
	}
	if C.tablecam_clahe(e.p, unsafe.Pointer(gray.Ptr()), unsafe.Pointer(dst.Ptr()), C.int(tiles.X), C.int(tiles.Y), C.double(clip), C.int(width)) != 0 {
		return errEqualize
	}
	return nil
}

func (e *contrastEqualizer) close() {
	if e.p != nil {
		C.tablecam_equalizer_close(e.p)
		e.p = nil
	}
}
