package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// cropQuad warps a card's outline in the frame to an upright picture,
// starting at the corner nearest the image's top-left (so the crop does not
// give the card's turn away).
func cropQuad(frame gocv.Mat, q models.Quad) gocv.Mat {
	start, best := 0, math.Inf(1)
	for i, p := range q {
		if d := p.X + p.Y; d < best {
			start, best = i, d
		}
	}
	var src [4]models.Point
	for i := range src {
		src[i] = q[(start+i)%4]
	}
	w := math.Hypot(src[1].X-src[0].X, src[1].Y-src[0].Y)
	h := math.Hypot(src[3].X-src[0].X, src[3].Y-src[0].Y)
	hm, err := models.NewHomography([4]models.Point{{X: 0, Y: 0}, {X: w, Y: 0}, {X: w, Y: h}, {X: 0, Y: h}}, src)
	if err != nil {
		return gocv.NewMat()
	}
	m := homographyMat(hm)
	defer m.Close()
	out := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(frame, &out, m, image.Pt(int(w), int(h)), gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
	return out
}

// identifyStillCrops identifies a crop of each fully visible card of the
// first n sample stills and hands each result to check.
func identifyStillCrops(t *testing.T, a *Analyzer, n int, check func(still int, card synth.CardTruth, got models.CardObservation, found bool)) {
	t.Helper()
	dir := filepath.Join("..", "samples", "stills")
	for i := 0; i < n; i++ {
		truth, err := synth.LoadSceneTruth(filepath.Join(dir, fmt.Sprintf("%04d.json", i)))
		if err != nil {
			t.Skipf("no sample stills: %v", err)
		}
		frame := gocv.IMRead(filepath.Join(dir, fmt.Sprintf("%04d.jpg", i)), gocv.IMReadColor)
		for _, c := range truth.Cards {
			if c.VisibleFraction < 0.999 {
				continue
			}
			crop := cropQuad(frame, c.Quad)
			got, found := a.Identify(crop)
			crop.Close()
			check(i, c, got, found)
		}
		frame.Close()
	}
}

func TestIdentifyStillCrops(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	n, ok := 0, 0
	identifyStillCrops(t, a, 15, func(i int, c synth.CardTruth, got models.CardObservation, found bool) {
		n++
		if found && got.NameOr("") == c.Name && int(got.Rotation) == c.Rotation {
			ok++
		} else {
			t.Logf("%04d %s (rotation %d): got %s rotation %d", i, c.Name, c.Rotation, got.NameOr("unknown"), got.Rotation)
		}
	})
	if n == 0 {
		t.Fatal("no fully visible cards in the stills")
	}
	if rate := float64(ok) / float64(n); rate < 0.97 {
		t.Errorf("identified %d of %d crops with their turn (%.1f%%), want ≥ 97%%", ok, n, 100*rate)
	}
}

// TestIdentifyUnknownCards reads crops of the stills' cards against a
// catalog holding only every other sample card: the cards left out must
// come back unknown, never under another card's name, and those kept must
// still be named.
func TestIdentifyUnknownCards(t *testing.T) {
	full := devCatalog(t)
	kept := map[string]bool{}
	var cards []*models.Card
	for i, c := range full.Cards() {
		if i%2 == 0 {
			cards = append(cards, c)
			kept[c.Name] = true
		}
	}
	a := newTestAnalyzer(t, models.NewCatalog(cards))
	var known, named, unknown int
	identifyStillCrops(t, a, 12, func(i int, c synth.CardTruth, got models.CardObservation, found bool) {
		switch {
		case !kept[c.Name]:
			unknown++
			if found {
				t.Errorf("%04d: %s is in no catalog but was read as %s (confidence %.2f)", i, c.Name, got.NameOr("?"), got.Confidence)
			}
		case found && got.NameOr("") == c.Name:
			known++
			named++
		default:
			known++
			t.Logf("%04d %s: got %s", i, c.Name, got.NameOr("unknown"))
		}
	})
	if unknown == 0 || known == 0 {
		t.Fatalf("crops of %d catalog cards and %d unknown ones: the split left one side empty", known, unknown)
	}
	if rate := float64(named) / float64(known); rate < 0.95 {
		t.Errorf("named %d of %d catalog cards (%.1f%%), want ≥ 95%%", named, known, 100*rate)
	}
}
