package vision

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// underScene draws, on a plain mat, a low-texture card (a plain light face,
// its printed outline, an inner frame) centred at (cx, cy) and turned by
// deg, and then the cards on top of it (dark faces with a light border),
// each w×h turned by its own angle. It gives the top-down grey image and
// the outlines of the cards on top.
func underScene(v *view, cx, cy, cw, ch, deg float64, tops [][5]float64) (gocv.Mat, []models.Quad) {
	px := v.pxPerMM
	gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
	poly := func(pts []image.Point, fill, line uint8, thick int) {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
		if fill > 0 {
			gocv.FillPoly(&gray, pv, color.RGBA{fill, fill, fill, 0})
		}
		gocv.Polylines(&gray, pv, true, color.RGBA{line, line, line, 0}, thick)
		pv.Close()
	}
	poly(cardRect(cx, cy, cw, ch, deg), 200, 40, 2)
	poly(cardRect(cx, cy, cw-6*px, ch-6*px, deg), 0, 150, 2)
	var quads []models.Quad
	for _, t := range tops {
		pts := cardRect(t[0], t[1], t[2], t[3], t[4])
		poly(pts, 70, 225, 4)
		var q models.Quad
		for i, p := range pts {
			q[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
		}
		quads = append(quads, q)
	}
	gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
	return gray, quads
}

// underCards runs the outline searches as readCards does with the cards on
// top (tops) found: the closed outlines, the side search and the search
// for cards under the found ones.
func underCards(t *testing.T, gray gocv.Mat, v *view, tops []models.Quad) (sided, under []stackedCard) {
	t.Helper()
	o := newOutlineFinder()
	defer o.close()
	closed, err := o.findUnknownCards(gray, sharpnessOf(gray, v), v, tops)
	if err != nil {
		t.Fatal(err)
	}
	var found []placed
	for _, q := range tops {
		found = append(found, placed{q, models.KindStandard})
	}
	for _, u := range closed {
		found = append(found, placed{u.quad, u.kind})
	}
	sided = o.findSidedCards(gray, v, nil, nil, found, nil)
	for _, s := range sided {
		found = append(found, placed{s.quad, s.kind})
	}
	return sided, o.findUnderCards(gray, v, found)
}

// TestUnderCardShowingThreeSides renders a low-texture card whose one end
// (a portrait card's top, a landscape site's long side in its middle) lies
// under a card found: its outline shows three sides and a bit of the
// fourth, and no closed outline nor four sides for the searches before.
// The card on it may hold its centre within the card under it (a token on
// a unit's side, a unit across a tapped one's end). findUnderCards finds
// it, at its place and size (its outline, not its inner frame a few
// millimetres in), once.
func TestUnderCardShowingThreeSides(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	w, h := models.CardShortMM*px, models.CardLongMM*px
	cx, cy := float64(v.size.X)*0.45, float64(v.size.Y)*0.55
	cases := []struct {
		name     string
		cw, ch   float64
		deg      float64
		tops     [][5]float64
		landscpe bool
	}{
		// A unit's top fifth under another unit, turned a little.
		{"top under a unit", w, h, 0, [][5]float64{{cx + 4, cy - h*0.85, w, h, -6}}, false},
		{"top under a unit, turned", w, h, 8, [][5]float64{{cx + 12, cy - h*0.8, w, h, 2}}, false},
		{"corner under a unit", w, h, -17, [][5]float64{{cx + w*0.45, cy - h*0.6, w, h, -5}}, false},
		// A site whose long side's middle lies under a unit.
		{"site under a unit's end", h, w, 3, [][5]float64{{cx, cy - w*0.95, w, h, 0}}, true},
		// A card under another whose centre it holds is not looked for
		// here (holdsCentre): allowing it found more cards on still
		// frames but misread tapped units in recorded games.
	}
	for _, c := range cases {
		gray, tops := underScene(v, cx, cy, c.cw, c.ch, c.deg, c.tops)
		sided, under := underCards(t, gray, v, tops)
		gray.Close()
		for _, s := range sided {
			if sc := s.quad.Center(); math.Hypot(sc.X-cx, sc.Y-cy) <= 6 {
				t.Logf("%s: the side search found the card (the scene no longer needs the search for cards under others)", c.name)
			}
		}
		n := 0
		for _, s := range under {
			q := s.quad
			qc := q.Center()
			if math.Hypot(qc.X-cx, qc.Y-cy) > 6 {
				t.Errorf("%s: a card under another reported at %.0f,%.0f, none there", c.name, qc.X, qc.Y)
				continue
			}
			n++
			if short, long, off := outlineSizeOff(q, w, h, 0.05); off {
				t.Errorf("%s: the card's outline is %.0f×%.0f, want %.0f×%.0f (%.0f, centre %.0f,%.0f)", c.name, short, long, w, h, q, cx, cy)
			}
			if landscape(q) != c.landscpe {
				t.Errorf("%s: the card's outline is landscape %v, want %v", c.name, landscape(q), c.landscpe)
			}
		}
		if n != 1 {
			t.Errorf("%s: the card under another was reported %d times, want once", c.name, n)
		}
	}
}

// TestUnderCardsNotInvented checks that what lies around cards found is not
// taken for a card under them: a site under a unit centred on it (the
// covered-site search's), a card found a few millimetres off its outline,
// two cards found side by side, and a card-sized rectangle printed on the
// mat beside a card found, a thin line with the mat on both sides.
func TestUnderCardsNotInvented(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	w, h := models.CardShortMM*px, models.CardLongMM*px
	cx, cy := float64(v.size.X)*0.45, float64(v.size.Y)*0.55

	// A site under a unit centred on it.
	gray, tops := underScene(v, cx, cy, h, w, 0, [][5]float64{{cx, cy, w, h, 2}})
	if _, under := underCards(t, gray, v, tops); len(under) > 0 {
		t.Errorf("site under a centred unit: %d cards reported under it, want none (covered.go's)", len(under))
	}
	gray.Close()

	// A card found 3 mm off: its real outline shows beside the one found.
	gray, tops = underScene(v, cx, cy, w, h, 0, nil)
	off := models.Quad{}
	for i, p := range cardRect(cx+3*px, cy-2*px, w, h, 1) {
		off[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	if _, under := underCards(t, gray, v, append(tops, off)); len(under) > 0 {
		t.Errorf("card found a little off: %d cards reported under it, want none", len(under))
	}
	gray.Close()

	// Two cards side by side, and a rectangle printed on the mat beside
	// them, touching one.
	gray, tops = underScene(v, cx, cy, w, h, 0, [][5]float64{{cx, cy, w, h, 0}, {cx + w + 4*px, cy + 10, w, h, 3}})
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{cardRect(cx-w+2*px, cy-h*0.3, w, h, 0)})
	gocv.Polylines(&gray, pv, true, color.RGBA{60, 60, 60, 0}, 2)
	pv.Close()
	if _, under := underCards(t, gray, v, tops); len(under) > 0 {
		for _, s := range under {
			t.Logf("reported %.0f", s.quad)
		}
		t.Errorf("cards side by side and a printed rectangle: %d cards reported under them, want none", len(under))
	}
	gray.Close()
}

// TestUnitOnSiteNothingUnder reads the commonest stack on a table, a unit
// lying on a site a little off its middle, so that one end of the site (or
// both) shows beside the unit, on poster faces (few keypoints). The site's
// ends, the unit's sides, the site's printed lines and the grid about them
// close rectangles of a card's size; none of them is a card under the
// unit. Nothing but the site and the unit may be reported there: the
// covered-site search explains the site's ends before the search for cards
// under others looks at what is left.
func TestUnitOnSiteNothingUnder(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a catalog and scenes")
	}
	cat, err := synth.RenderCatalog(t.TempDir(), 5, synth.CatalogOptions{Style: synth.StylePoster})
	if err != nil {
		t.Fatal(err)
	}
	a := newTestAnalyzer(t, cat)
	stacks := []struct{ site, unit string }{
		{"sunken_lantern", "lantern_warden"}, {"tidewrack_cove", "reefstalker"}, {"ashen_steppe", "ashen_sovereign"},
	}
	offsets := []struct{ dx, dy, jitter float64 }{{-30, 6, 2}, {-24, -3, -3}, {-18, 8, 4}, {18, -6, -2}, {26, 4, 3}, {32, -2, -4}}
	var checked int
	for i, st := range stacks {
		for j, off := range offsets {
			sx, sy := 50.0+100*float64((i+j)%5), 37.5+75*float64(j%4)
			place := []placement{{slug: st.site, x: sx, y: sy}, {slug: st.unit, x: sx + off.dx, y: sy + off.dy, jitter: off.jitter}}
			sc := renderTestScene(t, cat, place, tiltedCorners, uint64(10*i+j+1))
			obs := analyzeScene(t, a, sc)
			sc.frame.Close()
			toImg, err := models.NewHomography(
				[4]models.Point{{X: 0, Y: 0}, {X: 500, Y: 0}, {X: 500, Y: 300}, {X: 0, Y: 300}}, [4]models.Point(tiltedCorners))
			if err != nil {
				t.Fatal(err)
			}
			unitAt := toImg.Apply(models.Point{X: place[1].x, Y: place[1].y})
			siteAt := toImg.Apply(models.Point{X: sx, Y: sy})
			for _, o := range obs.Cards {
				c := o.Quad.Center()
				nearUnit := math.Hypot(c.X-unitAt.X, c.Y-unitAt.Y) < 15
				nearSite := math.Hypot(c.X-siteAt.X, c.Y-siteAt.Y) < 15
				switch {
				case o.Kind == models.KindSite && nearSite, o.Kind == models.KindStandard && nearUnit:
				default:
					t.Errorf("%s under %s moved %.0f,%.0f mm: %s %s reported at %.0f,%.0f (site at %.0f,%.0f, unit at %.0f,%.0f)",
						st.site, st.unit, off.dx, off.dy, o.Kind, o.NameOr("(unknown)"), c.X, c.Y, siteAt.X, siteAt.Y, unitAt.X, unitAt.Y)
				}
			}
			checked++
		}
	}
	t.Logf("%d units on sites read", checked)
}

// TestLineOnAsEveryCardLooked checks lineOn, which looks only at the cards
// found whose bounds meet the line's, against looking at every card for
// every point (hidden): the same counts on random cards and lines, those
// along a card's side and through its corners too.
func TestLineOnAsEveryCardLooked(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 11))
	for trial := 0; trial < 200; trial++ {
		w, h := 50+rng.IntN(300), 50+rng.IntN(300)
		e := edgeMap{pix: make([]byte, w*h), w: w, h: h, off: image.Pt(rng.IntN(40)-20, rng.IntN(40)-20)}
		for i := range e.pix {
			if rng.IntN(4) == 0 {
				e.pix[i] = 255
			}
		}
		var cover []models.Quad
		for range rng.IntN(30) {
			cx, cy, turn := rng.Float64()*float64(w), rng.Float64()*float64(h), rng.Float64()*math.Pi
			cover = append(cover, turnedRect(cx, cy, 5+rng.Float64()*60, 5+rng.Float64()*60, turn))
		}
		u := newUnderSearch(e, e, cover, 2)
		for range 100 {
			var a, b models.Point
			switch rng.IntN(3) {
			case 0: // along a card's side, from corner to corner
				if len(cover) > 0 {
					q := cover[rng.IntN(len(cover))]
					k := rng.IntN(4)
					a, b = q[k], q[(k+1)%4]
					break
				}
				fallthrough
			default:
				a = models.Point{X: rng.Float64()*float64(w+40) - 20, Y: rng.Float64()*float64(h+40) - 20}
				b = models.Point{X: rng.Float64()*float64(w+40) - 20, Y: rng.Float64()*float64(h+40) - 20}
			}
			hits, shown, all := u.lineOn(a, b)
			// Every card looked at for every point.
			var wantHits, wantShown, wantAll int
			n := int(math.Hypot(b.X-a.X, b.Y-a.Y) / 2)
			for j := 0; j <= n; j++ {
				tt := 0.0
				if n > 0 {
					tt = float64(j) / float64(n)
				}
				p := models.Point{X: a.X + tt*(b.X-a.X), Y: a.Y + tt*(b.Y-a.Y)}
				wantAll++
				if u.hidden(p) {
					continue
				}
				wantShown++
				if e.onNear(p.X, p.Y) {
					wantHits++
				}
			}
			if hits != wantHits || shown != wantShown || all != wantAll {
				t.Fatalf("trial %d: lineOn(%v, %v) = %d, %d, %d; every card looked at: %d, %d, %d", trial, a, b, hits, shown, all, wantHits, wantShown, wantAll)
			}
		}
	}
}

