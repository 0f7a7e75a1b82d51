package vision

import (
	"math"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/calibration"
	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// TestAnalyzerLearnsMatCellSize renders tables on playmats whose cells are
// not the default 100×75 mm and reads them with calibrations that state the
// default, as `tablecam analyze` does when the user says nothing. The cards
// must show the true cell size, and the sites half under units, which are
// searched at the card size the cell size implies, must be named as well as
// when the calibration states the true size. On a default mat nothing may
// be learned. Cells of another aspect (100×64) are learned as well.
func TestAnalyzerLearnsMatCellSize(t *testing.T) {
	cat := devCatalog(t)
	const frames = 3
	for _, cell := range []models.RealmGeometry{{CellWidthMM: 120, CellHeightMM: 90}, {CellWidthMM: 88, CellHeightMM: 66}, {CellWidthMM: 100, CellHeightMM: 64}, models.DefaultRealm()} {
		t.Run(cell.String(), func(t *testing.T) {
			r, err := synth.NewRenderer(cat)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.SetGeometry(cell); err != nil {
				t.Fatal(err)
			}
			stated := newTestAnalyzer(t, cat) // told nothing: the default
			told := newTestAnalyzer(t, cat)   // told the true size
			var coveredTold, coveredStated, covered int
			for i := range frames {
				scene, err := r.Scene(synth.SceneSeed(5555, i), synth.SceneOptions{HandChance: -1, JPEGQuality: 85})
				if err != nil {
					t.Fatal(err)
				}
				if scene.Truth.Geometry != cell {
					t.Fatalf("scene %d: truth geometry %v, want %v", i, scene.Truth.Geometry, cell)
				}
				frame, err := gocv.ImageToMatRGB(scene.Image)
				if err != nil {
					t.Fatal(err)
				}
				cal, err := calibration.FromCorners(scene.Truth.Corners, frame.Cols(), frame.Rows())
				if err != nil {
					t.Fatal(err)
				}
				obsStated, err := stated.Analyze(frame, cal)
				if err != nil {
					t.Fatal(err)
				}
				calTold := *cal
				calTold.Geometry = cell
				obsTold, err := told.Analyze(frame, &calTold)
				frame.Close()
				if err != nil {
					t.Fatal(err)
				}
				if g := told.Geometry(cell); g != cell {
					t.Errorf("scene %d: told %v, the analyzer reads by %v", i, cell, g)
				}
				for _, c := range scene.Truth.Cards {
					if c.Type != models.Site || c.VisibleFraction < 0.4 || c.VisibleFraction > 0.8 {
						continue
					}
					covered++
					if named(obsStated, c) {
						coveredStated++
					}
					if named(obsTold, c) {
						coveredTold++
					}
				}
			}
			// A mat of another aspect has its cards fitted less well until
			// its cell size is known: it may take a frame or two more.
			learned := stated.Geometry(models.DefaultRealm())
			if math.Abs(learned.CellWidthMM/cell.CellWidthMM-1) > 0.02 || math.Abs(learned.CellHeightMM/cell.CellHeightMM-1) > 0.02 {
				t.Errorf("after %d scenes: learned %v mm cells, want %v within 2%%", frames, learned, cell)
			}
			t.Logf("%v: sites 40–80%% visible named %d/%d read as the default, %d/%d told", cell, coveredStated, covered, coveredTold, covered)
			if covered == 0 {
				t.Fatalf("no site 40–80%% visible in %d scenes", frames)
			}
			if coveredStated < coveredTold {
				t.Errorf("sites 40–80%% visible: named %d read as the default, %d when told the cell size", coveredStated, coveredTold)
			}
		})
	}
}

// named reports whether a card of the truth is named in its cell.
func named(obs models.FrameObservation, c synth.CardTruth) bool {
	for _, o := range obs.Cards {
		if o.Name != nil && *o.Name == c.Name && o.Cell != nil && c.Cell != nil && *o.Cell == *c.Cell {
			return true
		}
	}
	return false
}

// TestCardScaleNeedsAgreeingCards checks when the cards of a frame decide
// the mat's scale: enough cards fitted on keypoints, most agreeing, a
// card named without keypoints (a site under a unit, placed at the assumed
// size) never counting.
func TestCardScaleNeedsAgreeingCards(t *testing.T) {
	fit := func(scale float64, inliers int) detection {
		return detection{sim: similarity{A: scale}, inliers: inliers}
	}
	placed := detection{sim: similarity{A: 1}, inliers: 0, score: 0.8}
	tests := []struct {
		name string
		dets []detection
		want float64 // 0: no decision
	}{
		{"three agree", []detection{fit(0.83, 40), fit(0.84, 30), fit(0.82, 50)}, 0.83},
		{"two cards", []detection{fit(0.83, 40), fit(0.84, 30)}, 0},
		{"weak fits", []detection{fit(0.83, 40), fit(0.84, 30), fit(0.82, 10)}, 0},
		{"placed sites do not count", []detection{fit(0.83, 40), fit(0.84, 30), placed, placed, placed}, 0},
		{"one printing off", []detection{fit(1.0, 40), fit(1.01, 30), fit(0.99, 50), fit(1.3, 60)}, 1.005},
		{"no agreement", []detection{fit(0.8, 40), fit(0.9, 30), fit(1.0, 50), fit(1.1, 60)}, 0},
	}
	for _, tt := range tests {
		got, ok := cardScale(tt.dets)
		if ok != (tt.want != 0) || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: cardScale = %v, %v; want %v", tt.name, got, ok, tt.want)
		}
	}
}

