package calibration

import (
	"fmt"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestDetectFaint checks the profile search on grids drawn too faint for
// the edge passes: thin, low-contrast lines of either colour on busy art
// under cards, sensor noise and JPEG, tilted and turned.
func TestDetectFaint(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	cases := []scene{
		{seed: 11, tiltDeg: 20, rotDeg: 6, widthFrac: 0.7, lineMM: 1, borderMM: 1.5, contrast: 0.3, busy: true, cards: 8, noise: 3, jpegQuality: 80},
	}
	for i, s := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			frame, truth := s.render(t)
			defer frame.Close()
			checkFaintFound(t, frame, g, truth)
		})
	}
}

// checkFaintFound runs the profile search on frame and wants the realm
// within 1% of its width from truth.
func checkFaintFound(t *testing.T, frame gocv.Mat, g models.RealmGeometry, truth models.Quad) {
	t.Helper()
	gray := grayFor(frame)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := detectFaint(gray, rm, nil, g, nil)
	if !ok {
		t.Fatalf("not found (best ridge score %.2f)", f.score)
	}
	q := orientCorners(f.h, g, Bottom)
	if e := cornerError(q, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm width (found %v, want %v, ridge score %.2f)", 100*e, fmtQuad(q), fmtQuad(truth), f.score)
	}
}

