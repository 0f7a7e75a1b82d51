package vision

import (
	"cmp"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// TestAnalyzeUnknownCardOnAnother checks that a card missing from the
// catalog is still reported, unknown, when it stands on another card, so
// that its outline and the other's merge into one blob on the edge map.
func TestAnalyzeUnknownCardOnAnother(t *testing.T) {
	full := devCatalog(t)
	missing := map[string]bool{"stonehide_ox": true, "cinder_hollow": true, "tunnelmaw_grub": true, "tide_oracle": true}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	tests := []struct {
		name    string
		unit    string    // not in the catalog; "" means stonehide_ox
		under   placement // the card below, in the catalog
		x, y    float64   // the unknown unit's centre
		rot     models.Rotation
		wantRot models.Rotation
	}{
		{"upright across a site's edge", "", placement{slug: "emberfall_ridge", x: 150, y: 112.5}, 175, 120, 0, 0},
		{"upright on a north site", "", placement{slug: "emberfall_ridge", x: 350, y: 187.5, rot: 180}, 385, 175, 180, 180},
		{"tapped across a site", "", placement{slug: "emberfall_ridge", x: 250, y: 112.5}, 290, 135, 90, 90},
		// Centred on the site: its long sides run over the site's face, and
		// the title printed along its top leaves that side no plain border.
		{"upright centred on a site", "tunnelmaw_grub", placement{slug: "emberfall_ridge", x: 150, y: 112.5}, 150, 112.5, 0, 0},
		{"upright centred on a north site", "tide_oracle", placement{slug: "emberfall_ridge", x: 350, y: 187.5, rot: 180}, 350, 187.5, 180, 180},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unit, _ := full.BySlug(cmp.Or(tt.unit, "stonehide_ox"))
			place := []placement{tt.under, {image: unit.Image, kind: kindOf(unit), x: tt.x, y: tt.y, rot: tt.rot}}
			sc := renderTestScene(t, full, place, tiltedCorners, 70+uint64(i))
			defer sc.frame.Close()
			obs := analyzeScene(t, a, sc)
			site, _ := full.BySlug(tt.under.slug)
			// The unit is looked for among the cards other than the site,
			// whose centre may be the unit's.
			others := obs
			others.Cards = slices.DeleteFunc(slices.Clone(obs.Cards), func(c models.CardObservation) bool { return c.NameOr("") == site.Name })
			got, ok := findCard(others, sc.corners, tt.x, tt.y)
			switch {
			case !ok:
				t.Fatalf("the unknown unit at %.0f,%.0f was not reported", tt.x, tt.y)
			case got.Identified():
				t.Fatalf("a card not in the catalog was named %q", got.NameOr(""))
			case got.Confidence > 0.3:
				t.Errorf("unknown card reported with confidence %.2f", got.Confidence)
			}
			if got.Kind == models.KindSite {
				t.Errorf("a unit standing on a site was reported as a site")
			}
			if got.Rotation != tt.wantRot || got.Tapped != tt.wantRot.Tapped() {
				t.Errorf("rotation %d tapped %v, want %d", got.Rotation, got.Tapped, tt.wantRot)
			}
			if below, ok := findCard(obs, sc.corners, tt.under.x, tt.under.y); !ok || below.NameOr("") != site.Name {
				t.Errorf("the site below: got %s", below.NameOr("nothing"))
			}
		})
	}
}

