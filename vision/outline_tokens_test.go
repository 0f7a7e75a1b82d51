package vision

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
	"gocv.io/x/gocv"
)

// TestTokenSideWashedOut renders a token (a light border, a dark face) on
// a plain mat with a light disc in its border's tone over the middle of one
// long side, as a light print on the face or the mat meeting the border, or
// a glare spot, washes out a stretch of it: the token's outline is no closed
// contour, and that side shows on edges over less than a card's side must
// (stackSideSupport), the other three whole. The token search finds it by
// its sides (tokenSideSupport); a standard card's rectangle over the same
// edges is no card for the side search.
func TestTokenSideWashedOut(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 9, -17} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.4, float64(v.size.Y)*0.55
		w, h := models.TokenShortMM*px, models.TokenLongMM*px
		fillTone(&gray, cardRect(cx, cy, w, h, deg), 205)
		fillTone(&gray, cardRect(cx, cy, w-10*px, h-10*px, deg), 80)
		// The disc over the left side's middle: 45% of the side's length.
		a := deg * math.Pi / 180
		mx, my := cx-w/2*math.Cos(a), cy-w/2*math.Sin(a)
		gocv.Ellipse(&gray, image.Pt(int(math.Round(mx)), int(math.Round(my))), image.Pt(int(0.3*w), int(0.225*h)), deg, 0, 360, color.RGBA{205, 205, 205, 0}, -1)
		gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		sided, tokens := searchTokens(t, gray, v, cx, cy)
		gray.Close()
		for _, s := range sided {
			c := s.quad.Center()
			t.Errorf("turned %v°: the side search reported a card at %.0f,%.0f", deg, c.X, c.Y)
		}
		checkOneToken(t, deg, tokens, cx, cy, w, h)
	}
}

// TestTokenSideFaint renders a token whose light border stands out of a
// plain mat on three sides and only faintly on the fourth (a pale rim on a
// mat of its tone, as a green poster token's on a green mat): at the
// frame's thresholds its outline is no closed contour and the fourth side
// is on no edge. The search around the centre its two parallel sides
// propose looks again at the second look's thresholds there, and finds it
// once, at its size.
func TestTokenSideFaint(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 8, -15} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.55, float64(v.size.Y)*0.45
		w, h := models.TokenShortMM*px, models.TokenLongMM*px
		fillTone(&gray, cardRect(cx, cy, w, h, deg), 200)
		// The left side's border, 2 mm wide, 16 grey levels off the mat.
		a := deg * math.Pi / 180
		lx, ly := cx-(w/2-px)*math.Cos(a), cy-(w/2-px)*math.Sin(a)
		fillTone(&gray, cardRect(lx, ly, 2*px, h, deg), 126)
		// The face inside the border, a little darker than the mat.
		fillTone(&gray, cardRect(cx, cy, w-4*px, h-4*px, deg), 90)
		gocv.GaussianBlur(gray, &gray, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		_, tokens := searchTokens(t, gray, v, cx, cy)
		gray.Close()
		checkOneToken(t, deg, tokens, cx, cy, w, h)
	}
}

// TestTokenTwoSidesShow renders a token whose face is of about the mat's
// tone, its light border standing out on two sides that meet at a corner
// and only faintly on the other two (a green poster token on a green
// mat): no two of its sides on the frame's edges are parallel, and it
// stands out from the mat little (the side search's contrast check, which
// the token search leaves to the look that must name what it finds). The
// corner proposes it, and it is found once, at its size.
func TestTokenTwoSidesShow(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 6, -12} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.45, float64(v.size.Y)*0.5
		w, h := models.TokenShortMM*px, models.TokenLongMM*px
		fillTone(&gray, cardRect(cx, cy, w, h, deg), 200)
		// The left and top sides' border, 2 mm wide, 16 grey levels off the mat.
		a := deg * math.Pi / 180
		ca, sa := math.Cos(a), math.Sin(a)
		fillTone(&gray, cardRect(cx-(w/2-px)*ca, cy-(w/2-px)*sa, 2*px, h, deg), 126)
		fillTone(&gray, cardRect(cx+(h/2-px)*sa, cy-(h/2-px)*ca, w, 2*px, deg), 126)
		// The face inside the border, of about the mat's tone.
		fillTone(&gray, cardRect(cx, cy, w-4*px, h-4*px, deg), 102)
		gocv.GaussianBlur(gray, &gray, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		_, tokens := searchTokens(t, gray, v, cx, cy)
		gray.Close()
		checkOneToken(t, deg, tokens, cx, cy, w, h)
	}
}

