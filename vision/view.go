package vision

import (
	"image"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// view is the top-down image of the realm and a margin around it that the
// analyzer reads cards in: north up, column A at the left, at a fixed scale,
// so that every card has the size of its reference face.
type view struct {
	geo      models.RealmGeometry
	pxPerMM  float64
	marginMM float64
	size     image.Point // of the top-down image, in pixels
	toImage  homography  // top-down pixels → camera image pixels
	fromImg  homography  // camera image pixels → top-down pixels
	corners  models.Quad // realm corners in the camera image (A1, E1, E4, A4)
	imgSize  image.Point
}

// newView sets up the top-down view for a realm whose corners (A1, E1, E4,
// A4) are at the given camera image positions.
func newView(corners models.Quad, geo models.RealmGeometry, imgW, imgH int, opts Options) (*view, error) {
	if geo.CellWidthMM <= 0 || geo.CellHeightMM <= 0 {
		geo = models.DefaultRealm()
	}
	w, h := geo.WidthMM(), geo.HeightMM()
	mmToImage, err := models.NewHomography(
		[4]models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}},
		[4]models.Point(corners))
	if err != nil {
		return nil, err
	}
	s, m := opts.pxPerMM(), opts.marginMM()
	pxToMM := homography{1 / s, 0, -m, 0, -1 / s, h + m, 0, 0, 1}
	v := &view{
		geo: geo, pxPerMM: s, marginMM: m,
		size:    image.Pt(int(math.Round((w+2*m)*s)), int(math.Round((h+2*m)*s))),
		toImage: pxToMM.Then(mmToImage), corners: corners, imgSize: image.Pt(imgW, imgH),
	}
	if v.fromImg, err = v.toImage.Inverse(); err != nil {
		return nil, err
	}
	return v, nil
}

// same reports whether two views map the camera image the same way.
func (v *view) same(o *view) bool {
	if v == nil || o == nil || v.size != o.size || v.imgSize != o.imgSize {
		return false
	}
	for i := range v.corners {
		if math.Abs(v.corners[i].X-o.corners[i].X) > 0.5 || math.Abs(v.corners[i].Y-o.corners[i].Y) > 0.5 {
			return false
		}
	}
	return true
}

// warp makes the top-down image of a camera frame (caller closes; empty
// when OpenCV fails).
func (v *view) warp(frame gocv.Mat) gocv.Mat {
	out := gocv.NewMat()
	if err := v.warpInto(frame, &out); err != nil {
		out.Close()
		return gocv.NewMat()
	}
	return out
}

// warpInto makes the top-down image of a camera frame (colour or grey) in
// dst, whose buffer is reused when it has the size and type already.
func (v *view) warpInto(frame gocv.Mat, dst *gocv.Mat) error {
	return warpPerspective(frame, dst, v.toImage, v.size)
}

// mm gives the realm position (millimetres from the A1 corner, y north) of a
// top-down pixel.
func (v *view) mm(p models.Point) (x, y float64) {
	return p.X/v.pxPerMM - v.marginMM, v.geo.HeightMM() + v.marginMM - p.Y/v.pxPerMM
}

// cellAt gives the cell under a top-down pixel.
func (v *view) cellAt(p models.Point) (models.Cell, bool) {
	x, y := v.mm(p)
	return v.geo.CellAtMM(x, y)
}

// toImageQuad maps a top-down quad to camera image pixels.
func (v *view) toImageQuad(q models.Quad) models.Quad {
	var out models.Quad
	for i, p := range q {
		out[i] = v.toImage.Apply(p)
	}
	return out
}

// imageOfMM maps a realm position (millimetres from A1, y north) to camera image pixels.
func (v *view) imageOfMM(x, y float64) models.Point {
	px := (x + v.marginMM) * v.pxPerMM
	py := (v.geo.HeightMM() + v.marginMM - y) * v.pxPerMM
	return v.toImage.Apply(models.Point{X: px, Y: py})
}

// scaled gives the same view at f times the resolution.
func (v *view) scaled(f float64) *view {
	w := *v
	w.pxPerMM = v.pxPerMM * f
	w.size = image.Pt(int(math.Round(float64(v.size.X)*f)), int(math.Round(float64(v.size.Y)*f)))
	w.toImage = homography{1 / f, 0, 0, 0, 1 / f, 0, 0, 0, 1}.Then(v.toImage)
	w.fromImg = v.fromImg.Then(homography{f, 0, 0, 0, f, 0, 0, 0, 1})
	return &w
}
