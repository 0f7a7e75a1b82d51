package vision

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
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
	dir := filepath.Join("..", "samples", "stills")
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
				base := filepath.Join(dir, fmt.Sprintf("%04d", i))
				truth, err := synth.LoadSceneTruth(base + ".json")
				if err != nil {
					t.Skipf("no sample stills: %v", err)
				}
				frame := gocv.IMRead(base+".jpg", gocv.IMReadColor)
				if frame.Empty() {
					t.Fatalf("cannot read %s.jpg", base)
				}
				tint(t, frame, light.b, light.g, light.r)
				cal, err := calibration.FromCorners(truth.Corners, frame.Cols(), frame.Rows())
				if err != nil {
					t.Fatal(err)
				}
				obs, err := a.Analyze(frame, cal)
				frame.Close()
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case truth.Occluded:
					hands++
					if obs.Occluded {
						hits++
					}
				case obs.Occluded:
					falseAlarms++
					t.Logf("%s.jpg: a hand seen where there is none", base)
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