// TestMedianAxisScale checks the same rule for cards measured along x and y:
// a card must agree on both axes.
func TestMedianAxisScale(t *testing.T) {
	tests := []struct {
		name   string
		scales []axisScale
		want   axisScale // zero: no decision
	}{
		{"stretched along y", []axisScale{{1, 1.17}, {1.01, 1.18}, {0.99, 1.16}}, axisScale{1, 1.17}},
		{"two cards", []axisScale{{1, 1.17}, {1.01, 1.18}}, axisScale{}},
		{"agree on x only", []axisScale{{1, 1.0}, {1, 1.17}, {1, 0.85}}, axisScale{}},
	}
	for _, tt := range tests {
		got, ok := medianAxisScale(tt.scales)
		if ok != (tt.want != axisScale{}) || math.Abs(got.x-tt.want.x) > 1e-9 || math.Abs(got.y-tt.want.y) > 1e-9 {
			t.Errorf("%s: medianAxisScale = %v, %v; want %v", tt.name, got, ok, tt.want)
		}
	}
}

// TestSizedAsTheirFellows: a fit at a size unlike the frame's other
// cards' is kept only with many inliers making up a good share of its
// matches (a face of few corners of its own, matched to the text and discs
// of a pile of cards, fits at any size with a few dozen inliers among
// hundreds of matches).
func TestSizedAsTheirFellows(t *testing.T) {
	det := func(ref int, scale float64, inliers, matches int) detection {
		return detection{ref: ref, sim: similarity{A: scale}, inliers: inliers, matches: matches}
	}
	cards := []detection{det(1, 1.01, 40, 60), det(2, 0.99, 30, 50), det(3, 1.0, 12, 30)}
	for _, c := range []struct {
		name string
		dets []detection
		kept []int // refs
	}{
		{"all of one size", cards, []int{1, 2, 3}},
		{"a weak fit 20% large", append(cards[:3:3], det(9, 1.2, 23, 650)), []int{1, 2, 3}},
		{"a weak fit 20% small", append(cards[:3:3], det(9, 0.8, 48, 900)), []int{1, 2, 3}},
		{"many inliers but a small share, 12% large", append(cards[:3:3], det(9, 1.12, 60, 900)), []int{1, 2, 3}},
		{"an oversized card in plain view", append(cards[:3:3], det(9, 1.3, 80, 120)), []int{1, 2, 3, 9}},
		{"a weak fit 8% large", append(cards[:3:3], det(9, 1.08, 10, 200)), []int{1, 2, 3, 9}},
		{"named by look, any size", append(cards[:3:3], detection{ref: 9, sim: similarity{A: 0.85}, score: 0.8}), []int{1, 2, 3, 9}},
		{"the view 8% off: the cards' median is the size", []detection{det(1, 0.92, 40, 60), det(2, 0.93, 30, 50), det(3, 0.92, 12, 30), det(9, 1.03, 10, 300)}, []int{1, 2, 3}},
		{"two cards: the reference size is 1", []detection{det(1, 0.8, 10, 300), det(2, 1.0, 30, 50)}, []int{2}},
	} {
		var got []int
		for _, d := range sizedAsTheirFellows(c.dets) {
			got = append(got, d.ref)
		}
		if !slices.Equal(got, c.kept) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.kept)
		}
	}
}
