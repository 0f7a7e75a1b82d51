package calibration

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// PxPerMM is the scale of the rectified realm image: 1000×600 px for the
// default 500×300 mm realm.
const PxPerMM = 2.0

// Methods that found a calibration.
const (
	MethodAuto    = "auto"    // the grid lines and border of the mat
	MethodManual  = "manual"  // corners given by the user
	MethodMarkers = "markers" // printed ArUco markers at the realm corners
)

// Calibration maps between camera pixels and the realm.
//
// Corners are always the realm's own corners, wherever they appear in the
// image: A1 (south-west), E1 (south-east), E4 (north-east) and A4 (north-west).
// South says on which image side the realm's south edge (A1–E1) is: with the
// default camera (Bottom: the south player at the image bottom) A1 is the
// bottom-left corner of the realm as seen in the image. With Top the camera
// looks from the north side and the realm appears turned 180°: A1 is then the
// top-right corner in the image, E1 the top-left, E4 the bottom-left and A4
// the bottom-right. With Left (a camera at the table's east end, looking
// west) A1 is the top-left corner, and with Right (at the west end) the
// bottom-right. Either way the rectified image (Rectify) shows row 4 (north)
// at the top and column A at the left.
type Calibration struct {
	Corners     models.Quad          `json:"corners"`
	ImageWidth  int                  `json:"image_width"`
	ImageHeight int                  `json:"image_height"`
	South       Side                 `json:"south"`
	Geometry    models.RealmGeometry `json:"geometry"`
	Method      string               `json:"method"`

	// Reference is the look of the grid lines when the calibration was made,
	// which Drifted compares new frames against. It is nil until a frame has
	// been seen (Detect fills it; SetReference or the first Drifted call
	// fills it for manual corners).
	Reference *Reference `json:"reference,omitempty"`

	// Score is how much of the grid was seen on edges by automatic detection (0–1).
	Score float64 `json:"score,omitempty"`

	// cached transforms for the corners cachedFor and the geometry
	// cachedGeometry (see transforms).
	cachedFor      models.Quad
	cachedGeometry models.RealmGeometry
	toImage        homography
	toRealm        homography
}

// FromCorners makes a calibration from the four realm corners A1, E1, E4, A4
// in pixels of a width×height image, with the default realm geometry. It
// refuses corners that are not a convex quad in that order, are degenerate, or
// lie far outside the image.
func FromCorners(corners models.Quad, width, height int) (*Calibration, error) {
	if err := ValidateCorners(corners, width, height); err != nil {
		return nil, err
	}
	c := &Calibration{
		Corners:     corners,
		ImageWidth:  width,
		ImageHeight: height,
		Geometry:    models.DefaultRealm(),
		Method:      MethodManual,
	}
	if err := c.init(); err != nil {
		return nil, err
	}
	return c, nil
}

// init computes the cached transforms from Corners and Geometry.
func (c *Calibration) init() error {
	g := c.Geometry
	if !(g.CellWidthMM > 0) || !(g.CellHeightMM > 0) {
		return fmt.Errorf("calibration: realm geometry %gx%g mm: %w", g.CellWidthMM, g.CellHeightMM, ErrBadGeometry)
	}
	h, err := fitHomography(realmCorners(g), c.Corners[:])
	if err != nil {
		return fmt.Errorf("calibration: corners %v: %w", c.Corners, err)
	}
	inv, err := h.Inverse()
	if err != nil {
		return fmt.Errorf("calibration: corners %v: %w", c.Corners, err)
	}
	c.cachedFor, c.cachedGeometry, c.toImage, c.toRealm = c.Corners, c.Geometry, h, inv
	return nil
}

// WithGeometry is c for a mat whose realm cells have size g: the same
// corners in the image, a realm of another size in millimetres.
func (c *Calibration) WithGeometry(g models.RealmGeometry) (*Calibration, error) {
	out := *c
	out.Geometry = g
	if err := out.init(); err != nil {
		return nil, err
	}
	return &out, nil
}

// realmCorners are A1, E1, E4, A4 in realm millimetres.
func realmCorners(g models.RealmGeometry) []models.Point {
	w, h := g.WidthMM(), g.HeightMM()
	return []models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}
}

