package models

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

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

// Playmats vary, but a realm cell must hold a site (88×63 mm) to be a
// realm cell at all, and no mat has cells several cards wide; sizes outside
// these bounds are typing mistakes (centimetres for millimetres, say).
const (
	MinCellMM = 50.0
	MaxCellMM = 250.0
)

// Validate reports a cell size no playmat has.
func (g RealmGeometry) Validate() error {
	for _, side := range []struct {
		name string
		mm   float64
	}{{"width", g.CellWidthMM}, {"height", g.CellHeightMM}} {
		if math.IsNaN(side.mm) || side.mm < MinCellMM || side.mm > MaxCellMM {
			return fmt.Errorf("realm cell %s %g mm is outside %g–%g mm", side.name, side.mm, MinCellMM, MaxCellMM)
		}
	}
	return nil
}

// String writes the cell size as ParseCellMM reads it, e.g. "100x75".
func (g RealmGeometry) String() string {
	return strconv.FormatFloat(g.CellWidthMM, 'f', -1, 64) + "x" + strconv.FormatFloat(g.CellHeightMM, 'f', -1, 64)
}

// ParseCellMM reads a realm cell size in millimetres written as
// WIDTHxHEIGHT ("100x75", "120×90", "97.5x73"), width along the rows of
// the realm (A to E), and checks it with Validate.
func ParseCellMM(s string) (RealmGeometry, error) {
	w, h, ok := strings.Cut(strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), "×", "x")), "x")
	if !ok {
		return RealmGeometry{}, fmt.Errorf("realm cell size %q: want WIDTHxHEIGHT in millimetres, e.g. 100x75", s)
	}
	var g RealmGeometry
	var err error
	if g.CellWidthMM, err = strconv.ParseFloat(strings.TrimSpace(w), 64); err != nil {
		return RealmGeometry{}, fmt.Errorf("realm cell size %q: width: %w", s, err)
	}
	if g.CellHeightMM, err = strconv.ParseFloat(strings.TrimSpace(h), 64); err != nil {
		return RealmGeometry{}, fmt.Errorf("realm cell size %q: height: %w", s, err)
	}
	if err := g.Validate(); err != nil {
		return RealmGeometry{}, fmt.Errorf("realm cell size %q: %w", s, err)
	}
	return g, nil
}
