package vision

import (
	"math"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// withFacesOf is the catalog with the faces of the listed cards only: the
// other cards stay in it, without a face (a player who scanned a few cards).
func withFacesOf(t *testing.T, cat *models.Catalog, slugs ...string) *models.Catalog {
	t.Helper()
	keep := map[string]bool{}
	for _, s := range slugs {
		if _, ok := cat.BySlug(s); !ok {
			t.Fatalf("no card %q in the catalog", s)
		}
		keep[s] = true
	}
	var cards []*models.Card
	for _, c := range cat.Cards() {
		cc := *c
		if !keep[c.Slug] {
			cc.Image = ""
		}
		cards = append(cards, &cc)
	}
	return models.NewCatalog(cards)
}

// TestTinyCatalogNoWrongNames reads stills against catalogs of a few faces.
// The sample avatars share every word of their text and the sites their
// layout: with no other face of its kind to compete, a card missing from
// such a catalog fits the one face of its kind by its title bar, type line
// and text box alone. It must come back unknown, in whole frames and in
// Identify, while the cards whose face is there are still named.
func TestTinyCatalogNoWrongNames(t *testing.T) {
	full := devCatalog(t)
	const stills = 10
	for _, tc := range []struct {
		name  string
		slugs []string
	}{
		{"one avatar", []string{"ashen_sovereign"}},
		{"an avatar and a site", []string{"ashen_sovereign", "barren_flats"}},
		{"five faces", []string{"ashen_sovereign", "ashen_steppe", "ashwing_drake", "barren_flats", "bog_frog"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat := withFacesOf(t, full, tc.slugs...)
			a := newTestAnalyzer(t, cat)
			if a.Faces() != len(tc.slugs) {
				t.Fatalf("%d faces indexed, want %d", a.Faces(), len(tc.slugs))
			}
			hasFace := map[string]bool{}
			for _, s := range tc.slugs {
				c, _ := cat.BySlug(s)
				hasFace[c.Name] = true
			}
			// Whole frames.
			var full, fullNamed, faceless int
			for i := 0; i < stills; i++ {
				truth, obs := readSampleStill(t, a, i)
				s := scoreStill(obs, truth)
				for _, n := range s.notes {
					t.Errorf("still %04d: %s", i, n)
				}
				for _, c := range truth.Cards {
					if c.VisibleFraction < 0.999 {
						continue
					}
					if !hasFace[c.Name] {
						faceless++
						continue
					}
					full++
					for _, o := range obs.Cards {
						oc, cc := o.Quad.Center(), c.Quad.Center()
						if o.NameOr("") == c.Name && math.Hypot(oc.X-cc.X, oc.Y-cc.Y) < 20 {
							fullNamed++
							break
						}
					}
				}
			}
			if faceless == 0 {
				t.Fatal("no fully visible card without a face in the stills: the test shows nothing")
			}
			// (With one face, a card lying on a site missing from the
			// catalog may be left unknown: still 0009's avatar.)
			if full == 0 || float64(fullNamed) < 0.75*float64(full) {
				t.Errorf("named %d of %d fully visible cards whose face is in the catalog, want ≥ 75%%", fullNamed, full)
			}
			// Single cards.
			var named, with, without int
			identifyStillCrops(t, a, stills, func(i int, c synth.CardTruth, got models.CardObservation, found bool) {
				switch {
				case !hasFace[c.Name]:
					without++
					if found || got.Name != nil {
						t.Errorf("still %04d: Identify read %s, whose face is not in the catalog, as %s", i, c.Name, got.NameOr("?"))
					}
				default:
					with++
					if found && got.NameOr("") == c.Name {
						named++
					}
				}
			})
			if without == 0 || with == 0 || float64(named) < 0.9*float64(with) {
				t.Errorf("Identify named %d of %d cards whose face is in the catalog (%d without), want ≥ 90%%", named, with, without)
			}
		})
	}
}

// TestFrameSpotsAsNewSpotGrid checks that the name check's grid of a
// frame's described keypoints, built into buffers kept from frame to
// frame, holds the spots of newSpotGrid's grid of them, cell by cell: on stills whose keypoints the
// matching described in part, one after another (the buffers reused at
// other sizes), and with none described.
func TestFrameSpotsAsNewSpotGrid(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	var c nameChecker
	for _, name := range []string{"0042", "0003", "0077"} {
		gray, _ := stillTopGray(t, name)
		f, err := a.det.detect(gray)
		gray.Close()
		if err != nil {
			t.Fatal(err)
		}
		a.index.matchFrame(f, 1)
		described := make([]bool, len(f.Points))
		some, all := 0, 0
		for i := range f.Points {
			described[i] = f.described(i)
			if described[i] {
				some++
			}
			all++
		}
		if some == 0 || some == all {
			t.Fatalf("%s: %d of %d keypoints described; the test wants some of them", name, some, all)
		}
		none := features{Points: f.Points, Descs: f.Descs, lazy: &lazyDescriptors{done: make([]bool, len(f.Points))}}
		for _, in := range []struct {
			what string
			f    features
			keep []bool
		}{{"some described", f, described}, {"none described", none, make([]bool, len(f.Points))}} {
			got, want := c.frameSpots(in.f), newSpotGrid(in.f.Points, in.keep, frameGridCell)
			if got.w != want.w || got.h != want.h || !slices.Equal(got.offsets, want.offsets) || !slices.Equal(got.spots, want.spots) {
				t.Errorf("%s, %s: a grid of %d×%d cells, %d spots; newSpotGrid's %d×%d, %d", name, in.what, got.w, got.h, len(got.spots), want.w, want.h, len(want.spots))
			}
		}
	}
}