// TestTokenOneSideShows renders a token whose face is of the mat's tone,
// its rim thin and pale all round (no edge at the frame's thresholds once
// blurred), with a dark name band across one end (a green poster token on
// a green mat): at the frame's thresholds only the band's two long edges
// are straight edges, a band's width apart, so no pair of segments and no
// corner proposes the token.
// The band's edge along the token's end is a lone side of a token's short
// side: it proposes the token on either side of it, and the search at the
// second look's thresholds there finds the token once, at its size. The
// search without lone sides (a catalog whose tokens have rich art) finds
// nothing there.
func TestTokenOneSideShows(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 7, -14} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.5, float64(v.size.Y)*0.5
		w, h := models.TokenShortMM*px, models.TokenLongMM*px
		// The rim, 1 mm wide and pale (thin, so that blurred it is no
		// strong edge); the face inside it of the mat's tone; the name
		// band, 9 mm, at the top.
		fillTone(&gray, cardRect(cx, cy, w, h, deg), 140)
		fillTone(&gray, cardRect(cx, cy, w-2*px, h-2*px, deg), 104)
		a := deg * math.Pi / 180
		off := h/2 - px - 4.5*px
		fillTone(&gray, cardRect(cx+off*math.Sin(a), cy-off*math.Cos(a), w-2*px, 9*px, deg), 30)
		gocv.GaussianBlur(gray, &gray, image.Pt(5, 5), 0, 0, gocv.BorderReplicate)
		_, none := searchTokensLone(t, gray, v, cx, cy, false)
		for _, s := range none {
			if c := s.quad.Center(); math.Hypot(c.X-cx, c.Y-cy) <= 6*px {
				t.Errorf("turned %v°: without lone sides a token was found at %.0f,%.0f: the test does not test them", deg, c.X, c.Y)
			}
		}
		_, tokens := searchTokensLone(t, gray, v, cx, cy, true)
		gray.Close()
		checkOneToken(t, deg, tokens, cx, cy, w, h)
	}
}

// TestFewCornersToken: the sample catalog's tokens have rich art, the
// poster catalog's hardly any corners: only the poster catalog's analyzer
// looks for tokens by lone sides.
func TestFewCornersToken(t *testing.T) {
	sample := newTestAnalyzer(t, devCatalog(t))
	if sample.outlines.loneSides {
		t.Error("the sample catalog's analyzer looks for tokens by lone sides")
	}
	poster, _ := posterAnalyzer(t)
	if !poster.outlines.loneSides {
		t.Error("the poster catalog's analyzer does not look for tokens by lone sides")
	}
}

// fillTone fills the polygon pts of a grey image with tone.
func fillTone(gray *gocv.Mat, pts []image.Point, tone uint8) {
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	gocv.FillPoly(gray, pv, color.RGBA{tone, tone, tone, 0})
	pv.Close()
}

// searchTokens runs the outline searches a frame runs before the token
// search over a top-down grey image (closed outlines, then cards by their
// sides) and gives the cards found by their sides and the tokens the token
// search proposes. The token lying at (cx, cy) must not be found as a
// closed outline: the test means its outline not to close.
func searchTokens(t *testing.T, gray gocv.Mat, v *view, cx, cy float64) (sided, tokens []stackedCard) {
	t.Helper()
	return searchTokensLone(t, gray, v, cx, cy, false)
}

// searchTokensLone is searchTokens, the places lone sides propose searched
// too when lone is set (outlineFinder.loneSides).
func searchTokensLone(t *testing.T, gray gocv.Mat, v *view, cx, cy float64, lone bool) (sided, tokens []stackedCard) {
	t.Helper()
	o := newOutlineFinder()
	defer o.close()
	o.loneSides = lone
	closed, found, sided := sideSearchWith(t, o, gray, v)
	for _, u := range closed {
		if c := u.quad.Center(); math.Hypot(c.X-cx, c.Y-cy) <= 6 {
			t.Fatalf("the token's outline was found closed (%v %.0f×%.0f)", u.kind, sideLen(u.quad, 0), sideLen(u.quad, 1))
		}
	}
	return sided, o.findStackedTokens(gray, v, found, nil)
}

