package vision

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// stillScore counts how well one analysis matches a still's truth.
type stillScore struct {
	visible50, found50   int // cards at least half visible, and found
	full, fullNamed      int // fully visible cards, and named right
	named, rotationRight int // cards named right, and of those turned right
	wrongNames           int
	notes                []string
}

// add adds another frame's counts (not its notes).
func (s *stillScore) add(o stillScore) {
	s.visible50 += o.visible50
	s.found50 += o.found50
	s.full += o.full
	s.fullNamed += o.fullNamed
	s.named += o.named
	s.rotationRight += o.rotationRight
	s.wrongNames += o.wrongNames
}

// scoreStill pairs observed and true cards by nearest centre (same name first).
func scoreStill(obs models.FrameObservation, truth *synth.SceneTruth) stillScore {
	var s stillScore
	used := make([]bool, len(obs.Cards))
	match := make([]int, len(truth.Cards))
	for pass := 0; pass < 2; pass++ {
		for ti, tc := range truth.Cards {
			if pass == 0 {
				match[ti] = -1
			} else if match[ti] >= 0 {
				continue
			}
			limit := 0.35 * math.Min(math.Hypot(tc.Quad[1].X-tc.Quad[0].X, tc.Quad[1].Y-tc.Quad[0].Y), math.Hypot(tc.Quad[2].X-tc.Quad[1].X, tc.Quad[2].Y-tc.Quad[1].Y))
			best, bestD := -1, math.Inf(1)
			for i, oc := range obs.Cards {
				if used[i] || (pass == 0 && oc.NameOr("") != tc.Name) {
					continue
				}
				a, b := tc.Quad.Center(), oc.Quad.Center()
				if d := math.Hypot(a.X-b.X, a.Y-b.Y); d < limit && d < bestD {
					best, bestD = i, d
				}
			}
			if best >= 0 {
				used[best], match[ti] = true, best
			}
		}
	}
	for ti, tc := range truth.Cards {
		best := match[ti]
		named := best >= 0 && obs.Cards[best].NameOr("") == tc.Name
		if best >= 0 && obs.Cards[best].Identified() && !named {
			s.wrongNames++
			s.notes = append(s.notes, fmt.Sprintf("%s read as %s", tc.Name, obs.Cards[best].NameOr("")))
		}
		if tc.VisibleFraction >= 0.5 {
			s.visible50++
			if best >= 0 {
				s.found50++
			}
		}
		if tc.VisibleFraction >= 0.999 {
			s.full++
			if named {
				s.fullNamed++
			}
		}
		if named {
			s.named++
			if int(obs.Cards[best].Rotation) == tc.Rotation {
				s.rotationRight++
			}
		}
	}
	return s
}

// TestAnalyzeStills reads the first sample stills with their true realm
// corners and checks recall, identity and rotation against their truth.
func TestAnalyzeStills(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	frames := 15
	if testing.Short() {
		frames = 5
	}
	var total stillScore
	for i := 0; i < frames; i++ {
		truth, obs := readSampleStill(t, a, i)
		s := scoreStill(obs, truth)
		for _, n := range s.notes {
			t.Logf("still %04d: %s", i, n)
		}
		total.add(s)
	}
	rate := func(a, b int) float64 { return float64(a) / float64(max(b, 1)) }
	t.Logf("%d stills: recall (≥50%% visible) %d/%d, fully visible named %d/%d, rotation %d/%d, wrong names %d",
		frames, total.found50, total.visible50, total.fullNamed, total.full, total.rotationRight, total.named, total.wrongNames)
	if r := rate(total.found50, total.visible50); r < 0.97 {
		t.Errorf("recall of cards at least half visible %.1f%%, want ≥ 97%%", 100*r)
	}
	if r := rate(total.fullNamed, total.full); r < 0.97 {
		t.Errorf("fully visible cards named right %.1f%%, want ≥ 97%%", 100*r)
	}
	if r := rate(total.rotationRight, total.named); r < 0.98 {
		t.Errorf("rotation right on %.1f%% of named cards, want ≥ 98%%", 100*r)
	}
	if total.wrongNames > 0 {
		t.Errorf("%d cards got a wrong name", total.wrongNames)
	}
}

// TestOcclusionStills checks the hand flag on the stills that have a hand
// and on as many without.
func TestOcclusionStills(t *testing.T) {
	cat := devCatalog(t)
	a := newTestAnalyzer(t, cat)
	dir := filepath.Join("..", "samples", "stills")
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(paths) == 0 {
		t.Skip("no sample stills")
	}
	var withHand, without, right, n int
	for _, p := range paths {
		truth, err := synth.LoadSceneTruth(p)
		if err != nil {
			t.Fatal(err)
		}
		if truth.Occluded && withHand >= 6 || !truth.Occluded && without >= 6 {
			continue
		}
		if truth.Occluded {
			withHand++
		} else {
			without++
		}
		obs := analyzeStill(t, a, p[:len(p)-len(".json")]+".jpg", truth.Corners)
		n++
		if obs.Occluded == truth.Occluded {
			right++
		} else {
			t.Logf("%s: occluded %v, truth %v", p, obs.Occluded, truth.Occluded)
		}
		if withHand >= 6 && without >= 6 {
			break
		}
	}
	if withHand == 0 {
		t.Skip("no still with a hand")
	}
	if float64(right) < 0.8*float64(n) {
		t.Errorf("occlusion right on %d of %d stills, want ≥ 80%%", right, n)
	}
}

// analyzeStill reads the still image at path with its truth corners.
// readSampleStill reads bundled still i (samples/stills/NNNN) at its true
// corners, giving its truth and what a saw; it skips the test when the
// stills are missing.
func readSampleStill(t *testing.T, a *Analyzer, i int) (*synth.SceneTruth, models.FrameObservation) {
	t.Helper()
	dir := filepath.Join("..", "samples", "stills")
	truth, err := synth.LoadSceneTruth(filepath.Join(dir, fmt.Sprintf("%04d.json", i)))
	if err != nil {
		t.Skipf("no sample stills: %v", err)
	}
	return truth, analyzeStill(t, a, filepath.Join(dir, fmt.Sprintf("%04d.jpg", i)), truth.Corners)
}

func analyzeStill(t *testing.T, a *Analyzer, path string, corners models.Quad) models.FrameObservation {
	t.Helper()
	frame := gocv.IMRead(path, gocv.IMReadColor)
	defer frame.Close()
	if frame.Empty() {
		t.Fatalf("cannot read still %s", path)
	}
	cal, err := calibration.FromCorners(corners, frame.Cols(), frame.Rows())
	if err != nil {
		t.Fatal(err)
	}
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	return obs
}
