package models

// Point is a position in image pixels.
type Point struct {
	X, Y float64
}

// MarshalJSON writes the point as [x,y].
func (p Point) MarshalJSON() ([]byte, error) {
	return appendPoint(nil, p), nil
}

// UnmarshalJSON reads [x,y].
func (p *Point) UnmarshalJSON(b []byte) error {
	var xy [2]float64
	if err := unmarshalJSON(b, &xy); err != nil {
		return err
	}
	p.X, p.Y = xy[0], xy[1]
	return nil
}

// Quad is four corners in image pixels. For a card it starts at the face's
// top-left corner and goes clockwise; for the realm it is A1 (south-west), E1
// (south-east), E4 (north-east), A4 (north-west).
type Quad [4]Point

// Center is the mean of the four corners.
func (q Quad) Center() Point {
	var c Point
	for _, p := range q {
		c.X += p.X / 4
		c.Y += p.Y / 4
	}
	return c
}

// Area is the absolute area of the quad (shoelace formula).
func (q Quad) Area() float64 {
	var a float64
	for i := range q {
		j := (i + 1) % 4
		a += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	if a < 0 {
		a = -a
	}
	return a / 2
}

// Card sizes in millimetres. A standard card is 63×88 mm portrait; a site is
// the same card printed landscape; a token is half a card (the long side
// halved), 44×63 mm portrait.
const (
	CardShortMM  = 63.0
	CardLongMM   = 88.0
	TokenShortMM = 44.0
	TokenLongMM  = 63.0
)

// RealmGeometry is the size of one realm cell on the mat, in millimetres.
// Every package that maps between the camera and the realm uses it.
type RealmGeometry struct {
	CellWidthMM  float64 `json:"cell_width_mm"`
	CellHeightMM float64 `json:"cell_height_mm"`
}

// DefaultRealm is the cell size of a standard Sorcery playmat: 100×75 mm,
// so the realm is 500×300 mm.
func DefaultRealm() RealmGeometry { return RealmGeometry{CellWidthMM: 100, CellHeightMM: 75} }

// WidthMM and HeightMM give the whole realm's size.
func (g RealmGeometry) WidthMM() float64  { return g.CellWidthMM * Columns }
func (g RealmGeometry) HeightMM() float64 { return g.CellHeightMM * Rows }

// CellAtMM gives the cell holding a point in realm millimetres, measured from
// the A1 (south-west) corner with y growing north; ok is false off the grid.
func (g RealmGeometry) CellAtMM(x, y float64) (Cell, bool) {
	if x < 0 || y < 0 || x >= g.WidthMM() || y >= g.HeightMM() {
		return Cell{}, false
	}
	return Cell{Col: int(x / g.CellWidthMM), Row: int(y / g.CellHeightMM)}, true
}