// transforms gives realm→image and image→realm, from the cache when the
// corners and the geometry have not been changed since, else computed afresh.
func (c *Calibration) transforms() (toImage, toRealm homography) {
	if c.cachedFor == c.Corners && c.cachedGeometry == c.Geometry && c.toImage != (homography{}) {
		return c.toImage, c.toRealm
	}
	nan := math.NaN()
	bad := homography{nan, nan, nan, nan, nan, nan, nan, nan, nan}
	h, err := fitHomography(realmCorners(c.geometry()), c.Corners[:])
	if err != nil {
		return bad, bad
	}
	inv, err := h.Inverse()
	if err != nil {
		return bad, bad
	}
	return h, inv
}

func (c *Calibration) geometry() models.RealmGeometry {
	if c.Geometry.CellWidthMM > 0 && c.Geometry.CellHeightMM > 0 {
		return c.Geometry
	}
	return models.DefaultRealm()
}

// RealmToImage maps a point in realm millimetres (origin at the A1 corner,
// x towards column E, y towards row 4) to image pixels.
func (c *Calibration) RealmToImage(p models.Point) models.Point {
	h, _ := c.transforms()
	return h.Apply(p)
}

// ImageToRealm maps image pixels to realm millimetres (the inverse of RealmToImage).
func (c *Calibration) ImageToRealm(p models.Point) models.Point {
	_, h := c.transforms()
	return h.Apply(p)
}

// Homography is the 3×3 row-major matrix taking realm millimetres to image pixels.
func (c *Calibration) Homography() [9]float64 {
	h, _ := c.transforms()
	return h
}

// RectifiedSize is the size of the Rectify image: the realm at PxPerMM.
func (c *Calibration) RectifiedSize() image.Point {
	g := c.geometry()
	return image.Pt(int(math.Round(g.WidthMM()*PxPerMM)), int(math.Round(g.HeightMM()*PxPerMM)))
}

// RectifiedToRealm maps a pixel of the Rectify image to realm millimetres.
func (c *Calibration) RectifiedToRealm(p models.Point) models.Point {
	return models.Point{X: p.X / PxPerMM, Y: c.geometry().HeightMM() - p.Y/PxPerMM}
}

// RealmToRectified maps realm millimetres to a pixel of the Rectify image.
func (c *Calibration) RealmToRectified(p models.Point) models.Point {
	return models.Point{X: p.X * PxPerMM, Y: (c.geometry().HeightMM() - p.Y) * PxPerMM}
}

// rectifiedToImage is the transform from Rectify pixels to image pixels.
func (c *Calibration) rectifiedToImage() homography {
	h, _ := c.transforms()
	hmm := c.geometry().HeightMM()
	// rectified (u,v) → realm (u/s, H − v/s)
	r := homography{1 / PxPerMM, 0, 0, 0, -1 / PxPerMM, hmm, 0, 0, 1}
	return r.Then(h)
}

// Rectify warps frame to the top-down realm image (RectifiedSize, row 4 at
// the top, column A at the left, PxPerMM pixels per millimetre). The caller
// closes the result.
func (c *Calibration) Rectify(frame gocv.Mat) gocv.Mat {
	m := c.rectifiedToImage()
	mat := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer mat.Close()
	for i, v := range m {
		mat.SetDoubleAt(i/3, i%3, v)
	}
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(frame, &out, mat, c.RectifiedSize(),
		gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderConstant, colorBlack)
	return out
}

// CellQuad gives a cell's outline in image pixels, in the realm corner order
// (its south-west, south-east, north-east, north-west corners).
func (c *Calibration) CellQuad(cell models.Cell) models.Quad {
	g := c.geometry()
	x0, y0 := float64(cell.Col)*g.CellWidthMM, float64(cell.Row)*g.CellHeightMM
	x1, y1 := x0+g.CellWidthMM, y0+g.CellHeightMM
	return models.Quad{
		c.RealmToImage(models.Point{X: x0, Y: y0}),
		c.RealmToImage(models.Point{X: x1, Y: y0}),
		c.RealmToImage(models.Point{X: x1, Y: y1}),
		c.RealmToImage(models.Point{X: x0, Y: y1}),
	}
}

// CellAt gives the cell under an image point; ok is false off the grid.
func (c *Calibration) CellAt(p models.Point) (models.Cell, bool) {
	r := c.ImageToRealm(p)
	return c.geometry().CellAtMM(r.X, r.Y)
}
