package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestNamedUnderReflection reads poster scenes (few keypoints: cards are
// named by their look) in which a lamp's reflection off a sleeve burns a
// small streak of each fully visible card to white (addReflection). The burnt
// pixels show nothing of the face, and in the look's correlation their
// brightness outweighed the art: 11 of 34 cards went unnamed. The look
// fills them in (unclipped); three quarters of the cards must be named,
// none wrongly.
func TestNamedUnderReflection(t *testing.T) {
	a, r := posterAnalyzer(t)
	cards, right := namedWhenMarked(t, a, r, 83, 6, 85, "under a reflection", addReflection) // glare_name_test.go
	t.Logf("cards under a reflection named right: %d of %d", right, cards)
	if cards < 20 || float64(right) < 0.75*float64(cards) {
		t.Errorf("cards under a reflection named right %d of %d, want 20 or more cards and 75%% of them", right, cards)
	}
}

// addReflection burns a streak of white across a card (its outline q in the
// scene's pixels), as a lamp's reflection off a sleeve does: 320 grey
// levels added at its middle, fading as a Gaussian a sixth of the card's
// width long and a fifteenth across, slanting from its first corner to its
// third, centred a third of the way between them.
func addReflection(scene *synth.Scene, q models.Quad) {
	cx, cy := (2*q[0].X+q[2].X)/3, (2*q[0].Y+q[2].Y)/3
	w := math.Hypot(q[1].X-q[0].X, q[1].Y-q[0].Y)
	along, across := w/6, w/15
	d := math.Hypot(q[2].X-q[0].X, q[2].Y-q[0].Y)
	ux, uy := (q[2].X-q[0].X)/d, (q[2].Y-q[0].Y)/d
	img := scene.Image
	b := img.Bounds()
	for y := max(b.Min.Y, int(cy-3*along)); y < min(b.Max.Y, int(cy+3*along)); y++ {
		for x := max(b.Min.X, int(cx-3*along)); x < min(b.Max.X, int(cx+3*along)); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			u, v := dx*ux+dy*uy, -dx*uy+dy*ux
			add := 320 * math.Exp(-(u*u/(2*along*along) + v*v/(2*across*across)))
			i := img.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				img.Pix[i+c] = uint8(math.Min(255, float64(img.Pix[i+c])+add+0.5))
			}
		}
	}
}

func TestUnclipped(t *testing.T) {
	const w, h = 20, 10
	face := func() []byte {
		px := make([]byte, 3*w*h)
		for i := range w * h {
			px[3*i], px[3*i+1], px[3*i+2] = 40, byte(60+i%7), 120
		}
		return px
	}
	burn := func(px []byte, x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				copy(px[3*(y*w+x):], []byte{255, 255, 255})
			}
		}
	}
	at := func(px []byte, x, y int) [3]byte { return [3]byte(px[3*(y*w+x) : 3*(y*w+x)+3]) }
	white := [3]byte{255, 255, 255}

	// A small burn (2 × 2 of 200 pixels) and its rim take the median.
	px := face()
	burn(px, 5, 4, 7, 6)
	unclipped(px, w, h)
	for _, p := range [][2]int{{5, 4}, {6, 5}, {4, 3}, {7, 6}} {
		if got := at(px, p[0], p[1]); got[0] != 40 || got[2] != 120 {
			t.Errorf("small burn: pixel %v is %v, want the median colour", p, got)
		}
	}
	if got := at(px, 9, 4); got != at(face(), 9, 4) {
		t.Errorf("small burn: pixel 9,4 beyond the rim is %v, want it untouched", got)
	}

	// A burn of 6% (12 pixels): filled in, its rim left.
	px = face()
	burn(px, 2, 2, 8, 4)
	unclipped(px, w, h)
	if got := at(px, 3, 3); got == white {
		t.Errorf("6%% burn: pixel 3,3 stays white")
	}
	if got := at(px, 1, 2); got != at(face(), 1, 2) {
		t.Errorf("6%% burn: pixel 1,2 beside it is %v, want it untouched", got)
	}

	// A broad glare (a quarter of the thumbnail): left as it is.
	px = face()
	burn(px, 0, 0, 10, 5)
	unclipped(px, w, h)
	if got := at(px, 3, 3); got != white {
		t.Errorf("broad burn: pixel 3,3 is %v, want it left white", got)
	}
}
