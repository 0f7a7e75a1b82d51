package vision

import (
	"math"

	"github.com/tablecam/tablecam/models"
)

// inFramePolygon gives the part of view v's top-down image that the camera
// frame shows, grown by grow top-down pixels: a convex polygon (top-down
// pixels) outside which the top-down image is black, as the warp leaves
// what lies beyond the frame. ok is false
// when the frame's horizon crosses the top-down image, where the part
// shown is not one convex polygon, and when the frame shows none of it.
func inFramePolygon(v *view, grow float64) (poly []models.Point, ok bool) {
	h := v.toImage
	w := func(x, y float64) float64 { return h[6]*x + h[7]*y + h[8] }
	W, H := float64(v.size.X), float64(v.size.Y)
	// w is linear: when it has one sign at the image's corners, it has it
	// all over the image.
	sign := math.Copysign(1, w(0, 0))
	for _, c := range [][2]float64{{W, 0}, {W, H}, {0, H}} {
		if w(c[0], c[1])*sign <= 0 {
			return nil, false
		}
	}
	// A top-down pixel (x, y) maps to the camera pixel (X/w, Y/w); with w
	// of one sign, each of the frame's sides bounds the top-down image by
	// a half-plane a·x + b·y + c ≥ 0. A pixel whose camera position lies
	// a pixel or more beyond the frame is black (bilinear sampling reaches
	// a pixel); two are allowed for the warp's rounding.
	const beyond = 2.0
	iw, ih := float64(v.imgSize.X), float64(v.imgSize.Y)
	X := [3]float64{h[0], h[1], h[2]}
	Y := [3]float64{h[3], h[4], h[5]}
	Wv := [3]float64{h[6], h[7], h[8]}
	var planes [][3]float64
	for _, side := range []struct {
		f     [3]float64
		bound float64
		up    float64 // +1: f/w ≥ bound; −1: f/w ≤ bound
	}{{X, -beyond, 1}, {X, iw - 1 + beyond, -1}, {Y, -beyond, 1}, {Y, ih - 1 + beyond, -1}} {
		var p [3]float64
		for i := range p {
			p[i] = side.up * sign * (side.f[i] - side.bound*Wv[i])
		}
		// Grown: moved grow pixels outwards, along its normal.
		n := math.Hypot(p[0], p[1])
		if n == 0 {
			if p[2] < 0 {
				return nil, false
			}
			continue
		}
		p[2] += grow * n
		planes = append(planes, p)
	}
	pts := [][2]float64{{0, 0}, {W, 0}, {W, H}, {0, H}}
	for _, p := range planes {
		pts = clipPolygon(pts, p)
	}
	if len(pts) < 3 {
		return nil, false
	}
	for _, p := range pts {
		poly = append(poly, models.Point{X: p[0], Y: p[1]})
	}
	return poly, true
}

// clipPolygon keeps the part of a convex polygon where a·x + b·y + c ≥ 0
// (Sutherland and Hodgman's clipping, for one half-plane).
func clipPolygon(pts [][2]float64, p [3]float64) [][2]float64 {
	at := func(q [2]float64) float64 { return p[0]*q[0] + p[1]*q[1] + p[2] }
	var out [][2]float64
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		fa, fb := at(a), at(b)
		if fa >= 0 {
			out = append(out, a)
		}
		if (fa >= 0) != (fb >= 0) {
			t := fa / (fa - fb)
			out = append(out, [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])})
		}
	}
	return out
}
