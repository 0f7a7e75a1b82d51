package vision

import (
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestToneUnderGlare lays a lamp's glare (white light added, brightest at
// one point and fading) over part of each fully visible card of poster
// scenes, and checks each card's colours (toneAgrees) against its true
// face and against the same face in other colours (turnedColours), the
// catalog holding both. Glare raises a face's dark channels most: a broad
// one set Tidewrack Cove's channel ratios 0.45 apart, past toneMaxSpread,
// as a recoloured face's are. Read with the glare taken out (deglared),
// every true face agrees, and no recoloured one does.
func TestToneUnderGlare(t *testing.T) {
	cat, r := posterCatalog(t)
	a, refOf := twinnedAnalyzer(t, cat)
	var cards, trueAgrees, twinAgrees, plainAgrees int
	for i := 0; i < 4; i++ {
		// Before the glare: the true faces agree.
		scene, v, quads := readSceneView(t, a, r, synth.SceneSeed(71, i))
		for k, c := range scene.Truth.Cards {
			if c.VisibleFraction < 1 || c.Token || refOf(c.Name) < 0 {
				continue
			}
			if a.toneAgrees(v, &a.index.refs[refOf(c.Name)], quads[k], nil) {
				plainAgrees++
			}
		}
		for _, c := range scene.Truth.Cards {
			if c.VisibleFraction == 1 && !c.Token {
				addGlare(scene, c.Quad)
			}
		}
		v, _ = sceneView(t, a, scene) // the cards' outlines are as before
		for k, c := range scene.Truth.Cards {
			right, twin := refOf(c.Name), refOf(c.Name+" at Dusk")
			if c.VisibleFraction < 1 || c.Token || right < 0 || twin < 0 {
				continue
			}
			cards++
			if a.toneAgrees(v, &a.index.refs[right], quads[k], nil) {
				trueAgrees++
			} else {
				spread, _ := a.toneSpread(v, &a.index.refs[right], quads[k], nil)
				t.Logf("scene %d: %s under glare does not agree with its own face (spread %.2f)", i, c.Name, spread)
			}
			if a.toneAgrees(v, &a.index.refs[twin], quads[k], nil) {
				twinAgrees++
				t.Errorf("scene %d: %s under glare agrees with its face in other colours", i, c.Name)
			}
		}
	}
	t.Logf("%d fully visible cards under glare: the true face agrees for %d (%d without the glare), the recoloured one for %d",
		cards, trueAgrees, plainAgrees, twinAgrees)
	if plainAgrees < cards {
		t.Fatalf("without the glare the true face agrees for %d of %d cards", plainAgrees, cards)
	}
	if cards < 10 {
		t.Fatalf("only %d fully visible cards in the scenes", cards)
	}
	if trueAgrees < cards {
		t.Errorf("under glare the true face agrees for %d of %d cards, want all", trueAgrees, cards)
	}
}

// addGlare adds white light over part of a card (its outline q in the
// scene's pixels): brightest 130 grey levels at a point a quarter of the
// way from its first corner to its third, fading as a Gaussian as wide as
// a third of the card's diagonal.
func addGlare(scene *synth.Scene, q models.Quad) {
	cx, cy := 0.75*q[0].X+0.25*q[2].X, 0.75*q[0].Y+0.25*q[2].Y
	sigma := math.Hypot(q[2].X-q[0].X, q[2].Y-q[0].Y) / 3
	img := scene.Image
	b := img.Bounds()
	for y := max(b.Min.Y, int(cy-3*sigma)); y < min(b.Max.Y, int(cy+3*sigma)); y++ {
		for x := max(b.Min.X, int(cx-3*sigma)); x < min(b.Max.X, int(cx+3*sigma)); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			add := 130 * math.Exp(-(dx*dx+dy*dy)/(2*sigma*sigma))
			i := img.PixOffset(x, y)
			for c := 0; c < 3; c++ {
				img.Pix[i+c] = uint8(math.Min(255, float64(img.Pix[i+c])+add+0.5))
			}
		}
	}
}
