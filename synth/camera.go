package synth

import (
	"math"
	"math/rand"

	"github.com/tablecam/tablecam/models"
)

// Camera maps the mat plane to image pixels. Mat coordinates are millimetres
// from the realm's A1 (south-west) outer corner, x east and y north, the same
// "realm mm" that calibration uses.
type Camera struct {
	RealmToImage  Homography
	Width, Height int
	// The pose the homography was built from, in degrees, for the record.
	TiltDeg, YawDeg, RollDeg float64
}

// RealmCorners gives the realm's outer corners in image pixels in the order
// A1 (SW), E1 (SE), E4 (NE), A4 (NW).
func (c Camera) RealmCorners(g models.RealmGeometry) models.Quad {
	w, h := g.WidthMM(), g.HeightMM()
	return models.Quad{
		c.RealmToImage.Point(models.Point{X: 0, Y: 0}),
		c.RealmToImage.Point(models.Point{X: w, Y: 0}),
		c.RealmToImage.Point(models.Point{X: w, Y: h}),
		c.RealmToImage.Point(models.Point{X: 0, Y: h}),
	}
}

// cameraPose describes a camera looking down at the table from the south.
type cameraPose struct {
	tilt, yaw, roll float64 // degrees
	gridWidth       float64 // fraction of the frame width the realm spans
	offX, offY      float64 // shift of the realm's centre, fraction of the free room (−1…1)
	distanceMM      float64 // camera distance, sets the strength of perspective
}

// randomPose draws a camera pose; maxRoll (degrees) bounds the in-plane
// turn, 0 meaning the default 10.
func randomPose(rng *rand.Rand, maxRoll float64) cameraPose {
	if maxRoll <= 0 {
		maxRoll = 10
	}
	return cameraPose{
		tilt:       30 * rng.Float64(),
		yaw:        (rng.Float64()*2 - 1) * 8,
		roll:       (rng.Float64()*2 - 1) * maxRoll,
		gridWidth:  0.5 + 0.4*rng.Float64(),
		offX:       (rng.Float64()*2 - 1) * 0.6,
		offY:       (rng.Float64()*2 - 1) * 0.6,
		distanceMM: 650 + 400*rng.Float64(),
	}
}

// newCamera builds the homography of a pose: a pinhole camera tilted about
// the east–west axis (north further away), yawed a little, rolled in the
// image plane, and scaled so that the realm spans the wanted frame width.
// The realm always stays inside the frame.
func newCamera(p cameraPose, g models.RealmGeometry, width, height int) Camera {
	cx, cy := g.WidthMM()/2, g.HeightMM()/2
	// Mat mm → (u, v) with v growing south, like image rows.
	m1 := Homography{1, 0, -cx, 0, -1, cy, 0, 0, 1}
	t := -p.tilt * math.Pi / 180
	y := p.yaw * math.Pi / 180
	ry := [9]float64{math.Cos(y), 0, math.Sin(y), 0, 1, 0, -math.Sin(y), 0, math.Cos(y)}
	rx := [9]float64{1, 0, 0, 0, math.Cos(t), -math.Sin(t), 0, math.Sin(t), math.Cos(t)}
	var r [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i*3+j] += rx[i*3+k] * ry[k*3+j]
			}
		}
	}
	m2 := Homography{r[0], r[1], 0, r[3], r[4], 0, r[6], r[7], p.distanceMM}
	h := m2.Mul(m1)

	corners := func(h Homography) (minX, minY, maxX, maxY float64) {
		minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, q := range [4][2]float64{{0, 0}, {g.WidthMM(), 0}, {g.WidthMM(), g.HeightMM()}, {0, g.HeightMM()}} {
			x, y := h.Apply(q[0], q[1])
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
		return
	}
	x0, _, x1, _ := corners(h)
	s := p.gridWidth * float64(width) / (x1 - x0)
	h = rotate(p.roll * math.Pi / 180).Mul(scale(s, s)).Mul(h)
	// Keep the realm inside the frame with a margin.
	const margin = 12.0
	for i := 0; i < 20; i++ {
		x0, y0, x1, y1 := corners(h)
		if x1-x0 <= float64(width)-2*margin && y1-y0 <= float64(height)-2*margin {
			break
		}
		h = scale(0.95, 0.95).Mul(h)
	}
	x0, y0, x1, y1 := corners(h)
	roomX := (float64(width) - 2*margin - (x1 - x0)) / 2
	roomY := (float64(height) - 2*margin - (y1 - y0)) / 2
	tx := float64(width)/2 - (x0+x1)/2 + p.offX*math.Max(roomX, 0)
	ty := float64(height)/2 - (y0+y1)/2 + p.offY*math.Max(roomY, 0)
	h = translate(tx, ty).Mul(h).Normalized()
	return Camera{RealmToImage: h, Width: width, Height: height, TiltDeg: p.tilt, YawDeg: p.yaw, RollDeg: p.roll}
}
