package vision

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// placedOff gives the outline q (top-down pixels of pxPerMM, a card's)
// found dx mm across and dy mm down its first side off its place, and,
// when turned, with its long side across instead of down (or down instead
// of across), about the same centre: how the search for stacked cards may
// find a poster card.
func placedOff(q models.Quad, pxPerMM, dx, dy float64, turned bool) models.Quad {
	c := q.Center()
	ux, uy := q[1].X-q[0].X, q[1].Y-q[0].Y
	vx, vy := q[3].X-q[0].X, q[3].Y-q[0].Y
	if turned {
		// Each side as long as the other, along its own direction.
		lu, lv := math.Hypot(ux, uy), math.Hypot(vx, vy)
		ux, uy, vx, vy = ux*lv/lu, uy*lv/lu, vx*lu/lv, vy*lu/lv
	}
	lu, lv := math.Hypot(ux, uy), math.Hypot(vx, vy)
	cx := c.X + dx*pxPerMM*ux/lu + dy*pxPerMM*vx/lv
	cy := c.Y + dx*pxPerMM*uy/lu + dy*pxPerMM*vy/lv
	var out models.Quad
	for k, s := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		out[k] = models.Point{X: cx + (s[0]*ux+s[1]*vx)/2, Y: cy + (s[0]*uy+s[1]*vy)/2}
	}
	return out
}

// TestNameAroundOutlineFoundOff names fully visible poster cards in
// outlines found a centimetre off their place, or turned a quarter, as
// the search for stacked cards finds some: their look in such an outline
// names few of them (nameByLook), and nameAround, which searches the
// places about the outline that show a card's layout best, names most,
// and none wrongly. A third of the faces are left out of the catalog:
// those cards must stay unknown wherever they are looked for.
func TestNameAroundOutlineFoundOff(t *testing.T) {
	full, r := posterCatalog(t)
	missing := map[string]bool{}
	for i, s := range facedSlugs(full) {
		if i%3 == 2 {
			missing[s] = true
		}
	}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	cases := []struct {
		name   string
		dx, dy float64
		turned bool
	}{
		{"10 mm across", 10, 0, false},
		{"11 mm down", 0, -11, false},
		{"8 mm both ways", -8, 8, false},
		{"turned a quarter", 0, 0, true},
	}
	type tally struct{ all, byLook, around, wrong, missing, missingNamed int }
	got := make([]tally, len(cases))
	for _, i := range []int{3, 7, 12, 24} {
		scene, frame, cal, _ := renderAndAnalyze(t, a, r, synth.SceneSeed(41, i), synth.SceneOptions{JPEGQuality: 85})
		frame.Close()
		v, err := newView(cal.Corners, cal.Geometry, 1280, 720, a.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction < 0.999 || c.Token {
				continue
			}
			var q models.Quad
			for k, p := range c.Quad {
				q[k] = v.fromImg.Apply(p)
			}
			for ci, tc := range cases {
				off := clockwiseFromTopLeft(placedOff(q, v.pxPerMM, tc.dx, tc.dy, tc.turned))
				g := &got[ci]
				if missing[c.Slug] {
					g.missing++
					if d, ok := a.nameAround(off, v, nil, nil); ok {
						g.missingNamed++
						t.Errorf("%s, scene %d: %s, missing from the catalog, named %s", tc.name, i, c.Name, a.index.refs[d.ref].card.Name)
					}
					continue
				}
				g.all++
				if d, ok := a.nameByLook(off, v, nil); ok && a.index.refs[d.ref].card.Name == c.Name {
					g.byLook++
				}
				d, ok := a.nameAround(off, v, nil, nil)
				switch {
				case !ok:
					t.Logf("%s, scene %d: %s not named", tc.name, i, c.Name)
				case a.index.refs[d.ref].card.Name != c.Name:
					g.wrong++
					t.Errorf("%s, scene %d: %s named %s", tc.name, i, c.Name, a.index.refs[d.ref].card.Name)
				default:
					g.around++
				}
			}
		}
	}
	for ci, tc := range cases {
		g := got[ci]
		t.Logf("%s: %d cards, named by look in the outline %d, around it %d (%d wrong); missing from the catalog %d, named %d",
			tc.name, g.all, g.byLook, g.around, g.wrong, g.missing, g.missingNamed)
		if g.all < 8 || g.missing < 3 {
			t.Errorf("%s: %d cards of the catalog and %d missing from it, want 8 and 3 or more", tc.name, g.all, g.missing)
		}
		if 2*g.byLook > g.all {
			t.Errorf("%s: the look in the outline named %d of %d: the outline is not off enough to test the search", tc.name, g.byLook, g.all)
		}
		if float64(g.around) < 0.8*float64(g.all) {
			t.Errorf("%s: named around the outline %d of %d, want 80%% or more", tc.name, g.around, g.all)
		}
	}
}

// cropLook (the straightforward reading insideLook is checked against) cuts the w × h part at (x0, y0) out of an n pixels wide
// thumbnail (BGR, row by row).
func cropLook(px []byte, n, x0, y0, w, h int) []byte {
	out := make([]byte, 0, 3*w*h)
	for y := y0; y < y0+h; y++ {
		out = append(out, px[3*(y*n+x0):3*(y*n+x0+w)]...)
	}
	return out
}

// quarterLook (likewise) turns a w × h thumbnail (BGR, row by row) a quarter,
// clockwise: it is h wide and w high.
func quarterLook(px []byte, w, h int) []byte {
	out := make([]byte, len(px))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			o := 3 * (x*h + h - 1 - y)
			copy(out[o:o+3], px[3*(y*w+x):3*(y*w+x)+3])
		}
	}
	return out
}

// TestInsideLookReadsAsCropped checks the search about an outline's fast
// reading of each place (insideLook, and layoutScores for the place and
// its half turn at once) against the plain one: the place cut out, turned
// a quarter when the face lies across, read as a level's vector, and its
// layout scored upright and turned a half.
func TestInsideLookReadsAsCropped(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const fw, fh, n = 12, 17, 30 // a face's thumbnail, upright; the window
	lv := newLookLevel(fw-2*lookBorder, fh-2*lookBorder, fw-2*lookBorder, fh-2*lookBorder)
	mean := make([]float64, 3*lv.w*lv.h)
	for i := range mean {
		mean[i] = rng.Float64() * 255
	}
	lv.setBasis(mean)
	px := make([]byte, 3*n*n)
	for i := range px {
		px[i] = byte(rng.IntN(256))
	}
	for _, turned := range []bool{false, true} {
		rw, rh := fw, fh
		if turned {
			rw, rh = fh, fw
		}
		for _, at := range [][2]int{{0, 0}, {3, 7}, {n - rw, n - rh}} {
			sub := cropLook(px, n, at[0], at[1], rw, rh)
			if turned {
				sub = quarterLook(sub, rw, rh)
			}
			want := lv.vector(sub, fw, fh)
			got := make([]float32, len(want))
			insideLook(got, px, n, at[0], at[1], lv.w, lv.h, turned)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("turned %v at %v: value %d reads %v, want %v", turned, at, i, got[i], want[i])
				}
			}
			up, half := lv.layoutScores(got)
			wantUp, wantHalf := lv.layoutScore(want), lv.layoutScore(lv.vector(turnedLook(sub), fw, fh))
			if math.Abs(up-wantUp) > 1e-4 || math.Abs(half-wantHalf) > 1e-4 {
				t.Errorf("turned %v at %v: layout scores %.5f and %.5f turned a half, want %.5f and %.5f", turned, at, up, half, wantUp, wantHalf)
			}
		}
	}
}
