package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

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

// TestPaleHandUnderCoolLamp reads two stills with a pale hand as a strong
// cool lamp shows them (red ×0.8, blue ×1.2): the cards' paper is then a
// bluish white, within the tint balanceWhite allows paper either way, and
// the hand a lavender grey that is no skin. Paper is white to cream, never
// bluer or less red than white: balanced on that, both hands are seen.
func TestPaleHandUnderCoolLamp(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	for _, i := range []int{31, 37} {
		obs, truth := analyzeAlteredStill(t, a, i, func(frame gocv.Mat) { tint(t, frame, 1.2, 1, 0.8) })
		if !truth.Occluded {
			t.Fatalf("still %04d has no hand", i)
		}
		if !obs.Occluded {
			t.Errorf("still %04d under a cool lamp: the hand is not seen", i)
		}
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
	checkHandScenes(t, []handScene{
		{777, 14, "a hand on a skin-toned mat"}, {777, 70, "a hand on a skin-toned mat"},
		{4242, 3, "a hand on a skin-toned mat"}, {4242, 14, "a hand on a skin-toned mat"},
		{9001, 96, "a hand on a skin-toned mat"},
	})
}

// handScene is a rendered scene with a hand: set and still i (see
// synth.SceneSeed), and what the hand shows.
type handScene struct {
	set, i int64
	what   string
}

// checkHandScenes reads each scene with its hand and without it (the same
// table, HandChance -1): the hand must be seen, and the bare table clear.
func checkHandScenes(t *testing.T, scenes []handScene) {
	t.Helper()
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenes {
		seed := synth.SceneSeed(sc.set, int(sc.i))
		for _, hands := range []float64{0, -1} {
			scene, obs := analyzeRendered(t, a, r, seed, synth.SceneOptions{HandChance: hands, JPEGQuality: 85})
			if want := hands >= 0; scene.Truth.Occluded != want {
				t.Fatalf("scene %d: the renderer drew a hand: %v, want %v", seed, scene.Truth.Occluded, want)
			}
			if obs.Occluded != scene.Truth.Occluded {
				t.Errorf("%s (set %d, still %d): occluded %v, want %v", sc.what, sc.set, sc.i, obs.Occluded, scene.Truth.Occluded)
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

// TestFramelessCardUnderUnit paints, on a blue mat, a skin-toned unit
// lying across the realm's north border on a skin-toned site whose east
// end shows beside it, both frameless (art to the card's edges, as Sorcery
// prints its cards), and only the unit found: unit and site make one
// skin-toned blob that reaches the edge through the unit, with the size of
// fingers over the edge's cards off them. The site's end is a card's
// straight-sided piece: no hand (see offShowsCard). A round patch of skin
// of the same area in its place is a hand there.
func TestFramelessCardUnderUnit(t *testing.T) {
	const marginMM = 100.0
	geo := models.DefaultRealm()
	w, h := int(geo.WidthMM()+2*marginMM), int(geo.HeightMM()+2*marginMM)
	// A camera looking straight down at 1 px/mm: realm millimetre (x, y)
	// (y north) is image pixel (margin+x, margin+height-y).
	at := func(x, y float64) models.Point {
		return models.Point{X: marginMM + x, Y: marginMM + geo.HeightMM() - y}
	}
	corners := models.Quad{at(0, 0), at(geo.WidthMM(), 0), at(geo.WidthMM(), geo.HeightMM()), at(0, geo.HeightMM())}
	v, err := newView(corners, geo, w, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	coarse := v.scaled(0.5)
	skin := color.RGBA{220, 180, 150, 0}
	px := func(p models.Point) image.Point { return image.Pt(int(p.X), int(p.Y)) }
	// The unit: portrait, 10 mm of it north of the north border.
	ux0, uy0 := 2.5*geo.CellWidthMM-models.CardShortMM/2, geo.HeightMM()+10-models.CardLongMM
	unit := models.Quad{at(ux0, uy0+models.CardLongMM), at(ux0+models.CardShortMM, uy0+models.CardLongMM), at(ux0+models.CardShortMM, uy0), at(ux0, uy0)}
	const shows = 25.0 // mm of the site east of the unit
	for _, tc := range []struct {
		what  string
		paint func(frame *gocv.Mat)
		hand  bool
	}{
		{"a frameless site's end beside the unit on it", func(frame *gocv.Mat) {
			sx1, sy0 := ux0+models.CardShortMM+shows, uy0+10
			r := image.Rectangle{Min: px(at(sx1-models.CardLongMM, sy0+models.CardShortMM)), Max: px(at(sx1, sy0))}
			gocv.Rectangle(frame, r, skin, -1)
		}, false},
		{"a palm beside the unit", func(frame *gocv.Mat) {
			radius := math.Sqrt(shows * models.CardShortMM / math.Pi)
			gocv.Circle(frame, px(at(ux0+models.CardShortMM+radius-3, uy0+10+models.CardShortMM/2)), int(radius), skin, -1)
		}, true},
	} {
		frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(200, 120, 60, 0), h, w, gocv.MatTypeCV8UC3)
		tc.paint(&frame)
		gocv.Rectangle(&frame, image.Rectangle{Min: px(unit[0]), Max: px(unit[2])}, skin, -1)
		top := coarse.warp(frame)
		if got := handCovers(top, coarse, []models.CardObservation{{Kind: models.KindStandard, Quad: unit}}); got != tc.hand {
			t.Errorf("%s: hand %v, want %v", tc.what, got, tc.hand)
		}
		top.Close()
		frame.Close()
	}
}

// balanceWhiteDirect is balanceWhite as first written: the brightest
// share's channels (of the pixels not clipped) summed in a second pass, the
// table applied pixel by pixel. TestBalanceWhiteAsDirect holds balanceWhite to it.
func balanceWhiteDirect(data, in []byte) {
	brightness := func(i int) int { return (int(data[i]) + 2*int(data[i+1]) + int(data[i+2])) / 4 }
	clipped := func(i int) bool { return int(max(data[i], data[i+1], data[i+2])) >= whiteClipped }
	var hist [256]int
	total := 0
	for p, m := range in {
		if m != 0 && !clipped(3*p) {
			hist[brightness(3*p)]++
			total++
		}
	}
	want := int(whitePatchShare * float64(total))
	cut, n := 255, 0
	for ; cut > 0 && n+hist[cut] < want; cut-- {
		n += hist[cut]
	}
	var sum [3]float64
	for p, m := range in {
		if i := 3 * p; m != 0 && !clipped(i) && brightness(i) >= cut {
			for c := range sum {
				sum[c] += float64(data[i+c])
			}
		}
	}
	if sum[0] == 0 || sum[1] == 0 || sum[2] == 0 {
		return
	}
	grey := (sum[0] + sum[1] + sum[2]) / 3
	var lut [3][256]uint8
	for c := range lut {
		share := sum[c] / grey
		lo, hi := 1/paperTint, paperTint
		if c == 0 {
			hi = 1
		}
		if c == 2 {
			lo = 1
		}
		g := min(max(share, lo), hi) / share
		g = min(max(g, 1/maxWhiteGain), maxWhiteGain)
		for v := range lut[c] {
			lut[c][v] = uint8(min(255, math.Round(float64(v)*g)))
		}
	}
	for i := 0; i+2 < len(data); i += 3 {
		data[i], data[i+1], data[i+2] = lut[0][data[i]], lut[1][data[i+1]], lut[2][data[i+2]]
	}
}

// TestBalanceWhiteAsDirect checks balanceWhite against the white patch
// rule worked out pixel by pixel, on random images under tinted light
// (warm, cool, none: the table then leaves the image as it is), read on
// masks of every density.
func TestBalanceWhiteAsDirect(t *testing.T) {
	const w, h = 173, 91
	changed := 0
	for seed := range uint64(24) {
		rng := rand.New(rand.NewPCG(seed, 11))
		tint := [3]float64{1, 1, 1}
		if seed%3 != 0 {
			tint = [3]float64{0.7 + 0.6*rng.Float64(), 0.9 + 0.2*rng.Float64(), 0.7 + 0.6*rng.Float64()}
		}
		pix, mask := make([]byte, 3*w*h), make([]byte, w*h)
		for p := range mask {
			v := rng.Float64() * 255
			for c := range 3 {
				pix[3*p+c] = byte(min(255, v*tint[c]+rng.Float64()*8))
			}
			if rng.IntN(8) < int(seed%8)+1 {
				mask[p] = 255
			}
		}
		img, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, slices.Clone(pix))
		if err != nil {
			t.Fatal(err)
		}
		m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC1, mask)
		if err != nil {
			t.Fatal(err)
		}
		if share, ok := paperShares(img, m); ok {
			balanceWhite(img, share)
		}
		got, _ := img.DataPtrUint8()
		want := slices.Clone(pix)
		balanceWhiteDirect(want, mask)
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: the balanced image differs from the rule's", seed)
		}
		if !slices.Equal(want, pix) {
			changed++
		}
		img.Close()
		m.Close()
	}
	if changed == 0 {
		t.Fatal("no image was rebalanced: the comparison says nothing")
	}
}

// TestBalanceWhiteSkipsClipped balances card paper as a strong tungsten
// lamp shows it (red ×1.3, blue ×0.65), its brighter half clipped in red,
// and as daylight shows it: the paper's unclipped shades must come out of
// both of about one colour. With the clipped pixels in the white patch
// (see whiteClipped) the patch reads far less red than the paper is, and
// the balanced paper stayed much redder than in daylight: skin-toned, as
// was every pale part of the mat (three of forty stills under such a lamp
// raised a hand).
func TestBalanceWhiteSkipsClipped(t *testing.T) {
	const w, h = 64, 48
	paper := [3]float64{200, 230, 245} // B, G, R in daylight, at full brightness
	balanced := func(gains [3]float64) (rg, bg float64) {
		pix, mask := make([]byte, 3*w*h), make([]byte, w*h)
		for p := range mask {
			level := 0.5 + 0.6*float64(p)/float64(w*h) // dim to bright paper
			for c := range 3 {
				pix[3*p+c] = byte(min(255, math.Round(paper[c]*level*gains[c])))
			}
			mask[p] = 255
		}
		img, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC3, pix)
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8UC1, mask)
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if share, ok := paperShares(img, m); ok {
			balanceWhite(img, share)
		}
		// A shade of paper at 0.6 of full brightness: clipped under neither light.
		v := img.GetVecbAt(h/6, w/2)
		return float64(v[2]) / float64(v[1]), float64(v[0]) / float64(v[1])
	}
	dayRG, dayBG := balanced([3]float64{1, 1, 1})
	lampRG, lampBG := balanced([3]float64{0.65, 1, 1.3})
	t.Logf("balanced paper: daylight R/G %.3f B/G %.3f, tungsten R/G %.3f B/G %.3f", dayRG, dayBG, lampRG, lampBG)
	if math.Abs(lampRG-dayRG) > 0.05 || math.Abs(lampBG-dayBG) > 0.1 {
		t.Errorf("paper under tungsten balanced to R/G %.3f, B/G %.3f; in daylight %.3f, %.3f", lampRG, lampBG, dayRG, dayBG)
	}
}

