package vision

import (
	"fmt"
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
