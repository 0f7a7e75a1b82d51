package calibration

import (
	"errors"
	"math"

	"github.com/tablecam/tablecam/models"
)

// homography is a 3×3 projective transform in row-major order.
type homography [9]float64

// errDegenerate is returned when points do not define a projective transform.
var errDegenerate = errors.New("degenerate points: no homography")

// apply maps p through h.
func (h homography) apply(p models.Point) models.Point {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return models.Point{
		X: (h[0]*p.X + h[1]*p.Y + h[2]) / w,
		Y: (h[3]*p.X + h[4]*p.Y + h[5]) / w,
	}
}

// inverse gives the inverse transform (scaled so that h[8] = 1 when possible).
func (h homography) inverse() homography {
	a, b, c := h[0], h[1], h[2]
	d, e, f := h[3], h[4], h[5]
	g, k, l := h[6], h[7], h[8]
	inv := homography{
		e*l - f*k, c*k - b*l, b*f - c*e,
		f*g - d*l, a*l - c*g, c*d - a*f,
		d*k - e*g, b*g - a*k, a*e - b*d,
	}
	return inv.normalized()
}

// mul returns h∘o (first o, then h).
func (h homography) mul(o homography) homography {
	var r homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			var s float64
			for k := 0; k < 3; k++ {
				s += h[i*3+k] * o[k*3+j]
			}
			r[i*3+j] = s
		}
	}
	return r.normalized()
}

func (h homography) normalized() homography {
	s := h[8]
	if math.Abs(s) < 1e-12 {
		n := 0.0
		for _, v := range h {
			n += v * v
		}
		s = math.Sqrt(n)
	}
	if s == 0 {
		return h
	}
	for i := range h {
		h[i] /= s
	}
	return h
}

// fitHomography finds the transform taking src[i] to dst[i] in the least-squares
// sense (exact for four points). Both point sets are normalised first (Hartley).
func fitHomography(src, dst []models.Point) (homography, error) {
	n := len(src)
	if n < 4 || len(dst) != n {
		return homography{}, errDegenerate
	}
	ns, ts := normalizer(src)
	nd, td := normalizer(dst)
	// Unknowns h0..h7 with h8 = 1: two equations per point.
	var ata [8][8]float64
	var atb [8]float64
	for i := 0; i < n; i++ {
		x, y := ns[i].X, ns[i].Y
		u, v := nd[i].X, nd[i].Y
		rows := [2][9]float64{
			{x, y, 1, 0, 0, 0, -u * x, -u * y, u},
			{0, 0, 0, x, y, 1, -v * x, -v * y, v},
		}
		for _, r := range rows {
			for a := 0; a < 8; a++ {
				for b := 0; b < 8; b++ {
					ata[a][b] += r[a] * r[b]
				}
				atb[a] += r[a] * r[8]
			}
		}
	}
	sol, ok := solve8(ata, atb)
	if !ok {
		return homography{}, errDegenerate
	}
	hn := homography{sol[0], sol[1], sol[2], sol[3], sol[4], sol[5], sol[6], sol[7], 1}
	// Undo the normalisations: H = Td⁻¹ · Hn · Ts.
	h := td.inverse().mul(hn).mul(ts)
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return homography{}, errDegenerate
		}
	}
	return h, nil
}

// normalizer moves points to their centroid and scales their mean distance to √2.
func normalizer(pts []models.Point) ([]models.Point, homography) {
	var cx, cy float64
	for _, p := range pts {
		cx += p.X
		cy += p.Y
	}
	cx /= float64(len(pts))
	cy /= float64(len(pts))
	var d float64
	for _, p := range pts {
		d += math.Hypot(p.X-cx, p.Y-cy)
	}
	d /= float64(len(pts))
	s := 1.0
	if d > 1e-12 {
		s = math.Sqrt2 / d
	}
	t := homography{s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1}
	out := make([]models.Point, len(pts))
	for i, p := range pts {
		out[i] = t.apply(p)
	}
	return out, t
}

// solve8 solves a·x = b by Gaussian elimination with partial pivoting.
func solve8(a [8][8]float64, b [8]float64) ([8]float64, bool) {
	const n = 8
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-12 {
			return b, false
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	var x [8]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
