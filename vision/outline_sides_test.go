package vision

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/tablecam/tablecam/models"
	"gocv.io/x/gocv"
)

// sidesTestView is a top-down view of the default realm seen square on.
func sidesTestView(t *testing.T) *view {
	t.Helper()
	v, err := newView(models.Quad{{X: 100, Y: 650}, {X: 1180, Y: 650}, {X: 1180, Y: 50}, {X: 100, Y: 50}}, models.DefaultRealm(), 1280, 720, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// cardRect gives the corners of a w×h rectangle (top-down pixels) centred
// on (cx, cy), turned by deg degrees.
func cardRect(cx, cy, w, h, deg float64) []image.Point {
	a := deg * math.Pi / 180
	c, s := math.Cos(a), math.Sin(a)
	var out []image.Point
	for _, p := range [][2]float64{{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}} {
		out = append(out, image.Pt(int(math.Round(cx+p[0]*c-p[1]*s)), int(math.Round(cy+p[0]*s+p[1]*c))))
	}
	return out
}

// sidedCards runs the outline searches on a top-down grey image as
// readCards does with no card matched: the closed outlines, then the
// side search over what they leave.
func sidedCards(t *testing.T, gray gocv.Mat, v *view) (closed []unknownCard, sided []stackedCard) {
	t.Helper()
	o := newOutlineFinder()
	defer o.close()
	closed, _, sided = sideSearchWith(t, o, gray, v)
	return closed, sided
}

// sideSearchWith is sidedCards with the outline finder o, left as the
// side search leaves it for the searches after it (the token search);
// found are the closed outlines as readCards places them.
func sideSearchWith(t *testing.T, o *outlineFinder, gray gocv.Mat, v *view) (closed []unknownCard, found []placed, sided []stackedCard) {
	t.Helper()
	closed, err := o.findUnknownCards(gray, sharpnessOf(gray, v), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range closed {
		found = append(found, placed{u.quad, u.kind})
	}
	return closed, found, o.findSidedCards(gray, v, nil, nil, found, nil)
}

// TestSidedCardTouchingMatPattern renders, on a mat with printed rings, a
// low-texture card (a plain light face, a soft shape, an inner frame and
// a panel printed on it) that one of the rings touches and crosses, so
// that the card's outline and the ring's make one contour: the side search
// finds the card by its four straight sides, and reports neither the
// ring nor the frame or panel on its face, nor the card twice.
func TestSidedCardTouchingMatPattern(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 7, -23, 90 + 11} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.45, float64(v.size.Y)*0.5
		w, h := models.CardShortMM*px, models.CardLongMM*px
		// Rings printed on the mat, one crossing the card's right side.
		ring := func(x, y, r float64) {
			gocv.Circle(&gray, image.Pt(int(x), int(y)), int(r), color.RGBA{60, 60, 60, 0}, 4)
		}
		ring(cx+w/2, cy-10, 45)
		ring(cx-w, cy+h/2, 60)
		card := cardRect(cx, cy, w, h, deg)
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{card})
		gocv.FillPoly(&gray, pv, color.RGBA{205, 205, 205, 0})
		gocv.Polylines(&gray, pv, true, color.RGBA{30, 30, 30, 0}, 2)
		pv.Close()
		// The ring over the card's edge (it lies on top where they meet).
		ring(cx+w/2, cy-10, 45)
		// A soft shape, an inner frame 3 mm in, and a panel of a token's
		// size (open at its top) on the face.
		gocv.Ellipse(&gray, image.Pt(int(cx), int(cy-20)), image.Pt(30, 18), deg, 0, 360, color.RGBA{170, 170, 170, 0}, -1)
		frame := cardRect(cx, cy, w-6*px, h-6*px, deg)
		pf := gocv.NewPointsVectorFromPoints([][]image.Point{frame})
		gocv.Polylines(&gray, pf, true, color.RGBA{60, 60, 60, 0}, 2)
		pf.Close()
		panel := cardRect(cx, cy+8, models.TokenShortMM*px*0.9, models.TokenLongMM*px*0.9, deg)
		pp := gocv.NewPointsVectorFromPoints([][]image.Point{panel[1:]})
		gocv.Polylines(&gray, pp, false, color.RGBA{40, 40, 40, 0}, 2)
		pp.Close()
		pp = gocv.NewPointsVectorFromPoints([][]image.Point{{panel[3], panel[0]}})
		gocv.Polylines(&gray, pp, false, color.RGBA{40, 40, 40, 0}, 2)
		pp.Close()
		gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)

		closed, sided := sidedCards(t, gray, v)
		gray.Close()
		found := 0
		for _, u := range closed {
			if c := u.quad.Center(); math.Hypot(c.X-cx, c.Y-cy) <= 4 {
				found++
			}
		}
		for _, s := range sided {
			q := s.quad
			c := q.Center()
			if math.Hypot(c.X-cx, c.Y-cy) > 4 {
				t.Errorf("turned %v°: the side search reported a card at %.0f,%.0f, none there", deg, c.X, c.Y)
				continue
			}
			found++
			if short, long, off := outlineSizeOff(q, w, h, 0.05); off {
				t.Errorf("turned %v°: the card's outline is %.0f×%.0f, want %.0f×%.0f", deg, short, long, w, h)
			}
		}
		if found != 1 {
			t.Errorf("turned %v°: the card was reported %d times, want once (closed outlines %d, by sides %d)", deg, found, len(closed), len(sided))
		}
		if len(sided) == 0 {
			t.Errorf("turned %v°: the side search found nothing", deg)
		}
	}
}

