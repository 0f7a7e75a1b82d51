package models

import (
	"errors"
	"fmt"
	"math"
)

// Homography is a projective map of the plane: the 3×3 matrix, row major,
// that sends (x, y) to ((h0·x + h1·y + h2) / w, (h3·x + h4·y + h5) / w) with
// w = h6·x + h7·y + h8. It maps a realm seen at a slant to a top-down view
// and back. Its zero value is no map; IdentityHomography is the map that
// changes nothing.
type Homography [9]float64

// ErrDegenerateHomography is wrapped by NewHomography and FitHomography when
// the points define no projective map (too few of them, or three on a line),
// and by Inverse when the matrix is singular.
var ErrDegenerateHomography = errors.New("degenerate homography")

// IdentityHomography is the map that changes nothing.
func IdentityHomography() Homography { return Homography{1, 0, 0, 0, 1, 0, 0, 0, 1} }

// NewHomography gives the map that sends each src[i] exactly to dst[i]
// (a realm's four corners onto a rectangle, say). When three points of
// either side are on one line there is no such map: the error wraps
// ErrDegenerateHomography and names them.
func NewHomography(src, dst [4]Point) (Homography, error) {
	for _, side := range []struct {
		name string
		pts  [4]Point
	}{{"source", src}, {"destination", dst}} {
		if err := checkFinite(side.name, side.pts[:]); err != nil {
			return Homography{}, err
		}
		if i, j, k, ok := collinearTriple(side.pts); ok {
			return Homography{}, fmt.Errorf("homography: %s points %d, %d and %d (%s, %s, %s) are on one line: %w",
				side.name, i+1, j+1, k+1, pointText(side.pts[i]), pointText(side.pts[j]), pointText(side.pts[k]), ErrDegenerateHomography)
		}
	}
	return fit(src[:], dst[:])
}

// FitHomography gives the map that sends the src points closest to the dst
// points in the least-squares sense (of the algebraic error, after moving
// each side's points to their centroid and scaling them to a mean distance
// of √2): exact for four points, a best fit for more. It needs at least
// four point pairs, not all on one line; otherwise the error wraps
// ErrDegenerateHomography.
func FitHomography(src, dst []Point) (Homography, error) {
	if len(src) != len(dst) {
		return Homography{}, fmt.Errorf("homography: %d source points but %d destination points", len(src), len(dst))
	}
	if len(src) < 4 {
		return Homography{}, fmt.Errorf("homography: %d point pairs, need at least 4: %w", len(src), ErrDegenerateHomography)
	}
	if err := checkFinite("source", src); err != nil {
		return Homography{}, err
	}
	if err := checkFinite("destination", dst); err != nil {
		return Homography{}, err
	}
	return fit(src, dst)
}

// Apply maps p. A point the map sends to infinity (w = 0) comes back with
// infinite or NaN coordinates.
func (h Homography) Apply(p Point) Point {
	w := h[6]*p.X + h[7]*p.Y + h[8]
	return Point{X: (h[0]*p.X + h[1]*p.Y + h[2]) / w, Y: (h[3]*p.X + h[4]*p.Y + h[5]) / w}
}

// Inverse gives the map that undoes h, scaled so that its last entry is 1
// when it can be. A singular matrix (one that flattens the plane onto a
// line) has no inverse: the error wraps ErrDegenerateHomography.
func (h Homography) Inverse() (Homography, error) {
	a, b, c, d, e, f, g, k, l := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	det := a*(e*l-f*k) - b*(d*l-f*g) + c*(d*k-e*g)
	// |det| is at most the product of the rows' lengths, and of the
	// columns' (Hadamard): how close it comes to either bound says how far
	// the matrix is from singular, whatever the units of its entries.
	var rows, cols = 1.0, 1.0
	for i := 0; i < 3; i++ {
		rows *= math.Sqrt(h[3*i]*h[3*i] + h[3*i+1]*h[3*i+1] + h[3*i+2]*h[3*i+2])
		cols *= math.Sqrt(h[i]*h[i] + h[3+i]*h[3+i] + h[6+i]*h[6+i])
	}
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) || math.Abs(det) <= 1e-14*math.Min(rows, cols) {
		return Homography{}, fmt.Errorf("homography: singular matrix %v (determinant %.3g): %w", [9]float64(h), det, ErrDegenerateHomography)
	}
	inv := Homography{
		e*l - f*k, c*k - b*l, b*f - c*e,
		f*g - d*l, a*l - c*g, c*d - a*f,
		d*k - e*g, b*g - a*k, a*e - b*d,
	}
	for i := range inv {
		inv[i] /= det
	}
	return inv.Normalized(), nil
}

// Then gives the map that applies h first and then g (the matrix g·h).
func (h Homography) Then(g Homography) Homography {
	var r Homography
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i*3+j] += g[i*3+k] * h[k*3+j]
			}
		}
	}
	return r.Normalized()
}

