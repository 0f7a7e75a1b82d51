package calibration

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"github.com/tablecam/tablecam/models"
)

// TestStraightEdge reads bundled stills whose mat's margin is narrower than
// a cell: the true realm has no straight edge through its border cells,
// while the realm moved a cell towards the margin has the mat's edge
// running along its new border column or row.
func TestStraightEdge(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	for _, tc := range []struct {
		name     string
		dx, dy   int
		wantSide int
	}{
		{"0020", 1, 0, 1},
		{"0020", -1, 0, 0},
		{"0085", -1, 0, 0},
		{"0064", 0, 1, 3},
	} {
		truth, rm := stillRidgeMap(t, dir, tc.name)
		h, err := fitHomography(realmCorners(g), truth.Corners[:])
		if err != nil {
			t.Fatal(err)
		}
		if run, side := rm.straightEdge(h, g); run >= minEdgeRun {
			t.Errorf("%s: a straight edge (run %.2f, side %d) through the true realm", tc.name, run, side)
		}
		run, side := rm.straightEdge(shiftedBy(h, g, tc.dx, tc.dy), g)
		if run < minEdgeRun || side != tc.wantSide {
			t.Errorf("%s moved by (%d, %d): straight edge run %.2f on side %d, want ≥ %.2f on side %d", tc.name, tc.dx, tc.dy, run, side, minEdgeRun, tc.wantSide)
		}
	}
}

// TestDetectArmOverEastColumn covers a bundled still's east column (its
// border line and most of its cells' sides) with an arm reaching in from
// the far side, while the mat's margin west of the realm is narrower than
// a cell: the line profiles see the grid clearly a column west, where the
// lattice's border runs over the table and the mat's edge through its
// west column. Detect must find the true realm, not the one a column off.
func TestDetectArmOverEastColumn(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	cw, ch, w, hh := g.CellWidthMM, g.CellHeightMM, g.WidthMM(), g.HeightMM()
	if !detectUnderArm(t, dir, "0064", []models.Point{{X: w - cw - 15, Y: 0.8 * ch}, {X: w + 40, Y: 0.8 * ch}, {X: w + 50, Y: hh + 400}, {X: w - cw - 25, Y: hh + 400}}) {
		t.Error("no realm")
	}
}

// TestDetectArmOverSouthRow covers a bundled still's south row from column
// A to E with an arm reaching in from the near side: the cards' edges
// along the middle of the rows left in view make a lattice of half the row
// spacing over the north half of the realm. Detect must find the true realm
// or none, never the half-row lattice.
func TestDetectArmOverSouthRow(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	cw, ch, w := g.CellWidthMM, g.CellHeightMM, g.WidthMM()
	for _, name := range []string{"0076", "0099"} {
		t.Run(name, func(t *testing.T) {
			// Finding no realm is right too.
			detectUnderArm(t, dir, name, []models.Point{{X: 0.6 * cw, Y: -300}, {X: w - 0.6*cw, Y: -300}, {X: w - 0.6*cw, Y: ch + 12}, {X: 0.6 * cw, Y: ch + 12}})
		})
	}
}

