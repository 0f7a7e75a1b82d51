package calibration

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/tablecam/tablecam/models"
)

// Side is a side of the camera image. Options.South and Calibration.South
// say on which side the realm's south edge (the A1–E1 side, the south
// player's) appears: Bottom for a camera behind the south player (the
// default), Top for one behind the north player, Left or Right for a camera
// at the table's east or west end, turned a quarter turn.
type Side uint8

// The image sides, in the order a camera walked round the table meets them.
const (
	// Bottom is the default: the south player sits at the image bottom.
	Bottom Side = iota
	// Top: the camera looks from the north side (--north-at-bottom).
	Top
	// Left: the south player sits on the image's left.
	Left
	// Right: the south player sits on the image's right.
	Right
)

// ErrBadSide is wrapped by ParseSide for a word that is not an image side.
var ErrBadSide = errors.New("not an image side (want bottom, top, left or right)")

var sideNames = [...]string{Bottom: "bottom", Top: "top", Left: "left", Right: "right"}

// String is the side's name: bottom, top, left or right.
func (s Side) String() string {
	if int(s) < len(sideNames) {
		return sideNames[s]
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// ParseSide reads an image side by its name (any case): bottom, top, left
// or right.
func ParseSide(name string) (Side, error) {
	for i, n := range sideNames {
		if strings.EqualFold(strings.TrimSpace(name), n) {
			return Side(i), nil
		}
	}
	return Bottom, fmt.Errorf("%q: %w", name, ErrBadSide)
}

// MarshalText writes the side's name (for JSON).
func (s Side) MarshalText() ([]byte, error) {
	if int(s) >= len(sideNames) {
		return nil, fmt.Errorf("calibration: side %d: %w", uint8(s), ErrBadSide)
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a side's name (for JSON).
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// direction is the unit vector, in image pixels (y down), from the image's
// centre towards the side.
func (s Side) direction() (x, y float64) {
	switch s {
	case Top:
		return 0, -1
	case Left:
		return -1, 0
	case Right:
		return 1, 0
	}
	return 0, 1
}

// SideOf is the image side the realm's south edge (A1–E1) of corners
// (A1, E1, E4, A4 in image pixels) faces most: the side a user would name
// for that camera. A realm turned exactly half way between two sides gets
// the first of them in the order bottom, right, top, left.
func SideOf(corners models.Quad) Side {
	ax, ay := southAxis(corners)
	best, bestDot := Bottom, math.Inf(-1)
	for _, s := range []Side{Bottom, Right, Top, Left} {
		dx, dy := s.direction()
		if d := ax*dx + ay*dy; d > bestDot+1e-9*math.Hypot(ax, ay) {
			best, bestDot = s, d
		}
	}
	return best
}

// southAxis is the axis, in image pixels, from the middle of the north
// side (A4–E4) of corners (A1, E1, E4, A4) to the middle of the south side
// (A1–E1).
func southAxis(corners models.Quad) (x, y float64) {
	return (corners[0].X + corners[1].X - corners[2].X - corners[3].X) / 2,
		(corners[0].Y + corners[1].Y - corners[2].Y - corners[3].Y) / 2
}
