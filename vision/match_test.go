package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// TestUnexplained checks which keypoints the second matching pass looks up
// again, around one card found with a few inliers.
func TestUnexplained(t *testing.T) {
	// A card 126×176 px, axis-aligned, top-left at (100, 100); its inliers
	// lie in its top half only, as when a unit covers its bottom half.
	card := models.Quad{{X: 100, Y: 100}, {X: 226, Y: 100}, {X: 226, Y: 276}, {X: 100, Y: 276}}
	inliers := []keypoint{{130, 130}, {160, 135}, {190, 140}, {140, 160}, {200, 165}, {106, 222}}
	tests := []struct {
		name      string
		p         keypoint
		explained bool
	}{
		{"next to an inlier", keypoint{133, 133}, true},
		{"on the card's outline", keypoint{227, 200}, true},
		{"just inside the outline", keypoint{220, 250}, true},
		{"just outside the outline", keypoint{228, 150}, true},
		{"outside, beyond the fit's error", keypoint{233, 150}, false},
		{"inside, a few cells from an inlier", keypoint{160, 185}, true},
		{"inside, far from every inlier (a card on top)", keypoint{163, 250}, false},
		{"outside, away from the card", keypoint{300, 150}, false},
		{"outside, away from the inliers", keypoint{80, 130}, false},
		{"outside beyond the edge band, next to an inlier (a card under it)", keypoint{90, 224}, false},
	}
	var f features
	f.Points = append(f.Points, inliers...)
	for _, tc := range tests {
		f.Points = append(f.Points, tc.p)
	}
	used := make([]int, len(inliers))
	for i := range used {
		used[i] = i
	}
	rest := map[int]bool{}
	for _, i := range unexplained(f, []detection{{quad: card, used: used}}) {
		rest[i] = true
	}
	for i := range inliers {
		if rest[i] {
			t.Errorf("inlier %d is left unexplained", i)
		}
	}
	for k, tc := range tests {
		if got := !rest[len(inliers)+k]; got != tc.explained {
			t.Errorf("%s %v: explained %v, want %v", tc.name, tc.p, got, tc.explained)
		}
	}
	if n := len(unexplained(f, nil)); n != len(f.Points) {
		t.Errorf("with no card found, %d of %d keypoints are left, want all", n, len(f.Points))
	}
}

func TestInsideDistance(t *testing.T) {
	square := models.Quad{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}
	reversed := models.Quad{square[3], square[2], square[1], square[0]}
	tests := []struct {
		p    models.Point
		want float64
	}{
		{models.Point{X: 5, Y: 5}, 5},
		{models.Point{X: 2, Y: 5}, 2},
		{models.Point{X: 10, Y: 5}, 0},
		{models.Point{X: 13, Y: 5}, -3},
		{models.Point{X: 5, Y: -4}, -4},
	}
	for _, q := range []models.Quad{square, reversed} {
		for _, tc := range tests {
			if got := insideDistance(tc.p, q); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("insideDistance(%v, %v) = %g, want %g", tc.p, q, got, tc.want)
			}
		}
	}
}

// TestRansacFewPairs fits a card seen by few keypoints, most of them right:
// with so few pairs every pair is tried, so the fit does not depend on the
// random draw.
func TestRansacFewPairs(t *testing.T) {
	truth := similarity{A: math.Cos(0.3), B: math.Sin(0.3), Tx: 400, Ty: 250}
	var pairs []pointPair
	for _, r := range [][2]float64{{10, 20}, {100, 30}, {60, 150}, {20, 160}, {110, 170}, {70, 80}, {40, 60}, {90, 120}} {
		x, y := truth.apply(r[0], r[1])
		pairs = append(pairs, pointPair{r[0], r[1], x, y})
	}
	// Three wrong matches.
	pairs = append(pairs, pointPair{50, 50, 900, 40}, pointPair{80, 10, 20, 600}, pointPair{30, 90, 410, 255})
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	for seed := uint64(0); seed < 20; seed++ {
		sim, flags, n := ransacSimilarity(pairs, params, rand.New(rand.NewPCG(seed, 1)))
		if n != 8 {
			t.Fatalf("seed %d: %d inliers, want the 8 right matches", seed, n)
		}
		for i, in := range flags {
			if in != (i < 8) {
				t.Errorf("seed %d: pair %d inlier %v", seed, i, in)
			}
		}
		if math.Abs(sim.angle()-0.3*180/math.Pi) > 0.1 || math.Abs(sim.scale()-1) > 0.001 {
			t.Errorf("seed %d: fitted turn %.2f° scale %.3f, want %.2f° and 1", seed, sim.angle(), sim.scale(), 0.3*180/math.Pi)
		}
	}
}

