package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include <stdlib.h>
// #include "orb.h"
// int tablecam_orb_looked_again(tablecam_orb o, long long *early, long long *whole);
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gocv.io/x/gocv"
)

// frameORB finds the ORB features of whole frames: exactly those an ORB
// with FAST scores (newFrameORB's parameters) keeps, in a fixed order, found
// for a fraction of the cost. ORB runs FAST at its threshold on every
// pyramid level and keeps the corners scoring highest; FAST at a higher
// threshold finds the same top corners much faster, and orb.cpp runs it at
// the last frame's lowest kept score, looking again at ORB's own threshold
// on a level where that falls short (with AVX-512, an own FAST scoring 64
// pixels at a time: the same corners). A keypoint's orientation and
// descriptor, most of ORB's cost, are computed only when asked for (see
// features.describe): a frame's matching reads a fraction of them.
type frameORB struct {
	p      C.tablecam_orb
	points gocv.Mat
	image  uint64 // counts the images detected, so that stale features are caught
}

func newFrameORB(n int) *frameORB { return newFrameORBWidth(n, widestVectors) }

// newFrameORBWidth is newFrameORB with vector instructions up to width
// (see vectorWidth): the same features at every width.
func newFrameORBWidth(n int, width vectorWidth) *frameORB {
	return &frameORB{
		p:      C.tablecam_orb_new(C.int(n), C.float(orbScaleFactor), C.int(orbLevels), C.int(orbPatch), C.int(fastThreshold), C.int(width)),
		points: gocv.NewMat(),
	}
}

func (o *frameORB) close() {
	C.tablecam_orb_close(o.p)
	o.points.Close()
}

// errFrameORB is returned when OpenCV fails inside the frame detector.
var errFrameORB = errors.New("vision: ORB detection failed")

// detect finds the keypoints of a grey image; their descriptors are computed on demand (features.describe), until the
// detector reads another image.
func (o *frameORB) detect(gray gocv.Mat) (features, error) {
	o.image++
	n := int(C.tablecam_orb_detect(o.p, unsafe.Pointer(gray.Ptr()), unsafe.Pointer(o.points.Ptr())))
	if n < 0 {
		return features{}, errFrameORB
	}
	if n == 0 {
		return features{}, nil
	}
	if o.points.Cols() != 2 || o.points.Rows() != n {
		return features{}, fmt.Errorf("vision: unexpected ORB keypoint shape %dx%d for %d keypoints", o.points.Rows(), o.points.Cols(), n)
	}
	pts, err := o.points.DataPtrFloat32()
	if err != nil {
		return features{}, err
	}
	f := features{Points: make([]keypoint, n), Descs: make([]descriptor, n)}
	for i := range f.Points {
		f.Points[i] = keypoint{pts[2*i], pts[2*i+1]}
	}
	f.lazy = &lazyDescriptors{src: frameDescriber{o, o.image}, done: make([]bool, n)}
	return f, nil
}

// frameDescriber describes the keypoints of one image a frameORB detected.
type frameDescriber struct {
	o     *frameORB
	image uint64
}

// describeInto writes the descriptors of keypoints ids into out, 32 bytes
// each.
func (d frameDescriber) describeInto(ids []int32, out []byte) {
	if d.o.image != d.image {
		panic("vision: frame keypoints described after their detector read another image")
	}
	if len(ids) == 0 {
		return
	}
	C.tablecam_orb_describe(d.o.p, (*C.int)(unsafe.Pointer(&ids[0])), C.int(len(ids)), (*C.uchar)(unsafe.Pointer(&out[0])))
}

// lookedAgain tells how many pyramid levels the detector has looked at again
// at its own threshold, having found too few corners at the last frame's:
// early (a quarter of the way down, guessing from the last frame's share of
// corners there) or whole; ok is false where its own FAST does not run (see
// orb.cpp's cornersAVX512).
func (o *frameORB) lookedAgain() (early, whole int64, ok bool) {
	var e, w C.longlong
	ok = C.tablecam_orb_looked_again(o.p, &e, &w) != 0
	return int64(e), int64(w), ok
}
