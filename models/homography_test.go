package models

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// slanted is a realm (millimetres, 5×4 cells of 90×90) seen by a camera at a
// slant: its far edge shorter than its near one.
var slanted = Homography{1.9, 0.35, 140, 0.05, -1.1, 620, 0.0001, 0.0009, 1}

func near(a, b Point, tol float64) bool {
	return math.Abs(a.X-b.X) <= tol && math.Abs(a.Y-b.Y) <= tol
}

func TestNewHomography(t *testing.T) {
	tests := []struct {
		name     string
		src, dst [4]Point
	}{
		{"identity", [4]Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, [4]Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}},
		{"scale and shift", [4]Point{{0, 0}, {2, 0}, {2, 1}, {0, 1}}, [4]Point{{10, 20}, {30, 20}, {30, 25}, {10, 25}}},
		{"square onto a trapezoid", [4]Point{{0, 0}, {500, 0}, {500, 300}, {0, 300}}, [4]Point{{100, 600}, {1100, 620}, {900, 90}, {300, 100}}},
		{"realm onto a camera frame", [4]Point{{0, 0}, {450, 0}, {450, 360}, {0, 360}},
			[4]Point{slanted.Apply(Point{0, 0}), slanted.Apply(Point{450, 0}), slanted.Apply(Point{450, 360}), slanted.Apply(Point{0, 360})}},
		{"far-away pixels", [4]Point{{1e5, 1e5}, {1e5 + 4, 1e5}, {1e5 + 4, 1e5 + 3}, {1e5, 1e5 + 3}}, [4]Point{{0, 0}, {400, 0}, {420, 310}, {-20, 300}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHomography(tc.src, tc.dst)
			if err != nil {
				t.Fatal(err)
			}
			inv, err := h.Inverse()
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.src {
				if got := h.Apply(tc.src[i]); !near(got, tc.dst[i], 1e-6) {
					t.Errorf("point %d: %v, want %v", i+1, got, tc.dst[i])
				}
				if back := inv.Apply(tc.dst[i]); !near(back, tc.src[i], 1e-6) {
					t.Errorf("inverse of point %d: %v, want %v", i+1, back, tc.src[i])
				}
			}
			// The map is projective: straight lines stay straight, so the
			// diagonals' crossing goes to the image diagonals' crossing.
			if got, want := h.Apply(crossing(tc.src)), crossing(tc.dst); !near(got, want, 1e-6) {
				t.Errorf("diagonals cross at %v, want %v", got, want)
			}
		})
	}
}

// crossing is where the diagonals of a quad cross.
func crossing(q [4]Point) Point {
	p, r := q[0], Point{q[2].X - q[0].X, q[2].Y - q[0].Y}
	s, d := q[1], Point{q[3].X - q[1].X, q[3].Y - q[1].Y}
	t := ((s.X-p.X)*d.Y - (s.Y-p.Y)*d.X) / (r.X*d.Y - r.Y*d.X)
	return Point{p.X + t*r.X, p.Y + t*r.Y}
}

func TestFitHomography(t *testing.T) {
	var grid []Point
	for x := 0.0; x <= 450; x += 90 {
		for y := 0.0; y <= 360; y += 90 {
			grid = append(grid, Point{x, y})
		}
	}
	mapped := func(pts []Point, jitter float64) []Point {
		out := make([]Point, len(pts))
		for i, p := range pts {
			q := slanted.Apply(p)
			// Alternating, balanced offsets: a least-squares fit averages them out.
			sign := float64(1 - 2*(i%2))
			out[i] = Point{q.X + sign*jitter, q.Y - sign*jitter}
		}
		return out
	}
	tests := []struct {
		name   string
		src    []Point
		dst    []Point
		within float64 // how close the fit must send the grid to the true map
	}{
		{"four corners", []Point{grid[0], grid[4], grid[29], grid[25]}, mapped([]Point{grid[0], grid[4], grid[29], grid[25]}, 0), 1e-6},
		{"every grid corner", grid, mapped(grid, 0), 1e-6},
		{"every grid corner, half a pixel off", grid, mapped(grid, 0.5), 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := FitHomography(tc.src, tc.dst)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range grid {
				if got, want := h.Apply(p), slanted.Apply(p); !near(got, want, tc.within) {
					t.Errorf("%v went to %v, want %v (±%g)", p, got, want, tc.within)
				}
			}
		})
	}
	// More points average the error out: the fit to all 30 jittered corners
	// is closer to the true map than an exact fit to four of them.
	worst := func(h Homography) float64 {
		var w float64
		for _, p := range grid {
			got, want := h.Apply(p), slanted.Apply(p)
			w = math.Max(w, math.Hypot(got.X-want.X, got.Y-want.Y))
		}
		return w
	}
	noisy := mapped(grid, 0.5)
	all, err := FitHomography(grid, noisy)
	if err != nil {
		t.Fatal(err)
	}
	four, err := NewHomography([4]Point{grid[0], grid[4], grid[29], grid[25]}, [4]Point{noisy[0], noisy[4], noisy[29], noisy[25]})
	if err != nil {
		t.Fatal(err)
	}
	if worst(all) >= worst(four) {
		t.Errorf("least squares over 30 points is off by %.3f px, four points by %.3f px", worst(all), worst(four))
	}
}

