package vision

// #cgo !windows pkg-config: opencv4
// #cgo CXXFLAGS: --std=c++11
// #include <stdlib.h>
// #include "orb.h"
import "C"

import (
	"encoding/binary"
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
// on a level where that falls short.
type frameORB struct {
	p             C.tablecam_orb
	points, descs gocv.Mat
}

func newFrameORB(n int) *frameORB { return newFrameORBSIMD(n, true) }

// newFrameORBSIMD is newFrameORB, with AVX2 instructions for descriptors
// (where the processor has them) only when simd is true.
func newFrameORBSIMD(n int, simd bool) *frameORB {
	s := 0
	if simd {
		s = 1
	}
	return &frameORB{
		p:      C.tablecam_orb_new(C.int(n), C.float(orbScaleFactor), C.int(orbLevels), C.int(orbPatch), C.int(fastThreshold), C.int(s)),
		points: gocv.NewMat(), descs: gocv.NewMat(),
	}
}

func (o *frameORB) close() {
	C.tablecam_orb_close(o.p)
	o.points.Close()
	o.descs.Close()
}

// errFrameORB is returned when OpenCV fails inside the frame detector.
var errFrameORB = errors.New("vision: ORB detection failed")

// detect finds the features of a grey image.
func (o *frameORB) detect(gray gocv.Mat) (features, error) {
	n := int(C.tablecam_orb_detect(o.p, unsafe.Pointer(gray.Ptr()), unsafe.Pointer(o.points.Ptr()), unsafe.Pointer(o.descs.Ptr())))
	if n < 0 {
		return features{}, errFrameORB
	}
	if n == 0 {
		return features{}, nil
	}
	if o.descs.Cols() != 32 || o.descs.Rows() != n || o.points.Rows() != n {
		return features{}, fmt.Errorf("vision: unexpected ORB descriptor shape %dx%d for %d keypoints", o.descs.Rows(), o.descs.Cols(), n)
	}
	pts, err := o.points.DataPtrFloat32()
	if err != nil {
		return features{}, err
	}
	raw, err := o.descs.DataPtrUint8()
	if err != nil {
		return features{}, err
	}
	f := features{Points: make([]keypoint, n), Descs: make([]descriptor, n)}
	for i := range f.Points {
		f.Points[i] = keypoint{pts[2*i], pts[2*i+1]}
		row := raw[i*32 : i*32+32]
		for w := 0; w < 4; w++ {
			f.Descs[i][w] = binary.LittleEndian.Uint64(row[w*8:])
		}
	}
	return f, nil
}