// TestFaintMovedOffTheMat covers a bundled still's east column with an arm
// (see TestDetectArmOverEastColumn): the line profiles read the grid a
// column west, where the mat's edge runs through the lattice's west
// column. The profile search judges the lattice moved a cell back onto the
// mat (see offTheMat), not the one it read: it gives the realm.
func TestFaintMovedOffTheMat(t *testing.T) {
	t.Parallel()
	dir := filepath.Dir(sampleStills(t)[0])
	g := models.DefaultRealm()
	cw, ch, w, hh := g.CellWidthMM, g.CellHeightMM, g.WidthMM(), g.HeightMM()
	truth, frame := readStill(t, dir, "0064")
	defer frame.Close()
	h, err := fitHomography(realmCorners(g), truth.Corners[:])
	if err != nil {
		t.Fatal(err)
	}
	covered := coverWithArm(t, &frame, h, []models.Point{{X: w - cw - 15, Y: 0.8 * ch}, {X: w + 40, Y: 0.8 * ch}, {X: w + 50, Y: hh + 400}, {X: w - cw - 25, Y: hh + 400}})
	defer covered.Close()
	gray, scale := workingGray(covered)
	defer gray.Close()
	rm, err := newRidgeMap(gray)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := detectFaint(gray, rm, nil, g, nil)
	if f.h == (homography{}) {
		t.Fatal("no lattice")
	}
	want := hWorking(h, scale)
	if run, side := rm.straightEdge(f.h, g); run >= minEdgeRun {
		t.Errorf("the mat's edge runs through the lattice's border (run %.2f, side %d)", run, side)
	}
	q, tq := quadOfLattice(f.h, g), quadOfLattice(want, g)
	if !sameRealm(f.h, want, g) || cornerError(orientLike(q, tq), tq)/realmWidthPx(tq) > 0.01 {
		t.Errorf("not the realm: %v, want %v", fmtQuad(q), fmtQuad(tq))
	}
}

// TestDetectArmAcrossRealm reads a sample-renderer scene (seed 101000361)
// whose realm nearly fills the frame and across which an arm reaches from
// the east, the arm's lower side a straight step along the south row: the
// mat's edge would step so, but the arm, not the mat's cloth, lies on the
// realm's side of it (see clothInside). Detect must find the realm, not
// move it a row north.
func TestDetectArmAcrossRealm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("renders a scene")
	}
	frame, truth := oddMatScene(t, models.DefaultRealm(), 101000361)
	defer frame.Close()
	c, err := Detect(frame, Options{})
	if err != nil {
		t.Fatalf("no realm: %v", err)
	}
	if e := cornerError(c.Corners, truth) / realmWidthPx(truth); e > 0.01 {
		t.Errorf("corner error %.1f%% of the realm's width (found %v, want %v)", 100*e, fmtQuad(c.Corners), fmtQuad(truth))
	}
}

// TestOffTheMatWiderThanMat lays a lattice on a green tablecloth ruled in
// thin dark lines half a column and a row apart, its lines on the cloth's,
// across a dark mat smaller than it: the mat's edges run through all four
// of its border columns and rows, across or along the cloth's lines. The
// realm's side of each edge is the mat, not the cloth the lattice's drawn
// sides show, and lines of the lattice show beyond it, as for an arm
// lying along the border; but no arm makes the mat's edge show on
// opposite sides, so offTheMat must refuse the lattice.
func TestOffTheMatWiderThanMat(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	const x0, y0 = 390, 630
	cloth := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(90, 200, 150, 0), 720, 1280, gocv.MatTypeCV8UC3)
	ruling := color.RGBA{R: 40, G: 30, B: 90}
	for x := x0 % 50; x < 1280; x += 50 {
		gocv.Line(&cloth, image.Pt(x, 0), image.Pt(x, 720), ruling, 3)
	}
	for y := y0 % 75; y < 720; y += 75 {
		gocv.Line(&cloth, image.Pt(0, y), image.Pt(1280, y), ruling, 3)
	}
	gocv.Rectangle(&cloth, image.Rect(x0+40, y0-280, x0+460, y0-20), color.RGBA{R: 50, G: 38, B: 36}, -1)
	frame := softened(t, cloth, 31)
	defer frame.Close()
	h := topDownLattice(t, g, x0, y0)
	rm, col, _ := frameMaps(t, frame)
	rm.colour = &col
	run, side, edge := rm.straightEdgeLine(h, g)
	if run < minEdgeRun || rm.clothInside(h, g, edge) || rm.bareBorder(h, g, side) {
		t.Fatalf("the scene shows no mat's edge that an arm could make: straight run %.2f on side %d, cloth inside %v, bare border %v",
			run, side, rm.clothInside(h, g, edge), rm.bareBorder(h, g, side))
	}
	if got, ok := offTheMat(rm, h, g); ok {
		t.Errorf("a lattice wider than the mat kept at %v", quadOfLattice(got, g))
	}
}