// Normalized gives the same map scaled so that its last entry is 1, or,
// when that entry is (nearly) 0, so that the matrix has unit size.
func (h Homography) Normalized() Homography {
	s := h[8]
	if n := h.norm(); math.Abs(s) <= 1e-12*n {
		s = n
	}
	if s == 0 || s == 1 {
		return h
	}
	for i := range h {
		h[i] /= s
	}
	return h
}

// norm is the matrix's Frobenius norm.
func (h Homography) norm() float64 {
	var n float64
	for _, v := range h {
		n += v * v
	}
	return math.Sqrt(n)
}

// checkFinite refuses NaN and infinite coordinates.
func checkFinite(side string, pts []Point) error {
	for i, p := range pts {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("homography: %s point %d is %s: %w", side, i+1, pointText(p), ErrDegenerateHomography)
		}
	}
	return nil
}

// pointText writes p as "(x, y)".
func pointText(p Point) string { return fmt.Sprintf("(%g, %g)", p.X, p.Y) }

// collinearTriple finds three of the four points on one line (within a
// tolerance relative to the points' spread).
func collinearTriple(pts [4]Point) (i, j, k int, ok bool) {
	norm, _ := normalizing(pts[:])
	for _, t := range [4][3]int{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}} {
		a, b, c := norm.Apply(pts[t[0]]), norm.Apply(pts[t[1]]), norm.Apply(pts[t[2]])
		// Twice the triangle's area; normalized points spread over about 1.4.
		if area := (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X); math.Abs(area) < 1e-9 {
			return t[0], t[1], t[2], true
		}
	}
	return 0, 0, 0, false
}

// normalizing gives the similarity that moves pts to their centroid and
// scales their mean distance from it to √2 (Hartley), and whether the
// points are spread at all.
func normalizing(pts []Point) (Homography, bool) {
	var cx, cy float64
	for _, p := range pts {
		cx += p.X
		cy += p.Y
	}
	n := float64(len(pts))
	cx, cy = cx/n, cy/n
	var d float64
	for _, p := range pts {
		d += math.Hypot(p.X-cx, p.Y-cy)
	}
	d /= n
	if d <= 1e-300 || math.IsInf(d, 0) {
		return IdentityHomography(), false
	}
	s := math.Sqrt2 / d
	return Homography{s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1}, true
}

// fit solves for the map on normalized points: the eight unknowns with
// h8 = 1, exactly for four pairs, by the normal equations for more.
func fit(src, dst []Point) (Homography, error) {
	degenerate := fmt.Errorf("homography: the %d point pairs define no unique map (are they on one line?): %w", len(src), ErrDegenerateHomography)
	ts, ok1 := normalizing(src)
	td, ok2 := normalizing(dst)
	if !ok1 || !ok2 {
		return Homography{}, degenerate
	}
	var a [8][8]float64
	var b [8]float64
	row := func(r int, coef [8]float64, rhs float64) {
		if len(src) == 4 {
			a[r], b[r] = coef, rhs
			return
		}
		for i := 0; i < 8; i++ {
			for j := 0; j < 8; j++ {
				a[i][j] += coef[i] * coef[j]
			}
			b[i] += coef[i] * rhs
		}
	}
	for i := range src {
		s, d := ts.Apply(src[i]), td.Apply(dst[i])
		x, y, u, v := s.X, s.Y, d.X, d.Y
		row(2*i, [8]float64{x, y, 1, 0, 0, 0, -u * x, -u * y}, u)
		row(2*i+1, [8]float64{0, 0, 0, x, y, 1, -v * x, -v * y}, v)
	}
	sol, ok := solve8(a, b)
	if !ok {
		return Homography{}, degenerate
	}
	hn := Homography{sol[0], sol[1], sol[2], sol[3], sol[4], sol[5], sol[6], sol[7], 1}
	// Undo the normalizations: first ts, then hn, then td⁻¹.
	tdInv, err := td.Inverse()
	if err != nil {
		return Homography{}, degenerate
	}
	h := ts.Then(hn).Then(tdInv)
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Homography{}, degenerate
		}
	}
	return h, nil
}

// solve8 solves a·x = b by Gaussian elimination with partial pivoting; ok
// is false when a is singular.
func solve8(a [8][8]float64, b [8]float64) (x [8]float64, ok bool) {
	var scale float64
	for i := range a {
		for j := range a[i] {
			scale = math.Max(scale, math.Abs(a[i][j]))
		}
	}
	for col := 0; col < 8; col++ {
		piv := col
		for r := col + 1; r < 8; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) <= 1e-10*scale {
			return x, false
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < 8; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < 8; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	for r := 7; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < 8; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, true
}