// TestSkinOffAsCounted checks skinOff's eight-at-a-time count against a
// plain count of the pixels non-zero in skin and zero in onCards, on masks
// of every byte value (not only 0 and 255) and of lengths not a multiple of
// eight, and without cards.
func TestSkinOffAsCounted(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, tc := range []struct {
		name       string
		rows, cols int
		cards      bool
		zeros      int // in 8: the share of zero bytes
	}{
		{"masks of 0 and 255", 40, 64, true, 4},
		{"any values", 33, 71, true, 4},
		{"mostly zero", 17, 13, true, 7},
		{"mostly set", 9, 9, true, 1},
		{"no cards", 21, 37, false, 4},
	} {
		skin, on := make([]byte, tc.rows*tc.cols), make([]byte, tc.rows*tc.cols)
		for i := range skin {
			for _, m := range []*byte{&skin[i], &on[i]} {
				if rng.IntN(8) >= tc.zeros {
					*m = byte(1 + rng.IntN(255))
					if tc.name == "masks of 0 and 255" {
						*m = 255
					}
				}
			}
		}
		want := 0
		for i := range skin {
			if skin[i] != 0 && (!tc.cards || on[i] == 0) {
				want++
			}
		}
		sm, err := gocv.NewMatFromBytes(tc.rows, tc.cols, gocv.MatTypeCV8U, skin)
		if err != nil {
			t.Fatal(err)
		}
		om, err := gocv.NewMatFromBytes(tc.rows, tc.cols, gocv.MatTypeCV8U, on)
		if err != nil {
			t.Fatal(err)
		}
		if got := skinOff(sm, om, tc.cards); got != want {
			t.Errorf("%s: skinOff counts %d, plainly %d", tc.name, got, want)
		}
		if want == 0 {
			t.Errorf("%s: no skin off the cards: not a test", tc.name)
		}
		sm.Close()
		om.Close()
	}
}

