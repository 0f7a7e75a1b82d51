package vision

import (
	"encoding/binary"
	"fmt"

	"gocv.io/x/gocv"
)

// descriptor is one 256-bit ORB descriptor packed into four words, so that
// the Hamming distance is four popcounts.
type descriptor [4]uint64

// keypoint is a feature's position in its image, in pixels.
type keypoint struct{ X, Y float32 }

// features are the keypoints of one image with their descriptors, index for index.
type features struct {
	Points []keypoint
	Descs  []descriptor
	// lazy, when not nil, computes descriptors on demand: Descs[i] is
	// keypoint i's only once it has been described (see describe).
	lazy *lazyDescriptors
}

// lazyDescriptors are the descriptors of an image's keypoints not all
// computed yet.
type lazyDescriptors struct {
	src     describer
	done    []bool
	pending []int32 // scratch: the keypoints being described
	raw     []byte  // scratch: their descriptors' bytes
}

// describer computes the descriptors of an image's keypoints (by number)
// into out, 32 bytes each, in the order asked.
type describer interface {
	describeInto(ids []int32, out []byte)
}

// described reports whether keypoint i's descriptor is known.
func (f features) described(i int) bool { return f.lazy == nil || f.lazy.done[i] }

// describe computes the descriptors of the keypoints listed that lack one.
func (f features) describe(ids []int) {
	l := f.lazy
	if l == nil {
		return
	}
	l.pending = l.pending[:0]
	for _, i := range ids {
		if !l.done[i] {
			l.done[i] = true
			l.pending = append(l.pending, int32(i))
		}
	}
	if len(l.pending) == 0 {
		return
	}
	if need := 32 * len(l.pending); cap(l.raw) < need {
		l.raw = make([]byte, need)
	}
	raw := l.raw[:32*len(l.pending)]
	l.src.describeInto(l.pending, raw)
	for k, i := range l.pending {
		row := raw[32*k : 32*k+32]
		for w := 0; w < 4; w++ {
			f.Descs[i][w] = binary.LittleEndian.Uint64(row[w*8:])
		}
	}
}

// within lists the keypoints inside the box x0–x1, y0–y1.
func (f features) within(x0, y0, x1, y1 float64) []int {
	var out []int
	for i, p := range f.Points {
		if x, y := float64(p.X), float64(p.Y); x >= x0 && x <= x1 && y >= y0 && y <= y1 {
			out = append(out, i)
		}
	}
	return out
}

// describeAll computes every descriptor not yet known.
func (f features) describeAll() {
	if f.lazy == nil {
		return
	}
	all := make([]int, len(f.Points))
	for i := range all {
		all[i] = i
	}
	f.describe(all)
}

// newORB makes the ORB detector used for references and frames alike: FAST
// corners, a small patch so that the border of a card face still yields
// keypoints, and a pyramid that covers the scale changes of a tilted camera.
func newORB(n int) gocv.ORB {
	return gocv.NewORBWithParams(n, orbScaleFactor, orbLevels, orbPatch, 0, 2, gocv.ORBScoreTypeHarris, orbPatch, fastThreshold)
}

// Whole frames keep (nearly) every FAST corner, so they rank corners by
// their FAST score: ranking them by Harris score, which costs a third of
// the detection, would change little. See frameORB.

// orbPatch is the patch size (and edge threshold) of the ORB detectors.
const orbPatch = 19

// orbScaleFactor is the ORB pyramid's scale step.
const orbScaleFactor = 1.2

// fastThreshold is low so that blurred cards far from the camera still get corners.
const fastThreshold = 7

// orbLevels is small: in the top-down image every card has its reference scale.
const orbLevels = 2

// detect finds ORB features in a grey image, only where mask is non-zero
// (an empty mask means everywhere).
func detect(orb *gocv.ORB, gray gocv.Mat, mask gocv.Mat) (features, error) {
	kps, desc := orb.DetectAndCompute(gray, mask)
	defer desc.Close()
	if desc.Empty() || len(kps) == 0 {
		return features{}, nil
	}
	if desc.Cols() != 32 || desc.Rows() != len(kps) {
		return features{}, fmt.Errorf("vision: unexpected ORB descriptor shape %dx%d for %d keypoints", desc.Rows(), desc.Cols(), len(kps))
	}
	raw := desc.ToBytes()
	f := features{Points: make([]keypoint, len(kps)), Descs: make([]descriptor, len(kps))}
	for i, kp := range kps {
		f.Points[i] = keypoint{float32(kp.X), float32(kp.Y)}
		row := raw[i*32 : i*32+32]
		for w := 0; w < 4; w++ {
			f.Descs[i][w] = binary.LittleEndian.Uint64(row[w*8:])
		}
	}
	return f, nil
}

// frameDetector finds the ORB features of frames, keeping one detector.
// Frames are equalised first (see contrastEqualizer): lighting varies
// across a real table, the reference faces' does not.
type frameDetector struct {
	orb       *frameORB
	mask      gocv.Mat // empty: identifyRegion's detections look everywhere
	equalizer *contrastEqualizer
	equalized gocv.Mat
}

func newFrameDetector(n int, pxPerMM float64) *frameDetector {
	return &frameDetector{orb: newFrameORB(n), mask: gocv.NewMat(), equalizer: newContrastEqualizer(pxPerMM), equalized: gocv.NewMat()}
}

func (d *frameDetector) close() {
	d.orb.close()
	d.mask.Close()
	d.equalizer.close()
	d.equalized.Close()
}

// detect finds the features of a top-down grey image.
func (d *frameDetector) detect(gray gocv.Mat) (features, error) {
	return d.detectLaps(gray, func(string) {})
}

// detectLaps is detect, telling lap when the equalisation ends (see
// Analyzer.laps).
func (d *frameDetector) detectLaps(gray gocv.Mat, lap func(stage string)) (features, error) {
	if err := d.equalizer.equalize(gray, &d.equalized); err != nil {
		return features{}, err
	}
	lap("equalise")
	return d.orb.detect(d.equalized)
}
