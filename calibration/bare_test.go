package calibration

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
	"github.com/tablecam/tablecam/synth"
)

// drawZoneBoxes prints three boxes in the mat's margin north of the realm
// under lattice h, in the colour of the grid's own lines, lined up with the
// realm's columns about as a row of cells would be (boxes for the deck and
// the cemetery, as many mats print them): the row the boxes make is broken
// between them. The bundled mats' margins are narrower than a cell, so the
// mat is first widened north with its own cloth's colour.
func drawZoneBoxes(tb testing.TB, frame *gocv.Mat, rm *ridgeMap, scale float64, h homography, g models.RealmGeometry) {
	tb.Helper()
	light := rm.lightGrid(hWorking(h, scale), g)
	// The lines' colour: the median of the frame where the grid's lines
	// clearly show.
	var bs, gs, rs []int
	for _, gl := range innerLines(g) {
		gl.sample(h, 2, func(p models.Point, nx, ny float64) {
			q := models.Point{X: p.X * scale, Y: p.Y * scale}
			if r, ok := rm.response(q, nx, ny, light); !ok || r < 3 {
				return
			}
			v := frame.GetVecbAt(int(p.Y+0.5), int(p.X+0.5))
			bs, gs, rs = append(bs, int(v[0])), append(gs, int(v[1])), append(rs, int(v[2]))
		})
	}
	if len(bs) < 20 {
		tb.Fatalf("the grid's lines do not show clearly enough to read their colour (%d samples)", len(bs))
	}
	med := func(v []int) uint8 { sort.Ints(v); return uint8(v[len(v)/2]) }
	col := color.RGBA{R: med(rs), G: med(gs), B: med(bs), A: 255}
	cw, ch, hh, w := g.CellWidthMM, g.CellHeightMM, g.HeightMM(), g.WidthMM()
	// A mat with room for the boxes: its cloth (the colour just north of
	// the realm's border) goes on a cell and more north of the realm.
	bs, gs, rs = nil, nil, nil
	for x := 0.0; x <= w; x += 5 {
		p := h.Apply(models.Point{X: x, Y: hh + 12})
		if p.X < 0 || p.Y < 0 || int(p.X) >= frame.Cols() || int(p.Y) >= frame.Rows() {
			continue
		}
		v := frame.GetVecbAt(int(p.Y), int(p.X))
		bs, gs, rs = append(bs, int(v[0])), append(gs, int(v[1])), append(rs, int(v[2]))
	}
	if len(bs) < 20 {
		tb.Fatal("the mat's margin north of the realm is out of the frame")
	}
	cloth := color.RGBA{R: med(rs), G: med(gs), B: med(bs), A: 255}
	var margin []image.Point
	for _, p := range []models.Point{{X: -50, Y: hh + 5}, {X: w + 50, Y: hh + 5}, {X: w + 50, Y: hh + ch + 25}, {X: -50, Y: hh + ch + 25}} {
		q := h.Apply(p)
		margin = append(margin, image.Pt(int(q.X+0.5), int(q.Y+0.5)))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{margin})
	defer pv.Close()
	gocv.FillPoly(frame, pv, cloth)
	for _, box := range [][4]float64{{0.55 * cw, 1.85 * cw}, {2.05 * cw, 2.95 * cw}, {3.15 * cw, 4.45 * cw}} {
		x0, x1 := box[0], box[1]
		y0, y1 := hh+10, hh+ch
		corners := []models.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		for i := range corners {
			a, b := h.Apply(corners[i]), h.Apply(corners[(i+1)%4])
			gocv.Line(frame, image.Pt(int(a.X+0.5), int(a.Y+0.5)), image.Pt(int(b.X+0.5), int(b.Y+0.5)), col, 2)
		}
	}
}

// hWorking is lattice h (frame pixels) in working pixels.
func hWorking(h homography, scale float64) homography {
	return h.Then(homography{scale, 0, 0, 0, scale, 0, 0, 0, 1})
}

