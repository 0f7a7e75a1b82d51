package vision

import (
	"image/color"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestGlaredCardsKeepTheirNames reads scenes in which a sleeve's glare
// mirrors the room over a band across the middle of each fully visible
// card. The keypoints found in the glare agree with no face, so the
// name check (confirmNames) finds the card's face contradicted there; the
// card's look, its colours over the whole face, still names it clearly,
// and that second witness keeps the name. No card may be named wrongly.
func TestGlaredCardsKeepTheirNames(t *testing.T) {
	if testing.Short() {
		t.Skip("renders scenes")
	}
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	glared, right := namedWhenMarked(t, a, r, 91, 4, 90, "glared", glare)
	t.Logf("glared cards named right: %d of %d", right, glared)
	if glared < 10 || float64(right) < 0.8*float64(glared) {
		t.Errorf("glared cards named right %d of %d, want 10 or more cards and 80%% of them", right, glared)
	}
}

// namedWhenMarked renders n scenes of r (seeds SceneSeed(seed, 0…n-1), no
// hand, JPEG quality q), marks each fully visible card but a token with
// mark (its outline in the scene's pixels) and reads the scene with a. It
// gives how many cards were marked and how many a named right, logging
// those it did not name and reporting those it named wrongly as errors
// (what: what mark did, for the messages).
func namedWhenMarked(t *testing.T, a *Analyzer, r *synth.Renderer, seed int64, n, q int, what string, mark func(*synth.Scene, models.Quad)) (cards, right int) {
	t.Helper()
	for i := range n {
		scene, err := r.Scene(synth.SceneSeed(seed, i), synth.SceneOptions{HandChance: -1, JPEGQuality: q})
		if err != nil {
			t.Fatal(err)
		}
		var marked []synth.CardTruth
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction >= 0.999 && !c.Token {
				marked = append(marked, c)
				mark(scene, c.Quad)
			}
		}
		frame, _, obs := analyzeSynthScene(t, a, scene) // scene_test.go
		frame.Close()
		for _, c := range marked {
			cards++
			o, ok := observationAt(obs, c.Quad.Center())
			switch {
			case !ok || o.Name == nil:
				t.Logf("scene %d: %s %s, not named", i, c.Name, what)
			case *o.Name != c.Name:
				t.Errorf("scene %d: %s %s, named %s", i, c.Name, what, *o.Name)
			default:
				right++
			}
		}
	}
	return cards, right
}

// glare mirrors the room in a card's sleeve over a band across the middle
// quarter of its face (quad, frame pixels): a coarse pattern of light and
// dark, blended half over the face, softly at the band's edges.
func glare(scene *synth.Scene, q models.Quad) {
	img := scene.Image
	b := img.Bounds()
	c := q.Center()
	// The band runs along the face's short axis, across its long one.
	ax, ay := (q[3].X-q[0].X)/2, (q[3].Y-q[0].Y)/2 // half the left side
	if math.Hypot(q[1].X-q[0].X, q[1].Y-q[0].Y) > math.Hypot(ax, ay)*2 {
		ax, ay = (q[1].X-q[0].X)/2, (q[1].Y-q[0].Y)/2
	}
	half := math.Hypot(ax, ay)
	ux, uy := ax/half, ay/half
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			p := models.Point{X: float64(x), Y: float64(y)}
			if !inside(p, q) {
				continue
			}
			along := math.Abs((p.X-c.X)*ux + (p.Y-c.Y)*uy)
			w := 0.5 * math.Min(1, math.Max(0, (half/4-along)/(half/12)+0.5))
			if w <= 0 {
				continue
			}
			o := img.RGBAAt(x, y)
			// The room mirrored in the sleeve: a coarse, high-contrast pattern.
			g := 255.0
			if (int(p.X/5)+int(p.Y/7))%3 == 0 || (int(p.X/9)*7+int(p.Y/4)*3)%5 == 0 {
				g = 90
			}
			mix := func(v uint8) uint8 { return uint8(float64(v) + w*(g-float64(v))) }
			img.SetRGBA(x, y, color.RGBA{mix(o.R), mix(o.G), mix(o.B), 255})
		}
	}
}

// observationAt gives the card read nearest p (frame pixels) among those
// whose outline holds it, and false when none does.
func observationAt(obs models.FrameObservation, p models.Point) (models.CardObservation, bool) {
	var best models.CardObservation
	bestD, found := math.Inf(1), false
	for _, o := range obs.Cards {
		if !inside(p, o.Quad) {
			continue
		}
		c := o.Quad.Center()
		if d := math.Hypot(c.X-p.X, c.Y-p.Y); d < bestD {
			best, bestD, found = o, d, true
		}
	}
	return best, found
}