// A rectangle the stacked-card search finds is a card on top only when no
// matched card's face shows inside it: a site under a tapped unit (frame
// 255 of `synth game --seed 8282`) is the covered-site search's to name.
func TestUnderMatchedCard(t *testing.T) {
	const px = 2.0 // top-down pixels per mm
	rect := func(cx, cy, w, h float64) models.Quad {
		return models.Quad{{X: cx - w/2, Y: cy - h/2}, {X: cx + w/2, Y: cy - h/2}, {X: cx + w/2, Y: cy + h/2}, {X: cx - w/2, Y: cy + h/2}}
	}
	// A grid of keypoints over the image, and the ids of those in a quad.
	var points []keypoint
	for y := 0.0; y < 600; y += 8 {
		for x := 0.0; x < 800; x += 8 {
			points = append(points, keypoint{float32(x), float32(y)})
		}
	}
	in := func(q models.Quad, but models.Quad) []int {
		var ids []int
		for i, p := range points {
			pt := models.Point{X: float64(p.X), Y: float64(p.Y)}
			if inside(pt, q) && (but == (models.Quad{}) || !inside(pt, but)) {
				ids = append(ids, i)
			}
		}
		return ids
	}
	site := rect(400, 300, 88*px, 63*px)
	tappedUnit := rect(370, 305, 88*px, 63*px) // lies across the site, shifted
	uprightUnit := rect(400, 300, 63*px, 88*px)
	token := rect(400, 300, 30*px, 30*px)
	cases := []struct {
		name string
		q    models.Quad
		det  detection
		want bool
	}{
		{"site under a matched tapped unit", site, detection{quad: tappedUnit, used: in(tappedUnit, models.Quad{})}, true},
		{"unit on a matched site (its face hidden under the unit)", uprightUnit, detection{quad: site, used: in(site, uprightUnit)}, false},
		{"matched token wholly on the card", site, detection{quad: token, used: in(token, models.Quad{})}, false},
		{"matched card elsewhere", site, detection{quad: rect(100, 100, 63*px, 88*px), used: in(rect(100, 100, 63*px, 88*px), models.Quad{})}, false},
	}
	for _, c := range cases {
		if got := underMatchedCard(c.q, []detection{c.det}, points, px, nil); got != c.want {
			t.Errorf("%s: underMatchedCard = %v, want %v", c.name, got, c.want)
		}
	}
}

// unexplainedClustersDirect is unexplainedClusters as first written: every
// window's squares counted one by one, every square tested against every
// outline, the medians sorted. TestUnexplainedClustersAsCounted holds the
// summed-area version to it.
func unexplainedClustersDirect(w, h int, v *view, points []keypoint, used []bool, outlines []models.Quad) []models.Point {
	bin := stackBinMM * v.pxPerMM
	cols, rows := int(math.Ceil(float64(w)/bin)), int(math.Ceil(float64(h)/bin))
	if cols < 1 || rows < 1 {
		return nil
	}
	counts, usedCounts, onCard := make([]int, cols*rows), make([]int, cols*rows), make([]bool, cols*rows)
	for i, p := range points {
		bx, by := int(float64(p.X)/bin), int(float64(p.Y)/bin)
		if bx < 0 || by < 0 || bx >= cols || by >= rows {
			continue
		}
		if used[i] {
			usedCounts[by*cols+bx]++
		} else {
			counts[by*cols+bx]++
		}
	}
	for by := 0; by < rows; by++ {
		for bx := 0; bx < cols; bx++ {
			centre := models.Point{X: (float64(bx) + 0.5) * bin, Y: (float64(by) + 0.5) * bin}
			for _, q := range outlines {
				if inside(centre, q) {
					onCard[by*cols+bx] = true
					break
				}
			}
		}
	}
	k := max(1, int(math.Round(models.TokenShortMM/stackBinMM)))
	sums := make([]int, cols*rows)
	var quiet, faces []int
	for y := 0; y+k <= rows; y++ {
		for x := 0; x+k <= cols; x++ {
			s, u, on := 0, 0, 0
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					i := (y+dy)*cols + x + dx
					s += counts[i]
					u += usedCounts[i]
					if onCard[i] {
						on++
					}
				}
			}
			switch {
			case on == k*k:
				faces = append(faces, s+u)
				s = 0
			case on > 0:
				s = 0
			default:
				quiet = append(quiet, s)
			}
			sums[y*cols+x] = s
		}
	}
	return busyCentres(sums, cols, rows, k, stackThreshold(quiet, faces), bin, models.TokenShortMM*v.pxPerMM)
}