// TestSidedSearchSkipsPrintedRectangle checks that a card-sized rectangle
// printed on the mat, a thin dark line with the mat on both sides, is not
// taken for a card, on a plain mat and on one with a soft gradient.
func TestSidedSearchSkipsPrintedRectangle(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	for _, deg := range []float64{0, 12} {
		gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
		cx, cy := float64(v.size.X)*0.55, float64(v.size.Y)*0.45
		rect := cardRect(cx, cy, models.CardShortMM*px, models.CardLongMM*px, deg)
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{rect})
		gocv.Polylines(&gray, pv, true, color.RGBA{40, 40, 40, 0}, 3)
		pv.Close()
		// A ring crossing it, so that its outline is no closed contour either.
		gocv.Circle(&gray, image.Pt(int(cx), int(cy)+int(models.CardLongMM*px/2)), 50, color.RGBA{60, 60, 60, 0}, 4)
		gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
		_, sided := sidedCards(t, gray, v)
		gray.Close()
		for _, s := range sided {
			c := s.quad.Center()
			t.Errorf("turned %v°: the printed rectangle was reported as a card at %.0f,%.0f", deg, c.X, c.Y)
		}
	}
}

// TestSidedSearchLeavesSiteUnderUnit checks, on a still, that a site
// under a tapped unit lying within its outline (the site's four sides
// show) is left to the covered-site search, which names it, and not
// reported unknown by the side search.
func TestSidedSearchLeavesSiteUnderUnit(t *testing.T) {
	a := newTestAnalyzer(t, devCatalog(t))
	frame, cal, truth := stillFrame(t, "0011")
	defer frame.Close()
	obs, err := a.Analyze(frame, cal)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range truth.Cards {
		if want.Slug != "skyreach_mesa" || want.Cell == nil || want.Cell.String() != "E2" {
			continue
		}
		wc := want.Quad.Center()
		for _, c := range obs.Cards {
			if cc := c.Quad.Center(); math.Hypot(cc.X-wc.X, cc.Y-wc.Y) < 25 && c.Kind == models.KindSite {
				if c.NameOr("") != want.Name {
					t.Errorf("the site under the tapped unit was read as %q, want %q", c.NameOr("unknown"), want.Name)
				}
				return
			}
		}
		t.Fatalf("the site under the tapped unit at %v was not reported", wc)
	}
	t.Fatal("still 0011 holds no Skyreach Mesa in E2")
}