// TestDensestAsSummed checks densest against the 3×3 neighbourhoods summed
// bin by bin (as dominantChroma and dominantChromaticity first summed
// them): the same bin and count, the first of equals, on random
// histograms with many ties, sparse ones, empty ones and ones whose counts
// lie at the edges, over the whole histogram and without its outer bins.
func TestDensestAsSummed(t *testing.T) {
	direct := func(hist *[64][64]int, from, to int) (best, bi, bj int) {
		best = -1
		for i := from; i < to; i++ {
			for j := from; j < to; j++ {
				n := 0
				for di := -1; di <= 1; di++ {
					for dj := -1; dj <= 1; dj++ {
						if i+di >= 0 && i+di < 64 && j+dj >= 0 && j+dj < 64 {
							n += hist[i+di][j+dj]
						}
					}
				}
				if n > best {
					best, bi, bj = n, i, j
				}
			}
		}
		return best, bi, bj
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for k := range 40 {
		var hist [64][64]int
		switch k % 4 {
		case 0: // small counts: many ties
			for i := range hist {
				for j := range hist[i] {
					hist[i][j] = rng.IntN(3)
				}
			}
		case 1: // a few bins
			for range 1 + rng.IntN(6) {
				hist[rng.IntN(64)][rng.IntN(64)] += 1 + rng.IntN(50)
			}
		case 2: // at the edges
			for range 1 + rng.IntN(6) {
				e := []int{0, 1, 62, 63}
				hist[e[rng.IntN(4)]][e[rng.IntN(4)]] += 1 + rng.IntN(50)
			}
		}
		for _, r := range [][2]int{{0, 64}, {1, 63}} {
			n, i, j := densest(&hist, r[0], r[1])
			wn, wi, wj := direct(&hist, r[0], r[1])
			if n != wn || i != wi || j != wj {
				t.Errorf("histogram %d, bins %d..%d: densest gives %d at (%d, %d), summed bin by bin %d at (%d, %d)", k, r[0], r[1]-1, n, i, j, wn, wi, wj)
			}
		}
	}
}

// TestHandsOnceMissed reads scenes whose hands went unseen: an arm lying
// across the cards of two cells, cut by them into pieces of which none
// reached the realm's edge off the cards (see reachesThroughCards); and a
// dark-skinned hand in a dim room, whose chroma is below every skin range
// (see addDarkSkin). The same tables without the hand must stay clear.
func TestHandsOnceMissed(t *testing.T) {
	checkHandScenes(t, []handScene{{2222, 12, "an arm across the cards"}, {1, 24, "a dark hand in a dim room"}})
}

// TestHandOverCardsAtEdge reads scenes whose hand reaches in over the cards
// at the realm's edge, so that most of its skin lies on them and too little
// off them to count alone (see reachesThroughCards). The same tables
// without the hand must stay clear.
func TestHandOverCardsAtEdge(t *testing.T) {
	checkHandScenes(t, []handScene{{6666, 76, "a hand over the edge's cards"}, {6666, 1, "a hand over the edge's cards, little skin off them"}, {6666, 5, "fingers over the edge's cards"}, {4242, 39, "a hand over the edge's cards"}, {1111, 56, "a hand over the edge's cards"}, {77, 58, "a hand over the edge's cards"}})
}

// TestCardsNotFoundAtEdge reads a table whose stacks at the realm's edge
// hold cream cards not found beside those found: their faces make a
// skin-toned blob that reaches the edge, partly off the cards found, the
// size of fingers over the edge's cards. Their printed frames and text cut
// holes in it, which a hand's skin has not: no hand.
func TestCardsNotFoundAtEdge(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	scene, obs := analyzeRendered(t, a, r, synth.SceneSeed(6666, 27), synth.SceneOptions{JPEGQuality: 85})
	if scene.Truth.Occluded {
		t.Fatal("the renderer drew a hand or an object over the realm")
	}
	if obs.Occluded {
		t.Error("cards not found at the realm's edge taken for a hand")
	}
}

// TestHandInSleeve reads a table with an arm reaching in over the realm in
// a long sleeve of nearly the mat's colour: only the hand shows skin, in
// the middle of the realm, and it reaches no edge (see handLoneCards). It
// must be seen. The same table without the arm must stay clear.
func TestHandInSleeve(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	r, err := synth.NewRenderer(cat)
	if err != nil {
		t.Fatal(err)
	}
	seed := synth.SceneSeed(88, 5)
	for _, objects := range []float64{0.5, 0} {
		scene, obs := analyzeRendered(t, a, r, seed, synth.SceneOptions{ObjectChance: objects, JPEGQuality: 85})
		if want := objects > 0; scene.Truth.Occluded != want {
			t.Fatalf("scene %d: the renderer put an arm over the realm: %v, want %v", seed, scene.Truth.Occluded, want)
		}
		if obs.Occluded != scene.Truth.Occluded {
			t.Errorf("a hand in a sleeve (object chance %g): occluded %v, want %v", objects, obs.Occluded, scene.Truth.Occluded)
		}
	}
}

// TestAddDarkSkinAsPlain checks addDarkSkin against its rule read plainly,
// pixel by pixel, on random BGR pixels, dark ones most (some already set
// in the skin mask, which it leaves).
func TestAddDarkSkinAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	const w, h = 256, 256
	img := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	defer img.Close()
	skin := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8U)
	defer skin.Close()
	data, _ := img.DataPtrUint8()
	sk, _ := skin.DataPtrUint8()
	for i := range data {
		data[i] = uint8(rng.IntN([]int{100, 256}[rng.IntN(2)])) // dark ones as often as any
	}
	for i := range sk {
		if rng.IntN(10) == 0 {
			sk[i] = 255
		}
	}
	before := append([]byte(nil), sk...)
	addDarkSkin(img, skin)
	set := 0
	for p := range sk {
		want := before[p]
		b, g, r := float64(data[3*p]), float64(data[3*p+1]), float64(data[3*p+2])
		y, sum := 0.299*r+0.587*g+0.114*b, r+g+b
		if want == 0 && y >= darkSkinMinY && y < darkSkinY && r > g && g > b &&
			r/sum >= darkSkinRedLow && r/sum <= darkSkinRedHigh && b/sum >= darkSkinBlueLow && b/sum <= darkSkinBlueHigh {
			want = 255
			set++
		}
		if sk[p] != want {
			t.Fatalf("pixel %d (BGR %d %d %d): skin %d, plain rule %d", p, data[3*p], data[3*p+1], data[3*p+2], sk[p], want)
		}
	}
	if set == 0 {
		t.Fatal("no pixel set: nothing compared")
	}
}

// TestHandOverFaintCard reads a poster scene in which a hand reaches in
// from the realm's north edge, its fingers on a card (Tide Oracle) that
// only the second look at half resolution finds. The hand test takes what
// lies on a card found for its art: taken so, the fingers left too little
// skin off the cards, and the hand went unseen. The cards that look
// finds, and those found not named partly under them, are left out of the
// hand test (notFaint): the hand must be seen. The same table without the
// hand must stay clear.
func TestHandOverFaintCard(t *testing.T) {
	a, r := posterAnalyzer(t)
	seed := synth.SceneSeed(505, 37)
	for _, hands := range []float64{0, -1} {
		scene, obs := analyzeRendered(t, a, r, seed, synth.SceneOptions{HandChance: hands})
		if want := hands >= 0; scene.Truth.Occluded != want {
			t.Fatalf("scene %d: the renderer drew a hand: %v, want %v", seed, scene.Truth.Occluded, want)
		}
		if obs.Occluded != scene.Truth.Occluded {
			t.Errorf("occluded %v, want %v", obs.Occluded, scene.Truth.Occluded)
		}
	}
}
