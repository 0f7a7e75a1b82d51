package vision

import (
	"errors"
	"math"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// homography is a 3×3 projective map, row major.
type homography [9]float64

// apply maps a point.
func (h homography) apply(x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

func (h homography) applyPoint(p models.Point) models.Point {
	x, y := h.apply(p.X, p.Y)
	return models.Point{X: x, Y: y}
}

// mul gives h∘g: first g, then h.
func (h homography) mul(g homography) homography {
	var r homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i*3+j] += h[i*3+k] * g[k*3+j]
			}
		}
	}
	return r
}

// inverse gives the inverse map.
func (h homography) inverse() (homography, error) {
	a, b, c, d, e, f, g, k, l := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	det := a*(e*l-f*k) - b*(d*l-f*g) + c*(d*k-e*g)
	if math.Abs(det) < 1e-12 {
		return homography{}, errDegenerate
	}
	inv := homography{
		e*l - f*k, c*k - b*l, b*f - c*e,
		f*g - d*l, a*l - c*g, c*d - a*f,
		d*k - e*g, b*g - a*k, a*e - b*d,
	}
	for i := range inv {
		inv[i] /= det
	}
	return inv, nil
}

var errDegenerate = errors.New("vision: degenerate homography")

// homographyFrom4 solves the map taking src[i] to dst[i] exactly.
func homographyFrom4(src, dst [4]models.Point) (homography, error) {
	// Eight equations in h0..h7 with h8 = 1, solved by Gaussian elimination.
	var m [8][9]float64
	for i := 0; i < 4; i++ {
		x, y, u, v := src[i].X, src[i].Y, dst[i].X, dst[i].Y
		m[2*i] = [9]float64{x, y, 1, 0, 0, 0, -u * x, -u * y, u}
		m[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -v * x, -v * y, v}
	}
	for col := 0; col < 8; col++ {
		piv := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		if math.Abs(m[piv][col]) < 1e-12 {
			return homography{}, errDegenerate
		}
		m[col], m[piv] = m[piv], m[col]
		for r := 0; r < 8; r++ {
			if r == col {
				continue
			}
			f := m[r][col] / m[col][col]
			for c := col; c < 9; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	var h homography
	for i := 0; i < 8; i++ {
		h[i] = m[i][8] / m[i][i]
	}
	h[8] = 1
	return h, nil
}

// mat gives the homography as a 3×3 CV_64F Mat (caller closes).
func (h homography) mat() gocv.Mat {
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for i, v := range h {
		m.SetDoubleAt(i/3, i%3, v)
	}
	return m
}
