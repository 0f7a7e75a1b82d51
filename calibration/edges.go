package calibration

import (
	"image"
	"math"
	"runtime"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// noEdge marks a pixel without an edge in an edgeMap.
const noEdge = 255

// oriBins is the number of gradient-orientation bins over 180°.
const oriBins = 45

// edgeMap holds, per pixel, the direction of the edge's gradient there (in
// 2·oriBins bins over 360°) or noEdge. Bin b and b+oriBins are the same
// orientation with opposite polarity (dark-to-light or light-to-dark).
type edgeMap struct {
	w, h int
	ori  []uint8
}

// newEdgeMap runs Canny on a blurred grey image and records edge orientations.
func newEdgeMap(gray gocv.Mat, low, high float32) (*edgeMap, error) {
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(gray, &edges, low, high)
	dx, dy := gocv.NewMat(), gocv.NewMat()
	defer dx.Close()
	defer dy.Close()
	gocv.Sobel(gray, &dx, gocv.MatTypeCV16S, 1, 0, 3, 1, 0, gocv.BorderReplicate)
	gocv.Sobel(gray, &dy, gocv.MatTypeCV16S, 0, 1, 3, 1, 0, gocv.BorderReplicate)
	eb, err := edges.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	gx, err := dx.DataPtrInt16()
	if err != nil {
		return nil, err
	}
	gy, err := dy.DataPtrInt16()
	if err != nil {
		return nil, err
	}
	m := &edgeMap{w: gray.Cols(), h: gray.Rows(), ori: make([]uint8, len(eb))}
	for i, e := range eb {
		if e == 0 {
			m.ori[i] = noEdge
			continue
		}
		m.ori[i] = directionBin(math.Atan2(float64(gy[i]), float64(gx[i])))
	}
	return m, nil
}

// directionBin bins an angle (radians) over the full circle in 2·oriBins bins.
func directionBin(a float64) uint8 {
	a = math.Mod(a, 2*math.Pi)
	if a < 0 {
		a += 2 * math.Pi
	}
	b := int(a / math.Pi * oriBins)
	if b >= 2*oriBins {
		b = 2*oriBins - 1
	}
	return uint8(b)
}

// binDistance is the circular distance between two orientation bins
// (modulo 180°; direction bins are folded first).
func binDistance(a, b uint8) int {
	d := int(a%oriBins) - int(b%oriBins)
	if d < 0 {
		d = -d
	}
	if d > oriBins/2 {
		d = oriBins - d
	}
	return d
}

// oriTolerance is how far (in bins) an edge's orientation may be from a line's normal.
const oriTolerance = 5

// maxLineWidth is the widest grid line (px) whose two edges are paired.
const maxLineWidth = 20

// centre finds where a grid line crosses the normal (nx, ny) through p,
// within r pixels: the middle of the nearest pair of opposite-polarity edges
// (a drawn line), else the nearest single edge (a boundary). It returns the
// offset along the normal.
func (m *edgeMap) centre(p models.Point, nx, ny float64, r int, bin uint8) (float64, bool) {
	off, _, ok := m.lineCentre(p, nx, ny, r, bin)
	return off, ok
}

// lineCentre is centre, also saying whether the crossing is a drawn line
// (a pair of opposite edges) rather than a single edge.
func (m *edgeMap) lineCentre(p models.Point, nx, ny float64, r int, bin uint8) (float64, bool, bool) {
	var offs [2 * (maxLineWidth + 1)]int
	var pol [2 * (maxLineWidth + 1)]bool
	n := 0
	for k := -r; k <= r && n < len(offs); k++ {
		x := int(p.X + float64(k)*nx + 0.5)
		y := int(p.Y + float64(k)*ny + 0.5)
		if x < 0 || y < 0 || x >= m.w || y >= m.h {
			continue
		}
		o := m.ori[y*m.w+x]
		if o == noEdge || binDistance(o, bin) > oriTolerance {
			continue
		}
		offs[n] = k
		// Polarity: does the gradient point along +normal?
		d := int(o) - int(bin%oriBins)
		if d < 0 {
			d = -d
		}
		pol[n] = d <= oriTolerance || d >= 2*oriBins-oriTolerance
		n++
	}
	if n == 0 {
		return 0, false, false
	}
	best, bestD := 0.0, math.Inf(1)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if pol[i] == pol[j] || offs[j]-offs[i] > maxLineWidth || offs[j]-offs[i] < 1 {
				continue
			}
			c := float64(offs[i]+offs[j]) / 2
			if math.Abs(c) < bestD {
				best, bestD = c, math.Abs(c)
			}
		}
	}
	if bestD <= float64(r) {
		return best, true, true
	}
	for i := 0; i < n; i++ {
		if d := math.Abs(float64(offs[i])); d < bestD {
			best, bestD = float64(offs[i]), d
		}
	}
	return best, false, true
}

// inside reports whether p is inside the map.
func (m *edgeMap) inside(p models.Point) bool {
	return p.X >= 0 && p.Y >= 0 && p.X < float64(m.w) && p.Y < float64(m.h)
}

// segment is a line segment found by the Hough transform.
type segment struct {
	a, b models.Point
}

func (s segment) length() float64 { return math.Hypot(s.b.X-s.a.X, s.b.Y-s.a.Y) }

// direction is the segment's angle in [0, π).
func (s segment) direction() float64 {
	a := math.Atan2(s.b.Y-s.a.Y, s.b.X-s.a.X)
	if a < 0 {
		a += math.Pi
	}
	if a >= math.Pi {
		a -= math.Pi
	}
	return a
}

// houghSeed seeds the random sampling of the Hough transform.
const houghSeed = 0x7ab1eca

// houghSegments finds straight segments on an edge image.
func houghSegments(edges gocv.Mat, minLen float64) []segment {
	lines := gocv.NewMat()
	defer lines.Close()
	// The probabilistic Hough transform samples edge points with OpenCV's
	// per-thread random generator: seed it on this thread so that one image
	// always gives the same calibration.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	gocv.SetRNGSeed(houghSeed)
	gocv.HoughLinesPWithParams(edges, &lines, 1, math.Pi/180, int(minLen*0.6), float32(minLen), float32(minLen/5))
	out := make([]segment, 0, lines.Rows())
	for i := 0; i < lines.Rows(); i++ {
		v := lines.GetVeciAt(i, 0)
		out = append(out, segment{
			a: models.Point{X: float64(v[0]), Y: float64(v[1])},
			b: models.Point{X: float64(v[2]), Y: float64(v[3])},
		})
	}
	return out
}

// grayFor converts a frame to one blurred grey channel.
func grayFor(frame gocv.Mat) gocv.Mat {
	return grayBlurred(frame, grayBlurSigma)
}

// grayBlurSigma is the Gaussian blur (px) grayFor gives a frame at the
// working width: it quiets the camera's pixel noise before edges and line
// profiles are read.
const grayBlurSigma = 1.2

// grayBlurred is frame's grey level blurred by a Gaussian of sigma px (see
// workingGray: an enlarged frame).
func grayBlurred(frame gocv.Mat, sigma float64) gocv.Mat {
	gray := gocv.NewMat()
	switch frame.Channels() {
	case 1:
		frame.CopyTo(&gray)
	case 4:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRAToGray)
	default:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRToGray)
	}
	gocv.GaussianBlur(gray, &gray, image.Pt(5, 5), sigma, sigma, gocv.BorderReplicate)
	return gray
}