// boxedStill reads a bundled still, prints zone boxes north of its realm
// and covers its whole south row with an arm; it gives the frame (caller
// closes) and the true lattice in frame pixels.
func boxedStill(t *testing.T, name string) (gocv.Mat, homography, stillTruth) {
	t.Helper()
	dir := filepath.Dir(sampleStills(t)[0])
	truth, frame := readStill(t, dir, name)
	defer frame.Close()
	g := models.DefaultRealm()
	h, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	gray, scale := workingGray(frame)
	rm, err := newRidgeMap(gray)
	gray.Close()
	if err != nil {
		t.Fatal(err)
	}
	drawZoneBoxes(t, &frame, rm, scale, h, g)
	cw, ch, w := g.CellWidthMM, g.CellHeightMM, g.WidthMM()
	arm := []models.Point{{X: -0.8 * cw, Y: -300}, {X: w + 0.8*cw, Y: -300}, {X: w + 0.8*cw, Y: ch + 12}, {X: -0.8 * cw, Y: ch + 12}}
	return coverWithArm(t, &frame, h, arm), h, truth
}

// TestOntoUnbrokenGrid: on a bundled still with zone boxes printed north
// of the realm and an arm over the whole south row, the lattice one row
// north (its north row along the boxes, its south border the realm's row
// 1–2 line) is moved back onto the realm, and the true lattice stays put.
func TestOntoUnbrokenGrid(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	for _, name := range []string{"0003", "0042"} {
		t.Run(name, func(t *testing.T) {
			frame, h, truth := boxedStill(t, name)
			defer frame.Close()
			rm, col, scale := frameMaps(t, frame)
			hw := hWorking(h, scale)
			width := realmWidthPx(truth.Corners) * scale
			if got := ontoUnbrokenGrid(rm, col, hw, g); cornerError(quadOfLattice(got, g), quadOfLattice(hw, g))/width > 0.01 {
				t.Errorf("the true lattice was moved to %v", fmtQuad(quadOfLattice(got, g)))
			}
			north := shiftedBy(hw, g, 0, 1)
			got := ontoUnbrokenGrid(rm, col, north, g)
			if e := cornerError(quadOfLattice(got, g), quadOfLattice(hw, g)) / width; e > 0.01 {
				t.Errorf("the lattice a row north was not moved onto the realm: corner error %.1f%% of its width", 100*e)
			}
		})
	}
}

// BenchmarkOntoUnbrokenGrid is the cost of the unbroken-grid check, which
// Detect runs on every lattice found on lines, on a bundled still's true
// lattice.
func BenchmarkOntoUnbrokenGrid(b *testing.B) {
	g := models.DefaultRealm()
	dir := filepath.Dir(sampleStills(b)[0])
	truth, frame := readStill(b, dir, "0003")
	defer frame.Close()
	h, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		b.Fatal(err)
	}
	rm, col, scale := frameMaps(b, frame)
	hw := hWorking(h, scale)
	for b.Loop() {
		ontoUnbrokenGrid(rm, col, hw, g)
	}
}

// TestBareGridLines reads bundled stills: the true lattice has no grid line
// over bare mat, while the lattice of half its spacing over the realm's
// south-west quarter (every other line on a drawn one, the rest across the
// cells' middles) has several, and is refused.
func TestBareGridLines(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	// On 0020, 0040, 0060 and 0070 cards cover enough of the quarter's lines
	// that too few are bare: the half lattice is not refused there, which
	// is right too (a covered line is not against a lattice).
	halfBare := map[string]bool{"0000": true, "0010": true, "0030": true, "0080": true, "0090": true}
	for _, name := range []string{"0000", "0010", "0020", "0030", "0040", "0060", "0070", "0080", "0090"} {
		truth, frame := readStill(t, dir, name)
		rm, col, scale := frameMaps(t, frame)
		h, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		hw := hWorking(h, scale)
		if bareGridLines(rm, col, hw, g) {
			t.Errorf("%s: the true lattice refused", name)
		}
		half := homography{0.5, 0, 0, 0, 0.5, 0, 0, 0, 1}.Then(hw)
		if halfBare[name] && !bareGridLines(rm, col, half, g) {
			t.Errorf("%s: the lattice of half the spacing not refused", name)
		}
		frame.Close()
	}
}

