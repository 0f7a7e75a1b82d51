package vision

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

func TestReadScaleFor(t *testing.T) {
	for _, tc := range []struct{ cam, want float64 }{
		{cam: 3, want: 2},
		{cam: 1.3, want: 2},
		{cam: 1, want: 2},
		{cam: 0.99, want: 1.2},
		{cam: 0.9, want: 1.2},
		{cam: 0.5, want: 1.2},
	} {
		if got := readScaleFor(tc.cam); got != tc.want {
			t.Errorf("readScaleFor(%g) = %g, want %g", tc.cam, got, tc.want)
		}
	}
}

func ExampleAnalyzer_readScale() {
	// A 500×300 mm realm that fills 400×240 pixels of the frame: 0.8 px/mm.
	corners := models.Quad{{X: 100, Y: 340}, {X: 500, Y: 340}, {X: 500, Y: 100}, {X: 100, Y: 100}}
	cam := cameraScale(corners, models.DefaultRealm())
	fmt.Printf("camera %.1f px/mm, read at %.1f px/mm\n", cam, readScaleFor(cam))
	// Output: camera 0.8 px/mm, read at 1.2 px/mm
}

// TestSmallBlurredRealm reads a realm the camera shows at about 0.78 px/mm,
// softened as a cheap webcam far from the table softens it: at 2 px/mm the
// top-down image enlarges it 2.6 times and the cards' outlines and corners
// are too shallow to find (one of eight was); read at 1.2 px/mm, most
// cards are found where they lie, and none is named wrong.
func TestSmallBlurredRealm(t *testing.T) {
	cat := devCatalog(t)
	place := []placement{
		{slug: "emberfall_ridge", x: 50, y: 37.5, rot: 0, jitter: 1},
		{slug: "tidewrack_cove", x: 150, y: 112.5, rot: 180, jitter: -2},
		{slug: "ember_whelp", x: 50, y: 190, rot: 180},
		{slug: "mossgrave_hollow", x: 350, y: 187.5, rot: 0},
		{slug: "granite_warden", x: 250, y: 37.5, rot: 90, jitter: 2},
		{slug: "gale_sprite", x: 450, y: 262.5, rot: 180, jitter: -1},
		{slug: "quarry_of_kings", x: 450, y: 112.5, rot: 0, jitter: 2},
		{slug: "brass_orrery", x: 250, y: 262.5, rot: 0},
	}
	corners := shrunkCorners(0.45)
	sc := renderTestScene(t, cat, place, corners, 9)
	defer sc.frame.Close()
	gocv.GaussianBlur(sc.frame, &sc.frame, image.Pt(0, 0), 2.5, 2.5, gocv.BorderReplicate)
	a := newTestAnalyzer(t, cat)
	obs := analyzeScene(t, a, sc)
	if a.reader == nil || a.reader.opts.pxPerMM() != 1.2 {
		t.Fatalf("the realm at %.2f px/mm was not read at 1.2 px/mm", cameraScale(corners, models.DefaultRealm()))
	}
	found, named := foundWhereLaid(t, cat, obs, place, corners, 12)
	// Read at 2 px/mm, one card was found.
	if found < 5 || named < 3 {
		t.Errorf("found %d of %d cards where they lie, %d named; want 5 or more found, 3 or more named", found, len(place), named)
	}
}

// foundWhereLaid matches the cards laid (place, on a realm whose corners
// in the 1280×720 frame are corners) to those reported in obs: each to the
// nearest reported within withinMM of its centre, not matched before. It
// gives how many were found so and how many of those named, and reports
// an error for each named wrongly and each reported card matched to none.
func foundWhereLaid(t *testing.T, cat *models.Catalog, obs models.FrameObservation, place []placement, corners models.Quad, withinMM float64) (found, named int) {
	t.Helper()
	v, err := newView(corners, models.DefaultRealm(), 1280, 720, Options{})
	if err != nil {
		t.Fatal(err)
	}
	claimed := make([]bool, len(obs.Cards))
	for _, p := range place {
		card, _ := cat.BySlug(p.slug)
		want := v.imageOfMM(p.x, p.y)
		best, bestD := -1, withinMM*cameraScale(corners, models.DefaultRealm())
		for i, c := range obs.Cards {
			at := c.Quad.Center()
			if d := math.Hypot(at.X-want.X, at.Y-want.Y); !claimed[i] && d < bestD {
				best, bestD = i, d
			}
		}
		if best < 0 {
			t.Logf("%s not found", card.Name)
			continue
		}
		claimed[best] = true
		found++
		if c := obs.Cards[best]; c.Identified() {
			if c.NameOr("") != card.Name {
				t.Errorf("%s read as %s", card.Name, c.NameOr(""))
			} else {
				named++
			}
		}
	}
	for i, c := range obs.Cards {
		if !claimed[i] {
			t.Errorf("%s reported where no card lies (%v, %v, %.2f)", c.NameOr("a card"), c.Quad, c.Kind, c.Confidence)
		}
	}
	return found, named
}
