package synth

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// Homography is a 3×3 projective map, row-major.
type Homography [9]float64

// Identity is the homography that maps every point to itself.
func Identity() Homography { return Homography{1, 0, 0, 0, 1, 0, 0, 0, 1} }

// Mul gives h·g (g applied first).
func (h Homography) Mul(g Homography) Homography {
	var out Homography
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			out[r*3+c] = h[r*3]*g[c] + h[r*3+1]*g[3+c] + h[r*3+2]*g[6+c]
		}
	}
	return out
}

// Apply maps a point.
func (h Homography) Apply(x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

// Point maps a models.Point.
func (h Homography) Point(p models.Point) models.Point {
	x, y := h.Apply(p.X, p.Y)
	return models.Point{X: x, Y: y}
}

// Inverse gives the inverse map (the adjugate; the scale does not matter).
func (h Homography) Inverse() Homography {
	a, b, c, d, e, f, g, k, i := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	inv := Homography{
		e*i - f*k, c*k - b*i, b*f - c*e,
		f*g - d*i, a*i - c*g, c*d - a*f,
		d*k - e*g, b*g - a*k, a*e - b*d,
	}
	// Normalise so that inv[8] is 1 when possible, for readable JSON.
	if s := inv[8]; math.Abs(s) > 1e-12 {
		for j := range inv {
			inv[j] /= s
		}
	}
	return inv
}

// Normalized scales h so that its last entry is 1.
func (h Homography) Normalized() Homography {
	if s := h[8]; math.Abs(s) > 1e-12 {
		for j := range h {
			h[j] /= s
		}
	}
	return h
}

func translate(tx, ty float64) Homography { return Homography{1, 0, tx, 0, 1, ty, 0, 0, 1} }

func rotate(rad float64) Homography {
	c, s := math.Cos(rad), math.Sin(rad)
	return Homography{c, -s, 0, s, c, 0, 0, 0, 1}
}

func scale(sx, sy float64) Homography { return Homography{sx, 0, 0, 0, sy, 0, 0, 0, 1} }