// A rectangle closed by a grid line and the cards around it is the bare mat
// (bareMat): a side along the line with the mat either side, the mat inside.
// A card with a side along a grid line stands out from the mat there, and a
// card found a little off, its side snapped to the line beside its edge,
// still holds the card; a rectangle with no side on a grid line is left to
// the other checks.
func TestBareMatBetweenGridAndCards(t *testing.T) {
	const w, h, matGrey, cardGrey = 400, 300, 90, 200
	pix := make([]byte, w*h)
	for i := range pix {
		pix[i] = matGrey
	}
	// A card from x 150 to 260 and y 40 to 200, another from x 300 to 390
	// down to the grid's line at y 250; the lines at x 100 and y 250 are
	// printed on the mat, as thin as the blur leaves them.
	for y := 40; y < 200; y++ {
		for x := 150; x < 260; x++ {
			pix[y*w+x] = cardGrey
		}
	}
	for y := 140; y < 250; y++ {
		for x := 300; x < 390; x++ {
			pix[y*w+x] = cardGrey
		}
	}
	for y := 0; y < h; y++ {
		pix[y*w+100] = matGrey + 10
	}
	for x := 0; x < w; x++ {
		pix[250*w+x] = matGrey + 10
	}
	grey := edgeMap{pix: pix, w: w, h: h}
	grid := []segment{{theta: 0, rho: 100, t0: 0, t1: h}, {theta: math.Pi / 2, rho: 250, t0: -w, t1: 0}}
	rect := func(x0, y0, x1, y1 float64) models.Quad {
		return models.Quad{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	}
	for _, tc := range []struct {
		name string
		q    models.Quad
		want bool
	}{
		{"the mat between the lines and the card", rect(100, 120, 150, 250), true},
		{"a card with a side along a grid line", rect(300, 140, 390, 250), false},
		{"a card found a little off, a side on the line", rect(100, 40, 260, 200), false},
		{"the mat, no side on a grid line", rect(262, 20, 298, 120), false},
	} {
		if got := bareMat(tc.q, grid, grey, 7, 3); got != tc.want {
			t.Errorf("%s: bareMat %v, want %v", tc.name, got, tc.want)
		}
	}
}

// overMatchedScene renders, on a plain mat, a site (landscape, a light face
// with an inner frame and a dark block of art) at (sx, sy) and over it a
// unit (portrait, a paler face with its own frame) at (ux, uy), and gives
// the top-down image, the site's quad and keypoints on the parts of the
// site's face that show (as its match's inliers would lie).
func overMatchedScene(v *view, sx, sy, ux, uy float64) (gocv.Mat, models.Quad, []keypoint) {
	px := v.pxPerMM
	gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(100, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
	face := func(cx, cy, w, h float64, level, art uint8) {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{cardRect(cx, cy, w, h, 0)})
		gocv.FillPoly(&gray, pv, color.RGBA{level, level, level, 0})
		pv.Close()
		pf := gocv.NewPointsVectorFromPoints([][]image.Point{cardRect(cx, cy, w-6*px, h-6*px, 0)})
		gocv.Polylines(&gray, pf, true, color.RGBA{level - 60, level - 60, level - 60, 0}, 2)
		pf.Close()
		gocv.Rectangle(&gray, image.Rect(int(cx-w/4), int(cy-h/4), int(cx+w/5), int(cy+h/6)), color.RGBA{art, art, art, 0}, -1)
	}
	sw, sh := models.CardLongMM*px, models.CardShortMM*px
	face(sx, sy, sw, sh, 210, 70)
	face(ux, uy, models.CardShortMM*px, models.CardLongMM*px, 180, 130)
	gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
	site := cardRect(sx, sy, sw, sh, 0)
	var q models.Quad
	for i, p := range site {
		q[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	// Keypoints along the site's face, those the unit leaves showing.
	unit := models.Quad{}
	for i, p := range cardRect(ux, uy, models.CardShortMM*px, models.CardLongMM*px, 0) {
		unit[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	var pts []keypoint
	for x := sx - sw/2 + 8; x < sx+sw/2-8; x += 6 {
		for y := sy - sh/2 + 8; y < sy+sh/2-8; y += 12 {
			if !inside(models.Point{X: x, Y: y}, grow(unit, 2)) {
				pts = append(pts, keypoint{X: float32(x), Y: float32(y)})
			}
		}
	}
	return gray, q, pts
}

// sidedOverMatched runs the side search as readCards does with one card
// matched (its face left out of the edges, its inliers the keypoints).
// With no points, the card is found but not matched (by its outline: its
// face is not left out).
func sidedOverMatched(t *testing.T, gray gocv.Mat, v *view, matched models.Quad, kind models.CardKind, points []keypoint) []stackedCard {
	t.Helper()
	o := newOutlineFinder()
	defer o.close()
	var known []models.Quad
	var dets []detection
	if len(points) > 0 {
		used := make([]int, len(points))
		for i := range used {
			used[i] = i
		}
		known, dets = []models.Quad{matched}, []detection{{quad: matched, used: used}}
	}
	if _, err := o.findUnknownCards(gray, sharpnessOf(gray, v), v, known); err != nil {
		t.Fatal(err)
	}
	return o.findSidedCards(gray, v, points, dets, []placed{{matched, kind}}, nil)
}

// TestSidedCardOverMatchedCard checks that the side search finds a
// low-texture unit lying on a site matched by its face: across the middle
// of the site (its long sides cross the site's face, left out of the
// frame's edges, and it holds the site's centre, though the site's face
// shows nowhere within it), and over the site's edge (its side lies inside
// the quad the site's face gives); and over the edge of a site found but
// not matched (its side within the site's outline, whose edges propose no
// side); and that it finds nothing else.
func TestSidedCardOverMatchedCard(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	sx, sy := float64(v.size.X)*0.45, float64(v.size.Y)*0.45
	for _, tc := range []struct {
		name    string
		ux, uy  float64
		matched bool
	}{
		{"across the site", sx + 3*px, sy + 2*px, true},
		{"over its edge", sx + 12*px, sy + (models.CardShortMM/2-6+models.CardLongMM/2)*px, true},
		{"over the edge of a site not matched", sx - 10*px, sy + (models.CardShortMM/2-6+models.CardLongMM/2)*px, false},
	} {
		gray, site, pts := overMatchedScene(v, sx, sy, tc.ux, tc.uy)
		if !tc.matched {
			pts = nil
		}
		sided := sidedOverMatched(t, gray, v, site, models.KindSite, pts)
		gray.Close()
		found := 0
		for _, s := range sided {
			c := s.quad.Center()
			if math.Hypot(c.X-tc.ux, c.Y-tc.uy) > 4 {
				t.Errorf("%s: a card reported at %.0f,%.0f, none there", tc.name, c.X, c.Y)
				continue
			}
			found++
			if landscape(s.quad) {
				t.Errorf("%s: the unit was found landscape", tc.name)
			}
		}
		if found != 1 {
			t.Errorf("%s: the unit on the matched site was found %d times, want once", tc.name, found)
		}
	}
}

// TestSidedSearchSkipsCardMatchedSmall checks that a card matched by its
// face, its fit well within its outline (a quad too small to pass for the
// card's own), is not found again by its sides: the side search's
// rectangle holds the matched quad whole.
func TestSidedSearchSkipsCardMatchedSmall(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	cx, cy := float64(v.size.X)*0.5, float64(v.size.Y)*0.5
	// A unit alone: the "site" of the scene is drawn off the realm's
	// middle, far from it.
	gray, _, _ := overMatchedScene(v, cx-150*px, cy, cx, cy)
	defer gray.Close()
	var small models.Quad
	for i, p := range cardRect(cx+4*px, cy-6*px, 0.75*models.CardShortMM*px, 0.75*models.CardLongMM*px, 0) {
		small[i] = models.Point{X: float64(p.X), Y: float64(p.Y)}
	}
	pts := []keypoint{{X: float32(cx), Y: float32(cy)}, {X: float32(cx + 10), Y: float32(cy - 20)}}
	for _, s := range sidedOverMatched(t, gray, v, small, models.KindStandard, pts) {
		c := s.quad.Center()
		if math.Hypot(c.X-cx, c.Y-cy) < 0.25*models.CardShortMM*px {
			t.Errorf("the card matched with a small fit was found again by its sides at %.0f,%.0f", c.X, c.Y)
		}
	}
}

// TestSidedCardInRowWithFoundCard renders two cards in a row, their top
// and bottom sides on one line, the second card's left side along a grid
// line (so its outline is no closed contour, with a band of art across
// its face, and its left side proposes none): the first card, found by its
// closed outline, does not explain the second's top and bottom sides,
// which run on beyond its own, and the side search finds the second card.
func TestSidedCardInRowWithFoundCard(t *testing.T) {
	v := sidesTestView(t)
	px := v.pxPerMM
	gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(110, 0, 0, 0), v.size.Y, v.size.X, gocv.MatTypeCV8UC1)
	defer gray.Close()
	// The grid line between columns B and C, from the top of the realm to
	// its bottom.
	lineX := int(math.Round((2*v.geo.CellWidthMM + v.marginMM) * px))
	top, bottom := int(math.Round(v.marginMM*px)), int(math.Round((v.geo.HeightMM()+v.marginMM)*px))
	gocv.Line(&gray, image.Pt(lineX, top), image.Pt(lineX, bottom), color.RGBA{150, 150, 150, 0}, 2)
	w, h := models.CardShortMM*px, models.CardLongMM*px
	cy := float64(top) + 1.5*v.geo.CellHeightMM*px
	first := float64(lineX) - 15*px - w/2 // in column B, clear of the line
	second := float64(lineX) + w/2        // in column C, against the line
	for _, cx := range []float64{first, second} {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{cardRect(cx, cy, w, h, 0)})
		gocv.FillPoly(&gray, pv, color.RGBA{190, 190, 190, 0})
		pv.Close()
		// A band of art across the face, from side to side.
		gocv.Rectangle(&gray, image.Rect(int(cx-w/2), int(cy-h/2+12*px), int(cx+w/2), int(cy-h/2+36*px)), color.RGBA{150, 150, 150, 0}, -1)
	}
	gocv.GaussianBlur(gray, &gray, image.Pt(3, 3), 0, 0, gocv.BorderReplicate)
	closed, sided := sidedCards(t, gray, v)
	at := func(qs []models.Quad, cx float64) bool {
		for _, q := range qs {
			if c := q.Center(); math.Hypot(c.X-cx, c.Y-cy) <= 6 {
				return true
			}
		}
		return false
	}
	if !at(quadsOf(closed), first) {
		t.Fatalf("the first card's closed outline was not found (closed outlines %d)", len(closed))
	}
	if !at(quadsOfPlaced(placedOf(sided)), second) || at(quadsOf(closed), second) {
		t.Errorf("the second card was not found by its sides (closed outlines %d, by sides %d)", len(closed), len(sided))
	}
}

// outlineSizeOff returns the short and long sides of q and whether either is
// more than tol (a share) off the wanted w×h.
func outlineSizeOff(q models.Quad, w, h, tol float64) (short, long float64, off bool) {
	short, long = math.Min(sideLen(q, 0), sideLen(q, 1)), math.Max(sideLen(q, 0), sideLen(q, 1))
	return short, long, math.Abs(short/w-1) > tol || math.Abs(long/h-1) > tol
}