// TestUnexplainedClustersAsCounted checks the summed-area window counts
// against counting every window's squares one by one, on random frames:
// keypoints scattered over the mat and heaped on cards, some cards found
// (turned any way, some reaching past the image), some explained
// keypoints.
func TestUnexplainedClustersAsCounted(t *testing.T) {
	const w, h = 1360, 960
	v := &view{pxPerMM: 2}
	found := 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var points []keypoint
		var used []bool
		for range 2000 + rng.IntN(4000) { // the mat
			points = append(points, keypoint{float32(rng.Float64() * w), float32(rng.Float64() * h)})
			used = append(used, rng.IntN(10) == 0)
		}
		var outlines []models.Quad
		for c := range 3 + rng.IntN(20) { // cards, found or not
			cx, cy := rng.Float64()*w*1.1-0.05*w, rng.Float64()*h*1.1-0.05*h
			turn := rng.Float64() * math.Pi
			hw, hh := 63.0, 88.0
			var q models.Quad
			for i, corner := range [4][2]float64{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}} {
				s, c := math.Sin(turn), math.Cos(turn)
				q[i] = models.Point{X: cx + corner[0]*c - corner[1]*s, Y: cy + corner[0]*s + corner[1]*c}
			}
			for range 100 + rng.IntN(400) { // the face's keypoints
				points = append(points, keypoint{float32(cx + rng.NormFloat64()*40), float32(cy + rng.NormFloat64()*40)})
				used = append(used, c%2 == 0 && rng.IntN(3) > 0)
			}
			if c%2 == 0 || c%3 == 0 {
				outlines = append(outlines, q)
			}
		}
		got := unexplainedClusters(w, h, v, points, used, outlines)
		want := unexplainedClustersDirect(w, h, v, points, used, outlines)
		if !slices.Equal(got, want) {
			t.Errorf("seed %d: centres %v, counted one by one %v", seed, got, want)
		}
		found += len(want)
	}
	if found == 0 {
		t.Fatal("no frame had a cluster: the comparison says nothing")
	}
}

// TestEdgePixelsWithinSquares checks that the stacked-card search's edge
// pixels, worked out within its squares only, are those of the whole part
// that lie in a square, in the same order: rectanglesAround reads them
// square by square as it did when the whole part's were listed.
func TestEdgePixelsWithinSquares(t *testing.T) {
	gray, _ := stillTopGray(t, "0042")
	defer gray.Close()
	o := newOutlineFinder()
	defer o.close()
	span := image.Rect(100, 80, 1100, 700)
	all, err := o.stackEdges(gray, span, []image.Rectangle{span})
	if err != nil {
		t.Fatal(err)
	}
	all.px = slices.Clone(all.px) // o's buffer, which the next call fills
	squares := []image.Rectangle{image.Rect(150, 90, 550, 490), image.Rect(400, 300, 800, 700), image.Rect(900, 80, 1100, 280), image.Rect(0, 0, 120, 120)}
	e, err := o.stackEdges(gray, span, squares)
	if err != nil {
		t.Fatal(err)
	}
	var want []edgePixel
	for _, p := range all.px {
		for _, sq := range squares {
			if image.Pt(int(p.x), int(p.y)).Add(span.Min).In(sq) {
				want = append(want, p)
				break
			}
		}
	}
	if len(want) == 0 || len(want) == len(all.px) {
		t.Fatalf("%d of the part's %d edge pixels lie in the squares: the comparison says little", len(want), len(all.px))
	}
	if !slices.Equal(e.px, want) {
		t.Errorf("%d edge pixels within the squares, want the %d of the whole part's that lie there", len(e.px), len(want))
	}
}