// plankedTableScene draws a top-down 1280×720 frame of a grey mat (a
// pixel a millimetre, its thin shadow along its edge) on a dark wooden
// table of planks whose seams run across the frame; the mat's grid is
// drawn in faint thin lines a little darker than the mat. It gives the
// frame, the true lattice, and a lattice 2.2 times the realm's size (too
// wide for the grid's lines to pass for a checked cloth inside its cells)
// whose rows lie on the seams (its north
// border on the mat's north edge) and whose second and fifth column lines
// lie on the mat's west and east edges, its border columns and south row
// over the table: the lattice a retry proposed on c3/0017 of the
// independent scenes.
func plankedTableScene(t *testing.T, g models.RealmGeometry) (gocv.Mat, homography, homography) {
	t.Helper()
	const x0, y0, wider = 90, 690, 2.2 // the wide lattice's A1 corner and size
	cw, ch := int(wider*g.CellWidthMM), int(wider*g.CellHeightMM)
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(30, 55, 85, 0), 720, 1280, gocv.MatTypeCV8UC3)
	for y := y0 % ch; y < 720; y += ch {
		gocv.Line(&frame, image.Pt(0, y), image.Pt(1280, y), color.RGBA{R: 35, G: 22, B: 12}, 3)
	}
	mat := image.Rect(x0+cw, y0-models.Rows*ch, x0+(models.Columns-1)*cw, y0-ch*2/3)
	gocv.Rectangle(&frame, mat.Inset(-2), color.RGBA{R: 20, G: 14, B: 8}, 2)
	gocv.Rectangle(&frame, mat, color.RGBA{R: 175, G: 175, B: 170}, -1)
	rx0 := (mat.Min.X + mat.Max.X - int(g.WidthMM())) / 2
	ry0 := (mat.Min.Y+mat.Max.Y)/2 + int(g.HeightMM())/2
	drawTopDownGrid(&frame, g, rx0, ry0, color.RGBA{R: 158, G: 158, B: 154}, 1)
	// The mat's shadow on the table is a dark line along its edge, where
	// the lattice's lines lie.
	west, east := float64(mat.Min.X)-3.5, float64(mat.Max.X)+2.5
	wcw := (east - west) / 3
	wx0, wx1 := west-wcw, east+wcw
	wide, err := fitHomography(realmCorners(g), []models.Point{{X: wx0, Y: y0}, {X: wx1, Y: y0}, {X: wx1, Y: y0 - wider*g.HeightMM()}, {X: wx0, Y: y0 - wider*g.HeightMM()}})
	if err != nil {
		t.Fatal(err)
	}
	return softened(t, frame, 17), topDownLattice(t, g, float64(rx0), float64(ry0)), wide
}

// TestMatEdgeAlongLatticeLine: on plankedTableScene, sharpened as the
// last retries read it, the lattice whose rows lie on the planks' seams and
// two of whose column lines on the mat's edges has cells of the shape a
// pinhole camera sees: only the mat's edge along its inner column lines,
// with nothing drawn beyond, tells it is no realm. heldRetry must refuse
// it, and keep the true realm.
func TestMatEdgeAlongLatticeLine(t *testing.T) {
	t.Parallel()
	g := models.DefaultRealm()
	frame, truth, wide := plankedTableScene(t, g)
	defer frame.Close()
	found := func(h homography) func(gocv.Mat) (homography, float64, float64, error) {
		return func(gocv.Mat) (homography, float64, float64, error) { return h, 1, 0, nil }
	}
	if _, _, ok := heldRetry(frame, g, found(truth)); !ok {
		t.Error("the true realm refused")
	}
	if _, _, ok := heldRetry(frame, g, found(wide)); ok {
		t.Errorf("the lattice over the planks kept at %v (truth %v)", quadOfLattice(wide, g), quadOfLattice(truth, g))
	}
}
