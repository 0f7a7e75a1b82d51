package vision

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"

	"gocv.io/x/gocv"
)

// TestAnalyzeUnderWarmLamp reads stills as a warm lamp shows them to a
// camera balanced for daylight (red ×1.25, blue ×0.7): every card's
// channel ratios to its face's lie about 0.58 apart in log, past
// toneMaxSpread. Taking the frame's cast, read off the cards named firmly,
// out of the comparison, the cards named by their look or by a weak fit
// are kept as in the untinted stills; without it, 10 of these stills'
// cards at least half visible were lost or left unnamed (two fully visible
// avatars among them). The cast read must be the lamp's.
func TestAnalyzeUnderWarmLamp(t *testing.T) {
	const b, r = 0.7, 1.25
	a := newTestAnalyzer(t, devCatalog(t))
	var plain, warm stillScore
	for _, i := range []int{16, 21, 28, 31, 33, 41, 49} {
		obs, truth := analyzeAlteredStill(t, a, i, func(gocv.Mat) {})
		plain.add(scoreStill(obs, truth))
		before := a.cast
		obs, truth = analyzeAlteredStill(t, a, i, func(frame gocv.Mat) { tint(t, frame, b, 1, r) })
		s := scoreStill(obs, truth)
		for _, n := range s.notes {
			t.Logf("still %04d: %s", i, n)
		}
		warm.add(s)
		// The lamp's gains less their mean, on top of the still's own
		// slight cast; the red channel reads up to 0.1 low, the brightest
		// paper clipped in it.
		mean := (math.Log(b) + math.Log(r)) / 3
		want := lightCast{math.Log(b) - mean, -mean, math.Log(r) - mean}
		for c := range want {
			if got := a.cast[c] - before[c]; math.Abs(got-want[c]) > 0.1 {
				t.Errorf("still %04d: cast read in channel %d (BGR) %.3f more than untinted, want %.3f", i, c, got, want[c])
			}
		}
	}
	t.Logf("untinted: %d of %d cards ≥50%% visible found, %d named; under the lamp %d found, %d named", plain.found50, plain.visible50, plain.named, warm.found50, warm.named)
	if warm.found50 < plain.found50-1 {
		t.Errorf("under a warm lamp %d cards at least half visible found, untinted %d", warm.found50, plain.found50)
	}
	if warm.named < plain.named-1 || warm.fullNamed < plain.fullNamed {
		t.Errorf("under a warm lamp %d cards named (%d of %d fully visible), untinted %d (%d)", warm.named, warm.fullNamed, warm.full, plain.named, plain.fullNamed)
	}
	if warm.wrongNames > 0 {
		t.Errorf("%d wrong names under a warm lamp", warm.wrongNames)
	}
}

// TestHandsUnderWarmLamp: under the same warm lamp the wooden table and the
// cards' warm art turn skin-toned, beyond what balanceWhite's paper rule
// takes out (paper may be cream); taken out as the cast the cards show,
// the stills without a hand stay clear (10 and 23 were flagged), and the
// hands of 31 and 37 are still seen.
func TestHandsUnderWarmLamp(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	for _, i := range []int{10, 23, 31, 37} {
		obs, truth := analyzeAlteredStill(t, a, i, func(frame gocv.Mat) { tint(t, frame, 0.7, 1, 1.25) })
		if obs.Occluded != truth.Occluded {
			t.Errorf("still %04d under a warm lamp: occluded %v, truth %v", i, obs.Occluded, truth.Occluded)
		}
	}
}

// TestKthSmallest holds kthSmallest to a sort, on runs with ties, sorted
// and reversed runs, and noise, at every k.
func TestKthSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runs := map[string][]float64{
		"one":      {0.5},
		"two":      {2, 1},
		"ties":     {1, 1, 1, 0, 0, 2, 2, 1, 1},
		"sorted":   {0, 1, 2, 3, 4, 5, 6, 7},
		"reversed": {9, 8, 7, 6, 5, 4, 3, 2, 1, 0},
	}
	noise := make([]float64, 301)
	for i := range noise {
		noise[i] = math.Round(rng.NormFloat64()*8) / 4 // many ties
	}
	runs["noise"] = noise
	for name, run := range runs {
		want := slices.Clone(run)
		slices.Sort(want)
		for k := range run {
			if got := kthSmallest(slices.Clone(run), k); got != want[k] {
				t.Errorf("%s: %d-th smallest %g, want %g", name, k, got, want[k])
			}
		}
	}
}