// TestUnknownCardsInStills checks, on bundled stills, that a card missing
// from the catalog whose whole face shows is reported unknown where it
// lies: units standing on sites (their sides run over the site's face) and
// cards alone on the mat, whose printed title leaves one side of the
// border busy.
func TestUnknownCardsInStills(t *testing.T) {
	full := devCatalog(t)
	tests := []struct {
		still, slug string
		cell        string // "" off the grid
	}{
		{"0000", "tunnelmaw_grub", "B3"},
		{"0003", "tide_oracle", "A1"},
		{"0015", "wandering_tinker", "C1"},
		{"0016", "rootbound_elder", ""},
		{"0023", "pyre_colossus", "B1"},
		// Turned a little on its site: the square's grid lines and the
		// cards around fill other directions.
		{"0008", "tunnelmaw_grub", "A2"},
		{"0011", "tide_oracle", "A1"},
		{"0030", "voidsworn_shade", "A1"},
		{"0051", "tidecaller_adept", "C2"},
	}
	// A player who scanned 20 cards: the first by slug.
	var slugs []string
	for _, c := range full.Cards() {
		slugs = append(slugs, c.Slug)
	}
	slices.Sort(slugs)
	missing := map[string]bool{}
	for _, s := range slugs[20:] {
		missing[s] = true
	}
	a := newTestAnalyzer(t, catalogWithout(full, missing))
	for _, tt := range tests {
		t.Run(tt.still+" "+tt.slug, func(t *testing.T) {
			if !missing[tt.slug] {
				t.Fatalf("%s is in the catalog", tt.slug)
			}
			frame, cal, truth := stillFrame(t, tt.still)
			defer frame.Close()
			var want *synth.CardTruth
			for i, c := range truth.Cards {
				if c.Slug == tt.slug && c.VisibleFraction == 1 && (c.Cell == nil) == (tt.cell == "") && (c.Cell == nil || c.Cell.String() == tt.cell) {
					want = &truth.Cards[i]
				}
			}
			if want == nil {
				t.Fatalf("still %s holds no fully visible %s at %q", tt.still, tt.slug, tt.cell)
			}
			obs, err := a.Analyze(frame, cal)
			if err != nil {
				t.Fatal(err)
			}
			wc := want.Quad.Center()
			kind := models.KindStandard
			if want.Type == models.Site {
				kind = models.KindSite
			}
			for _, c := range obs.Cards {
				if cc := c.Quad.Center(); c.Kind == kind && math.Hypot(cc.X-wc.X, cc.Y-wc.Y) < 25 {
					if c.Identified() {
						t.Errorf("a card not in the catalog was named %q", c.NameOr(""))
					}
					return
				}
			}
			t.Errorf("the %s at %v, not in the catalog, was not reported", want.Name, wc)
		})
	}
}

// TestModQuarterIsMod checks modQuarter against math.Mod on directions
// from 0 to π and past it (float32 directions rounded up), at and around
// multiples of π/2, and on random ones.
func TestModQuarterIsMod(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	ds := []float64{0, math.Pi / 2, math.Pi, float64(float32(math.Pi)), float64(float32(math.Pi / 2)), 2 * math.Pi, -0.5, 5}
	for _, d := range []float64{math.Pi / 2, math.Pi} {
		ds = append(ds, math.Nextafter(d, 0), math.Nextafter(d, 4))
	}
	for i := 0; i < 100000; i++ {
		ds = append(ds, rng.Float64()*math.Pi, float64(float32(rng.Float64()*math.Pi)))
	}
	for _, d := range ds {
		if got, want := modQuarter(d), math.Mod(d, math.Pi/2); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("modQuarter(%v) = %v, math.Mod %v", d, got, want)
		}
	}
}

