package calibration

import (
	"testing"

	"github.com/tablecam/tablecam/models"
)

func TestAliasesAndClimbRecoverTheGrid(t *testing.T) {
	t.Parallel()
	s := scene{seed: 42, tiltDeg: 18, rotDeg: 4, widthFrac: 0.7, lineMM: 1.5, borderMM: 3, contrast: 0.8,
		lightLines: true, busy: true, cards: 5, noise: 3, jpegQuality: 90}
	frame, truth := s.render(t)
	defer frame.Close()
	g := models.DefaultRealm()
	w, hgt := float64(frame.Cols()), float64(frame.Rows())
	gray := grayFor(frame)
	defer gray.Close()
	em, err := newEdgeMap(gray, faintCannyLow, faintCannyHigh)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fitHomography(realmCorners(g), truth[:])
	if err != nil {
		t.Fatal(err)
	}
	tolerance := 0.01 * realmWidthPx(truth)

	shift := func(dx, dy, sx, sy float64) homography {
		return homography{sx, 0, dx * g.CellWidthMM, 0, sy, dy * g.CellHeightMM, 0, 0, 1}.Then(want)
	}
	aliases := []struct {
		name string
		h    homography
	}{
		{"one column east", shift(1, 0, 1, 1)},
		{"one row north", shift(0, -1, 1, 1)},
		{"half the column spacing", shift(0, 0, 0.5, 1)},
		{"one column west and one row south", shift(-1, 1, 1, 1)},
	}
	for _, a := range aliases {
		got := bestVariant(em, a.h, g, w, hgt)
		if e := cornerError(quadOfLattice(got, g), truth); e > tolerance {
			t.Errorf("alias %s: bestVariant is %.1f px off the true grid (corners %v, want %v)", a.name, e, fmtQuad(quadOfLattice(got, g)), fmtQuad(truth))
		}
	}

	// A lattice a few pixels off at every corner climbs back onto the grid.
	off := truth
	for i, d := range []models.Point{{X: 7, Y: -5}, {X: -6, Y: 6}, {X: 5, Y: 7}, {X: -7, Y: -4}} {
		off[i].X += d.X
		off[i].Y += d.Y
	}
	start, err := fitHomography(realmCorners(g), off[:])
	if err != nil {
		t.Fatal(err)
	}
	got, score := climbCorners(func(h homography) float64 { return scoreGridStep(em, h, g, 10) }, start, g, w, hgt, []float64{8, 4, 2, 1})
	before := cornerError(off, truth)
	if e := cornerError(quadOfLattice(got, g), truth); e > tolerance || e >= before {
		t.Errorf("climbCorners: %.1f px off the true grid (from %.1f px, score %.2f; want ≤ %.1f px)", e, before, score, tolerance)
	}
}

func TestAxisVariants(t *testing.T) {
	t.Parallel()
	for _, n := range []int{models.Columns + 1, models.Rows + 1} {
		vs := axisVariants(n)
		if vs[0] != (axisVariant{1, 0}) {
			t.Errorf("n=%d: first variant %v, want the identity", n, vs[0])
		}
		seen := map[axisVariant]bool{}
		for _, v := range vs {
			if seen[v] {
				t.Errorf("n=%d: variant %v twice", n, v)
			}
			seen[v] = true
			// At least two true lines land on the hypothesis' lines.
			shared := 0
			for k := 0; k < n; k++ {
				u := v.scale*float64(k) + v.shift
				if u >= 0 && u <= float64(n-1) && u == float64(int(u)) {
					shared++
				}
			}
			if shared < 2 {
				t.Errorf("n=%d: variant %v shares %d lines with the hypothesis, want ≥ 2", n, v, shared)
			}
		}
	}
}

func TestShiftedAlias(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	base, err := fitHomography(realmCorners(g), []models.Point{{X: 200, Y: 650}, {X: 1100, Y: 600}, {X: 1000, Y: 120}, {X: 260, Y: 150}})
	if err != nil {
		t.Fatal(err)
	}
	realm := func(a homography) homography { return a.Then(base) }
	cw, ch := g.CellWidthMM, g.CellHeightMM
	w, h := g.WidthMM(), g.HeightMM()
	tests := []struct {
		name string
		b    homography
		want bool
	}{
		{"itself", base, false},
		{"one column east", realm(homography{1, 0, cw, 0, 1, 0, 0, 0, 1}), true},
		{"one row south", realm(homography{1, 0, 0, 0, 1, -ch, 0, 0, 1}), true},
		{"one column west and two rows north", realm(homography{1, 0, -cw, 0, 1, 2 * ch, 0, 0, 1}), true},
		{"itself turned half round", realm(homography{-1, 0, w, 0, -1, h, 0, 0, 1}), false},
		{"turned half round and a column east", realm(homography{-1, 0, w + cw, 0, -1, h, 0, 0, 1}), true},
		{"half the column spacing", realm(homography{0.5, 0, 0, 0, 1, 0, 0, 0, 1}), false},
		{"a third of a cell east", realm(homography{1, 0, cw / 3, 0, 1, 0, 0, 0, 1}), false},
		{"a cell and a third east", realm(homography{1, 0, 4 * cw / 3, 0, 1, 0, 0, 0, 1}), false},
	}
	for _, tc := range tests {
		if got := shiftedAlias(base, tc.b, g); got != tc.want {
			t.Errorf("%s: shiftedAlias = %v, want %v", tc.name, got, tc.want)
		}
	}
}