// TestDetectFaintStills runs the profile search on bundled stills whose grid
// the edge passes miss (faint lines on cloudy art, glare, many cards).
func TestDetectFaintStills(t *testing.T) {
	t.Parallel()
	imgs := sampleStills(t)
	dir := filepath.Dir(imgs[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0013", "0032", "0045", "0049", "0096"} {
		t.Run(name, func(t *testing.T) {
			truth, frame := readStill(t, dir, name)
			defer frame.Close()
			checkFaintFound(t, frame, g, truth.Corners)
		})
	}
}

// TestCameraInconsistency checks that a lattice with a wrong cell aspect
// (rows and columns swapped) seen from straight above is told from the
// true one.
func TestCameraInconsistency(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	for i, s := range variedScenes(6, 9) {
		s.tiltDeg = 0
		q := realmQuadFor(s, 1280, 720)
		h, err := fitHomography(realmCorners(g), q[:])
		if err != nil {
			t.Fatal(err)
		}
		if e := cameraInconsistency(h, 1280, 720); e > maxCameraInconsistency {
			t.Errorf("scene %d: true lattice inconsistency %.3f > %.2f", i, e, maxCameraInconsistency)
		}
		// The same quad read as a realm of the swapped shape.
		swapped := []models.Point{{X: 0, Y: 0}, {X: g.HeightMM(), Y: 0}, {X: g.HeightMM(), Y: g.WidthMM()}, {X: 0, Y: g.WidthMM()}}
		hs, err := fitHomography(swapped, q[:])
		if err != nil {
			t.Fatal(err)
		}
		if e := cameraInconsistency(hs, 1280, 720); e <= maxCameraInconsistency {
			t.Errorf("scene %d: swapped lattice inconsistency %.3f ≤ %.2f", i, e, maxCameraInconsistency)
		}
	}
}

// TestCameraInconsistencyHalfRows reads the realms of bundled stills (cameras
// tilted 1–29°) as a lattice of half the row spacing over the realm's half
// nearer the camera, or farther from it, as card edges along the middle of
// a row and the grid's lines can make it when the other half lies under an
// arm: cells of half their height, which only a grazing view through a
// telephoto lens would show with such nearly parallel lines. Every true
// realm must pass and every half-row lattice fail.
func TestCameraInconsistencyHalfRows(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, name := range []string{"0076", "0099", "0003", "0040", "0064"} {
		truth, frame := readStill(t, dir, name)
		w, hgt := float64(frame.Cols()), float64(frame.Rows())
		frame.Close()
		h, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		if e := cameraInconsistency(h, w, hgt); e > maxCameraInconsistency {
			t.Errorf("%s: true lattice inconsistency %.3f > %.2f", name, e, maxCameraInconsistency)
		}
		for _, y0 := range []float64{0, g.HeightMM() / 2} {
			half := homography{1, 0, 0, 0, 0.5, y0, 0, 0, 1}.Then(h)
			if e := cameraInconsistency(half, w, hgt); e <= maxCameraInconsistency {
				t.Errorf("%s: half-row lattice from %g mm inconsistency %.3f ≤ %.2f", name, y0, e, maxCameraInconsistency)
			}
		}
	}
}

// TestConfirmedOnEdges reads stills whose realm the profile search scores
// below minRidgeScore (cards over the lines, gold lines light on dark art
// and dark on light): it finds them only with the edges' confirmation (or,
// for 0074, whose grid ends at the realm's border, without: see
// endsAtBorder), and the edges refuse the realm moved by a cell.
func TestConfirmedOnEdges(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, tc := range []struct {
		name     string
		bordered bool
	}{{"0008", false}, {"0074", true}} {
		name := tc.name
		truth, gray, rm, em := stillLineMaps(t, dir, name)
		w, hgt := float64(gray.Cols()), float64(gray.Rows())
		if f, ok := detectFaint(gray, rm, nil, g, nil); ok && !(tc.bordered && f.score < minRidgeScore && rm.endsAtBorder(f.h, g)) {
			t.Errorf("%s: found without confirmation (ridge score %.3f): the still no longer tests it", name, f.score)
		}
		f, ok := detectFaint(gray, rm, em, g, nil)
		gray.Close()
		if !ok {
			t.Errorf("%s: not found with the edges' confirmation (ridge score %.3f)", name, f.score)
			continue
		}
		if e := cornerError(orientLike(quadOfLattice(f.h, g), truth.Corners), truth.Corners); e > 0.01*realmWidthPx(truth.Corners) {
			t.Errorf("%s: found %.1f px off the true realm", name, e)
		}
		want, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		if !confirmedOnEdges(em, want, g, w, hgt) {
			t.Errorf("%s: the edges do not confirm the true realm", name)
		}
		for _, s := range [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			shifted := homography{1, 0, s[0] * g.CellWidthMM, 0, 1, s[1] * g.CellHeightMM, 0, 0, 1}.Then(want)
			if plausible(shifted, g, w, hgt) && confirmedOnEdges(em, shifted, g, w, hgt) {
				t.Errorf("%s: the edges confirm the realm moved by %v cells", name, s)
			}
		}
	}
}

// TestConfirmedOnEdgesNeedsEdges checks that an edge map with nothing on
// it (a dark, featureless frame) confirms no lattice: with no edges, no
// alias scores better than the lattice, which is no confirmation.
func TestConfirmedOnEdgesNeedsEdges(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	blank := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(12, 0, 0, 0), 720, 1280, gocv.MatTypeCV8U)
	defer blank.Close()
	em, err := newEdgeMap(blank, faintCannyLow, faintCannyHigh)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range variedScenes(3, 5) {
		q := realmQuadFor(s, 1280, 720)
		h, err := fitHomography(realmCorners(g), q[:])
		if err != nil {
			t.Fatal(err)
		}
		if confirmedOnEdges(em, h, g, 1280, 720) {
			t.Errorf("scene %d: a lattice is confirmed by an edge map without edges", i)
		}
	}
}

// TestFaintJudgedPolished runs the profile search on a bundled still
// shrunk to 640×360 (0037) whose faint grid it finds with its corners a
// pixel or so off the lines' centres: scored there, below minRidgeScore;
// scored once polished onto the centres, as it must be, above.
func TestFaintJudgedPolished(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	want, gray, rm, em := shrunkStillLineMaps(t, dir, "0037")
	defer gray.Close()
	f, ok := detectFaint(gray, rm, em, g, nil)
	if !ok {
		t.Fatalf("not found (ridge score %.3f)", f.score)
	}
	if e := cornerError(orientLike(quadOfLattice(f.h, g), want), want) / realmWidthPx(want); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm width", 100*e)
	}
}