// TestTokenRowLattices renders faint grids seen by a cheap webcam (640×360)
// with two tokens across every cell side of the realm's odd row lines. The
// tokens' dark borders show as drawn lines far more clearly than the
// grid's faint ones, and two lattices of another row spacing read them as
// lines: one whose inner rows are the tokens' outer borders and the
// realm's middle line, overhanging the realm by a third of a cell at both
// ends (its border rows over the mat's bare margin), and one whose border
// rows are the tokens' outer borders, with its odd rows over the cells'
// bare middles. Both show as drawn lines about as clearly as the realm
// (whose odd rows are under the tokens), so the profile search can take
// them; bareGridLines refuses both and not the realm, and Detect finds
// the realm or nothing (the realm where the profile search has it next).
func TestTokenRowLattices(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	// The middle of the tokens' outer dark borders (3 mm wide, see
	// drawCard) in realm mm: half a token's height from the odd row lines
	// (realm rows 1 and 3).
	lo, hi := g.CellHeightMM-models.CardShortMM/4+1.5, 3*g.CellHeightMM+models.CardShortMM/4-1.5
	mid := g.HeightMM() / 2
	// Realm mm of each wrong lattice → realm mm of the true one: rows 1–3
	// on lo, mid, hi; rows 0 and 4 on lo and hi.
	k := (hi - lo) / (2 * g.CellHeightMM)
	overhang := homography{1, 0, 0, 0, k, mid - mid*k, 0, 0, 1}
	inside := homography{1, 0, 0, 0, (hi - lo) / g.HeightMM(), lo, 0, 0, 1}
	// The wrong lattice the profile search takes on each scene (on seed
	// 6 it lies a little off this one, where the margin's art reads as
	// bare cloth for less of the border rows: Detect alone tests it).
	// On seeds 6 and 11 the realm's own lattice is the profile search's
	// next best once the refused one is set aside (see settleLattice's
	// retry): Detect must find it there.
	for _, tc := range []struct {
		seed  uint64
		wrong homography
		found bool
	}{{5, overhang, false}, {6, homography{}, true}, {11, overhang, true}, {16, inside, false}} {
		seed, m, found := tc.seed, tc.wrong, tc.found
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := scene{seed: seed, tiltDeg: 18, rotDeg: 4, widthFrac: 0.75, lineMM: 1, borderMM: 1, contrast: 0.15, busy: true, noise: 2, rowCards: []int{1, 3}}
			frame, truth := s.renderHalf(t)
			defer frame.Close()
			rm, col, scale := frameMaps(t, frame)
			h, err := fitHomography(realmCorners(g), truth[:])
			if err != nil {
				t.Fatal(err)
			}
			hw := hWorking(h, scale)
			if bareGridLines(rm, col, hw, g) {
				t.Errorf("the true lattice refused")
			}
			if m != (homography{}) {
				// Polished onto the lines' centres, as the search leaves it.
				wrong := polishOnLines(rm, m.Then(hw), g)
				if rs, ts := rm.ridgeScore(wrong, g), rm.ridgeScore(hw, g); rs < ts-0.1 {
					t.Errorf("the wrong lattice shows as drawn lines clearly less than the realm (ridge score %.2f, realm %.2f): the scene no longer tests it", rs, ts)
				}
				if !bareGridLines(rm, col, wrong, g) {
					t.Errorf("the wrong lattice not refused")
				}
			}
			c, err := Detect(frame, Options{})
			if err == nil {
				if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
					t.Errorf("a realm %.2f%% of its width off, want the realm or none", 100*e)
				}
			} else if found {
				t.Errorf("no realm (%v), want the realm", err)
			}
		})
	}
}

// frameMaps reads a colour frame as Detect does: its ridge map and its
// colours at the working scale, which it gives too.
func frameMaps(t testing.TB, frame gocv.Mat) (*ridgeMap, colourFrame, float64) {
	t.Helper()
	gray, scale := workingGray(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	col, ok := newColourFrame(frame, scale)
	if !ok {
		t.Fatal("a colour frame read as having no colour")
	}
	return rm, col, scale
}

// TestTokenRowsNoRivalGrid renders the token-row scenes of
// TestTokenRowLattices at 1280×720, where the edges find the realm and the
// profile search a lattice of another row spacing (on the tokens' borders)
// about as clearly: two grids, no realm, unless the other one's lines run
// over bare cloth (see bareGridLines), which makes it no rival. Detect must
// find the realm.
func TestTokenRowsNoRivalGrid(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{5, 6} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := scene{seed: seed, tiltDeg: 18, rotDeg: 4, widthFrac: 0.75, lineMM: 1, borderMM: 1, contrast: 0.15, busy: true, noise: 2, rowCards: []int{1, 3}}
			frame, truth := s.render(t)
			defer frame.Close()
			c, err := Detect(frame, Options{})
			if err != nil {
				t.Fatalf("no realm (%v), want the realm", err)
			}
			if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
				t.Errorf("a realm %.2f%% of its width off, want the realm", 100*e)
			}
		})
	}
}