// edgePixelsOfPlain is edgePixelsOf reading the edge map pixel by pixel:
// its reference.
func edgePixelsOfPlain(edges []byte, grey edgeMap, within []image.Rectangle) []edgePixel {
	w, h := grey.w, grey.h
	var out []edgePixel
	var spans [][2]int
	for y := 1; y < h-1; y++ {
		spans = spans[:0]
		for _, r := range within {
			if y >= r.Min.Y && y < r.Max.Y {
				spans = append(spans, [2]int{max(r.Min.X, 1), min(r.Max.X, w-1)})
			}
		}
		slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
		from := 1
		for _, s := range spans {
			for x := max(s[0], from); x < s[1]; x++ {
				if edges[y*w+x] == 0 {
					continue
				}
				at := func(dx, dy int) float64 { return float64(grey.pix[(y+dy)*w+x+dx]) }
				gx := at(1, -1) + 2*at(1, 0) + at(1, 1) - at(-1, -1) - 2*at(-1, 0) - at(-1, 1)
				gy := at(-1, 1) + 2*at(0, 1) + at(1, 1) - at(-1, -1) - 2*at(0, -1) - at(1, -1)
				if gx == 0 && gy == 0 {
					continue
				}
				d := math.Atan2(gy, gx)
				if d < 0 {
					d += math.Pi
				}
				if d >= math.Pi {
					d -= math.Pi
				}
				out = append(out, newEdgePixel(x, y, d))
			}
			from = max(from, s[1])
		}
	}
	return out
}

// TestEdgePixelsOfAsPlain checks edgePixelsOf, which passes over eight
// pixels off the edges at once, against the pixel-by-pixel reading: edge
// maps sparse and dense, in overlapping rectangles, some off the map.
func TestEdgePixelsOfAsPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	read := 0
	for trial := 0; trial < 30; trial++ {
		w, h := 20+rng.IntN(120), 20+rng.IntN(80)
		grey := edgeMap{pix: make([]byte, w*h), w: w, h: h}
		edges := make([]byte, w*h)
		every := 1 + rng.IntN(40) // one edge pixel in every so many
		for i := range edges {
			grey.pix[i] = byte(rng.IntN(256))
			if rng.IntN(every) == 0 {
				edges[i] = 255
			}
		}
		var within []image.Rectangle
		for k := 0; k < 1+rng.IntN(4); k++ {
			x0, y0 := rng.IntN(w+10)-5, rng.IntN(h+10)-5
			within = append(within, image.Rect(x0, y0, x0+rng.IntN(w), y0+rng.IntN(h)))
		}
		got, want := edgePixelsOf(edges, grey, within), edgePixelsOfPlain(edges, grey, within)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d×%d, %v): %d edge pixels, plainly %d", trial, w, h, within, len(got), len(want))
		}
		read += len(want)
	}
	if read == 0 {
		t.Error("no edge pixel read: nothing compared")
	}
}

// TestSnapEitherWay checks that a line two rectangles share as a side,
// the right side of one and the left of the other, is moved outward for
// each: edges lie on both sides of it, and the sideSnapper's memory of the
// sides it moved must not give one rectangle the other's.
func TestSnapEitherWay(t *testing.T) {
	const w, h = 200, 200
	pix := make([]byte, w*h)
	for y := 20; y <= 180; y++ {
		pix[y*w+97], pix[y*w+103] = 255, 255
	}
	for _, lines := range []map[lineKey]*lineCounts{nil, {}} {
		s := sideSnapper{edges: edgeMap{pix: pix, w: w, h: h}, done: map[snapKey]float64{}, lines: lines}
		right := s.outermost(0, 100, 150, 20, 180) // its left side at x = 100
		left := s.outermost(0, 50, 100, 20, 180)   // its right side there
		minX, _, _, _ := quadBounds(right)
		_, _, maxX, _ := quadBounds(left)
		if math.Abs(minX-97) > 0.5 || math.Abs(maxX-103) > 0.5 {
			t.Errorf("running counts %v: the shared side moved to x = %.1f (left side of the right rectangle) and %.1f (right side of the left one), want 97 and 103",
				lines != nil, minX, maxX)
		}
	}
}