// TestPinholeBorderedOneAxis renders a faint grid seen by a cheap webcam
// (640×360) with two tokens across every cell side of the realm's odd row
// lines, as units lying across the borders: the edges find no lattice, and
// the profile search finds the realm but does not believe it, for its odd
// row lines show far less than its even ones (endsAtBorder asks both axes
// against a lattice of half the spacing along both). Its cells are those
// of a pinhole camera, its columns' odd lines show like their even ones and
// its grid ends at its border on every side: pinholeBordered believes it,
// and Detect finds the realm. A lattice of half the row spacing (every
// other line in the cells' middles, which a pinhole camera nearly sees at
// this tilt) is refused: its odd row lines run over bare cloth.
func TestPinholeBorderedOneAxis(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	s := scene{seed: 2, tiltDeg: 18, rotDeg: 4, widthFrac: 0.75, lineMM: 1, borderMM: 1, contrast: 0.15, busy: true, noise: 2, rowCards: []int{1, 3}}
	frame, truth := s.renderHalf(t)
	defer frame.Close()
	gray, scale := workingGray(frame)
	defer gray.Close()
	var q models.Quad
	for i := range q {
		q[i] = models.Point{X: truth[i].X * scale, Y: truth[i].Y * scale}
	}
	want, err := fitHomography(realmCorners(g), q[:])
	if err != nil {
		t.Fatal(err)
	}
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	if rm.endsAtBorder(want, g) || !rm.endsAtBorderOn(want, g, 1) {
		t.Fatalf("the true lattice ends at its border on both axes' parity %v, on one %v: the scene no longer tests one axis", rm.endsAtBorder(want, g), rm.endsAtBorderOn(want, g, 1))
	}
	col, ok := newColourFrame(frame, scale)
	if !ok {
		t.Fatal("no colour frame")
	}
	if !pinholeBordered(rm, col, gridFit{h: want, score: rm.ridgeScore(want, g)}, g) {
		t.Errorf("the true lattice is not believed")
	}
	// A lattice of half the row spacing over the realm's upper half: its
	// cells, though squashed, a pinhole camera sees nearly so at this
	// tilt, its columns' odd lines show like their even ones, it scores
	// above minBorderedRidgeScore and ends at its border; its odd row
	// lines run across the cells' bare middles.
	half := homography{1, 0, 0, 0, 0.5, 0, 0, 0, 1}.Then(want)
	if hs := rm.ridgeScore(half, g); hs < minBorderedRidgeScore || !rm.endsAtBorderOn(half, g, 1) {
		t.Errorf("the half-row lattice scores %.2f, ends at its border %v: the scene no longer tests the bare odd lines", hs, rm.endsAtBorderOn(half, g, 1))
	}
	if pinholeBordered(rm, col, gridFit{h: half, score: rm.ridgeScore(half, g)}, g) {
		t.Errorf("a lattice of half the row spacing is believed")
	}
	c, err := Detect(frame, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width, want ≤ 1%%", 100*e)
	}
}

// TestCrossCheckSameRealmClearer hands crossCheck a lattice of the realm
// read a fiftieth of its width off (as the edges read a grid whose lines a
// lens bows), on a still whose grid the profile search reads right but
// does not believe on its own (see TestConfirmedOnEdges): the lattice
// whose lines are clearly the clearer drawn lines of the same realm wins,
// its belief coming from the edges' finding that realm.
func TestCrossCheckSameRealmClearer(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	truth, gray, rm, _ := stillLineMaps(t, dir, "0008")
	defer gray.Close()
	want, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	off := homography{1, 0, 0.02 * g.WidthMM(), 0, 1, 0, 0, 0, 1}.Then(want)
	if f, ok := detectFaint(gray, rm, nil, g, []gridFit{{h: off}}); ok || !sameRealm(f.h, want, g) {
		t.Fatalf("the profile search believes its lattice %v or does not find the realm: the still no longer tests it", ok)
	}
	got, agreed := crossCheck(gray, rm, nil, g, gridFit{h: off, score: 0.5}, nil)
	if !agreed {
		t.Fatal("not agreed")
	}
	q, tq := quadOfLattice(got.h, g), quadOfLattice(want, g)
	if e := cornerError(orientLike(q, tq), tq) / realmWidthPx(tq); e > 0.01 {
		t.Errorf("corner error %.2f%% of the realm's width: the lattice read off kept", 100*e)
	}
}
