package vision

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// TestOcclusionUnderTintedLight reads the first stills as a warm bulb and a
// cold daylight lamp would show them. A warm light turns a pale mat and the
// cards' cream frames skin-toned: without white balance two of these stills
// raise a hand that isn't there, and the tracker would ignore them.
func TestOcclusionUnderTintedLight(t *testing.T) {
	const stills = 20
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	lights := []struct {
		name    string
		r, g, b float64 // channel gains
	}{
		{"warm bulb", 1.15, 1, 0.75},
		{"cold lamp", 0.8, 1, 1.15},
	}
	for _, light := range lights {
		t.Run(light.name, func(t *testing.T) {
			var falseAlarms, hands, hits int
			for i := 0; i < stills; i++ {
				obs, truth := analyzeAlteredStill(t, a, i, func(frame gocv.Mat) { tint(t, frame, light.b, light.g, light.r) })
				switch {
				case truth.Occluded:
					hands++
					if obs.Occluded {
						hits++
					}
				case obs.Occluded:
					falseAlarms++
					t.Logf("still %04d: a hand seen where there is none", i)
				}
			}
			if falseAlarms > 0 {
				t.Errorf("%d of %d stills without a hand flagged as covered", falseAlarms, stills-hands)
			}
			if hands > 0 && hits == 0 {
				t.Errorf("none of %d hands seen", hands)
			}
		})
	}
}

// tint scales a BGR image's channels in place, as a coloured light would.
func tint(t *testing.T, img gocv.Mat, b, g, r float64) {
	t.Helper()
	data, err := img.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	gains := [3]float64{b, g, r}
	for i := range data {
		data[i] = uint8(min(255, float64(data[i])*gains[i%3]))
	}
}

// analyzeAlteredStill reads bundled still i, changed in place by alter
// first, with its truth corners; it skips the test when the stills are absent.
func analyzeAlteredStill(t *testing.T, a *Analyzer, i int, alter func(gocv.Mat)) (models.FrameObservation, *synth.SceneTruth) {
	t.Helper()
	frame, cal, truth := stillFrame(t, fmt.Sprintf("%04d", i))
	defer frame.Close()
	alter(frame)
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	return obs, truth
}

// TestHandOnSkinTonedMat reads unseen scenes in which a hand reaches over a
// mat of nearly its own colour: a dark hand on a mauve or brown mat, whose
// chroma (Cr, Cb) is that of the mat's darker shades. Taken for mat, each of
// these hands went unseen. The same tables without the hand must stay clear.
func TestHandOnSkinTonedMat(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	scenes := []struct{ set, i int64 }{{777, 14}, {777, 70}, {4242, 3}, {4242, 14}, {9001, 96}}
	for _, sc := range scenes {
		seed := synth.SceneSeed(sc.set, int(sc.i))
		for _, hands := range []float64{0, -1} {
			scene, err := r.Scene(seed, synth.SceneOptions{HandChance: hands, JPEGQuality: 85})
			if err != nil {
				t.Fatal(err)
			}
			if want := hands >= 0; scene.Truth.Occluded != want {
				t.Fatalf("scene %d: the renderer drew a hand: %v, want %v", seed, scene.Truth.Occluded, want)
			}
			frame, err := gocv.ImageToMatRGB(scene.Image)
			if err != nil {
				t.Fatal(err)
			}
			cal, err := calibration.FromCorners(scene.Truth.Corners, frame.Cols(), frame.Rows())
			if err != nil {
				t.Fatal(err)
			}
			cal.Geometry = scene.Truth.Geometry
			obs, err := a.Analyze(frame, cal)
			frame.Close()
			if err != nil {
				t.Fatal(err)
			}
			if obs.Occluded != scene.Truth.Occluded {
				t.Errorf("scene %d (set %d, still %d): occluded %v, want %v", seed, sc.set, sc.i, obs.Occluded, scene.Truth.Occluded)
			}
		}
	}
}

// TestNoHandOverStackedCards paints two skin-toned sites, one half on the
// other, across the realm's west edge on a blue mat (without the cards found
// there, that patch is a hand reaching in): card art is not a hand,
// however skin-toned, and neither is the part where the cards overlap (one
// FillPoly call with all the card outlines fills by parity, which left a
// hole there in the cards' mask, and so a skin-toned blob at the edge).
func TestNoHandOverStackedCards(t *testing.T) {
	const pxPerMM, marginMM = 1.0, 100.0
	geo := models.DefaultRealm()
	w, h := int(geo.WidthMM()+2*marginMM), int(geo.HeightMM()+2*marginMM)
	// A camera looking straight down at 1 px/mm: realm millimetre (x, y)
	// (y north) is image pixel (margin+x, margin+height-y).
	at := func(x, y float64) models.Point {
		return models.Point{X: marginMM + x, Y: marginMM + geo.HeightMM() - y}
	}
	corners := models.Quad{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())}
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 120, 60, 0), h, w, gocv.MatTypeCV8UC3)
	defer frame.Close()
	skin := color.RGBA{220, 180, 150, 0}
	var cards []models.CardObservation
	for _, x0 := range []float64{-30, -16} {
		y0 := 100 + (x0 + 30)
		q := models.Quad{at(x0, y0+models.CardShortMM), at(x0+models.CardLongMM, y0+models.CardShortMM), at(x0+models.CardLongMM, y0), at(x0, y0)}
		gocv.Rectangle(&frame, image.Rect(int(q[0].X), int(q[0].Y), int(q[2].X), int(q[2].Y)), skin, -1)
		cards = append(cards, models.CardObservation{Kind: models.KindSite, Quad: q})
	}
	v, err := newView(corners, geo, w, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	coarse := v.scaled(0.5)
	top := coarse.warp(frame)
	defer top.Close()
	if !handCovers(top, coarse, nil) {
		t.Fatal("the skin-toned patch is not seen as skin at all: the test shows nothing")
	}
	if handCovers(top, coarse, cards) {
		t.Error("two skin-toned cards, one on the other, taken for a hand")
	}
}