// TestVerify places a catalog face on a blank top-down image at a known
// spot and checks the evidence verify finds there: most checked keypoints
// agree with the right face, few with another face of the same kind fitted
// at the same spot (the frame and text box every card shares do not count).
func TestVerify(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	x := a.index
	right := -1
	wrong := -1
	for i, r := range x.refs {
		if r.Kind != models.KindStandard {
			continue
		}
		if right < 0 {
			right = i
		} else if wrong < 0 {
			wrong = i
		}
	}
	if wrong < 0 {
		t.Skip("catalog has fewer than two standard cards")
	}
	face, err := uprightFace(x.refs[right].card, a.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 400, 300, gocv.MatTypeCV8U)
	defer canvas.Close()
	const ox, oy = 70, 90
	roi := canvas.Region(image.Rect(ox, oy, ox+face.Cols(), oy+face.Rows()))
	face.CopyTo(&roi)
	roi.Close()
	f, err := a.det.detect(canvas)
	if err != nil {
		t.Fatal(err)
	}
	f.describeAll()
	grid := newPointGrid(f.Points, frameGridCell)
	evidence := func(ref int) (agree, checked int) {
		r := &x.refs[ref]
		d := detection{ref: ref, sim: similarity{A: 1, Tx: ox, Ty: oy}}
		w, h := float64(r.W), float64(r.H)
		d.quad = models.Quad{{X: ox, Y: oy}, {X: ox + w, Y: oy}, {X: ox + w, Y: oy + h}, {X: ox, Y: oy + h}}
		taken := make([]bool, len(f.Points))
		x.verify(&d, f, grid, taken)
		n := 0
		for _, tk := range taken {
			if tk {
				n++
			}
		}
		if n != d.inliers {
			t.Errorf("%s: %d keypoints taken for %d inliers", r.Slug, n, d.inliers)
		}
		return d.inliers, d.matches
	}
	agree, checked := evidence(right)
	t.Logf("right face %s: %d of %d checked keypoints agree", x.refs[right].Slug, agree, checked)
	if agree < 40 || float64(agree) < 0.35*float64(checked) {
		t.Errorf("right face: %d of %d checked keypoints agree, want ≥ 40 and ≥ 35%%", agree, checked)
	}
	wa, wc := evidence(wrong)
	t.Logf("wrong face %s: %d of %d checked keypoints agree", x.refs[wrong].Slug, wa, wc)
	if float64(wa) > 0.15*float64(max(wc, 1)) || wa >= minInliers {
		t.Errorf("wrong face: %d of %d checked keypoints agree, want fewer than %d and ≤ 15%%", wa, wc, minInliers)
	}
}

// TestLookupAgainIsFullLookup checks that the second matching pass, which
// goes on from the first pass's lookups for the keypoints it looked up,
// finds for every keypoint what looking it up in all the tables afresh
// finds: on a bundled still, for the keypoints the cards found leave
// unexplained and for every keypoint.
func TestLookupAgainIsFullLookup(t *testing.T) {
	gray, _ := stillTopGray(t, "0005")
	defer gray.Close()
	a := newTestAnalyzer(t, devCatalog(t))
	x := a.index
	f, err := a.det.detect(gray)
	if err != nil {
		t.Fatal(err)
	}
	sample := quickSample(f)
	f.describe(sample)
	quick := x.lookup(f, sample, quickTables)
	taken := make([]bool, len(f.Points))
	dets := x.fitCards(f, x.groupMatches(sample, quick), newPointGrid(f.Points, frameGridCell), taken, rand.New(rand.NewPCG(1, 7)))
	all := make([]int, len(f.Points))
	for i := range all {
		all[i] = i
	}
	f.describeAll()
	for _, tc := range []struct {
		name  string
		which []int
	}{{"unexplained", unexplained(f, dets)}, {"all", all}} {
		got, want := x.lookupAgain(f, tc.which, quick), x.lookup(f, tc.which, len(x.lsh.tables))
		again, found := 0, 0
		for q, i := range tc.which {
			if got[q] != want[q] {
				t.Fatalf("%s: keypoint %d: found %+v going on from the first pass, %+v afresh", tc.name, i, got[q], want[q])
			}
			if i%quickStride == 0 {
				again++
			}
			if want[q].id >= 0 {
				found++
			}
		}
		// Not a test unless many go on from the first pass and find something.
		if again < 500 || found < len(tc.which)/2 {
			t.Fatalf("%s: %d of %d keypoints go on from the first pass, %d find a neighbour: not a test", tc.name, again, len(tc.which), found)
		}
	}
}
