package calibration

import (
	"errors"
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// Drift sampling: every cell edge of the grid is a segment; each segment is
// sampled at driftSamples points, and at each point the grey profile across
// the line is read from −driftRadius to +driftRadius pixels.
const (
	driftSamples = 8
	driftRadius  = 6
	driftShift   = 10 // how far (px) a moved line is searched for
	driftNear    = 2  // shifts up to this many px count as "not moved"
	profileLen   = 2*driftRadius + 1
)

// Reference is the look of the grid lines at calibration time: for each cell
// edge, the grey profiles across the line at evenly spaced points.
type Reference struct {
	// Segments holds one entry per cell edge: first the Columns+1 lines of
	// constant x (each split into Rows pieces, south to north), then the
	// Rows+1 lines of constant y (each split into Columns pieces, west to east).
	Segments [][]byte `json:"segments"`
}

var errBadReference = errors.New("malformed drift reference")

func (r *Reference) validate() error {
	if r == nil {
		return nil
	}
	want := (models.Columns+1)*models.Rows + (models.Rows+1)*models.Columns
	if len(r.Segments) != want {
		return fmt.Errorf("%d segments, want %d: %w", len(r.Segments), want, errBadReference)
	}
	for i, s := range r.Segments {
		if len(s) != driftSamples*profileLen {
			return fmt.Errorf("segment %d has %d samples, want %d: %w", i, len(s), driftSamples*profileLen, errBadReference)
		}
	}
	return nil
}

// driftPoint is one sample point of a segment: its image position and the
// unit normal of the grid line there.
type driftPoint struct {
	p      models.Point
	nx, ny float64
}

// driftSegment is the sample points of one cell edge; xLine says whether it
// lies on a line of constant x.
type driftSegment struct {
	xLine bool
	pts   [driftSamples]driftPoint
}

// driftSegments lays out the sample points of every cell edge in the image.
func (c *Calibration) driftSegments() []driftSegment {
	g := c.geometry()
	h, _ := c.transforms()
	var out []driftSegment
	add := func(p0, p1 models.Point, xLine bool) {
		var s driftSegment
		s.xLine = xLine
		for k := 0; k < driftSamples; k++ {
			f := (float64(k) + 0.5) / driftSamples
			q := models.Point{X: p0.X + f*(p1.X-p0.X), Y: p0.Y + f*(p1.Y-p0.Y)}
			dx, dy := (p1.X-p0.X)/100, (p1.Y-p0.Y)/100
			a := h.Apply(q)
			b := h.Apply(models.Point{X: q.X + dx, Y: q.Y + dy})
			l := math.Hypot(b.X-a.X, b.Y-a.Y)
			if l == 0 || math.IsNaN(l) {
				l = 1
			}
			s.pts[k] = driftPoint{p: a, nx: -(b.Y - a.Y) / l, ny: (b.X - a.X) / l}
		}
		out = append(out, s)
	}
	for i := 0; i <= models.Columns; i++ {
		x := float64(i) * g.CellWidthMM
		for j := 0; j < models.Rows; j++ {
			add(models.Point{X: x, Y: float64(j) * g.CellHeightMM}, models.Point{X: x, Y: float64(j+1) * g.CellHeightMM}, true)
		}
	}
	for j := 0; j <= models.Rows; j++ {
		y := float64(j) * g.CellHeightMM
		for i := 0; i < models.Columns; i++ {
			add(models.Point{X: float64(i) * g.CellWidthMM, Y: y}, models.Point{X: float64(i+1) * g.CellWidthMM, Y: y}, false)
		}
	}
	return out
}

// grayReader reads grey values of a BGR, BGRA or grey 8-bit frame without copying it.
type grayReader struct {
	data     []byte
	w, h, ch int
}

func newGrayReader(frame gocv.Mat) (grayReader, gocv.Mat, bool) {
	src := frame
	var owned gocv.Mat
	if !frame.IsContinuous() {
		owned = frame.Clone()
		src = owned
	}
	if src.Type() != gocv.MatTypeCV8UC1 && src.Type() != gocv.MatTypeCV8UC3 && src.Type() != gocv.MatTypeCV8UC4 {
		return grayReader{}, owned, false
	}
	b, err := src.DataPtrUint8()
	if err != nil {
		return grayReader{}, owned, false
	}
	return grayReader{data: b, w: src.Cols(), h: src.Rows(), ch: src.Channels()}, owned, true
}

// at is the grey value at the nearest pixel, clamped to the image.
func (g grayReader) at(x, y float64) byte {
	xi, yi := int(x+0.5), int(y+0.5)
	if xi < 0 {
		xi = 0
	} else if xi >= g.w {
		xi = g.w - 1
	}
	if yi < 0 {
		yi = 0
	} else if yi >= g.h {
		yi = g.h - 1
	}
	i := (yi*g.w + xi) * g.ch
	if g.ch == 1 {
		return g.data[i]
	}
	return byte((int(g.data[i])*29 + int(g.data[i+1])*150 + int(g.data[i+2])*77) >> 8)
}

// profile reads the grey values across the line at one sample point, from
// −r to +r pixels along the normal, into dst.
func (g grayReader) profile(dp driftPoint, r int, dst []byte) {
	for k := -r; k <= r; k++ {
		dst[k+r] = g.at(dp.p.X+float64(k)*dp.nx, dp.p.Y+float64(k)*dp.ny)
	}
}

// SetReference records how the grid lines look in frame, for Drifted. Detect
// calls it; call it after FromCorners or Load when the reference is missing
// or stale.
func (c *Calibration) SetReference(frame gocv.Mat) {
	gr, owned, ok := newGrayReader(frame)
	if owned.Ptr() != nil {
		defer owned.Close()
	}
	if !ok {
		return
	}
	segs := c.driftSegments()
	ref := &Reference{Segments: make([][]byte, len(segs))}
	for i, s := range segs {
		buf := make([]byte, driftSamples*profileLen)
		for k, dp := range s.pts {
			gr.profile(dp, driftRadius, buf[k*profileLen:(k+1)*profileLen])
		}
		ref.Segments[i] = buf
	}
	c.Reference = ref
}

// DriftThreshold is the score above which Drifted reports a move.
const DriftThreshold = 0.5

// Drifted reports whether the camera or the mat has moved since the
// calibration, and a score from 0 (the grid lines are all where they were)
// to 1 (none are). Each cell edge of the grid is compared with the reference:
// it is still in place, covered (by a card or a hand: no match anywhere
// nearby) or moved (its profile matches a few pixels away). A move is
// reported when, in either direction of lines, moved edges are at least a
// third of the visible ones and outnumber those in place, when they are a
// third of the edges matched anywhere (in place or moved: a turned mat moves
// each line by an amount that changes along it, so many of its edges match
// nowhere), or when fewer than a quarter of all edges are still in place. A hand or a placed card only
// covers some edges, so it does not count as a move; the caller should still
// require a report to persist for a few frames before recalibrating.
//
// A frame of another size than the calibration's is reported as drifted.
// Without a reference (manual corners), the first frame becomes the
// reference. Drifted is cheap (well under a millisecond for 1280×720) and
// does not modify frame, but it may set c.Reference, so it is not safe to
// call concurrently on one Calibration.
func (c *Calibration) Drifted(frame gocv.Mat) (bool, float64) {
	if frame.Empty() {
		return false, 0
	}
	if frame.Cols() != c.ImageWidth || frame.Rows() != c.ImageHeight {
		return true, 1
	}
	if c.Reference == nil || c.Reference.validate() != nil {
		c.SetReference(frame)
		return false, 0
	}
	n, ok := c.driftCounts(frame)
	if !ok {
		return false, 0
	}
	return n.decide()
}

// driftTally counts, per direction of lines (0: constant x, 1: constant y),
// the cell edges that were visible at calibration, and of those the ones
// still in place and the ones found moved.
type driftTally struct {
	visible, inPlace, moved [2]int
}

// decide turns the tallies into Drifted's answer.
func (n driftTally) decide() (bool, float64) {
	total := n.visible[0] + n.visible[1]
	if total == 0 {
		return false, 0
	}
	inPlace := n.inPlace[0] + n.inPlace[1]
	moved := n.moved[0] + n.moved[1]
	score := 1 - float64(inPlace)/float64(total)
	// Nearly nothing where it was: a big move, or the view is blocked.
	drifted := float64(inPlace) < 0.25*float64(total)
	// Edges found a few pixels away, consistently: the camera or mat moved.
	// (Covered edges match nowhere, so hands and cards do not count here.)
	if mf := float64(moved) / float64(total); mf >= 0.25 && moved >= 6 {
		drifted = true
		score = math.Max(score, DriftThreshold+mf/2)
	}
	// A turn or a tilt shifts each line by an amount that changes along it,
	// so many edges match neither in place nor at one shift and look covered;
	// of the edges still matched somewhere, a third found moved is a move.
	if matched := inPlace + moved; moved >= 6 && 3*moved >= matched {
		drifted = true
		score = math.Max(score, DriftThreshold+float64(moved)/float64(matched)/2)
	}
	for f := 0; f < 2; f++ {
		if n.visible[f] == 0 {
			continue
		}
		mf := float64(n.moved[f]) / float64(n.visible[f])
		if mf >= 1.0/3 && n.moved[f] > n.inPlace[f] {
			drifted = true
			score = math.Max(score, DriftThreshold+mf/2)
		}
	}
	if !drifted {
		score = math.Min(score, DriftThreshold)
	}
	return drifted, math.Min(score, 1)
}

// driftCounts compares every cell edge of frame with the reference.
func (c *Calibration) driftCounts(frame gocv.Mat) (driftTally, bool) {
	var n driftTally
	gr, owned, ok := newGrayReader(frame)
	if owned.Ptr() != nil {
		defer owned.Close()
	}
	if !ok {
		return n, false
	}
	segs := c.driftSegments()
	const ext = driftRadius + driftShift
	cur := make([]byte, driftSamples*(2*ext+1))
	for i, s := range segs {
		ref := c.Reference.Segments[i]
		if !textured(ref) {
			continue
		}
		for k, dp := range s.pts {
			gr.profile(dp, ext, cur[k*(2*ext+1):(k+1)*(2*ext+1)])
		}
		near, far := bestShift(ref, cur)
		fam := 0
		if !s.xLine {
			fam = 1
		}
		n.visible[fam]++
		switch {
		case near >= 0.6:
			n.inPlace[fam]++
		case far >= 0.7 && far > near+0.15:
			n.moved[fam]++
		}
	}
	return n, true
}

// textured reports whether a reference segment shows enough contrast to be compared.
func textured(ref []byte) bool {
	var sum, sq float64
	for _, v := range ref {
		f := float64(v)
		sum += f
		sq += f * f
	}
	n := float64(len(ref))
	m := sum / n
	return sq/n-m*m >= 16 // standard deviation ≥ 4 grey levels
}

// bestShift correlates the reference profiles of a segment with the current
// (wider) profiles at every shift along the normal. near is the best
// normalised correlation within driftNear px, far the best beyond.
func bestShift(ref, cur []byte) (near, far float64) {
	const ext = driftRadius + driftShift
	const curLen = 2*ext + 1
	near, far = -1, -1
	for s := -driftShift; s <= driftShift; s++ {
		var sa, sb, saa, sbb, sab float64
		for k := 0; k < driftSamples; k++ {
			r := ref[k*profileLen : (k+1)*profileLen]
			c := cur[k*curLen+driftShift+s : k*curLen+driftShift+s+profileLen]
			for j := 0; j < profileLen; j++ {
				a, b := float64(r[j]), float64(c[j])
				sa += a
				sb += b
				saa += a * a
				sbb += b * b
				sab += a * b
			}
		}
		n := float64(driftSamples * profileLen)
		va := saa - sa*sa/n
		vb := sbb - sb*sb/n
		ncc := 0.0
		if va > 0 && vb > 0 {
			ncc = (sab - sa*sb/n) / math.Sqrt(va*vb)
		}
		if s >= -driftNear && s <= driftNear {
			near = math.Max(near, ncc)
		} else {
			far = math.Max(far, ncc)
		}
	}
	return near, far
}
