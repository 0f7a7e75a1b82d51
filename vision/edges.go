package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include "edges.h"
import "C"

import (
	"errors"
	"image"
	"math"
	"unsafe"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// errCanny is returned when OpenCV fails inside canny.
var errCanny = errors.New("vision: Canny edge detection failed")

// edgeDetector marks edges with Canny's detector, keeping its buffers from
// one image to the next.
type edgeDetector struct{ p C.tablecam_edges }

func newEdgeDetector() *edgeDetector { return &edgeDetector{p: C.tablecam_edges_new()} }

func (d *edgeDetector) close() { C.tablecam_edges_close(d.p) }

// canny marks the edges of an 8-bit grey image in dst (255 on an edge):
// exactly gocv.Canny(src, dst, low, high), OpenCV's detector with a 3×3
// Sobel aperture and the L1 gradient, for a fraction of its cost (see
// edges.cpp). Where mask is set (unless it is empty) no edge is marked,
// and none is followed through.
func (d *edgeDetector) canny(src, mask gocv.Mat, dst *gocv.Mat, low, high float64) error {
	return d.cannyWidth(src, mask, dst, low, high, cannyOptions{}, widestVectors)
}

// cannyOptions are what canny does before and after Canny's detector.
type cannyOptions struct {
	// blur: the edges of src blurred as gocv.GaussianBlur(src, blurred,
	// image.Pt(5, 5), 0, 0, gocv.BorderReplicate) blurs it, without the
	// blurred image (each blurred row is made as the edges come to it).
	blur bool
	// thick: the edges dilated by a 3×3 square, as gocv.Dilate with
	// gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3)) dilates
	// them.
	thick bool
	// within, when not empty, is a convex polygon (pixel coordinates, a
	// pixel's centre at whole numbers) outside which no edge is marked or
	// followed; nor inside any of the convex quads hidden. Like the mask,
	// but without its image, and the detector spends nothing outside them.
	within []models.Point
	hidden []models.Quad
	// thickToo, when not nil, gets the edges dilated (as thick dilates
	// them) besides the edges; blurred, when not nil and blur is set, the
	// image blurred.
	thickToo, blurred *gocv.Mat
}

// cannyWidth is canny with the options, with vector instructions up to
// width (see vectorWidth; those the processor has): the same edges at
// every width.
func (d *edgeDetector) cannyWidth(src, mask gocv.Mat, dst *gocv.Mat, low, high float64, opts cannyOptions, width vectorWidth) error {
	flag := func(b bool) C.int {
		if b {
			return 1
		}
		return 0
	}
	if src.Type() != gocv.MatTypeCV8UC1 {
		return errors.New("vision: Canny edge detection wants an 8-bit grey image")
	}
	if !mask.Empty() && (mask.Type() != gocv.MatTypeCV8UC1 || mask.Rows() != src.Rows() || mask.Cols() != src.Cols()) {
		return errors.New("vision: Canny edge detection wants an 8-bit mask of the image's size")
	}
	within := make([]C.double, 0, 2*len(opts.within)+1)
	for _, p := range opts.within {
		within = append(within, C.double(p.X), C.double(p.Y))
	}
	hidden := make([]C.double, 0, 8*len(opts.hidden)+1)
	for _, q := range opts.hidden {
		for _, p := range q {
			hidden = append(hidden, C.double(p.X), C.double(p.Y))
		}
	}
	within, hidden = append(within, 0), append(hidden, 0) // never empty, for their first element's address
	var thick, blurred unsafe.Pointer
	if opts.thickToo != nil {
		thick = unsafe.Pointer(opts.thickToo.Ptr())
	}
	if opts.blurred != nil {
		blurred = unsafe.Pointer(opts.blurred.Ptr())
	}
	if C.tablecam_canny(d.p, unsafe.Pointer(src.Ptr()), unsafe.Pointer(mask.Ptr()), unsafe.Pointer(dst.Ptr()), C.int(math.Floor(low)), C.int(math.Floor(high)), flag(opts.blur), flag(opts.thick), C.int(width),
		&within[0], C.int(len(opts.within)), &hidden[0], C.int(len(opts.hidden)), thick, blurred) != 0 {
		return errCanny
	}
	return nil
}

// markDirections marks each edge pixel (not 0) of the 8-bit edge map
// edges with the direction of the gradient of grey (the image the edges
// were found on, blurred; of the map's size) there, modulo a whole turn:
// dirCode(dirStep(gx, gy)) of its 3×3 Sobel derivatives (never 0: a line's
// two edges, dark to light and light to dark, get opposite directions).
// The map's first and last rows and columns are cleared. It lists the
// pixels marked (y·w + x, row by row) in out.
func (d *edgeDetector) markDirections(edges, grey gocv.Mat, out []int32) ([]int32, error) {
	return d.markDirectionsWidth(edges, grey, out, widestVectors)
}

// markDirectionsWidth is markDirections with vector instructions up to
// width (see vectorWidth): the same marks at every width.
func (d *edgeDetector) markDirectionsWidth(edges, grey gocv.Mat, out []int32, width vectorWidth) ([]int32, error) {
	out = out[:0]
	if edges.Type() != gocv.MatTypeCV8UC1 || grey.Type() != gocv.MatTypeCV8UC1 || edges.Rows() != grey.Rows() || edges.Cols() != grey.Cols() || !edges.IsContinuous() {
		return out, errors.New("vision: edge directions want an 8-bit edge map and grey image of one size")
	}
	var n C.int
	p := C.tablecam_mark_directions(d.p, unsafe.Pointer(edges.Ptr()), unsafe.Pointer(grey.Ptr()), C.int(width), &n)
	if n < 0 {
		return out, errors.New("vision: marking edge directions failed")
	}
	if n > 0 {
		out = append(out, unsafe.Slice((*int32)(unsafe.Pointer(p)), int(n))...)
	}
	return out, nil
}

// edgeDirCodes gives the marks markDirections puts on edge pixels whose
// gradients are (gx[k], gy[k]), with vector instructions up to width (for
// tests: they are dirCode(dirStep(gx, gy))).
func edgeDirCodes(gx, gy []int32, width vectorWidth) []byte {
	out := make([]byte, len(gx))
	if len(gx) == 0 || len(gy) != len(gx) {
		return out
	}
	C.tablecam_dir_codes((*C.int)(unsafe.Pointer(&gx[0])), (*C.int)(unsafe.Pointer(&gy[0])), C.int(len(gx)), C.int(width), (*C.uchar)(unsafe.Pointer(&out[0])))
	return out
}

// blur writes gocv.GaussianBlur(src, dst, image.Pt(5, 5), 0, 0,
// gocv.BorderReplicate) of an 8-bit grey image to dst, exactly (OpenCV's
// blur of 8-bit images with these parameters is fixed-point: 1 4 6 4 1
// both ways), as canny's blur option blurs it, for a fraction of its cost.
func blur(src gocv.Mat, dst *gocv.Mat) error {
	return blurWidth(src, dst, widestVectors)
}

// blurWidth is blur with vector instructions up to width (see
// vectorWidth): the same image at every width.
func blurWidth(src gocv.Mat, dst *gocv.Mat, width vectorWidth) error {
	if src.Type() != gocv.MatTypeCV8UC1 {
		return errors.New("vision: blur wants an 8-bit grey image")
	}
	if C.tablecam_blur(unsafe.Pointer(src.Ptr()), unsafe.Pointer(dst.Ptr()), C.int(width)) != 0 {
		return errors.New("vision: blur failed")
	}
	return nil
}

// filledRect is the minimum-area rectangle of a contour, as gocv.MinAreaRect
// gives it: corners, centre and sides rounded to whole pixels.
type filledRect struct {
	corners       [4]image.Point
	center        image.Point
	width, height int
}

// filledRects finds the contours of an edge map (as gocv.FindContours with
// gocv.RetrievalList and gocv.ChainApproxSimple lists them) and gives, in
// that order, the minimum-area rectangles of those whose area
// (gocv.ContourArea) is at least minArea and at least fill times their
// rectangle's: closed outlines of filled rectangles. One call to C instead
// of several to OpenCV for every contour. When edges is a region of a bigger
// image with a pixel of room all round (see framedEdges), the contours are
// followed in place, without a copy: edges and that border are overwritten.
// edgesOnly says that edges holds only 0 and 255 (as canny marks them): the
// map is then not thresholded first (any other value would be misread).
func (d *edgeDetector) filledRects(edges gocv.Mat, minArea, fill float64, edgesOnly bool) ([]filledRect, error) {
	if edges.Type() != gocv.MatTypeCV8UC1 {
		return nil, errors.New("vision: contours want an 8-bit edge map")
	}
	var n C.int
	only := C.int(0)
	if edgesOnly {
		only = 1
	}
	p := C.tablecam_filled_rects(d.p, unsafe.Pointer(edges.Ptr()), C.double(minArea), C.double(fill), only, &n)
	if n < 0 {
		return nil, errors.New("vision: finding contours failed")
	}
	rects := make([]filledRect, int(n))
	for i, r := range unsafe.Slice(p, int(n)) {
		for k := range 4 {
			rects[i].corners[k] = image.Pt(int(r.x[k]), int(r.y[k]))
		}
		rects[i].center = image.Pt(int(r.cx), int(r.cy))
		rects[i].width, rects[i].height = int(r.width), int(r.height)
	}
	return rects, nil
}

// framedEdges is an edge map inside an image a pixel bigger all round, so
// that filledRects follows its contours in place.
type framedEdges struct {
	frame, edges gocv.Mat // edges is a region of frame
}

func newFramedEdges() *framedEdges {
	return &framedEdges{frame: gocv.NewMat(), edges: gocv.NewMat()}
}

// sized gives the edge map, rows×cols, reallocated when its size differs.
func (f *framedEdges) sized(rows, cols int) *gocv.Mat {
	if f.edges.Rows() != rows || f.edges.Cols() != cols {
		f.close()
		f.frame = gocv.NewMatWithSize(rows+2, cols+2, gocv.MatTypeCV8UC1)
		f.edges = f.frame.Region(image.Rect(1, 1, cols+1, rows+1))
	}
	return &f.edges
}

func (f *framedEdges) close() {
	f.edges.Close()
	f.frame.Close()
}
