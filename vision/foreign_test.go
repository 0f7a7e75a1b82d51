package vision

import (
	"image"
	"testing"

	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// TestForeignObjectsSeen reads a rendered table with a foreign object over
// the realm and no hand: a cloth dice bag, of no skin tone, lying across
// two grid lines. It must be seen as covering the realm. The same table
// without the object must stay clear.
func TestForeignObjectsSeen(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []handScene{{88, 3, "a dice bag"}} {
		seed := synth.SceneSeed(sc.set, int(sc.i))
		for _, objects := range []float64{0.5, 0} {
			scene, obs := analyzeRendered(t, a, r, seed, synth.SceneOptions{ObjectChance: objects, JPEGQuality: 85})
			if want := objects > 0; scene.Truth.Occluded != want {
				t.Fatalf("scene %d: the renderer put something over the realm: %v, want %v", seed, scene.Truth.Occluded, want)
			}
			if obs.Occluded != scene.Truth.Occluded {
				t.Errorf("%s (set %d, still %d, object chance %g): occluded %v, want %v", sc.what, sc.set, sc.i, objects, obs.Occluded, scene.Truth.Occluded)
			}
		}
	}
}

// TestNoObjectInCardsOrLight reads steady tables (no hand, no object) whose
// mat shows regions of colours found nowhere else on it that are not
// objects: cards half hidden in a stack and not found (they show the main
// colours of the cards found), a card not found (it has a card's shape),
// and a lamp's glare (it fades into the mat). With a catalog that knows
// only a few of the cards, more of them go unfound. None may be taken for
// an object: the tracker drops covered frames, and a steady board would
// stall the game.
func TestNoObjectInCardsOrLight(t *testing.T) {
	cat := devCatalog(t)
	few := map[string]bool{}
	for i, c := range cat.Cards() {
		if i >= 20 {
			few[c.Slug] = true
		}
	}
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	scenes := []struct {
		set, i int64
		width  int
		what   string
	}{
		{1111, 33, 1280, "cards not found"},
		{3333, 11, 1280, "a lamp's glare"},
		{640, 13, 640, "glare at the edge"},
	}
	for _, known := range []map[string]bool{nil, few} {
		a := newTestAnalyzer(t, catalogWithout(cat, known))
		for _, sc := range scenes {
			opts := synth.SceneOptions{HandChance: -1, JPEGQuality: 85}
			if sc.width != 1280 {
				opts.Width, opts.Height = sc.width, sc.width*9/16
			}
			scene, obs := analyzeRendered(t, a, r, synth.SceneSeed(sc.set, int(sc.i)), opts)
			if scene.Truth.Occluded {
				t.Fatalf("set %d still %d: the renderer drew something over the realm", sc.set, sc.i)
			}
			if obs.Occluded {
				t.Errorf("%s (set %d, still %d, %d cards unknown): taken for something over the realm", sc.what, sc.set, sc.i, len(known))
			}
		}
	}
}

// TestForeignBoundAsUnbounded reads rendered tables, with objects and
// without, through the foreign-object test with and without its bound on
// the unexplained pixels (see foreignCoversBounded): the answer must be the
// same on every table, and the bound must decide some of them and leave
// others to the full test, or the comparison says nothing.
func TestForeignBoundAsUnbounded(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	var decided, left, objects int
	compare := func(small, ycc, onCards gocv.Mat, v *view, origin image.Point, f float64) bool {
		// The test changes nothing it is given: both read the same pixels.
		full, _ := foreignCoversBounded(small, ycc, onCards, v, origin, f, false)
		got, bounded := foreignCoversBounded(small, ycc, onCards, v, origin, f, true)
		if got != full {
			t.Errorf("foreign objects with the bound %v, without it %v", got, full)
		}
		if bounded {
			decided++
		} else {
			left++
		}
		if full {
			objects++
		}
		return got
	}
	for i := range 8 {
		for _, chance := range []float64{0.9, 0} {
			_, frame, cal, obs := renderAndAnalyze(t, a, r, synth.SceneSeed(88, i), synth.SceneOptions{ObjectChance: chance, HandChance: -1, JPEGQuality: 85})
			v, err := newView(cal.Corners, a.scale.geometry(cal.Geometry), frame.Cols(), frame.Rows(), a.opts)
			if err != nil {
				t.Fatal(err)
			}
			coarse := v.scaled(0.5)
			top := coarse.warp(frame)
			handCoversWith(top, coarse, obs.Cards, compare, lightCast{}, nil)
			top.Close()
			frame.Close()
		}
	}
	t.Logf("%d tables decided by the bound, %d left to the full test, %d with an object seen", decided, left, objects)
	if decided == 0 || left == 0 || objects == 0 {
		t.Errorf("the bound decided %d tables, left %d, objects seen on %d: the comparison shows little", decided, left, objects)
	}
}
