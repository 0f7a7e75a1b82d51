package vision

import (
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// TestCoveredSiteUnderArm reads poster scenes in which an arm reaching over
// the realm lies across a site (44-58% of it visible) on which no card is
// found, so that only the arm can send the covered-site search to its cell.
// The site must be named, and no card in the frame named wrongly.
func TestCoveredSiteUnderArm(t *testing.T) {
	a, r := posterAnalyzer(t)
	for _, sc := range []struct {
		i    int
		cell string
	}{{11, "C1"}, {19, "D2"}, {47, "E4"}} {
		scene, obs := analyzeRendered(t, a, r, synth.SceneSeed(505, sc.i), synth.SceneOptions{JPEGQuality: 85})
		if !scene.Truth.Occluded {
			t.Fatalf("scene %d: the renderer drew no hand", sc.i)
		}
		site, seen, named := siteReadIn(scene, obs, sc.cell)
		if site == "" {
			t.Fatalf("scene %d: no site in %s", sc.i, sc.cell)
		}
		if !named {
			t.Errorf("scene %d: %s holds site %s half under the arm, read as %v", sc.i, sc.cell, site, seen)
		}
		if s := scoreStill(obs, &scene.Truth); s.wrongNames > 0 {
			t.Errorf("scene %d: %d cards named wrongly: %v", sc.i, s.wrongNames, s.notes)
		}
	}
}

// TestArmMaskOnce holds armOver's one skin mask (skinColoured, finished by
// armSkin) to the two it made before, skinCovers' and skinMask's with the
// cards cleared: on frames with a hand over the cards, and the same tables
// without it, whether an arm is seen and its mask must be the same, pixel
// for pixel.
func TestArmMaskOnce(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	var hands, arms int
	for _, sc := range []struct{ set, i int64 }{{2222, 12}, {1, 24}, {6666, 76}, {4242, 39}, {1111, 56}} {
		for _, handChance := range []float64{0, -1} {
			scene, _, coarse, top, quads := handTestView(t, a, r, synth.SceneSeed(sc.set, int(sc.i)), handChance)
			h, ok := readHandImage(top, coarse, quads)
			top.Close()
			if !ok {
				t.Fatalf("set %d still %d: no hand image", sc.set, sc.i)
			}
			if scene.Truth.Occluded {
				hands++
			}
			// Before: skinCovers, then skinMask again, cleared of the cards.
			wantCovers := skinCovers(h.small, h.ycc, h.onCards, h.cards, coarse, h.area.Min, h.f)
			want, _, wantOK := skinMask(h.small, h.ycc, h.onCards, h.cards, coarse)
			if h.cards {
				off := gocv.NewMat()
				gocv.BitwiseNot(h.onCards, &off)
				gocv.BitwiseAnd(want, off, &want)
				off.Close()
			}
			// Now: one mask.
			got := skinColoured(h.small, h.ycc)
			if _, gotArm := armSkin(h, got, coarse); gotArm != (wantOK && wantCovers) {
				t.Errorf("set %d still %d (hand %v): arm %v, want %v (mask ok %v, covers %v)", sc.set, sc.i, scene.Truth.Occluded, gotArm, wantOK && wantCovers, wantOK, wantCovers)
			} else if gotArm {
				arms++
				w, _ := want.DataPtrUint8()
				g, _ := got.DataPtrUint8()
				if !slices.Equal(w, g) {
					t.Errorf("set %d still %d (hand %v): the arm's mask differs", sc.set, sc.i, scene.Truth.Occluded)
				}
			}
			want.Close()
			got.Close()
			h.close()
		}
	}
	if hands == 0 || arms == 0 {
		t.Fatalf("%d frames with a hand, %d arms compared: the test shows nothing", hands, arms)
	}
}

// TestHandShrunkOnce holds the hand tests' image made from the frame's
// shrunk image kept for the frame (handShrunk) to the one made from
// scratch: on frames with and without a hand, each test's image (shrunk,
// white-balanced on the mat about the cards it marks, in YCrCb, the cards
// marked) must be the same pixel for pixel, and so must the hand test's
// answer, whichever cards the test before it marked.
func TestHandShrunkOnce(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	same := func(x, y gocv.Mat) bool {
		p, err1 := x.DataPtrUint8()
		q, err2 := y.DataPtrUint8()
		return err1 == nil && err2 == nil && x.Rows() == y.Rows() && x.Cols() == y.Cols() && len(p) > 0 && slices.Equal(p, q)
	}
	var kept, hands int
	for _, sc := range []struct{ set, i int64 }{{2222, 12}, {1, 24}, {6666, 76}, {4242, 39}} {
		for _, handChance := range []float64{0, -1} {
			scene, obs, coarse, top, quads := handTestView(t, a, r, synth.SceneSeed(sc.set, int(sc.i)), handChance)
			if scene.Truth.Occluded {
				hands++
			}
			shrunk := newHandShrunk()
			// The tests of a frame, in turn: all the cards, none, half.
			for k, qs := range [][]models.Quad{quads, nil, quads[:len(quads)/2]} {
				want, ok := readHandImage(top, coarse, qs)
				if !ok {
					t.Fatalf("set %d still %d: no hand image", sc.set, sc.i)
				}
				got, ok := readHandImageFrom(top, coarse, qs, lightCast{}, &shrunk)
				if !ok || !shrunk.ok {
					t.Fatalf("set %d still %d: no hand image kept", sc.set, sc.i)
				}
				if k > 0 {
					kept++
				}
				if !same(want.small, got.small) || !same(want.ycc, got.ycc) || !same(want.onCards, got.onCards) || want.area != got.area || want.f != got.f || want.cards != got.cards {
					t.Errorf("set %d still %d (hand %v), test %d: the hand image differs from the one made afresh", sc.set, sc.i, scene.Truth.Occluded, k)
				}
				want.close()
				got.close()
			}
			cards := obs.Cards
			for k, cs := range [][]models.CardObservation{cards, nil, cards[:len(cards)/2]} {
				if w, g := handCovers(top, coarse, cs), handCoversShrunk(top, coarse, cs, lightCast{}, &shrunk); w != g {
					t.Errorf("set %d still %d (hand %v), test %d: hand %v with the kept image, %v without", sc.set, sc.i, scene.Truth.Occluded, k, g, w)
				}
			}
			shrunk.close()
			top.Close()
		}
	}
	if hands == 0 || kept == 0 {
		t.Fatalf("%d frames with a hand, %d kept images compared: the test shows nothing", hands, kept)
	}
}

// handTestView renders and reads the scene of seed (handChance: see
// synth.SceneOptions) and gives the hand tests' view of it: the view at
// half the top-down scale, the frame warped to it (caller closes) and the
// cards read, as quads in its pixels.
func handTestView(t *testing.T, a *Analyzer, r *synth.Renderer, seed int64, handChance float64) (scene *synth.Scene, obs models.FrameObservation, coarse *view, top gocv.Mat, quads []models.Quad) {
	t.Helper()
	scene, frame, cal, obs := renderAndAnalyze(t, a, r, seed, synth.SceneOptions{HandChance: handChance, JPEGQuality: 85})
	defer frame.Close()
	v, err := newView(cal.Corners, cal.Geometry, frame.Cols(), frame.Rows(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	coarse = v.scaled(0.5)
	top = coarse.warp(frame)
	quads = make([]models.Quad, len(obs.Cards))
	for i, c := range obs.Cards {
		for j, p := range c.Quad {
			quads[i][j] = coarse.fromImg.Apply(p)
		}
	}
	return scene, obs, coarse, top, quads
}