// checkOneToken reports tokens proposed anywhere but at (cx, cy), and
// unless exactly one lies there, w × h pixels large, an error.
func checkOneToken(t *testing.T, deg float64, tokens []stackedCard, cx, cy, w, h float64) {
	t.Helper()
	n := 0
	for _, s := range tokens {
		c := s.quad.Center()
		if math.Hypot(c.X-cx, c.Y-cy) > 6 {
			t.Errorf("turned %v°: a token was proposed at %.0f,%.0f, none there", deg, c.X, c.Y)
			continue
		}
		n++
		if short, long, off := outlineSizeOff(s.quad, w, h, 0.06); off {
			t.Errorf("turned %v°: the token's outline is %.0f×%.0f, want %.0f×%.0f", deg, short, long, w, h)
		}
	}
	if n != 1 {
		t.Errorf("turned %v°: the token was proposed %d times, want once", deg, n)
	}
}

// TestProposeToken: a rectangle proposed for a token already proposed is
// kept as its alternative (at most tokenMaxAlts), one another proposal
// covers is dropped, and one apart is a proposal of its own.
func TestProposeToken(t *testing.T) {
	rect := func(x, y float64) models.Quad { // a token's 44 × 63 px, its top-left at x, y
		return models.Quad{{X: x, Y: y}, {X: x + 44, Y: y}, {X: x + 44, Y: y + 63}, {X: x, Y: y + 63}}
	}
	var out []tokenProposal
	out = proposeToken(out, rect(100, 100))
	out = proposeToken(out, rect(100, 108)) // the same token, 8 px off
	out = proposeToken(out, rect(300, 100)) // another
	out = proposeToken(out, rect(104, 96))  // the first again
	out = proposeToken(out, rect(98, 104))  // and again: past tokenMaxAlts
	if len(out) != 2 {
		t.Fatalf("%d proposals, want 2", len(out))
	}
	if out[0].quad != rect(100, 100) || len(out[0].alts) != tokenMaxAlts || out[0].alts[0] != rect(100, 108) || out[0].alts[1] != rect(104, 96) {
		t.Errorf("first proposal %v with alternatives %v, want it with 100,108 and 104,96", out[0].quad, out[0].alts)
	}
	if out[1].quad != rect(300, 100) || len(out[1].alts) != 0 {
		t.Errorf("second proposal %v with alternatives %v, want 300,100 alone", out[1].quad, out[1].alts)
	}
	// A landscape rectangle (another card's shape) centred in the first:
	// covered, dropped.
	out = proposeToken(out, models.Quad{{X: 90, Y: 110}, {X: 153, Y: 110}, {X: 153, Y: 154}, {X: 90, Y: 154}})
	if len(out) != 2 || len(out[0].alts) != tokenMaxAlts {
		t.Errorf("a rectangle covered by a proposal was kept: %d proposals", len(out))
	}
}

// TestTokenNamedByAlternative reads poster scenes and, for each fully
// visible token, proposes a rectangle 10 mm off it along its long side
// (as a token's rim beside a card's edge makes the best supported one),
// whose look names no token, with the token's true outline as its
// alternative: nameToken must name the token by the alternative.
func TestTokenNamedByAlternative(t *testing.T) {
	a, r := posterAnalyzer(t)
	tried := 0
	for i := 0; i < 8 && tried < 4; i++ {
		scene, v, quads := readSceneView(t, a, r, synth.SceneSeed(29, i))
		for k, c := range scene.Truth.Cards {
			if !c.Token || c.VisibleFraction < 1 {
				continue
			}
			q := quads[k]
			// 10 mm along the long side, from the first corner to the fourth.
			l := math.Hypot(q[3].X-q[0].X, q[3].Y-q[0].Y)
			dx, dy := (q[3].X-q[0].X)/l*10*v.pxPerMM, (q[3].Y-q[0].Y)/l*10*v.pxPerMM
			var off models.Quad
			for j, p := range q {
				off[j] = models.Point{X: p.X + dx, Y: p.Y + dy}
			}
			if d, ok := a.nameByLook(off, v, nil); ok && a.index.refs[d.ref].Kind == models.KindToken {
				continue // named even off its place: says nothing here
			}
			if d, ok := a.nameByLook(q, v, nil); !ok || a.index.refs[d.ref].card.Name != c.Name {
				continue // not named in its own outline either
			}
			tried++
			d, ok := a.nameToken(stackedCard{quad: off, kind: models.KindToken, alts: []models.Quad{q}}, v, nil)
			switch {
			case !ok:
				t.Errorf("scene %d: %s, proposed 10 mm off with its outline as the alternative, not named", i, c.Name)
			case a.index.refs[d.ref].card.Name != c.Name:
				t.Errorf("scene %d: %s named %s", i, c.Name, a.index.refs[d.ref].card.Name)
			}
		}
	}
	t.Logf("%d tokens named in their outline and not 10 mm off it", tried)
	if tried < 2 {
		t.Fatalf("only %d tokens named in their outline and not 10 mm off it", tried)
	}
}