func TestHomographyErrors(t *testing.T) {
	square := []Point{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	onALine := []Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}}
	fit := func(src, dst []Point) func() error {
		return func() error { _, err := FitHomography(src, dst); return err }
	}
	new4 := func(src, dst []Point) func() error {
		return func() error { _, err := NewHomography([4]Point(src), [4]Point(dst)); return err }
	}
	inverse := func(h Homography) func() error {
		return func() error { _, err := h.Inverse(); return err }
	}
	tests := []struct {
		name       string
		call       func() error
		want       string
		degenerate bool
	}{
		{"three source points on a line", new4([]Point{{0, 0}, {1, 0}, {2, 0}, {0, 1}}, square), "source points 1, 2 and 3", true},
		{"three destination points on a line", new4(square, []Point{{0, 0}, {5, 5}, {1, 0}, {10, 10}}), "destination points 1, 2 and 4", true},
		{"a point twice", new4([]Point{{0, 0}, {1, 0}, {1, 0}, {0, 1}}, square), "are on one line", true},
		{"not a number", new4([]Point{{0, 0}, {1, 0}, {1, math.NaN()}, {0, 1}}, square), "source point 3", true},
		{"three pairs", fit(square[:3], square[:3]), "3 point pairs, need at least 4", true},
		{"counts differ", fit(square, square[:3]), "4 source points but 3 destination points", false},
		{"every point on one line", fit(append(onALine, Point{4, 4}), append(square, Point{2, 2})), "no unique map", true},
		{"all points the same", fit([]Point{{3, 3}, {3, 3}, {3, 3}, {3, 3}}, square), "no unique map", true},
		{"singular matrix", inverse(Homography{1, 2, 3, 2, 4, 6, 0, 0, 1}), "singular matrix", true},
		{"zero matrix", inverse(Homography{}), "singular matrix", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) || errors.Is(err, ErrDegenerateHomography) != tc.degenerate {
				t.Errorf("error %q: want it to say %q (wrapping ErrDegenerateHomography: %v)", err, tc.want, tc.degenerate)
			}
		})
	}
}

func TestHomographyThen(t *testing.T) {
	inv, err := slanted.Inverse()
	if err != nil {
		t.Fatal(err)
	}
	id := slanted.Then(inv)
	for i, v := range IdentityHomography() {
		if math.Abs(id[i]-v) > 1e-9 {
			t.Fatalf("a map then its inverse is %v, not the identity", id)
		}
	}
	shift := Homography{1, 0, 10, 0, 1, 0, 0, 0, 1}
	double := Homography{2, 0, 0, 0, 2, 0, 0, 0, 1}
	if got := shift.Then(double).Apply(Point{1, 1}); !near(got, Point{22, 2}, 1e-12) {
		t.Errorf("shift then double sends (1,1) to %v, want (22,2)", got)
	}
	if got := (Homography{2, 0, 0, 0, 2, 0, 0, 0, 2}).Normalized(); got != IdentityHomography() {
		t.Errorf("2·identity normalized is %v", got)
	}
}