// TestCastSeenOnPaper: the hand test takes out a strong cast only when
// the cards' paper shows it too; paper within its tint (cream), a cast
// within paper's tint, or paper tinted across the cast leaves the image be.
func TestCastSeenOnPaper(t *testing.T) {
	warm := lightCast{-0.3, 0.05, 0.25}
	shares := func(b, g, r float64) [3]float64 {
		m := (b + g + r) / 3
		return [3]float64{b / m, g / m, r / m}
	}
	for _, tc := range []struct {
		name  string
		cast  lightCast
		paper [3]float64
		want  bool
	}{
		{"warm lamp, warm paper", warm, shares(0.7, 1, 1.25), true},
		{"warm lamp, paper clipped to a lesser tint", warm, shares(0.8, 1, 1.1), true},
		{"warm faces, white paper", warm, shares(1, 1, 1), false},
		{"warm faces, cream paper", warm, shares(0.92, 1, 1.05), false},
		{"warm faces, cool paper", warm, shares(1.2, 1, 0.8), false},
		{"cool lamp, cool paper", lightCast{0.25, 0.02, -0.27}, shares(1.3, 1, 0.75), true},
		{"a tint within paper's", lightCast{-0.1, 0.02, 0.08}, shares(0.7, 1, 1.25), false},
	} {
		if got := tc.cast.seenOnPaper(tc.paper); got != tc.want {
			t.Errorf("%s: seen on paper %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestHandsWithWarmScans: a catalog scanned under a warm lamp (red ×1.25,
// blue ×0.7) makes untinted frames read a cool cast off the cards' faces,
// but their paper is white: the hand test must leave the frame's colours
// be and see what it sees with the catalog as scanned (warmed, still 0001
// was taken for a hand). The colour check takes the cast out, so the
// cards are named as well.
func TestHandsWithWarmScans(t *testing.T) {
	cat := devCatalog(t)
	dir := t.TempDir()
	var cards []*models.Card
	for _, c := range cat.Cards() {
		face := gocv.IMRead(c.Image, gocv.IMReadColor)
		if face.Empty() {
			t.Fatalf("cannot read %s", c.Image)
		}
		tint(t, face, 0.7, 1, 1.25)
		cc := *c
		cc.Image = filepath.Join(dir, filepath.Base(c.Image))
		if !gocv.IMWrite(cc.Image, face) {
			t.Fatalf("cannot write %s", cc.Image)
		}
		face.Close()
		cards = append(cards, &cc)
	}
	scanned := newTestAnalyzer(t, cat)
	warmScans := newTestAnalyzer(t, models.NewCatalog(cards))
	for _, i := range []int{1, 10, 23, 31, 37} {
		want, truth := analyzeAlteredStill(t, scanned, i, func(gocv.Mat) {})
		got, _ := analyzeAlteredStill(t, warmScans, i, func(gocv.Mat) {})
		if got.Occluded != want.Occluded {
			t.Errorf("still %04d with warm scans: occluded %v, with the catalog as scanned %v (truth %v)", i, got.Occluded, want.Occluded, truth.Occluded)
		}
		if ws, gs := scoreStill(want, truth), scoreStill(got, truth); gs.named < ws.named-1 || gs.wrongNames > 0 {
			t.Errorf("still %04d with warm scans: %d cards named (%d wrong), with the catalog as scanned %d", i, gs.named, gs.wrongNames, ws.named)
		}
		if warmScans.cast[2] > -0.1 {
			t.Errorf("still %04d with warm scans: cast %.3f read in red, want it cool", i, warmScans.cast[2])
		}
	}
}
