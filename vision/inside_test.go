package vision

import (
	"math/rand"
	"testing"

	"github.com/tablecam/tablecam/models"
)

// insideByCount is the quad test as quadSides.holds first counted it: the
// sides with a negative cross product, none or all four.
func insideByCount(p models.Point, q models.Quad) bool {
	neg := 0
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		if (b.X-a.X)*(p.Y-a.Y)-(b.Y-a.Y)*(p.X-a.X) < 0 {
			neg++
		}
	}
	return neg == 0 || neg == 4
}

// TestInsideAsCounted checks inside, quadSides.holds and quadHolds, which
// stop at the first side that disagrees, against the count of every side's
// sign: on random quads (convex, concave, degenerate, either winding) with
// corners on a coarse lattice, and points on it too, so that many lie
// exactly on a side or its line, and on points off it.
func TestInsideAsCounted(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	lattice := func() float64 { return float64(rng.Intn(9)) }
	anywhere := func() float64 { return rng.Float64()*12 - 1.5 }
	tested, in := 0, 0
	for n := 0; n < 3000; n++ {
		var q models.Quad
		for i := range q {
			q[i] = models.Point{X: lattice(), Y: lattice()}
		}
		if n%3 == 0 { // a quad of any float corners
			for i := range q {
				q[i] = models.Point{X: anywhere(), Y: anywhere()}
			}
		}
		s := newQuadSides(q)
		for k := 0; k < 40; k++ {
			p := models.Point{X: lattice(), Y: lattice()}
			if k%2 == 1 {
				p = models.Point{X: anywhere(), Y: anywhere()}
			}
			want := insideByCount(p, q)
			if got := inside(p, q); got != want {
				t.Fatalf("inside(%v, %v) = %v, counted %v", p, q, got, want)
			}
			if got := s.holds(p.X, p.Y); got != want {
				t.Fatalf("holds(%v) of %v = %v, counted %v", p, q, got, want)
			}
			tested++
			if want {
				in++
			}
		}
	}
	if in < tested/20 || in > tested-tested/20 {
		t.Fatalf("%d of %d points inside: the test says little", in, tested)
	}
}

// BenchmarkInside tests points spread over a top-down image against a
// frame's worth of card quads, as the covered-site and part-naming
// searches do.
func BenchmarkInside(b *testing.B) {
	rng := rand.New(rand.NewSource(3))
	var quads []models.Quad
	for i := 0; i < 16; i++ {
		cx, cy := rng.Float64()*1200, rng.Float64()*800
		quads = append(quads, models.Quad{{X: cx, Y: cy}, {X: cx + 126, Y: cy + 3}, {X: cx + 123, Y: cy + 179}, {X: cx - 3, Y: cy + 176}})
	}
	pts := make([]models.Point, 4096)
	for i := range pts {
		pts[i] = models.Point{X: rng.Float64() * 1300, Y: rng.Float64() * 950}
	}
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, p := range pts {
			if insideAny(p, quads) {
				n++
			}
		}
	}
	if n < 0 {
		b.Fatal(n)
	}
}
