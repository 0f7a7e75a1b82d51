package vision

import (
	"image"
	"math"
	"math/rand/v2"
	"slices"
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
	for _, i := range unexplained(f, []detection{{quad: card, used: used}}, newPointGrid(f.Points, frameGridCell)) {
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
	if n := len(unexplained(f, nil, newPointGrid(f.Points, frameGridCell))); n != len(f.Points) {
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
	const ox, oy = 70, 90
	f := faceOnCanvas(t, a, x.refs[right].card, ox, oy)
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
	f.describe(quickSample(f))
	sample, at := quickLookups(f)
	quick := x.lookup(f, sample, quickTables)
	taken := make([]bool, len(f.Points))
	grid := newPointGrid(f.Points, frameGridCell)
	dets := x.fitCards(f, x.groupMatches(sample, quick), grid, taken, rand.New(rand.NewPCG(1, 7)))
	all := make([]int, len(f.Points))
	for i := range all {
		all[i] = i
	}
	f.describeAll()
	for _, tc := range []struct {
		name  string
		which []int
	}{{"unexplained", unexplained(f, dets, grid)}, {"all", all}} {
		got, want := x.lookupAgain(f, tc.which, quick, at), x.lookup(f, tc.which, len(x.lsh.tables))
		again, found := 0, 0
		for q, i := range tc.which {
			if got[q] != want[q] {
				t.Fatalf("%s: keypoint %d: found %+v going on from the first pass, %+v afresh", tc.name, i, got[q], want[q])
			}
			if at[i] >= 0 {
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

// TestWeakFitConfirmed checks that a card whose face only a few hash-table
// matches fit (a token seen blurred or at a low resolution) is accepted
// when the keypoints in its outline agree with the face, and not when they
// do not: a token is drawn on a blank top-down image, and fitCards is given
// six right matches to it among wrong ones, too few inliers alone.
func TestWeakFitConfirmed(t *testing.T) {
	weakFitConfirmed(t, newTestAnalyzer(t, devCatalog(t)), 0)
}

// TestWeakFitConfirmedAtLowScale is TestWeakFitConfirmed in a frame read at
// lowReadScale (a camera far from the table), over the catalog's tokens,
// the token blurred as such a camera shows it: its face has some 40
// keypoints of its own at that scale, and 15 of them agree, fewer than
// weakAgree, which such a fit once had to reach all the same (see
// confirmed).
func TestWeakFitConfirmedAtLowScale(t *testing.T) {
	full := devCatalog(t)
	others := map[string]bool{}
	for _, c := range full.Cards() {
		if !c.Token {
			others[c.Slug] = true
		}
	}
	a, err := NewAnalyzer(catalogWithout(full, others), Options{CacheDir: t.TempDir(), NoReuse: true, PxPerMM: lowReadScale})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	weakFitConfirmed(t, a, lowScaleBlur)
}

// lowScaleBlur is how much TestWeakFitConfirmedAtLowScale blurs the token
// (sigma, top-down pixels at lowReadScale): as soft as a far camera's
// cards, enough that fewer than weakAgree of its keypoints agree with its
// face (sharp, 39 do).
const lowScaleBlur = 1.5

// weakFitConfirmed is TestWeakFitConfirmed with the analyzer a, the token
// blurred by a Gaussian of sigma pixels (none when 0).
func weakFitConfirmed(t *testing.T, a *Analyzer, sigma float64) {
	t.Helper()
	x := a.index
	token, other := -1, -1
	for i, r := range x.refs {
		if r.Kind != models.KindToken || x.peers[i] < minWeakPeers {
			continue
		}
		if token < 0 {
			token = i
		} else if other < 0 {
			other = i
		}
	}
	if other < 0 {
		t.Skipf("catalog has fewer than two tokens with %d other tokens each", minWeakPeers)
	}
	const ox, oy = 80, 110
	f := blurredFaceOnCanvas(t, a, x.refs[token].card, ox, oy, sigma)
	grid := newPointGrid(f.Points, frameGridCell)
	// Six right matches, spread over the face: frame keypoints and the
	// face's keypoints at the same place with a close descriptor, each the
	// farthest from those chosen before.
	ref := &x.refs[token]
	var cands []keyMatch
	for i, p := range f.Points {
		for j, q := range ref.Feat.Points {
			if math.Hypot(float64(q.X)+ox-float64(p.X), float64(q.Y)+oy-float64(p.Y)) < 1.5 && hamming(&f.Descs[i], &ref.Feat.Descs[j]) <= maxHamming/2 {
				cands = append(cands, keyMatch{frame: i, refPoint: j})
				break
			}
		}
	}
	if len(cands) < 20 {
		t.Skipf("only %d keypoints of %s match its face: not a test", len(cands), ref.Slug)
	}
	right := spreadMatches(f, cands, 6)
	// Wrong matches: face keypoints paired with frame keypoints elsewhere.
	rng := rand.New(rand.NewPCG(5, 5))
	matches := append([]keyMatch(nil), right...)
	for len(matches) < 2*len(right) {
		matches = append(matches, keyMatch{frame: rng.IntN(len(f.Points)), refPoint: rng.IntN(len(ref.Feat.Points))})
	}
	fit := func(r int, ms []keyMatch) []detection {
		return x.fitCards(f, map[int][]keyMatch{r: ms}, grid, make([]bool, len(f.Points)), rand.New(rand.NewPCG(1, 7)))
	}
	dets := fit(token, matches)
	if len(dets) != 1 {
		t.Fatalf("%s with %d right matches among %d: %d cards found, want 1", ref.Slug, len(right), len(matches), len(dets))
	}
	if c := dets[0].quad.Center(); math.Hypot(c.X-ox-float64(ref.W)/2, c.Y-oy-float64(ref.H)/2) > 3 {
		t.Errorf("%s found at %v, want its centre at (%d, %d) + half its size", ref.Slug, c, ox, oy)
	}
	t.Logf("%s: %d inliers of %d checked", ref.Slug, dets[0].inliers, dets[0].matches)
	// Another token's face fitted at the same place, by as many of its
	// keypoints paired with frame keypoints where the fit puts them, spread
	// as far: the fit is as good, but the keypoints in its outline do not
	// bear it out.
	o := &x.refs[other]
	var onOther []keyMatch
	for j, q := range o.Feat.Points {
		for i, p := range f.Points {
			if math.Hypot(float64(q.X)+ox-float64(p.X), float64(q.Y)+oy-float64(p.Y)) < 1.5 {
				onOther = append(onOther, keyMatch{frame: i, refPoint: j})
				break
			}
		}
	}
	wrong := spreadMatches(f, onOther, len(right))
	for len(wrong) < len(matches) {
		wrong = append(wrong, keyMatch{frame: rng.IntN(len(f.Points)), refPoint: rng.IntN(len(o.Feat.Points))})
	}
	var pairs []pointPair
	for _, m := range wrong {
		q, p := o.Feat.Points[m.refPoint], f.Points[m.frame]
		pairs = append(pairs, pointPair{float64(q.X), float64(q.Y), float64(p.X), float64(p.Y)})
	}
	params := ransacParams{threshold: inlierThreshold, minScale: 0.75, maxScale: 1.33, iterations: ransacRounds}
	if _, _, n := ransacSimilarity(pairs, params, rand.New(rand.NewPCG(1, 7))); n < minWeakInliers {
		t.Fatalf("%s: only %d of the wrong matches fit: not a test", o.Slug, n)
	}
	if dets := fit(other, wrong); len(dets) != 0 {
		t.Errorf("%s fitted where %s lies: %d inliers of %d checked", o.Slug, ref.Slug, dets[0].inliers, dets[0].matches)
	}
}

// spreadMatches picks n of the matches, each the farthest (by its frame keypoint,
// of the features f) from those picked before.
func spreadMatches(f features, ms []keyMatch, n int) []keyMatch {
	if len(ms) == 0 {
		return nil
	}
	out := []keyMatch{ms[0]}
	for len(out) < min(n, len(ms)) {
		best, far := 0, -1.0
		for k, c := range ms {
			near := math.Inf(1)
			for _, r := range out {
				p, q := f.Points[c.frame], f.Points[r.frame]
				near = math.Min(near, math.Hypot(float64(p.X-q.X), float64(p.Y-q.Y)))
			}
			if near > far {
				best, far = k, near
			}
		}
		out = append(out, ms[best])
	}
	return out
}

// faceOnCanvas draws a card's upright face on a plain grey 300×400 canvas
// with its top-left at (ox, oy), and gives the canvas's keypoints, all
// described.
func faceOnCanvas(t *testing.T, a *Analyzer, card *models.Card, ox, oy int) features {
	t.Helper()
	return blurredFaceOnCanvas(t, a, card, ox, oy, 0)
}

// blurredFaceOnCanvas is faceOnCanvas with the canvas blurred (a Gaussian
// of the given sigma, in pixels; none when 0) before its keypoints are
// found, as a camera out of focus or far away shows a card.
func blurredFaceOnCanvas(t *testing.T, a *Analyzer, card *models.Card, ox, oy int, sigma float64) features {
	t.Helper()
	face, _, err := uprightFace(card, a.opts)
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	canvas := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 90, 90, 0), 400, 300, gocv.MatTypeCV8U)
	defer canvas.Close()
	roi := canvas.Region(image.Rect(ox, oy, ox+face.Cols(), oy+face.Rows()))
	face.CopyTo(&roi)
	roi.Close()
	if sigma > 0 {
		gocv.GaussianBlur(canvas, &canvas, image.Point{}, sigma, sigma, gocv.BorderReflect101)
	}
	f, err := a.det.detect(canvas)
	if err != nil {
		t.Fatal(err)
	}
	f.describeAll()
	return f
}

func TestQuickLookups(t *testing.T) {
	c := float32(quickCell)
	for _, tc := range []struct {
		name   string
		points []keypoint
		want   []int
	}{
		{"none", nil, nil},
		{"one square, first described kept", []keypoint{{1, 1}, {c - 1, 2}, {3, c - 1}}, []int{0}},
		{"only described keypoints", []keypoint{{1, 1}, {c + 1, 1}, {c + 2, 2}, {2*c + 1, 2}, {3*c + 1, 3}}, []int{0, 2, 4}},
		{"rows below", []keypoint{{1, 1}, {1, c + 1}, {2, c + 2}, {c + 1, 2*c + 5}, {c + 2, 2*c + 6}}, []int{0, 2, 4}},
		// The next pyramid level starts from the top again: its keypoints
		// get squares of their own, even the ones the level before took.
		{"a second level", []keypoint{{1, 1}, {5, 5}, {2, 2}, {3, 3}, {4, 4}, {1, c + 1}, {1, c + 2}}, []int{0, 2, 6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sample, at := quickLookups(features{Points: tc.points})
			if !slices.Equal(sample, tc.want) {
				t.Fatalf("sample %v, want %v", sample, tc.want)
			}
			for i := range tc.points {
				if want := int32(slices.Index(sample, i)); at[i] != want {
					t.Errorf("at[%d] = %d, want %d", i, at[i], want)
				}
			}
		})
	}
}

// TestQuickLookupsOnStill checks the first pass's lookups on a still's
// keypoints: every square of the image that holds described keypoints of
// a level gives exactly one, and the lookups are a part of those described.
func TestQuickLookupsOnStill(t *testing.T) {
	gray, _ := stillTopGray(t, "0005")
	defer gray.Close()
	a := newTestAnalyzer(t, devCatalog(t))
	f, err := a.det.detect(gray)
	if err != nil {
		t.Fatal(err)
	}
	described := quickSample(f)
	sample, _ := quickLookups(f)
	type square struct{ level, x, y int }
	occupied, looked := map[square]bool{}, map[square]int{}
	level := 0
	for i, p := range f.Points {
		if i > 0 && p.Y < f.Points[i-1].Y {
			level++
		}
		s := square{level, int(p.X) / quickCell, int(p.Y) / quickCell}
		if slices.Contains(described, i) {
			occupied[s] = true
		}
		if slices.Contains(sample, i) {
			if !slices.Contains(described, i) {
				t.Fatalf("keypoint %d is looked up but not described", i)
			}
			looked[s]++
		}
	}
	if level != orbLevels-1 {
		t.Errorf("found %d pyramid levels in the keypoints' order, want %d", level+1, orbLevels)
	}
	for s := range occupied {
		if looked[s] != 1 {
			t.Errorf("square %+v: %d keypoints looked up, want 1", s, looked[s])
		}
	}
	if len(sample) < len(described)/4 || len(sample) >= len(described) {
		t.Errorf("looked up %d of %d described keypoints: want a part, at least a quarter", len(sample), len(described))
	}
	t.Logf("%d keypoints, %d described, %d looked up", len(f.Points), len(described), len(sample))
}

// insideBySigns is inside as first written: the sign of each side's cross
// product, the first one's for all.
func insideBySigns(p models.Point, q models.Quad) bool {
	sign := 0
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		s := 1
		if (b.X-a.X)*(p.Y-a.Y)-(b.Y-a.Y)*(p.X-a.X) < 0 {
			s = -1
		}
		if sign == 0 {
			sign = s
		} else if s != sign {
			return false
		}
	}
	return true
}

// verifyPlain is verify as first written, the reference for its faster
// form: pointGrid's cell lookups and insideBySigns' test of the quad per point.
func (x *catalogIndex) verifyPlain(d *detection, f features, frame *pointGrid, taken []bool) {
	ref := &x.refs[d.ref]
	faceGrid := x.faceSpots[d.ref]
	s2 := d.sim.A*d.sim.A + d.sim.B*d.sim.B
	if s2 < 1e-9 || faceGrid == nil {
		return
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range d.quad {
		minX, maxX = math.Min(minX, p.X), math.Max(maxX, p.X)
		minY, maxY = math.Min(minY, p.Y), math.Max(maxY, p.Y)
	}
	agree, checked := 0, 0
	r := inlierThreshold / math.Sqrt(s2)
	for i := range f.Points {
		if taken[i] || !f.described(i) {
			continue
		}
		p := f.Points[i]
		fx, fy := float64(p.X), float64(p.Y)
		if fx < minX || fx > maxX || fy < minY || fy > maxY || !insideBySigns(models.Point{X: fx, Y: fy}, d.quad) {
			continue
		}
		dx, dy := fx-d.sim.Tx, fy-d.sim.Ty
		rx, ry := (d.sim.A*dx+d.sim.B*dy)/s2, (-d.sim.B*dx+d.sim.A*dy)/s2
		if rx < 0 || ry < 0 || rx >= float64(ref.W) || ry >= float64(ref.H) {
			continue
		}
		best, found := maxHamming+1, false
		x0, x1, y0, y1 := faceGrid.cellsNear(rx, ry, r)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				for _, q := range faceGrid.at(x, y) {
					if ex, ey := float64(q.X)-rx, float64(q.Y)-ry; ex*ex+ey*ey > r*r {
						continue
					}
					found = true
					best = min(best, hamming(&f.Descs[i], &ref.Feat.Descs[q.ID]))
				}
			}
		}
		if !found {
			continue
		}
		checked++
		if best <= maxHamming {
			agree++
			taken[i] = true
		}
	}
	d.inliers += agree
	d.matches += checked
}

// TestVerifyIsPlain checks that verify finds exactly what verifyPlain does
// (the same agreeing and checked keypoints, the same ones taken) for every
// card the first matching pass fits on bundled stills, and for the same
// fits moved and turned a little, so that face positions near the grids'
// and the face's edges are read too.
func TestVerifyIsPlain(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	x := a.index
	cards := 0
	for _, name := range []string{"0003", "0011", "0042", "0077"} {
		gray, _ := stillTopGray(t, name)
		f, err := a.det.detect(gray)
		gray.Close()
		if err != nil {
			t.Fatal(err)
		}
		f.describe(quickSample(f))
		sample, _ := quickLookups(f)
		grid := newPointGrid(f.Points, frameGridCell)
		taken := make([]bool, len(f.Points))
		dets := x.fitCards(f, x.groupMatches(sample, x.lookup(f, sample, quickTables)), grid, taken, rand.New(rand.NewPCG(1, 7)))
		free := make([]bool, len(f.Points))
		for _, d := range dets {
			for si, shift := range []similarity{{A: 1}, {A: 0.98, B: 0.05, Tx: 3, Ty: -2}, {A: 1.04, B: -0.02, Tx: -5, Ty: 4}} {
				moved := d
				moved.inliers, moved.matches = 0, 0
				moved.sim = similarity{A: d.sim.A*shift.A - d.sim.B*shift.B, B: d.sim.A*shift.B + d.sim.B*shift.A,
					Tx: d.sim.Tx + shift.Tx, Ty: d.sim.Ty + shift.Ty}
				ref := &x.refs[d.ref]
				w, h := float64(ref.W), float64(ref.H)
				for k, c := range [4][2]float64{{0, 0}, {w, 0}, {w, h}, {0, h}} {
					px, py := moved.sim.apply(c[0], c[1])
					moved.quad[k] = models.Point{X: px, Y: py}
				}
				for bi, base := range [][]bool{free, taken} {
					fast, plain := moved, moved
					fastTaken, plainTaken := append([]bool(nil), base...), append([]bool(nil), base...)
					x.verify(&fast, f, grid, fastTaken)
					x.verifyPlain(&plain, f, grid, plainTaken)
					if fast.inliers != plain.inliers || fast.matches != plain.matches || !slices.Equal(fastTaken, plainTaken) {
						t.Errorf("%s %s: verify gives %d inliers of %d matches, verifyPlain %d of %d", name, ref.Slug, fast.inliers, fast.matches, plain.inliers, plain.matches)
					}
					if fast.inliers == 0 && si == 0 && bi == 0 {
						t.Errorf("%s %s: verify found no agreeing keypoint on a fitted card", name, ref.Slug)
					}
				}
				cards++
			}
		}
	}
	if cards < 40 {
		t.Fatalf("only %d fits compared; the stills should give more", cards)
	}
}

// TestInsideBothWindings checks inside against insideBySigns on a quad
// wound either way, for points inside, outside, on a side and on a corner.
// A point on the outline counts as inside a quad wound one way and outside
// one wound the other (a cross product of 0 counts as positive): there
// the two must only agree.
func TestInsideBothWindings(t *testing.T) {
	cw := models.Quad{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 12, Y: 8}, {X: 1, Y: 9}}
	ccw := models.Quad{cw[3], cw[2], cw[1], cw[0]}
	for _, tc := range []struct {
		name    string
		p       models.Point
		in, out bool // the answer, when the outline does not decide it
	}{
		{"inside", models.Point{X: 5, Y: 4}, true, false},
		{"outside", models.Point{X: 13, Y: 4}, false, true},
		{"beyond a corner", models.Point{X: -1, Y: -1}, false, true},
		{"on a side", models.Point{X: 5, Y: 0}, false, false},
		{"on a corner", models.Point{X: 10, Y: 0}, false, false},
	} {
		for _, q := range []models.Quad{cw, ccw} {
			got, plain := inside(tc.p, q), insideBySigns(tc.p, q)
			if got != plain || (tc.in && !got) || (tc.out && got) {
				t.Errorf("%s %v in %v: inside %v, by signs %v", tc.name, tc.p, q, got, plain)
			}
		}
	}
}

// TestByChanceInLine tells fits that are chance alignments along one line
// from cards: the fit's inliers (the nine placed pairs, first) among the
// pairs drawn as a frame's matches to one face come, a few true ones and,
// for a face of long straight edges, many by chance all over the frame.
func TestByChanceInLine(t *testing.T) {
	const faceW, faceH = 126.0, 176.0
	rng := rand.New(rand.NewPCG(7, 11))
	random := func(n int) []pointPair {
		out := make([]pointPair, n)
		for i := range out {
			out[i] = pointPair{rng.Float64() * faceW, rng.Float64() * faceH, rng.Float64() * 1200, rng.Float64() * 900}
		}
		return out
	}
	// Nine keypoints 7 px apart along a horizontal frame edge (y 480),
	// matched to keypoints along the face's slanted band edge.
	edge := func() []pointPair {
		var out []pointPair
		for i := range 9 {
			s := float64(i) * 7
			out = append(out, pointPair{20 + s*0.6, 30 + s*0.8, 850 + s, 480 + rng.Float64()*3})
		}
		return out
	}
	// Nine keypoints over the face, where a card turned 90° lies.
	card := func() []pointPair {
		var out []pointPair
		for i := range 9 {
			rx, ry := 15+float64(i%3)*45, 20+float64(i/3)*65
			out = append(out, pointPair{rx, ry, 700 - ry, 300 + rx})
		}
		return out
	}
	tests := []struct {
		name  string
		pairs []pointPair
		want  bool
	}{
		{"a straight edge among many chance matches", append(edge(), random(400)...), true},
		{"a card in plain view among as many", append(card(), random(400)...), false},
		{"a card showing only along one edge", append(edge(), random(12)...), false},
	}
	for _, tc := range tests {
		flags := make([]bool, len(tc.pairs))
		for i := range 9 {
			flags[i] = true
		}
		if got := byChanceInLine(tc.pairs, flags, 9); got != tc.want {
			t.Errorf("%s: byChanceInLine = %v with 9 inliers of %d pairs, want %v", tc.name, got, len(tc.pairs), tc.want)
		}
	}
}

func TestWidthAcross(t *testing.T) {
	tests := []struct {
		name string
		pts  []models.Point
		want float64
	}{
		{"none", nil, 0},
		{"a slanted line", []models.Point{{X: 0, Y: 0}, {X: 30, Y: 40}, {X: 60, Y: 80}}, 0},
		{"a slanted band 4 wide", []models.Point{{X: 0, Y: 0}, {X: 60, Y: 80}, {X: 30 + 3.2, Y: 40 - 2.4}}, 4},
		{"a square", []models.Point{{X: 0, Y: 0}, {X: 10, Y: 0}, {X: 10, Y: 10}, {X: 0, Y: 10}}, 10},
	}
	for _, tc := range tests {
		if got := widthAcross(tc.pts); math.Abs(got-tc.want) > 0.5 {
			t.Errorf("%s: widthAcross = %.2f, want %.0f", tc.name, got, tc.want)
		}
	}
}