// turnedRect is the w×h rectangle centred at (cx, cy) turned by turn
// (radians).
func turnedRect(cx, cy, w, h, turn float64) models.Quad {
	ca, sa := math.Cos(turn), math.Sin(turn)
	var q models.Quad
	for i, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		x, y := c[0]*w/2, c[1]*h/2
		q[i] = models.Point{X: cx + x*ca - y*sa, Y: cy + x*sa + y*ca}
	}
	return q
}

// TestUnderCardCutByFrame renders a low-texture card whose lower end lies
// beyond the camera frame's bottom edge (the top-down image black there,
// as the warp leaves it), alone on the mat: three sides show, the fourth
// is the frame's edge. findUnderCards takes what the frame does not show
// as hiding the card, as a card found would: it finds the card at its
// place and size. A card with too little of it in the frame is not
// reported.
func TestUnderCardCutByFrame(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	w, h := models.CardShortMM*px, models.CardLongMM*px
	edge := frameBottom(t, v)
	if edge >= float64(v.size.Y)-h/4 {
		t.Fatalf("the frame's bottom edge at %.0f: too near the image's end (%d) for the test", edge, v.size.Y)
	}
	cx := float64(v.size.X) * 0.45
	for _, c := range []struct {
		name   string
		shown  float64 // of the card's length, above the frame's edge
		deg    float64
		wanted bool
	}{
		{"a fifth cut", 0.8, 0, true},
		{"a third cut, turned", 0.66, 4, true},
		{"two thirds cut", 0.33, 2, false},
	} {
		cy := edge - c.shown*h + h/2
		gray, _ := underScene(v, cx, cy, w, h, c.deg, nil)
		gocv.Rectangle(&gray, image.Rect(0, int(edge), v.size.X, v.size.Y), color.RGBA{}, -1)
		sided, under := underCards(t, gray, v, nil)
		gray.Close()
		for _, s := range sided {
			if sc := s.quad.Center(); math.Hypot(sc.X-cx, sc.Y-cy) <= 6 {
				t.Errorf("%s: the side search found the card cut by the frame (the scene no longer tests the search under the frame)", c.name)
			}
		}
		n := 0
		for _, s := range under {
			q := s.quad
			qc := q.Center()
			if math.Hypot(qc.X-cx, qc.Y-cy) > 6 {
				t.Errorf("%s: a card reported at %.0f,%.0f, none there (card at %.0f,%.0f)", c.name, qc.X, qc.Y, cx, cy)
				continue
			}
			n++
			if short, long, off := outlineSizeOff(q, w, h, 0.05); off {
				t.Errorf("%s: the card's outline is %.0f×%.0f, want %.0f×%.0f", c.name, short, long, w, h)
			}
		}
		if want := map[bool]int{true: 1, false: 0}[c.wanted]; n != want {
			t.Errorf("%s: the card was reported %d times, want %d", c.name, n, want)
		}
	}
}