// TestTurnedCameraHalfColumns renders the sample renderer's scene of a
// camera turned 92° from the south side: the realm's long side runs down
// the frame. The grid search, which reads a realm lying across the frame,
// fits a lattice whose columns lie on the realm's rows and whose rows lie
// at half the columns' spacing, its cells two cells wide by one tall (a
// shape a camera could see); its odd rows cross the cells' middles, over
// cloth and sites, and show no drawn line anywhere, and the realm's next
// column runs two of its rows past its border. Detect must find no
// realm rather than that one (or the realm itself), and bareGridLines must
// not refuse the true lattice.
func TestTurnedCameraHalfColumns(t *testing.T) {
	t.Parallel()
	sc, err := sampleRenderer(t).Scene(901002725, synth.SceneOptions{JPEGQuality: 90, MaxRollDeg: 180})
	if err != nil {
		t.Fatal(err)
	}
	frame, err := gocv.ImageToMatRGB(image.Image(sc.Image))
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	truth := sc.Truth.Corners
	if math.Abs(math.Abs(sc.Truth.RollDeg)-90) > 5 {
		t.Fatalf("the camera turned %.1f°, not about a right angle: the scene no longer tests it", sc.Truth.RollDeg)
	}
	g := sc.Truth.Geometry
	rm, col, scale := frameMaps(t, frame)
	h, err := fitHomography(realmCorners(g), truth[:])
	if err != nil {
		t.Fatal(err)
	}
	if bareGridLines(rm, col, hWorking(h, scale), g) {
		t.Error("the true lattice refused")
	}
	c, err := Detect(frame, Options{Geometry: g})
	if err != nil {
		return
	}
	if e := cornerError(orientLike(c.Corners, truth), truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("a wrong realm, corners %.0f%% of the realm's width off (found %v, truth %v)", 100*e, c.Corners, truth)
	}
}

// TestDetectBorderlessGrid: mats that print the realm's grid without its
// border, only the four lines across and three along, each ending where the
// border would run, with cards over some of them and a tilted, turned
// camera: the lattice whose border lines run over bare cloth is the realm
// when the lines across them end there (linesEndAtBorder). Without that,
// 9401 was refused for its bare border rows.
func TestDetectBorderlessGrid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed  uint64
		tilt  float64
		rot   float64
		light bool
		cards int
	}{
		{9401, 12, 3, true, 6},
		{9402, 24, -7, false, 8},
		{9403, 18, 11, true, 9},
		{9407, 26, 6, true, 10},
		{9410, 10, -12, false, 3},
	} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: tc.tilt, rotDeg: tc.rot, widthFrac: 0.75, lineMM: 1.2, contrast: 0.7,
				lightLines: tc.light, cards: tc.cards, noise: 3, jpegQuality: 80, borderless: true}
			detectsWithin1Percent(t, s, 0)
		})
	}
}

// TestBorderlessHalfRowsRefused: on a mat printed without a border, a
// lattice of half the rows' spacing over the middle two rows (its odd rows
// across the cells' middles, under cards in part) has no drawn line two of
// its cells past it, but the drawn columns run on a row past each of its
// border rows (linesRunPast): it is refused, where it was taken for the
// realm, 15% of its width off. No realm is better than a wrong one. In
// scene 9442 the odd rows read bare for only 0.35–0.36 of their samples
// (cards lie over them) and one shows a little (0.20), but far less than
// the drawn rows beside them (faintBesideDrawn).
func TestBorderlessHalfRowsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		seed      uint64
		tilt, rot float64
		width     float64
		lineMM    float64
		contrast  float64
		cards     int
	}{
		{9404, 28, -2, 0.75, 1.2, 0.7, 5},
		{9442, 28, -7.8, 0.77, 1.7, 0.6, 9},
	} {
		t.Run(fmt.Sprint(tc.seed), func(t *testing.T) {
			s := scene{seed: tc.seed, tiltDeg: tc.tilt, rotDeg: tc.rot, widthFrac: tc.width, lineMM: tc.lineMM, contrast: tc.contrast,
				cards: tc.cards, noise: 3, jpegQuality: 80, borderless: true}
			frame, truth := s.render(t)
			defer frame.Close()
			c, err := Detect(frame, Options{})
			if err != nil {
				if !errors.Is(err, ErrNotFound) {
					t.Fatal(err)
				}
				return
			}
			if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
				t.Errorf("a realm %.1f%% of its width off, want within 1%% or none", 100*e)
			}
		})
	}
}