// TestOffGridCardCutByFrame renders a low-texture card lying wholly below
// the realm's grid, on the mat's border, its lower end beyond the camera
// frame's bottom edge: its two long sides run out from the grid, square to
// the mat's edge. They are a card's sides, not the mat's edge or a border
// printed along it (matEdge), and findUnderCards finds the card at its
// place and size.
func TestOffGridCardCutByFrame(t *testing.T) {
	// The realm high in the frame: the frame's bottom edge cuts the mat's
	// border about 80 mm below the grid.
	v, err := newView(models.Quad{{X: 100, Y: 580}, {X: 1180, Y: 580}, {X: 1180, Y: 50}, {X: 100, Y: 50}}, models.DefaultRealm(), 1280, 720, Options{})
	if err != nil {
		t.Fatal(err)
	}
	px := v.pxPerMM
	w, h := models.CardShortMM*px, models.CardLongMM*px
	edge := frameBottom(t, v)
	gridBottom := (v.marginMM + v.geo.HeightMM()) * px
	cx, cy := float64(v.size.X)*0.45, edge-0.85*h+h/2
	if top := cy - h/2; top < gridBottom+5*px {
		t.Fatalf("the card's top at %.0f, the grid's bottom at %.0f: the card does not lie off the grid", top, gridBottom)
	}
	gray, _ := underScene(v, cx, cy, w, h, 2, nil)
	gocv.Rectangle(&gray, image.Rect(0, int(edge), v.size.X, v.size.Y), color.RGBA{}, -1)
	_, under := underCards(t, gray, v, nil)
	gray.Close()
	n := 0
	for _, s := range under {
		qc := s.quad.Center()
		if math.Hypot(qc.X-cx, qc.Y-cy) > 6 {
			t.Errorf("a card reported at %.0f,%.0f, none there (card at %.0f,%.0f)", qc.X, qc.Y, cx, cy)
			continue
		}
		n++
		if short, long, off := outlineSizeOff(s.quad, w, h, 0.05); off {
			t.Errorf("the card's outline is %.0f×%.0f, want %.0f×%.0f", short, long, w, h)
		}
	}
	if n != 1 {
		t.Errorf("the card cut by the frame off the grid was reported %d times, want 1", n)
	}
}

// frameBottom gives where the camera frame's bottom edge crosses the middle
// of view v's top-down image (the first row below it beyond the frame).
func frameBottom(t *testing.T, v *view) float64 {
	t.Helper()
	frame := framePlanes(v, 0)
	if frame == nil {
		t.Fatal("the test view's frame shows all of the top-down image: no edge to cut a card")
	}
	for y := float64(v.size.Y) - 1; y > 0; y-- {
		if !beyond(models.Point{X: float64(v.size.X) / 2, Y: y}, frame) {
			return y + 1
		}
	}
	return float64(v.size.Y)
}
